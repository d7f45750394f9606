// This file records control dependence while a function is lowered: every
// condition (if, elseif, while, do, for, foreach, switch, case, match arm,
// ternary) becomes a dataflow.Cond with the values it reads, and every node
// made while it decides what runs carries it as Node.Ctrl (the innermost;
// the enclosing ones through Cond.Ctrl). Code after an if whose branch
// leaves the block (return, throw, break, continue, exit) runs as that if
// decides, so it is under it too. Queries use conditions only when a slice
// asks for control dependence. Statements are in dataflow.go.

package php

import (
	"github.com/ragraf/ragraf/internal/dataflow"
	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// cond adds a condition at n reading ins, under the current condition, and
// returns its Node.Ctrl value (1 + its index).
func (l *lowering) cond(n *sitter.Node, kind string, ins []src) int {
	id := len(l.f.Conds) + 1
	c := dataflow.Cond{Line: line(n.StartPosition()), Kind: kind, Ctrl: l.ctrl}
	seen := map[int]bool{}
	for _, s := range ins {
		if s.v != "" {
			for _, fr := range l.loops {
				fr.uses = append(fr.uses, loopUse{node: -id, v: s.v, kind: s.kind})
			}
		}
		if s.ctrl > c.Ctrl {
			c.Ctrl = s.ctrl
		}
		if s.from >= 0 && !seen[s.from] {
			seen[s.from] = true
			c.In = append(c.In, dataflow.In{From: s.from, Kind: s.kind, Note: s.note})
		}
	}
	l.f.Conds = append(l.f.Conds, c)
	return id
}

// under lowers body with condition c (a cond result) deciding it.
func (l *lowering) under(c int, body func()) {
	saved := l.ctrl
	l.ctrl = c
	body()
	l.ctrl = saved
}

// condIn returns the incoming edges of a use made at loop-use node id: a
// node's, or (id < 0) condition -id's.
func (l *lowering) condIn(id int) *[]dataflow.In {
	if id < 0 {
		return &l.f.Conds[-id-1].In
	}
	return &l.f.Nodes[id].In
}

// ternary lowers `$c ? $a : $b` and `$c ?: $b`: the branches run under the
// condition, and the values they give carry it, so the statement they end
// in is under it too.
func (l *lowering) ternary(n *sitter.Node) []src {
	cond := l.expr(n.ChildByFieldName("condition"))
	c := l.cond(n, "?:", cond)
	body := n.ChildByFieldName("body")
	var out []src
	l.under(c, func() {
		if body == nil {
			out = withKind(cond, dataflow.Assign) // $a ?: $b
		} else {
			out = withKind(l.expr(body), dataflow.Assign)
		}
		out = append(out, withKind(l.expr(n.ChildByFieldName("alternative")), dataflow.Assign)...)
	})
	for i := range out {
		out[i].ctrl = c
	}
	return out
}

// matchExpr lowers `match ($v) { a, b => $x, default => $y }`: each arm's
// value runs under a condition reading the subject and the arm's
// conditions, itself under the match; the values carry their arm.
func (l *lowering) matchExpr(n *sitter.Node) []src {
	subject := l.expr(n.ChildByFieldName("condition"))
	m := l.cond(n, "match", subject)
	var out []src
	body := n.ChildByFieldName("body")
	if body == nil {
		return nil
	}
	l.under(m, func() {
		for i := uint(0); i < body.NamedChildCount(); i++ {
			arm := body.NamedChild(i)
			ins := subject
			if cs := arm.ChildByFieldName("conditional_expressions"); cs != nil {
				ins = append(append([]src(nil), subject...), withKind(l.children(cs), dataflow.Operand)...)
			}
			a := l.cond(arm, "match arm", ins)
			l.under(a, func() {
				vals := withKind(l.expr(arm.ChildByFieldName("return_expression")), dataflow.Assign)
				for j := range vals {
					vals[j].ctrl = a
				}
				out = append(out, vals...)
			})
		}
	})
	return out
}
