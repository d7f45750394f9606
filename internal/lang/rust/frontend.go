// Package rust is the front end of Rust through the tags engine (package
// tags): declarations with their containers, calls, instantiations, parent
// types and type uses (tags.scm); rustdoc comments (///, /** */) above an item are its doc; test files follow
// Cargo's tests/ directory and *_test.rs.
package rust

import (
	_ "embed"
	"strings"
	"unsafe"

	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of Rust files.
const Lang = "rust"

//go:embed tags.scm
var query string

// Spec is Rust for the tags engine.
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tsrust.Language() }}},
	Query:    query,
	Comments: []string{"line_comment", "block_comment"},
	IsDoc:    func(t string) bool { return strings.HasPrefix(t, "///") || strings.HasPrefix(t, "/**") },
	Wrappers: []string{"attribute_item"},
	IsTest:   func(p string) bool { return strings.Contains("/"+p, "/tests/") || strings.HasSuffix(p, "_test.rs") },
}

// New returns the Rust front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
