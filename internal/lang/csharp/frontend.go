// Package csharp is the front end of C# through the tags engine (package
// tags): declarations with their containers, calls, instantiations, parent
// types and type uses (tags.scm); XML doc comments (///) above a declaration are its doc; test files follow
// NUnit's and xUnit's *Test and *Tests.
package csharp

import (
	_ "embed"
	"path"
	"strings"
	"unsafe"

	tscs "github.com/tree-sitter/tree-sitter-c-sharp/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of C# files.
const Lang = "csharp"

//go:embed tags.scm
var query string

// Spec is C# for the tags engine.
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tscs.Language() }}},
	Query:    query,
	Comments: []string{"comment"},
	IsDoc:    func(t string) bool { return strings.HasPrefix(t, "///") || strings.HasPrefix(t, "/**") },
	Wrappers: nil,
	IsTest: func(p string) bool {
		b := strings.TrimSuffix(path.Base(p), ".cs")
		return strings.HasSuffix(b, "Test") || strings.HasSuffix(b, "Tests")
	},
}

// New returns the C# front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
