package fact

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestFT13_IDOrder: IDOrder sorts as strings.Compare does, ties by index,
// also for ids that share their first eight bytes, are shorter than eight
// bytes or repeat.
func TestFT13_IDOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var ids []string
	for range 5000 {
		switch r.IntN(4) {
		case 0:
			ids = append(ids, fmt.Sprintf("e%032x", r.Uint64()))
		case 1:
			ids = append(ids, fmt.Sprintf("eabcdef1%x", r.IntN(50))) // one 8-byte prefix
		case 2:
			ids = append(ids, fmt.Sprintf("n%x", r.IntN(300))) // short
		default:
			if len(ids) > 0 {
				ids = append(ids, ids[r.IntN(len(ids))]) // a repeat
			} else {
				ids = append(ids, "")
			}
		}
	}
	want := make([]int32, len(ids))
	for i := range want {
		want[i] = int32(i)
	}
	slices.SortStableFunc(want, func(a, b int32) int { return strings.Compare(ids[a], ids[b]) })
	got := IDOrder(len(ids), func(i int) string { return ids[i] })
	if !slices.Equal(got, want) {
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("position %d: index %d (%q), want %d (%q)", k, got[k], ids[got[k]], want[k], ids[want[k]])
			}
		}
	}
}
