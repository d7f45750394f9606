// Package lua is the front end of Lua through the tags engine (package
// tags): declarations with their containers, calls, instantiations, parent
// types and type uses (tags.scm); comments (--) directly above a function are its doc; test files follow
// busted's *_spec.lua, *_test.lua and test_*.lua.
package lua

import (
	_ "embed"
	"path"
	"strings"
	"unsafe"

	tslua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of Lua files.
const Lang = "lua"

//go:embed tags.scm
var query string

// Spec is Lua for the tags engine.
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tslua.Language() }}},
	Query:    query,
	Comments: []string{"comment"},
	IsDoc:    func(t string) bool { return strings.HasPrefix(t, "--") },
	Wrappers: nil,
	IsTest: func(p string) bool {
		b := path.Base(p)
		return strings.HasSuffix(b, "_spec.lua") || strings.HasSuffix(b, "_test.lua") || strings.HasPrefix(b, "test_")
	},
}

// New returns the Lua front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
