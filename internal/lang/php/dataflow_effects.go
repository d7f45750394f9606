// This file lowers values that travel through the runtime rather than
// through variables: generators (`yield` is a return the caller's foreach
// reads), output buffering (what was echoed is what ob_get_contents()
// returns), the last error (trigger_error's message is error_get_last()'s),
// a label a later goto jumps back to (a loop), and `$GLOBALS['x']` read by
// a file's top level (its own $x).

package php

import (
	"strings"

	"github.com/ragraf/ragraf/internal/dataflow"
	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// effects is the per-function state of this file's constructs.
type effects struct {
	outs []int // output nodes since the last ob_start (all of them without one)
	errs []int // arguments of trigger_error and user_error
}

// yield lowers `yield $v` and `yield $k => $v` as a return of the
// generator: a foreach over the call's value loads what it yields.
func (l *lowering) yield(n *sitter.Node) []src {
	var ins []src
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() == "array_element_initializer" {
			ins = append(ins, withKind(l.children(c), dataflow.Assign)...)
			continue
		}
		ins = append(ins, withKind(l.expr(c), dataflow.Assign)...)
	}
	if len(ins) > 0 {
		id := l.node(n, "return", dataflow.Loc{Kind: dataflow.Return}, ins)
		if l.closure == 0 {
			l.f.Returns = append(l.f.Returns, id)
		}
	}
	return nil // what the caller sends in is not followed
}

// effectCall lowers the runtime state a built-in call reads or writes.
func (l *lowering) effectCall(name string, args []int, res int) {
	addIns := func(ids []int, kind dataflow.EdgeKind) {
		nd := &l.f.Nodes[res]
		for _, d := range ids {
			if !hasIn(nd, d) {
				nd.In = append(nd.In, dataflow.In{From: d, Kind: kind})
			}
		}
	}
	switch strings.ToLower(name) {
	case "ob_start":
		l.fx.outs = nil
	case "ob_get_contents", "ob_get_clean", "ob_get_flush":
		addIns(l.fx.outs, dataflow.Concat)
	case "trigger_error", "user_error":
		if len(args) > 0 {
			l.fx.errs = append(l.fx.errs, args[0])
		}
	case "error_get_last":
		addIns(l.fx.errs, dataflow.Store)
	}
}

// gotoTargets returns the labels of the statement list n that a goto in
// the function jumps to from after them.
func (l *lowering) gotoTargets(n *sitter.Node) map[string]bool {
	var labels map[string]bool
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() != "named_label_statement" {
			continue
		}
		name := ""
		if nm := firstNamed(c); nm != nil {
			name = l.text(nm)
		}
		jumps := false
		for j := i + 1; j < n.NamedChildCount() && !jumps; j++ {
			n.NamedChild(j).Descendants(func(d *sitter.Node) bool {
				if d.Kind() == "goto_statement" {
					if nm := firstNamed(d); nm != nil && l.text(nm) == name {
						jumps = true
					}
				}
				return !jumps
			})
		}
		if jumps {
			if labels == nil {
				labels = map[string]bool{}
			}
			labels[name] = true
		}
	}
	return labels
}

// stmtsFrom lowers the statements of n from index i; a label a later goto
// jumps back to starts a loop that runs to the list's end.
func (l *lowering) stmtsFrom(n *sitter.Node, i uint, labels map[string]bool) {
	for ; i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.Kind() == "named_label_statement" && labels != nil {
			if nm := firstNamed(c); nm != nil && labels[l.text(nm)] {
				next := i + 1
				l.loop(func() { l.stmtsFrom(n, next, nil) })
				return
			}
		}
		l.stmt(c)
	}
}

// topGlobal reads `$GLOBALS['x']` in a file's top level: its own $x.
func (l *lowering) topGlobal(k string) []src {
	if !l.f.TopLevel || l.closure > 0 || k == "*" || !validName(k) {
		return nil
	}
	var out []src
	for _, s := range l.read(k, dataflow.Assign) {
		if s.from >= 0 {
			out = append(out, s)
		}
	}
	return out
}
