// Package scala is the front end of Scala through the tags engine (package
// tags): declarations with their containers, calls, instantiations, parent
// types and type uses (tags.scm); Scaladoc (/** */) above a definition is its doc; test files follow
// ScalaTest's and MUnit's *Test, *Spec and *Suite.
package scala

import (
	_ "embed"
	"path"
	"strings"
	"unsafe"

	tsscala "github.com/tree-sitter/tree-sitter-scala/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of Scala files.
const Lang = "scala"

//go:embed tags.scm
var query string

// Spec is Scala for the tags engine.
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tsscala.Language() }}},
	Query:    query,
	Comments: []string{"comment", "block_comment"},
	IsDoc:    func(t string) bool { return strings.HasPrefix(t, "/**") },
	Wrappers: nil,
	IsTest: func(p string) bool {
		b := strings.TrimSuffix(path.Base(p), path.Ext(p))
		return strings.HasSuffix(b, "Test") || strings.HasSuffix(b, "Spec") || strings.HasSuffix(b, "Suite")
	},
}

// New returns the Scala front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
