// Package ruby is the front end of Ruby through the tags engine (package
// tags): declarations with their containers, calls, instantiations, parent
// types and type uses (tags.scm); comments (#) directly above a declaration are its doc; test files follow
// RSpec's *_spec.rb and Minitest's *_test.rb, test_*.rb.
package ruby

import (
	_ "embed"
	"path"
	"strings"
	"unsafe"

	tsruby "github.com/tree-sitter/tree-sitter-ruby/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of Ruby files.
const Lang = "ruby"

//go:embed tags.scm
var query string

// Spec is Ruby for the tags engine.
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tsruby.Language() }}},
	Query:    query,
	Comments: []string{"comment"},
	IsDoc:    func(string) bool { return true },
	Wrappers: nil,
	IsTest: func(p string) bool {
		b := path.Base(p)
		return strings.HasSuffix(b, "_spec.rb") || strings.HasSuffix(b, "_test.rb") || strings.HasPrefix(b, "test_")
	},
}

// New returns the Ruby front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
