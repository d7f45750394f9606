// Package javascript is the front end of JavaScript (.js, .mjs, .cjs, .jsx)
// through the tags engine (package tags): the grammar and the query of
// common.scm and tags.scm.
package javascript

import (
	_ "embed"
	"path"
	"strings"
	"unsafe"

	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of JavaScript files.
const Lang = "javascript"

// CommonQuery holds the tags JavaScript and TypeScript share.
//
//go:embed common.scm
var CommonQuery string

//go:embed tags.scm
var query string

// Spec is JavaScript for the tags engine.
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tsjs.Language() }}},
	Query:    CommonQuery + "\n" + query,
	Comments: []string{"comment"},
	IsDoc:    IsJSDoc,
	Wrappers: Wrappers,
	IsTest:   IsTest,
}

// Wrappers are the statements that wrap a declaration in JavaScript and
// TypeScript: its doc comment stands above them.
var Wrappers = []string{"export_statement", "lexical_declaration", "variable_declaration", "expression_statement"}

// IsJSDoc tells a JSDoc block (/** … */) from other comments.
func IsJSDoc(text string) bool { return strings.HasPrefix(text, "/**") }

// IsTest follows the test runners' conventions: *.test.js, *.spec.ts and
// the files under __tests__.
func IsTest(p string) bool {
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") ||
		strings.Contains("/"+p, "/__tests__/")
}

// New returns the JavaScript front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
