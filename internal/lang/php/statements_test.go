package php

import (
	"context"
	"testing"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// TestBlockEnds_EveryTerminatingConstruct: one answer to "does this block end
// here?" for every construct, asked of the if's body as both walkers ask it
// (the type flow of references and the data-flow lowering share endOf).
func TestBlockEnds_EveryTerminatingConstruct(t *testing.T) {
	cases := []struct {
		body string
		want ending
	}{
		{"return;", leaves},
		{"return $x;", leaves},
		{"throw new E();", leaves},
		{"exit;", leaves},
		{"exit();", leaves},
		{"exit(1);", leaves},
		{"EXIT(1);", leaves},
		{"die;", leaves},
		{"Die;", leaves},
		{"die();", leaves},
		{"die('bye');", leaves},
		{"continue;", leaves},
		{"continue 2;", leaves},
		{"goto end;", leaves},
		{"break;", breaks},
		{"break 2;", breaks},
		{"f(); return; // done", leaves},
		{"f(); return; /* done */", leaves},
		{"{ return; }", leaves},
		{"{ { die; } }", leaves},
		{"f();", fallsThrough},
		{"", fallsThrough},
		{"// only a comment", fallsThrough},
		{"return; f();", fallsThrough}, // the last statement decides
		{"$x or die('no');", fallsThrough},
		{"if ($a) { return; }", fallsThrough},
		{"while (true) { }", fallsThrough}, // loops are not judged
		{"exit_now();", fallsThrough},
		{"$die;", fallsThrough},
	}
	x, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	for _, c := range cases {
		src := []byte("<?php\nfunction f($a, $x) {\nwhile ($a) {\nif ($a) {\n" + c.body + "\n}\n}\nend:\n}\n")
		tree, p, err := x.parse(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		body := findKind(tree.RootNode(), "if_statement").ChildByFieldName("body")
		if got := endOf(body, src); got != c.want {
			t.Errorf("%q: endOf = %d, want %d", c.body, got, c.want)
		}
		p.Recycle(tree)
	}
	// a switch case holding only its value falls through to the next
	src := []byte("<?php\nswitch ($a) {\ncase 1:\ncase 2: return;\ndefault: break;\n}\n")
	tree, p, err := x.parse(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Recycle(tree)
	var got []ending
	for n := range kinds(tree.RootNode(), "case_statement", "default_statement") {
		got = append(got, endOf(n, src))
	}
	if want := []ending{fallsThrough, leaves, breaks}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("switch cases end %v, want %v", got, want)
	}
}

// findKind returns the first node of kind k below n, in source order.
func findKind(n *sitter.Node, k string) *sitter.Node {
	for c := range kinds(n, k) {
		return c
	}
	return nil
}

// kinds yields the nodes below n of the given kinds, in source order.
func kinds(n *sitter.Node, ks ...string) func(func(*sitter.Node) bool) {
	return func(yield func(*sitter.Node) bool) {
		var walk func(n *sitter.Node) bool
		walk = func(n *sitter.Node) bool {
			for _, k := range ks {
				if n.Kind() == k && !yield(n) {
					return false
				}
			}
			for i := uint(0); i < n.NamedChildCount(); i++ {
				if !walk(n.NamedChild(i)) {
					return false
				}
			}
			return true
		}
		walk(n)
	}
}
