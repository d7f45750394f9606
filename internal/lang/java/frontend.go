// Package java is the front end of Java through the tags engine (package
// tags): declarations with their containers, calls, instantiations, parent
// types and type uses (tags.scm); Javadoc (/** */) above a declaration is its doc; test files follow
// JUnit's *Test, *Tests, *IT and Test*.
package java

import (
	_ "embed"
	"path"
	"strings"
	"unsafe"

	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of Java files.
const Lang = "java"

//go:embed tags.scm
var query string

// Spec is Java for the tags engine.
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tsjava.Language() }}},
	Query:    query,
	Comments: []string{"line_comment", "block_comment"},
	IsDoc:    func(t string) bool { return strings.HasPrefix(t, "/**") },
	Wrappers: nil,
	IsTest: func(p string) bool {
		b := strings.TrimSuffix(path.Base(p), ".java")
		return strings.HasSuffix(b, "Test") || strings.HasSuffix(b, "Tests") || strings.HasSuffix(b, "IT") || strings.HasPrefix(b, "Test")
	},
}

// New returns the Java front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
