// This file finds where PHP names a template or defines a Twig function:
// render('a/b.html.twig'), renderView, #[Template], view('a.b'),
// View::make, Route::view, ->view()/->markdown() of responses and mails;
// new TwigFunction/TwigFilter/TwigTest('name', callable). resolve/templates.go
// links them.

package php

import (
	"regexp"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
)

// twigRenderers are the methods that take a Twig template name first
// (AbstractController, Twig\Environment, mailer TemplatedEmail).
var twigRenderers = map[string]bool{
	"render": true, "renderview": true, "renderblock": true, "renderblockview": true, "stream": true,
	"display": true, "load": true, "rendertemplate": true, "htmltemplate": true, "texttemplate": true,
	"renderform": true, "resolvetemplate": true, "createtemplate": false,
}

// bladeRenderers are the methods that take a Blade view name first
// (response()->view, a Mailable's view/markdown, View::make, a factory).
var bladeRenderers = map[string]bool{"view": true, "markdown": true, "make": true, "first": true, "exists": false}

// viewName matches a plausible Blade view name ("posts.show", "mail::x").
var viewName = regexp.MustCompile(`^(?:[\w\-]+::)?[\w\-]+(?:[./][\w\-]+)*$`)

// templateRef adds a reference to the template named by literal e.
func (d *domainWalker) templateRef(e, at *sitter.Node, engine, via string) {
	if e == nil {
		return
	}
	s, ok := d.literal(e)
	if !ok || s == "" {
		return
	}
	switch {
	case strings.HasSuffix(s, ".twig"):
		engine = "twig"
	case engine == "twig" || !viewName.MatchString(s):
		return
	}
	d.ref(fact.RefTemplate, d.enclosing(line(at.StartPosition())), e, s, map[string]string{"rel": "references", "via": via, "engine": engine})
}

// templateCall finds the template a function call renders: view('a.b').
func (d *domainWalker) templateCall(n *sitter.Node, name string, pos []*sitter.Node) {
	if len(pos) == 0 {
		return
	}
	switch name {
	case "view":
		d.templateRef(pos[0], n, "blade", "view()")
	case "render", "twig_render", "timber_render":
		d.templateRef(pos[0], n, "twig", name+"()")
	}
}

// templateMember finds the template a method call renders.
func (d *domainWalker) templateMember(n *sitter.Node, recv, method string, pos []*sitter.Node) {
	if len(pos) == 0 {
		return
	}
	switch {
	case twigRenderers[method]:
		d.templateRef(pos[0], n, "twig", "->"+method+"()")
	case bladeRenderers[method] && (method != "make" && method != "first" || strings.Contains(strings.ToLower(recv), "view")):
		d.templateRef(pos[0], n, "blade", "->"+method+"()")
	}
}

// templateStatic finds the template a static call renders: View::make,
// Route::view (the second argument).
func (d *domainWalker) templateStatic(n *sitter.Node, short, method string, pos []*sitter.Node) {
	switch fact.Lower(short) {
	case "view":
		if (method == "make" || method == "first" || method == "file") && len(pos) > 0 {
			d.templateRef(pos[0], n, "blade", "View::"+method+"()")
		}
	case "route":
		if method == "view" && len(pos) > 1 {
			d.templateRef(pos[1], n, "blade", "Route::view()")
		}
	}
}

// twigAttrKinds maps the attributes that make a method a Twig function,
// filter or test to the kind.
var twigAttrKinds = map[string]string{"astwigfunction": "function", "astwigfilter": "filter", "astwigtest": "test"}

// templateAttribute finds #[Template('x.html.twig')] on a controller method
// and #[AsTwigFunction], #[AsTwigFilter], #[AsTwigTest] on an extension's.
func (d *domainWalker) templateAttribute(m *sitter.Node) {
	for _, a := range d.attributes(m) {
		if k := twigAttrKinds[a.name]; k != "" && len(a.pos) > 0 && d.cls != nil && d.cls.fq != "" {
			// #[AsTwigFunction('name')] on an extension method (Twig 3.21)
			if nm := m.ChildByFieldName("name"); nm != nil {
				if s, ok := d.literal(a.pos[0]); ok && s != "" {
					d.ref(fact.RefTemplateFuncDef, d.cls.id, a.pos[0], s, map[string]string{"kind": k, "handler": d.cls.fq + "::" + d.text(nm)})
				}
			}
			continue
		}
		if a.name != "template" {
			continue
		}
		v := a.named["template"]
		if len(a.pos) > 0 {
			v = a.pos[0]
		}
		if v != nil {
			if s, ok := d.literal(v); ok && s != "" {
				d.ref(fact.RefTemplate, d.enclosing(line(m.StartPosition())+1), v, s,
					map[string]string{"rel": "references", "via": "#[Template]", "engine": "twig"})
			}
		}
	}
}

// twigDefinition finds new TwigFunction('name', callable) and its filter
// and test siblings (also the Twig 1 Twig_Simple* names).
func (d *domainWalker) twigDefinition(n *sitter.Node) {
	var cls string
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); isNameKind(c.Kind()) {
			cls = d.text(c)
			break
		}
	}
	short := cls
	if i := strings.LastIndexAny(short, `\`); i >= 0 {
		short = short[i+1:]
	}
	kind := ""
	switch fact.Lower(short) {
	case "twigfunction", "twig_simplefunction", "twig_function":
		kind = "function"
	case "twigfilter", "twig_simplefilter", "twig_filter":
		kind = "filter"
	case "twigtest", "twig_simpletest", "twig_test":
		kind = "test"
	default:
		return
	}
	pos := d.newArgs(n)
	if len(pos) < 1 {
		return
	}
	name, ok := d.literal(pos[0])
	if !ok || name == "" {
		return
	}
	handler := ""
	if len(pos) > 1 {
		h, _, _ := d.handler(pos[1])
		if !strings.HasPrefix(h, "?::") {
			handler = h
		}
	}
	d.ref(fact.RefTemplateFuncDef, d.enclosing(line(n.StartPosition())), pos[0], name, map[string]string{"kind": kind, "handler": handler})
}

// newArgs returns the positional arguments of a new expression, whose
// argument list is a child without a field name.
func (d *domainWalker) newArgs(n *sitter.Node) []*sitter.Node {
	if pos, _ := d.args(n); len(pos) > 0 {
		return pos
	}
	var pos []*sitter.Node
	for _, a := range namedOf(n, "arguments") {
		for _, c := range namedOf(a, "argument") {
			if c.ChildByFieldName("name") == nil {
				if v := argValueNode(c); v != nil {
					pos = append(pos, v)
				}
			}
		}
	}
	return pos
}

// routeName names the routes a chain registers: Route::get(…)->name('x').
// It visits the chain itself and reports true.
func (d *domainWalker) routeName(n, obj *sitter.Node, pos []*sitter.Node) bool {
	if len(pos) != 1 || obj.Kind() != "scoped_call_expression" && obj.Kind() != "member_call_expression" {
		return false
	}
	name, ok := d.literal(pos[0])
	if !ok || name == "" {
		return false
	}
	from := len(d.nodes)
	d.children(n)
	for i := from; i < len(d.nodes); i++ {
		if x := &d.nodes[i]; x.Kind == fact.WebRoute && x.Props["framework"] == "laravel" && x.Props["name"] == "" {
			x.Props["name"] = name
		}
	}
	return true
}
