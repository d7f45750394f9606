// This file finds names that are mentioned rather than used: targets of
// PHPDoc @see tags, class names in the typed tags of docblocks that belong to
// no declaration (hook documentation before a statement, @global), callables
// written as two-element arrays outside callback positions, and the function
// names given to function_exists, is_callable, remove_action and the like
// (namedCallableArg). They become `references`
// edges in package resolve, never calls.

package php

import (
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/typ"
)

// ownsDoc reports declarations whose docblock the declaration's own walk reads.
func ownsDoc(kind string) bool {
	switch kind {
	case "function_definition", "method_declaration", "property_declaration", "class_declaration",
		"interface_declaration", "trait_declaration", "enum_declaration":
		return true
	}
	return false
}

// docComment reads a docblock's @see targets and, when no declaration reads
// the docblock, the classes its typed tags name.
func (r *refWalker) docComment(n *sitter.Node) {
	t := r.text(n)
	if !strings.HasPrefix(t, "/**") {
		return
	}
	ln := line(n.StartPosition())
	if strings.Contains(t, "@see") || strings.Contains(t, "@uses") {
		r.docSees(t, ln)
	}
	if next := n.NextNamedSibling(); next != nil && ownsDoc(next.Kind()) {
		return
	}
	for _, tag := range docTags(t) {
		switch tag.tag {
		case "param", "return", "global", "throws", "shape": // @var: inlineVar
			l := ln + tag.line
			r.docType(tag.typ, tag.tag == "return", r.docRefs(l))
		}
	}
}

// docSees emits the targets of `@see Target` and `@uses Target` tags: `Class`, `Class::method()`,
// `Class::$prop`, `Class::CONST` and `function()`.
func (r *refWalker) docSees(doc string, first int) {
	for li, l := range strings.Split(doc, "\n") {
		tag := "@see "
		i := strings.Index(l, tag)
		if i < 0 {
			tag = "@uses " // phpDocumentor's @uses names what the element uses, as @see does
			i = strings.Index(l, tag)
		}
		if i < 0 || strings.Trim(l[:i], " \t*/") != "" {
			continue // none, or a mention in prose (`… see {@see Foo}`, `provided. @see foo().`), not a tag
		}
		f := strings.Fields(l[i+len(tag):])
		if len(f) == 0 {
			continue
		}
		target := strings.TrimRight(f[0], ".,;:}")
		if strings.Contains(target, "/") {
			continue // a URL or a path
		}
		ln := first + li
		if cls, mem, ok := strings.Cut(target, "::"); ok {
			fq := ""
			switch fact.Lower(cls) {
			case "self", "static", "$this":
				if r.cls != nil {
					fq = r.cls.fq
				}
			default:
				if validName(cls) {
					fq = r.sc.class(cls)
				}
			}
			if fq == "" {
				continue
			}
			if cls[0] != '$' && fact.Lower(cls) != "self" && fact.Lower(cls) != "static" {
				r.emit(fact.RefMention, "", ln, typ.NewClass(fq), "")
			}
			name := strings.TrimSuffix(mem, "()")
			if !validName(strings.TrimPrefix(name, "$")) {
				continue
			}
			if strings.HasSuffix(mem, "()") {
				name += "()"
			}
			r.emit(fact.RefMention, name, ln, typ.NewClass(fq), "")
			continue
		}
		if name, ok := strings.CutSuffix(target, "()"); ok {
			if validName(name) {
				fq, alt := r.sc.function(name)
				r.emit(fact.RefMention, fq, ln, typ.Desc{}, alt)
			}
			continue
		}
		if validName(target) && !builtinTypes[fact.Lower(target)] {
			r.emit(fact.RefMention, "", ln, typ.NewClass(r.sc.class(target)), "")
		}
	}
}

// callableArray mentions the method of `[$obj, 'm']`, `[Foo::class, 'm']` or
// `['Foo', 'm']` written anywhere but a callback argument (callback reads those).
func (r *refWalker) callableArray(n *sitter.Node) {
	if r.callbacks[n.StartByte()] {
		return
	}
	if name, m, recv, ok := r.arrayCallable(n); ok && recv.Known() {
		r.emitN(fact.RefMention, name, m+"()", recv, "")
	}
}

// arrayCallable reads a two-element callable array `[$obj, 'm']`,
// `[Foo::class, 'm']` or `['Foo', 'm']`: the node and name of the method, and
// the receiver as a type descriptor (unknown when it cannot be typed). ok is
// false for any other array.
func (r *refWalker) arrayCallable(n *sitter.Node) (name *sitter.Node, method string, recv typ.Desc, ok bool) {
	els := r.named(n)
	if len(els) != 2 || els[0].Kind() != "array_element_initializer" || els[1].Kind() != "array_element_initializer" {
		return nil, "", typ.Desc{}, false
	}
	a, b := r.named(els[0]), r.named(els[1])
	if len(a) != 1 || len(b) != 1 {
		return nil, "", typ.Desc{}, false
	}
	m, ok := stringLiteral(r.text(b[0]), b[0].Kind())
	if !ok || !validName(m) {
		return nil, "", typ.Desc{}, false
	}
	switch a[0].Kind() {
	case "string", "encapsed_string":
		if s, ok := stringLiteral(r.text(a[0]), a[0].Kind()); ok && validName(s) {
			recv = typ.NewClass(s)
		}
	case "class_constant_access_expression":
		parts := r.named(a[0])
		if len(parts) == 2 && fact.Lower(r.text(parts[1])) == "class" {
			if fq := r.classRef(parts[0]); fq != "" {
				recv = typ.NewClass(fq)
			}
		}
	default:
		recv = r.exprDesc(a[0])
	}
	return b[0], m, recv, true
}

// namedFunction mentions the function (or `Class::method`) named by argument
// pos of a function that names a callable without calling it
// (namedCallableArg: function_exists, is_callable, remove_action, has_filter…).
func (r *refWalker) namedFunction(args *sitter.Node, pos int) {
	v := r.argValue(args, pos)
	if v == nil {
		return
	}
	s, ok := stringLiteral(r.text(v), v.Kind())
	if !ok {
		return
	}
	s = strings.TrimPrefix(s, `\`)
	if cls, m, ok := strings.Cut(s, "::"); ok {
		if validName(cls) && validName(m) {
			r.emitN(fact.RefMention, v, m+"()", typ.NewClass(cls), "")
		}
		return
	}
	if validName(s) {
		r.emitN(fact.RefMention, v, s, typ.Desc{}, "")
	}
}
