// Package cpp is the front end of C++ through the tags engine (package
// tags): declarations with their containers, calls, instantiations, parent
// types and type uses (tags.scm); comments directly above a definition are its doc; test files follow
// test_*.cpp, *_test.cc and GoogleTest's *_unittest.cc.
package cpp

import (
	_ "embed"
	"path"
	"strings"
	"unsafe"

	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of C++ files.
const Lang = "cpp"

//go:embed tags.scm
var query string

// Spec is C++ for the tags engine.
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tscpp.Language() }}},
	Query:    query,
	Comments: []string{"comment"},
	IsDoc:    func(string) bool { return true },
	Wrappers: []string{"template_declaration"},
	IsTest: func(p string) bool {
		b := path.Base(p)
		return strings.HasPrefix(b, "test_") || strings.Contains(b, "_test.") || strings.Contains(b, "_unittest.")
	},
}

// New returns the C++ front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
