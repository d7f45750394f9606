// This file builds signatures and modifier props for declarations found in
// extract.go. Signatures are rebuilt from source with comments cut out, so no
// comment text reaches a structural fact (FT-9).

package php

import (
	"sort"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
)

// modifiers reads visibility, static, abstract, final and readonly from the
// direct children of a declaration.
func (w *walker) modifiers(n *sitter.Node) map[string]string {
	props := map[string]string{}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "visibility_modifier":
			props["visibility"] = strings.ToLower(w.text(c))
		case "static_modifier":
			props["static"] = "true"
		case "abstract_modifier":
			props["abstract"] = "true"
		case "final_modifier":
			props["final"] = "true"
		case "readonly_modifier":
			props["readonly"] = "true"
		case "var_modifier":
			props["visibility"] = "public"
		}
	}
	return props
}

// modString renders modifier props in PHP's canonical order.
func modString(props map[string]string) string {
	var parts []string
	for _, k := range []string{"final", "abstract", "readonly"} {
		if props[k] == "true" {
			parts = append(parts, k)
		}
	}
	if v := props["visibility"]; v != "" {
		parts = append(parts, v)
	}
	if props["static"] == "true" {
		parts = append(parts, "static")
	}
	return strings.Join(parts, " ")
}

func (w *walker) classSignature(n *sitter.Node, kind fact.NodeKind, name string, props map[string]string) string {
	var b strings.Builder
	if m := modString(props); m != "" {
		b.WriteString(m)
		b.WriteByte(' ')
	}
	b.WriteString(string(kind))
	b.WriteByte(' ')
	b.WriteString(name)
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		switch c.Kind() {
		case "base_clause", "class_interface_clause":
			b.WriteByte(' ')
			b.WriteString(w.clean(c))
		case "primitive_type":
			b.WriteString(": ")
			b.WriteString(w.text(c))
		}
	}
	return b.String()
}

// funcSignature renders `[modifiers] function name(params): type` and records
// params and return type in props.
func (w *walker) funcSignature(n *sitter.Node, name string, props map[string]string) string {
	var b strings.Builder
	if m := modString(props); m != "" {
		b.WriteString(m)
		b.WriteByte(' ')
	}
	b.WriteString("function ")
	for i := uint(0); i < n.ChildCount(); i++ {
		if c := n.Child(i); c.Kind() == "reference_modifier" {
			b.WriteByte('&')
		}
	}
	b.WriteString(name)
	params := n.ChildByFieldName("parameters")
	if params != nil {
		var ps []string
		for i := uint(0); i < params.NamedChildCount(); i++ {
			p := params.NamedChild(i)
			if p.Kind() == "comment" {
				continue
			}
			ps = append(ps, w.clean(p))
		}
		b.WriteString("(" + strings.Join(ps, ", ") + ")")
		if len(ps) > 0 {
			props["params"] = strings.Join(ps, ", ")
		}
	} else {
		b.WriteString("()")
	}
	if rt := n.ChildByFieldName("return_type"); rt != nil {
		t := w.clean(rt)
		b.WriteString(": " + t)
		props["returns"] = t
	}
	return b.String()
}

// clean returns a node's source text with comments removed and whitespace
// collapsed to single spaces.
func (w *walker) clean(n *sitter.Node) string {
	start, end := n.StartByte(), n.EndByte()
	var cuts [][2]uint
	collectComments(n, &cuts)
	if len(cuts) == 0 {
		return collapse(string(w.src[start:end]))
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i][0] < cuts[j][0] })
	var b strings.Builder
	pos := start
	for _, c := range cuts {
		if c[0] > pos {
			b.Write(w.src[pos:c[0]])
		}
		b.WriteByte(' ')
		pos = max(pos, c[1])
	}
	if pos < end {
		b.Write(w.src[pos:end])
	}
	return collapse(b.String())
}

func collectComments(n *sitter.Node, out *[][2]uint) {
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if c.Kind() == "comment" {
			*out = append(*out, [2]uint{c.StartByte(), c.EndByte()})
			continue
		}
		if c.ChildCount() > 0 {
			collectComments(c, out)
		}
	}
}

// collapse turns every run of whitespace into one space and trims the ends.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
