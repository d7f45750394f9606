// This file types global variables: `global $x` and `$GLOBALS['x']` get the
// descriptor of global variable x, which package resolve evaluates to the variable's
// project-wide type, the union of what file-scope code (or a function that
// declares it global) assigns to it and what `@global Type $x` tags say.

package php

import (
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
	"github.com/ragraf/ragraf/internal/typ"
)

// globalDecl handles `global $a, $b;`: the variables take the type an
// `@global` tag in the docblock before the statement gives them, else their
// global type unless a docblock already typed them.
func (r *refWalker) globalDecl(n *sitter.Node) {
	// `/** @global WP_Post $post */ global $post;` types $post as the tag says
	documented := map[string]typ.Desc{}
	if doc, _ := r.docBefore(n); doc != "" {
		for _, t := range docTags(doc) {
			if t.tag == "global" && t.name != "" {
				documented[t.name] = r.docType(t.typ, false, func(string) {})
			}
		}
	}
	for _, c := range r.named(n) {
		if c.Kind() != "variable_name" {
			continue
		}
		name := strings.TrimPrefix(r.text(c), "$")
		if r.globals == nil {
			r.globals = map[string]bool{}
		}
		r.globals[name] = true
		if d := documented[name]; d.Known() {
			r.env[name] = d
		} else if !r.env[name].Known() {
			r.env[name] = typ.NewGlobal(name)
		}
	}
}

// globalsKey returns x for `$GLOBALS['x']`, "" otherwise.
func globalsKey(r *refWalker, e *sitter.Node) string {
	if e.Kind() != "subscript_expression" {
		return ""
	}
	k := r.named(e)
	if len(k) != 2 || k[0].Kind() != "variable_name" || r.text(k[0]) != "$GLOBALS" {
		return ""
	}
	s, ok := stringLiteral(r.text(k[1]), k[1].Kind())
	if !ok || !validName(s) {
		return ""
	}
	return s
}
