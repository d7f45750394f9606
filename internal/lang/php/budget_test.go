package php

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestNFR8_FileBudget: a file over its work budget (nodes visited by the
// walks) or its memory budget is partial with the budget in its reason, never
// an error; a cancelled context is the context's error; within budget the
// same file gives all its facts.
func TestNFR8_FileBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("<?php\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "function f%d($a) { return g%d($a) . 'x' . h($a, [1, 2, 3]); }\n", i, i)
	}
	src := []byte(b.String())
	x, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	full, err := x.File(context.Background(), "f.php", src)
	if err != nil || full.Partial || len(full.Nodes) < 20000 {
		t.Fatalf("no budget: partial %v (%s), %d nodes, err %v", full.Partial, full.Error, len(full.Nodes), err)
	}
	for _, c := range []struct {
		name    string
		budget  Budget
		want    string
		noFacts bool // stopped before any walk: nothing extracted
	}{
		{"work", Budget{MaxWork: 1000}, "budget: work", false},
		{"memory while parsing", Budget{MaxBytes: 1 << 20}, "budget: memory", true},
		{"memory of the tree", Budget{MaxBytes: int64(len(src)) * 45}, "budget: memory", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			x.SetBudget(c.budget)
			defer x.SetBudget(Budget{})
			res, err := x.File(context.Background(), "f.php", src)
			if err != nil {
				t.Fatalf("File: %v", err)
			}
			if !res.Partial || !strings.Contains(res.Error, c.want) {
				t.Fatalf("partial %v reason %q, want %q", res.Partial, res.Error, c.want)
			}
			if c.noFacts && (len(res.Nodes) != 0 || len(res.Refs) != 0 || len(res.Chunks) != 0) {
				t.Errorf("memory budget hit before the walks, yet %d nodes, %d refs, %d chunks", len(res.Nodes), len(res.Refs), len(res.Chunks))
			}
			if len(res.Nodes) >= len(full.Nodes) && len(res.Refs) >= len(full.Refs) {
				t.Errorf("over budget yet every fact kept: %d nodes, %d refs", len(res.Nodes), len(res.Refs))
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := x.File(ctx, "f.php", src); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v, want context.Canceled", err)
	}
	// the extractor is whole after budgets and cancellation
	again, err := x.File(context.Background(), "f.php", src)
	if err != nil || again.Partial || len(again.Nodes) != len(full.Nodes) || len(again.Refs) != len(full.Refs) {
		t.Errorf("after budgets: partial %v, %d nodes (want %d), %d refs (want %d), err %v", again.Partial, len(again.Nodes), len(full.Nodes), len(again.Refs), len(full.Refs), err)
	}
}

// factsCost is what the clock charged for res's facts.
func factsCost(res Result) int64 {
	var n int64
	for i := range res.Nodes {
		n += int64(nodeCost(&res.Nodes[i]))
	}
	for i := range res.Edges {
		n += int64(edgeCost(&res.Edges[i]))
	}
	for i := range res.Refs {
		n += int64(refCost(&res.Refs[i]))
	}
	for i := range res.Chunks {
		n += int64(chunkCost(&res.Chunks[i]))
	}
	return n
}

// busy keeps every CPU spinning until stop is called: a loaded machine.
func busy() (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for x := 0; ; x++ {
				select {
				case <-done:
					return
				default:
				}
			}
		}()
	}
	return func() { close(done); wg.Wait() }
}

// TestNFR8_PathologicalFilesBounded: the per-file budget bounds what the
// extractors build, not only the parser, and counts work, not time, so one
// file gives one result on any machine load. 35,000 one-line classes (1.8
// MB: 18 s and 904 MB in a build before, quadratic in the domain walk) and
// 245,000 comments on one line (245,000 chunks and 620 MB before, whatever
// max_file_memory_mb said): the facts kept never cost more than the budget,
// a file over it is partial with the reason (also when the tree fits and the
// facts do not), and a second extraction on a
// machine kept busy gives the same result.
func TestNFR8_PathologicalFilesBounded(t *testing.T) {
	var classes, comments strings.Builder
	classes.WriteString("<?php\n")
	for i := range 35000 {
		fmt.Fprintf(&classes, "class C%d { public function f() { return 1; } }\n", i)
	}
	comments.WriteString("<?php\n" + strings.Repeat("/*c*/ ", 245000) + "\n")
	x, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	for _, c := range []struct {
		name   string
		src    string
		budget Budget
		want   string // a reason the result must give ("" : complete)
	}{
		{"classes, default budget", classes.String(), Budget{MaxWork: 20_000_000, MaxBytes: 256 << 20}, ""},
		{"classes, 64 MB", classes.String(), Budget{MaxWork: 20_000_000, MaxBytes: 64 << 20}, "budget: memory"},
		{"classes, little work", classes.String(), Budget{MaxWork: 200_000, MaxBytes: 256 << 20}, "budget: work"},
		// the tree takes about 83 MB; the facts get what is left
		{"comments, 128 MB", comments.String(), Budget{MaxWork: 20_000_000, MaxBytes: 128 << 20}, "budget: memory: the facts extracted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			x.SetBudget(c.budget)
			defer x.SetBudget(Budget{})
			first, err := x.File(context.Background(), "a.php", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" && first.Partial {
				t.Errorf("partial (%s), want complete", first.Error)
			}
			if c.want != "" && (!first.Partial || !strings.Contains(first.Error, c.want)) {
				t.Errorf("partial %v (%q) with %d chunks, %d nodes; want %q", first.Partial, first.Error, len(first.Chunks), len(first.Nodes), c.want)
			}
			if cost := factsCost(first); cost > c.budget.MaxBytes {
				t.Errorf("the facts kept cost %d MB, over the %d MB budget", cost>>20, c.budget.MaxBytes>>20)
			}
			stop := busy()
			second, err := x.File(context.Background(), "a.php", []byte(c.src))
			stop()
			if err != nil {
				t.Fatal(err)
			}
			if first.Partial != second.Partial || first.Error != second.Error || len(first.Nodes) != len(second.Nodes) ||
				len(first.Refs) != len(second.Refs) || len(first.Chunks) != len(second.Chunks) {
				t.Errorf("two results: partial %v %q (%d nodes, %d refs, %d chunks), then on a busy machine %v %q (%d, %d, %d)",
					first.Partial, first.Error, len(first.Nodes), len(first.Refs), len(first.Chunks),
					second.Partial, second.Error, len(second.Nodes), len(second.Refs), len(second.Chunks))
			}
		})
	}
}
