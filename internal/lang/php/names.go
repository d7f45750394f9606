// This file resolves PHP names within one file: the current namespace and its
// `use` imports for classes, functions and constants. The walk in refs.go asks
// it for fully qualified names; cross-file lookup happens in package resolve.

package php

import (
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/typ"
)

// scope is the name context of one namespace block: PHP resets imports at
// every namespace statement.
type scope struct {
	ns      string            // current namespace, no leading backslash
	classes map[string]string // lower alias -> FQ name (no leading backslash)
	funcs   map[string]string
	consts  map[string]string // alias as written (constants are case-sensitive) -> FQ
}

func newScope(ns string) *scope {
	return &scope{ns: ns, classes: map[string]string{}, funcs: map[string]string{}, consts: map[string]string{}}
}

// builtinTypes are names in type position that are not classes.
var builtinTypes = map[string]bool{
	"int": true, "integer": true, "float": true, "double": true, "string": true, "bool": true, "boolean": true,
	"array": true, "callable": true, "iterable": true, "object": true, "mixed": true, "void": true, "null": true,
	"never": true, "false": true, "true": true, "resource": true, "numeric": true, "scalar": true,
	"self": true, "static": true, "parent": true, "$this": true, "list": true, "non-empty-array": true,
	"class-string": true, "callable-string": true, "non-empty-string": true, "positive-int": true,
	"negative-int": true, "non-negative-int": true, "array-key": true, "numeric-string": true,
	"non-empty-list": true, "literal-string": true, "key-of": true, "value-of": true, "int-mask": true,
	"non-falsy-string": true, "lowercase-string": true, "non-empty-lowercase-string": true, "closed-resource": true,
}

// class resolves a class name as written (name, qualified, fully qualified or
// namespace-relative) to its FQ name without leading backslash. It returns ""
// for self/static/parent and built-in types, which callers handle.
func (s *scope) class(name string) string {
	if name == "" {
		return ""
	}
	if name[0] == '\\' {
		return name[1:]
	}
	if l := fact.Lower(name); strings.HasPrefix(l, `namespace\`) {
		return s.qualify(name[len(`namespace\`):])
	}
	first, rest, qualified := strings.Cut(name, `\`)
	if fq, ok := s.classes[fact.Lower(first)]; ok {
		if qualified {
			return fq + `\` + rest
		}
		return fq
	}
	return s.qualify(name)
}

func (s *scope) qualify(name string) string {
	if s.ns == "" {
		return name
	}
	return s.ns + `\` + name
}

// function resolves a function name; for an unqualified name in a namespace it
// returns the namespaced candidate and the global fallback PHP tries second.
func (s *scope) function(name string) (fq, fallback string) {
	if name == "" {
		return "", ""
	}
	if name[0] == '\\' {
		return name[1:], ""
	}
	if l := fact.Lower(name); strings.HasPrefix(l, `namespace\`) {
		return s.qualify(name[len(`namespace\`):]), ""
	}
	if strings.Contains(name, `\`) {
		return s.class(name), ""
	}
	if fq, ok := s.funcs[fact.Lower(name)]; ok {
		return fq, ""
	}
	if s.ns == "" {
		return name, ""
	}
	return s.ns + `\` + name, name
}

// constant resolves a constant name like function does.
func (s *scope) constant(name string) (fq, fallback string) {
	if name == "" {
		return "", ""
	}
	if name[0] == '\\' {
		return name[1:], ""
	}
	if l := fact.Lower(name); strings.HasPrefix(l, `namespace\`) {
		return s.qualify(name[len(`namespace\`):]), ""
	}
	if strings.Contains(name, `\`) {
		return s.class(name), ""
	}
	if fq, ok := s.consts[name]; ok {
		return fq, ""
	}
	if s.ns == "" {
		return name, ""
	}
	return s.ns + `\` + name, name
}

// use records a namespace_use_declaration.
func (r *refWalker) use(n *sitter.Node) {
	kind := ""
	prefix := ""
	for _, c := range r.named(n) {
		switch c.Kind() {
		case "namespace_name", "qualified_name", "name":
			// group prefix: `use A\{B, C}`
			prefix = strings.Trim(r.text(c), `\`)
		}
	}
	// the kind keyword (function/const) is an anonymous child
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if !c.IsNamed() {
			switch fact.Lower(c.Kind()) {
			case "function":
				kind = "function"
			case "const":
				kind = "const"
			}
		}
	}
	body := n.ChildByFieldName("body")
	if body == nil {
		prefix = ""
	}
	var clauses []*sitter.Node
	if body != nil {
		clauses = r.named(body)
	} else {
		clauses = r.named(n)
	}
	for i := range clauses {
		c := clauses[i]
		if c.Kind() != "namespace_use_clause" {
			continue
		}
		ckind := kind
		var nameNode, alias *sitter.Node
		for j := uint(0); j < c.ChildCount(); j++ {
			cc := c.Child(j)
			if !cc.IsNamed() {
				switch fact.Lower(cc.Kind()) {
				case "function":
					ckind = "function"
				case "const":
					ckind = "const"
				}
				continue
			}
			if c.FieldNameForChild(uint32(j)) == "alias" {
				alias = cc
			} else if nameNode == nil {
				nameNode = cc
			}
		}
		if nameNode == nil {
			continue
		}
		full := strings.TrimPrefix(r.text(nameNode), `\`)
		if prefix != "" {
			full = prefix + `\` + full
		}
		short := full
		if k := strings.LastIndexByte(full, '\\'); k >= 0 {
			short = full[k+1:]
		}
		if alias != nil {
			short = r.text(alias)
		}
		line := line(c.StartPosition())
		switch ckind {
		case "function":
			r.sc.funcs[fact.Lower(short)] = full
			r.emit(fact.RefImportFunc, full, line, typ.Desc{}, "")
		case "const":
			r.sc.consts[short] = full
			r.emit(fact.RefImportConst, full, line, typ.Desc{}, "")
		default:
			r.sc.classes[fact.Lower(short)] = full
			r.emit(fact.RefImportClass, full, line, typ.Desc{}, "")
		}
	}
}
