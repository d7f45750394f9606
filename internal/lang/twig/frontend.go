// Package twig is the front end of Twig templates: a template is its file
// node; blocks and macros are nodes below it; extends, include, embed,
// import, from, use and form_theme name other templates; path() and url()
// name routes; the other functions, filters and tests name what a project's
// Twig extension defines. Package resolve links these references
// (resolve/templates.go). The scanner is this package's own (parse.go):
// Twig has no tree-sitter grammar that builds here.
package twig

import (
	"bytes"
	"context"

	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/lang/tpl"
)

// Lang is the language name of Twig files.
const Lang = "twig"

// FrontEnd is the Twig lang.FrontEnd.
type FrontEnd struct{}

// Name is Lang.
func (FrontEnd) Name() string { return Lang }

// New returns the parser; Twig needs no option.
func (FrontEnd) New(lang.Options) (lang.Parser, error) { return parser{}, nil }

type parser struct{}

func (parser) Close() {}

// File reads one template. A tag that is not closed or an end tag without
// its start makes the file partial with the line; what was read is kept.
func (parser) File(ctx context.Context, path string, src []byte) (lang.Facts, error) {
	if err := ctx.Err(); err != nil {
		return lang.Facts{}, err
	}
	b := tpl.New(path, Lang)
	parse(b, src)
	return b.Facts(bytes.Count(src, []byte("\n")) + 1), nil
}
