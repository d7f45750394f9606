// Package typescript is the front end of TypeScript (.ts, .mts, .cts) and
// TSX (.tsx) through the tags engine (package tags): two grammars, one
// query (javascript/common.scm and tags.scm).
package typescript

import (
	_ "embed"
	"unsafe"

	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/javascript"
	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of TypeScript files.
const Lang = "typescript"

//go:embed tags.scm
var query string

// Spec is TypeScript for the tags engine.
var Spec = &tags.Spec{
	Lang: Lang,
	Grammars: []tags.Grammar{
		{Ext: []string{""}, Language: func() unsafe.Pointer { return tsts.LanguageTypescript() }},
		{Ext: []string{".tsx"}, Language: func() unsafe.Pointer { return tsts.LanguageTSX() }},
	},
	Query:    javascript.CommonQuery + "\n" + query,
	Comments: []string{"comment"},
	IsDoc:    javascript.IsJSDoc,
	Wrappers: append(append([]string{}, javascript.Wrappers...), "ambient_declaration"),
	IsTest:   javascript.IsTest,
	Predeclared: map[string]bool{"Array": true, "Promise": true, "Record": true, "Partial": true,
		"Readonly": true, "Map": true, "Set": true, "Date": true, "Error": true, "Function": true,
		"Object": true, "String": true, "Number": true, "Boolean": true, "RegExp": true, "Pick": true,
		"Omit": true, "ReturnType": true, "Required": true, "Exclude": true, "Extract": true},
}

// New returns the TypeScript front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
