// This file holds the vocabulary of templates (Twig, Blade): their node kinds
// and the domain references that link them to each other and to PHP.

package fact

// Template node kinds. A template is its file node (Lang "twig" or "blade").
const (
	// Block is a named part of a template a child may override: a Twig
	// block, a Blade @section or @push.
	Block NodeKind = "block"
	// Macro is a Twig macro, a function a template declares.
	Macro NodeKind = "macro"
)

// Template references: domain references that resolve.Domain links; the
// language resolvers skip them.
const (
	// RefTemplate names a template by its engine name ("blog/index.html.twig",
	// "@Admin/x.html.twig", "posts.show", "mail::layout"). From is the node
	// that uses it. Props: rel, the edge kind ("extends", "includes",
	// "imports", "references"); via, how it was named (render, view,
	// include, @extends, ...); engine ("twig" or "blade").
	RefTemplate RefKind = "template"
	// RefRouteName is a route named by its name (Twig path()/url(), Blade
	// route()). Props: via.
	RefRouteName RefKind = "route_name"
	// RefTemplateFunc is a Twig function, filter or test used by a
	// template. Name is the function; Props: kind ("function", "filter",
	// "test").
	RefTemplateFunc RefKind = "template_func"
	// RefTemplateFuncDef is a Twig function, filter or test a PHP extension
	// defines (new TwigFunction('name', [$this, 'm'])). Name is the
	// function; Props: kind, handler ("Class::method" or a function).
	RefTemplateFuncDef RefKind = "template_func_def"
	// RefComponent is a Blade component tag (<x-alert>, <x-forms.input>,
	// @component('x')). Name is the component name without "x-".
	RefComponent RefKind = "component"
)
