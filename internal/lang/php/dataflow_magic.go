// This file lowers what decides whether PHP calls __isset or __unset:
// unset() as a call of its operands (isset() and empty() are calls
// already), and on those two magic methods the class's public properties,
// since isset/unset of a public property never calls them
// (dataflow.Func.Public; the query's use of it is in internal/dataflow).

package php

import (
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/dataflow"
	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// isPropertyMagic reports whether a method named name is one PHP calls
// only for isset/empty or unset of an inaccessible property.
func isPropertyMagic(name string) bool {
	return strings.EqualFold(name, "__isset") || strings.EqualFold(name, "__unset")
}

// publicProps returns the public properties class declaration decl
// declares in its body (`public`, `var`, no visibility, or promoted
// `public` constructor parameters), sorted, never nil for a class.
func publicProps(decl *sitter.Node, src []byte) []string {
	out := []string{}
	if decl == nil {
		return nil
	}
	body := decl.ChildByFieldName("body")
	if body == nil {
		return out
	}
	add := func(v *sitter.Node) {
		if v != nil {
			out = append(out, varName(v.Utf8Text(src)))
		}
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		m := body.NamedChild(i)
		switch m.Kind() {
		case "property_declaration":
			public := true
			for j := uint(0); j < m.NamedChildCount(); j++ {
				c := m.NamedChild(j)
				if c.Kind() == "visibility_modifier" && !strings.EqualFold(c.Utf8Text(src), "public") {
					public = false
				}
			}
			if !public {
				continue
			}
			for j := uint(0); j < m.NamedChildCount(); j++ {
				if c := m.NamedChild(j); c.Kind() == "property_element" {
					add(c.ChildByFieldName("name"))
				}
			}
		case "method_declaration":
			nm := m.ChildByFieldName("name")
			ps := m.ChildByFieldName("parameters")
			if nm == nil || ps == nil || !strings.EqualFold(nm.Utf8Text(src), "__construct") {
				continue
			}
			for j := uint(0); j < ps.NamedChildCount(); j++ {
				p := ps.NamedChild(j)
				if p.Kind() != "property_promotion_parameter" {
					continue
				}
				if v := p.ChildByFieldName("visibility"); v == nil || strings.EqualFold(v.Utf8Text(src), "public") {
					add(p.ChildByFieldName("name"))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// unset lowers `unset($a, $o->p, …)` as a call of unset with one argument
// per operand, as isset() is, so the query sees which properties it names.
func (l *lowering) unset(n *sitter.Node) {
	ci := len(l.f.Calls)
	l.f.Calls = append(l.f.Calls, dataflow.Call{})
	c := dataflow.Call{Line: line(n.StartPosition()), Name: "unset"}
	var res []src
	for i := uint(0); i < n.NamedChildCount(); i++ {
		a := n.NamedChild(i)
		if a.Kind() == "comment" {
			continue
		}
		id := l.node(a, "arg", dataflow.Loc{Kind: dataflow.Arg, Name: "unset", Index: len(c.Args)}, l.expr(a))
		l.f.Nodes[id].Call = ci
		c.Args = append(c.Args, id)
		res = append(res, src{from: id, kind: dataflow.CallEdge})
	}
	c.Result = l.node(n, "call", dataflow.Loc{Kind: dataflow.CallResult, Name: "unset"}, res)
	l.f.Nodes[c.Result].Call = ci
	l.f.Calls[ci] = c
}
