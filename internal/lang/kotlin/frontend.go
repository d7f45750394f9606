// Package kotlin is the front end of Kotlin through the tags engine (package
// tags): declarations with their containers, calls, instantiations, parent
// types and type uses (tags.scm); KDoc (/** */) above a declaration is its doc; test files follow
// JUnit's *Test and *Tests.
package kotlin

import (
	_ "embed"
	"path"
	"strings"
	"unsafe"

	tskotlin "github.com/tree-sitter-grammars/tree-sitter-kotlin/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of Kotlin files.
const Lang = "kotlin"

//go:embed tags.scm
var query string

// Spec is Kotlin for the tags engine.
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tskotlin.Language() }}},
	Query:    query,
	Comments: []string{"line_comment", "block_comment"},
	IsDoc:    func(t string) bool { return strings.HasPrefix(t, "/**") },
	Wrappers: nil,
	IsTest: func(p string) bool {
		b := strings.TrimSuffix(path.Base(p), path.Ext(p))
		return strings.HasSuffix(b, "Test") || strings.HasSuffix(b, "Tests")
	},
}

// New returns the Kotlin front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
