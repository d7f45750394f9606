package facade

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/drift"
)

// TestFT28_MovedLinesMarked: three blank lines inserted at the top of a file
// leave every fact of it where the revision says, three lines off; each item
// is marked "moved" with its current line, and an unchanged file's items are
// not marked.
func TestFT28_MovedLinesMarked(t *testing.T) {
	root, s := driftProject(t)
	symbols := func(name string) []Symbol {
		env := call(t, s, "symbol", `{"name":"`+name+`"}`)
		return env.Result.(SymbolResult).Symbols
	}
	before := symbols("price")
	if len(before) != 1 || before[0].Stale != nil {
		t.Fatalf("clean tree: %+v", before)
	}
	writeFile(t, root, "src/Cart.php", "\n\n\n"+cartPHP)
	after := symbols("price")
	if len(after) != 1 {
		t.Fatalf("after the edit: %+v", after)
	}
	m := after[0].Stale
	if m == nil || m.Kind != "moved" || m.CurrentLine != before[0].Line+3 {
		t.Fatalf("price, three lines down now: mark %+v (indexed at line %d)", m, before[0].Line)
	}
	if u := symbols("util_twice"); len(u) != 1 || u[0].Stale != nil {
		t.Errorf("unchanged file marked: %+v", u)
	}
	env := call(t, s, "outline", `{"path":"src/Cart.php"}`)
	for _, it := range env.Result.(OutlineResult).Symbols {
		if it.Stale == nil || it.Stale.CurrentLine != it.Line+3 {
			t.Errorf("outline %s at %d: mark %+v", it.Name, it.Line, it.Stale)
		}
	}
	if len(env.StaleWarnings) == 0 {
		t.Error("no stale warning for the moved file")
	}
}

// TestLineMap: lines above an insertion keep their number, lines below move
// by its size, changed lines map to nothing.
func TestLineMap(t *testing.T) {
	old := []byte("a\nb\nc\nd\ne\n")
	cur := []byte("a\nX\nY\nb\nc\nD\ne\n")
	m := drift.NewLineMap(old, cur)
	for _, c := range []struct {
		old, want int
		ok        bool
	}{{1, 1, true}, {2, 4, true}, {3, 5, true}, {4, 0, false}, {5, 7, true}} {
		got, ok := m.Map(c.old)
		if got != c.want || ok != c.ok {
			t.Errorf("Map(%d) = %d, %v; want %d, %v", c.old, got, ok, c.want, c.ok)
		}
	}
}

// TestFT25_UnreadableFileDetectedWhenReadable: a file the build could not
// read is a change once it can be read, whatever its size and mtime.
func TestFT25_UnreadableFileDetectedWhenReadable(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "x.php"), []byte("<?php\nfunction x() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := drift.StatFile(root, "x.php")
	if err != nil {
		t.Fatal(err)
	}
	src := drift.Source{
		Rev: "rev-0001",
		File: func(context.Context, string) (drift.IndexedFile, bool, error) {
			return drift.IndexedFile{Path: "x.php", Lang: "php", Size: st.Size, MTime: st.MTime, Unreadable: true}, true, nil
		},
		Snapshot: func(context.Context, string) ([]byte, bool, error) { return nil, false, nil },
	}
	ds, _, err := drift.NewChecker(src, root, config.Default()).Check(context.Background(), "x.php")
	if err != nil || len(ds) != 1 || ds[0].Kind != drift.KindModify || ds[0].Note == "" {
		t.Fatalf("deltas %+v, %v; want one modify", ds, err)
	}
}
