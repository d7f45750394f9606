// Package blade is the front end of Laravel Blade templates (*.blade.php):
// a template is its file node; @section, @yield and @fragment are block
// nodes below it; @extends, @include*, @each and @component name other
// templates, <x-name> tags and @livewire components, route() route names
// and view() templates. Package resolve links these references
// (resolve/templates.go). The scanner is this package's own (parse.go).
package blade

import (
	"context"
	"strings"

	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/lang/tpl"
)

// Lang is the language name of Blade files.
const Lang = "blade"

// FrontEnd is the Blade lang.FrontEnd.
type FrontEnd struct{}

// Name is Lang.
func (FrontEnd) Name() string { return Lang }

// New returns the parser; Blade needs no option.
func (FrontEnd) New(lang.Options) (lang.Parser, error) { return parser{}, nil }

type parser struct{}

func (parser) Close() {}

// File reads one template. A comment, echo or block directive that is not
// closed makes the file partial with the line; what was read is kept.
func (parser) File(ctx context.Context, path string, src []byte) (lang.Facts, error) {
	if err := ctx.Err(); err != nil {
		return lang.Facts{}, err
	}
	b := tpl.New(path, Lang)
	parse(b, src)
	return b.Facts(strings.Count(string(src), "\n") + 1), nil
}
