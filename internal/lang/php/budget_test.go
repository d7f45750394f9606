package php

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestNFR8_FileBudget: a file over its time budget (in parsing or in the
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
		{"time", Budget{MaxMS: 1}, "budget: time", false},
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
