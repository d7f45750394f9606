// Package golang is the front end of Go through the tags engine (package
// tags): functions, methods with their receiver type as container, types,
// interface methods, doc comments, imports, calls and type uses (tags.scm).
package golang

import (
	_ "embed"
	"strings"
	"unsafe"

	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of Go files.
const Lang = "go"

//go:embed tags.scm
var query string

// Spec is Go for the tags engine: every comment block directly above a
// declaration is its doc comment.
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tsgo.Language() }}},
	Query:    query,
	Comments: []string{"comment"},
	IsDoc:    func(string) bool { return true },
	Wrappers: []string{"type_declaration"},
	IsTest:   func(p string) bool { return strings.HasSuffix(p, "_test.go") },
	Predeclared: map[string]bool{
		"any": true, "bool": true, "byte": true, "comparable": true, "complex64": true, "complex128": true,
		"error": true, "float32": true, "float64": true, "int": true, "int8": true, "int16": true,
		"int32": true, "int64": true, "rune": true, "string": true, "uint": true, "uint8": true,
		"uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	},
}

// New returns the Go front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
