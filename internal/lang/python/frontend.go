// Package python is the front end of Python through the tags engine
// (package tags): definitions, docstrings, imports and calls (tags.scm).
package python

import (
	_ "embed"
	"path"
	"strings"
	"unsafe"

	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/ragraf/ragraf/internal/lang/tags"
)

// Lang is the language name of Python files.
const Lang = "python"

//go:embed tags.scm
var query string

// Spec is Python for the tags engine; docs are docstrings (@doc).
var Spec = &tags.Spec{
	Lang:     Lang,
	Grammars: []tags.Grammar{{Ext: []string{""}, Language: func() unsafe.Pointer { return tspy.Language() }}},
	Query:    query,
	Comments: []string{"comment"},
	IsTest:   IsTest,
}

// IsTest follows pytest's discovery: test_*.py, *_test.py and conftest.py.
func IsTest(p string) bool {
	base := path.Base(p)
	return strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py"
}

// New returns the Python front end.
func New() tags.FrontEnd { return tags.FrontEnd{Spec: Spec} }
