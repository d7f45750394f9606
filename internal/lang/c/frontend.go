// Package c is the front end of C through the tags engine (package
// tags): declarations with their containers, calls, instantiations, parent
// types and type uses (tags.scm); comments directly above a definition are its doc; test files follow
// test_*.c and *_test.c.
package c

import (
	_ "embed"
	"path"
	"strings"
	"unsafe"

	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of C files.
const Lang = "c"

//go:embed tags.scm
var query string

// Spec is C for the tags engine.
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tsc.Language() }}},
	Query:    query,
	Comments: []string{"comment"},
	IsDoc:    func(string) bool { return true },
	Wrappers: nil,
	IsTest: func(p string) bool {
		b := path.Base(p)
		return strings.HasPrefix(b, "test_") || strings.Contains(b, "_test.")
	},
}

// New returns the C front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
