// Package blade is the front end of Laravel Blade templates (*.blade.php):
// a template is its file node; @section, @yield and @fragment are block
// nodes below it; @extends, @include*, @each and @component name other
// templates, <x-name> tags and @livewire components, route() route names
// and view() templates. Package resolve links these references
// (resolve/templates.go). The scanner is this package's own (parse.go).
package blade

import (
	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/lang/tpl"
)

// Lang is the language name of Blade files.
const Lang = "blade"

// FrontEnd is the Blade lang.FrontEnd.
type FrontEnd struct{}

// Name is Lang.
func (FrontEnd) Name() string { return Lang }

// New returns the parser; Blade needs no option. A comment, echo or block
// directive that is not closed makes the file partial with the line.
func (FrontEnd) New(lang.Options) (lang.Parser, error) {
	return tpl.Parser{Lang: Lang, Parse: parse}, nil
}
