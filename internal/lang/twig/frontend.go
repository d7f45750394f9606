// Package twig is the front end of Twig templates: a template is its file
// node; blocks and macros are nodes below it; extends, include, embed,
// import, from, use and form_theme name other templates; path() and url()
// name routes; the other functions, filters and tests name what a project's
// Twig extension defines. Package resolve links these references
// (resolve/templates.go). The scanner is this package's own (parse.go):
// Twig has no tree-sitter grammar that builds here.
package twig

import (
	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/lang/tpl"
)

// Lang is the language name of Twig files.
const Lang = "twig"

// FrontEnd is the Twig lang.FrontEnd.
type FrontEnd struct{}

// Name is Lang.
func (FrontEnd) Name() string { return Lang }

// New returns the parser; Twig needs no option. A tag that is not closed or
// an end tag without its start makes the file partial with the line.
func (FrontEnd) New(lang.Options) (lang.Parser, error) {
	return tpl.Parser{Lang: Lang, Parse: parse}, nil
}
