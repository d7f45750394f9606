package syntax

import (
	"context"
	"strings"
	"testing"

	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
)

// treeDepth is the deepest level of t, walked without recursion.
func treeDepth(t *Tree) int {
	type item struct {
		n *Node
		d int
	}
	deepest := 0
	stack := []item{{t.RootNode(), 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		deepest = max(deepest, it.d)
		for i := range it.n.ChildCount() {
			stack = append(stack, item{it.n.Child(i), it.d + 1})
		}
	}
	return deepest
}

// leaves returns the text of the tree's leaves in preorder.
func leaves(t *Tree) []string {
	var out []string
	t.RootNode().Descendants(func(n *Node) bool {
		if n.ChildCount() == 0 {
			out = append(out, n.Utf8Text(t.Source()))
		}
		return true
	})
	return out
}

// checkTree asserts the invariants every walker relies on: preorder array,
// parents and child positions consistent, a node's range covers its
// children's in order.
func checkTree(t *testing.T, tr *Tree) {
	t.Helper()
	for i := range tr.Len() {
		n := &tr.nodes[i]
		if int(n.idx) != i {
			t.Fatalf("node %d has idx %d", i, n.idx)
		}
		var prevEnd uint
		for c := range n.ChildCount() {
			k := n.Child(c)
			if k.Parent() != n || uint(k.pos) != c {
				t.Fatalf("node %d: child %d has parent %v pos %d", i, c, k.Parent().Id(), k.pos)
			}
			if k.idx <= n.idx {
				t.Fatalf("node %d: child %d is before it in the array", i, k.idx)
			}
			if k.StartByte() < n.StartByte() || k.EndByte() > n.EndByte() || k.StartByte() < prevEnd {
				t.Fatalf("node %d [%d,%d): child %d [%d,%d) out of place", i, n.StartByte(), n.EndByte(), k.idx, k.StartByte(), k.EndByte())
			}
			prevEnd = k.EndByte()
		}
	}
}

// TestNFR8_DeepTreesBounded: a chain of 20,000 concatenations and of 5,000
// additions is rebalanced (the same leaves in the same order, a logarithmic
// depth, every binary node with left, operator, right); 3,000 nested
// parentheses are cut at MaxDepth and reported; ordinary code is untouched.
func TestNFR8_DeepTreesBounded(t *testing.T) {
	lang := NewLanguage(tsphp.LanguagePHP())
	p, err := NewParser(lang)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	cases := []struct {
		name      string
		src       string
		balanced  bool
		cut       bool
		wantDepth int // at most
	}{
		{"concat", "<?php\n$x = " + strings.Repeat("'a' . $b . ", 10000) + "'z';\n", true, false, 64},
		{"plus", "<?php\n$x = " + strings.Repeat("1 + ", 5000) + "1;\n", true, false, 64},
		{"parens", "<?php\n$x = " + strings.Repeat("(", 3000) + "1" + strings.Repeat(")", 3000) + ";\nfunction after() {}\n", false, true, MaxDepth},
		{"ordinary", "<?php\n$x = 'a' . $b . 'c' . f(1 + 2 + 3);\nfunction f($a) { return $a; }\n", false, false, 30},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := p.Parse(ctx, []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			checkTree(t, tr)
			sh := tr.Shape()
			if (sh.Balanced > 0) != c.balanced || (sh.Cut > 0) != c.cut {
				t.Fatalf("shape %+v, want balanced %v cut %v", sh, c.balanced, c.cut)
			}
			if d := treeDepth(tr); d > c.wantDepth {
				t.Fatalf("depth %d, want at most %d", d, c.wantDepth)
			}
			if c.cut {
				if sh.CutAt.Row != 1 {
					t.Errorf("cut at %v, want row 1", sh.CutAt)
				}
				// what follows the cut is intact
				if !strings.Contains(strings.Join(leaves(tr), " "), "after") {
					t.Error("the function after the cut expression is gone")
				}
				return
			}
			if got, want := strings.Join(leaves(tr), ""), strings.Join(strings.Fields(strings.ReplaceAll(c.src, "\n", " ")), ""); strings.ReplaceAll(got, " ", "") != strings.ReplaceAll(want, " ", "") {
				t.Fatalf("leaves changed:\n got %.200s\nwant %.200s", got, want)
			}
			tr.RootNode().Descendants(func(n *Node) bool {
				if n.Kind() == "binary_expression" {
					l, o, r := n.ChildByFieldName("left"), n.ChildByFieldName("operator"), n.ChildByFieldName("right")
					if l == nil || o == nil || r == nil || n.ChildCount() != 3 {
						t.Fatalf("binary node %d lost its fields", n.Id())
					}
					if n.StartByte() != l.StartByte() || n.EndByte() != r.EndByte() {
						t.Fatalf("binary node %d [%d,%d) does not span its operands [%d,%d)", n.Id(), n.StartByte(), n.EndByte(), l.StartByte(), r.EndByte())
					}
				}
				return true
			})
		})
	}
}
