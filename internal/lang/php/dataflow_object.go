// This file lowers what PHP does with an object of a known class (one made
// by `new X` in the function) where no call is written: echoing it runs
// X::__toString (a call of its own, which the facade links to the method),
// and an (array) cast reads its properties.

package php

import (
	"strings"

	"github.com/ragraf/ragraf/internal/dataflow"
	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// classesOf follows values back through copies to the `new X(…)` that made
// them and returns the classes (short names).
func (l *lowering) classesOf(ss []src) []string {
	var out []string
	seen := map[int]bool{}
	var stack []int
	for _, s := range ss {
		if s.from >= 0 {
			stack = append(stack, s.from)
		}
	}
	for steps := 0; len(stack) > 0 && steps < 32; steps++ {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		nd := &l.f.Nodes[id]
		switch nd.Kind {
		case "call":
			if c := &l.f.Calls[nd.Call]; nd.Call >= 0 && c.Method && c.Name == "__construct" && c.Receiver != "" && validName(c.Receiver) {
				out = appendStr(out, c.Receiver)
			}
		case "assign", "use", "foreach":
			for _, in := range nd.In {
				if in.Kind == dataflow.Assign {
					stack = append(stack, in.From)
				}
			}
		}
	}
	return out
}

func appendStr(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// toStringCalls adds, for an operand of echo or print whose value is an
// object of a known class, a call of that class's __toString at the line,
// and returns its value.
func (l *lowering) toStringCalls(at *sitter.Node, vals []src) []src {
	var out []src
	for _, cls := range l.classesOf(vals) {
		ci := len(l.f.Calls)
		ln := line(at.StartPosition())
		l.f.Calls = append(l.f.Calls, dataflow.Call{Line: ln, Name: "__toString", Receiver: cls, Method: true})
		r := l.nodeAtLine(ln, "call", dataflow.Loc{Kind: dataflow.CallResult, Name: cls + "->__toString"}, nil)
		l.f.Nodes[r].Call = ci
		l.f.Calls[ci].Result = r
		out = append(out, src{from: r, kind: dataflow.Assign})
	}
	return out
}

// arrayCast lowers `(array) $o`: the object's value, and for an object of a
// known class a load of all its properties (`X::$*`).
func (l *lowering) arrayCast(n *sitter.Node, vals []src) []src {
	out := vals
	for _, cls := range l.classesOf(vals) {
		id := l.node(n, "load", dataflow.Loc{Kind: dataflow.Prop, Name: cls + "::$*"}, withKind(vals, dataflow.Load))
		out = append(out, src{from: id, kind: dataflow.Assign})
	}
	return out
}

// isAccessMagic reports whether a method named name is one PHP calls for a
// store (__set) or load (__get) of an inaccessible property; it gets the
// class's public properties like __isset (dataflow.Func.Public).
func isAccessMagic(name string) bool {
	return strings.EqualFold(name, "__set") || strings.EqualFold(name, "__get")
}
