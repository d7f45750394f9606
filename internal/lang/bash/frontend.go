// Package bash is the front end of Bash through the tags engine (package
// tags): declarations with their containers, calls, instantiations, parent
// types and type uses (tags.scm); comments (#) directly above a function are its doc; test files follow
// test_*.sh, *_test.sh and Bats files.
package bash

import (
	_ "embed"
	"path"
	"strings"
	"unsafe"

	tsbash "github.com/tree-sitter/tree-sitter-bash/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of Bash files.
const Lang = "bash"

//go:embed tags.scm
var query string

// Spec is Bash for the tags engine.
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tsbash.Language() }}},
	Query:    query,
	Comments: []string{"comment"},
	IsDoc:    func(string) bool { return true },
	Wrappers: nil,
	IsTest: func(p string) bool {
		return strings.HasSuffix(p, ".bats") || strings.HasPrefix(path.Base(p), "test_") || strings.HasSuffix(path.Base(p), "_test.sh")
	},
}

// New returns the Bash front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
