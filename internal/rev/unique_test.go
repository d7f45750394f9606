package rev

import (
	"log/slog"
	"slices"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
)

// TestFastAndLean_UniqueNodesLeavesSharedArray: the extraction results read
// their nodes from the corpus-wide slice the build deduplicates (and the
// extraction cache is written from them meanwhile), so dropping a repeated
// id returns a new slice and never writes over the shared array.
func TestFastAndLean_UniqueNodesLeavesSharedArray(t *testing.T) {
	all := []fact.Node{{ID: "a", Name: "first"}, {ID: "b"}, {ID: "a", Name: "second"}, {ID: "c"}}
	before := slices.Clone(all)
	view := all[2:4:4] // a result's view, as appendShared returns it
	got := uniqueNodes(all, slog.New(slog.DiscardHandler))
	if ids := []string{got[0].ID, got[1].ID, got[2].ID}; len(got) != 3 || !slices.Equal(ids, []string{"a", "b", "c"}) || got[0].Name != "first" {
		t.Fatalf("unique nodes = %+v, want a (first), b, c", got)
	}
	for i := range all {
		if all[i].ID != before[i].ID || all[i].Name != before[i].Name {
			t.Fatalf("shared array written over at %d: %+v, was %+v", i, all[i], before[i])
		}
	}
	if view[0].Name != "second" || view[1].ID != "c" {
		t.Errorf("a result's view changed: %+v", view)
	}
}

// TestFastAndLean_AppendSharedViews: each part lands in the corpus-wide
// slice, in order, and the view returned is that part, with no room to grow
// into its neighbour's.
func TestFastAndLean_AppendSharedViews(t *testing.T) {
	all := make([]int, 0, 5)
	a := appendShared(&all, []int{1, 2})
	b := appendShared(&all, nil)
	c := appendShared(&all, []int{3, 4, 5})
	if !slices.Equal(all, []int{1, 2, 3, 4, 5}) || !slices.Equal(a, []int{1, 2}) || len(b) != 0 || !slices.Equal(c, []int{3, 4, 5}) {
		t.Fatalf("all %v, views %v %v %v", all, a, b, c)
	}
	_ = append(a, 9)
	if all[2] != 3 {
		t.Errorf("appending to a view wrote into the next part: %v", all)
	}
}
