// This file lowers exceptions: `throw $e` is a "throw" node of the function
// (Loc a Return named throw), and a call made inside a try block that has a
// catch gets a "thrown" node (what the callee may throw out of it), which
// the query links to the callee's throw nodes (internal/dataflow/byref.go).
// A catch variable takes the throws and thrown values of its try block.

package php

import (
	"github.com/ragraf/ragraf/internal/dataflow"
	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// throwLoc is the location of a throw node and of a thrown one.
var throwLoc = dataflow.Loc{Kind: dataflow.Return, Name: "throw"}

// tryCatches reports whether try statement n has a catch clause.
func tryCatches(n *sitter.Node) bool {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if n.NamedChild(i).Kind() == "catch_clause" {
			return true
		}
	}
	return false
}

// enterTry starts collecting what try statement n's body may throw; the
// returned function ends it and returns the nodes (nil when n catches
// nothing).
func (l *lowering) enterTry(n *sitter.Node) func() []int {
	if !tryCatches(n) {
		return func() []int { return nil }
	}
	l.tries = append(l.tries, nil)
	depth := len(l.tries)
	return func() []int {
		if len(l.tries) < depth {
			return nil
		}
		out := l.tries[depth-1]
		l.tries = l.tries[:depth-1]
		return out
	}
}

// throw lowers `throw expr`.
func (l *lowering) throw(n *sitter.Node) []src {
	id := l.node(n, dataflow.Throw, throwLoc, withKind(l.children(n), dataflow.Assign))
	if k := len(l.tries); k > 0 {
		l.tries[k-1] = append(l.tries[k-1], id)
	}
	return nil
}

// thrownBy adds, for call ci made inside a try block with a catch, the
// node of what the callee may throw.
func (l *lowering) thrownBy(ci int, line int) {
	k := len(l.tries)
	if k == 0 {
		return
	}
	id := l.nodeAtLine(line, dataflow.Thrown, throwLoc, nil)
	l.f.Nodes[id].Call = ci
	l.tries[k-1] = append(l.tries[k-1], id)
}

// caught returns the values a catch variable takes.
func caught(ids []int) []src {
	out := make([]src, len(ids))
	for i, id := range ids {
		out[i] = src{from: id, kind: dataflow.Assign}
	}
	return out
}
