// This file finds Symfony routes: #[Route] attributes and @Route
// annotations on controller methods, under the class-level #[Route] or
// @Route prefix, and the class-level route of an invokable controller
// (__invoke). routes.go holds the walk's entry() and classEntries().

package php

import (
	"regexp"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
)

// classRoute reads the class-level route: its path is the prefix of the
// methods' routes; on a class with __invoke and no method routes it is the
// route of __invoke, as Symfony's loader reads it.
func (d *domainWalker) classRoute(n, body *sitter.Node, c *domainClass) {
	var at *sitter.Node
	var path string
	var verbs []string
	name := ""
	for _, a := range d.attributes(n) {
		if a.name != "route" {
			continue
		}
		v := a.named["path"]
		if v == nil && len(a.pos) > 0 {
			v = a.pos[0]
		}
		path, _ = d.literal(v)
		if m := a.named["methods"]; m != nil {
			verbs = d.verbs(m)
		}
		if v := a.named["name"]; v != nil {
			name, _ = d.literal(v)
		}
		at = a.node
	}
	if at == nil {
		if doc := docComment(n); doc != nil {
			if r := d.annotationRoutes(doc); len(r) > 0 {
				at, path, verbs = doc, r[0].path, r[0].verbs
			}
		}
	}
	if at == nil {
		return
	}
	c.route = path
	if body == nil {
		return
	}
	var invoke *sitter.Node
	for _, m := range namedOf(body, "method_declaration") {
		if d.methodRoutes(m) {
			return
		}
		if nm := m.ChildByFieldName("name"); nm != nil && strings.EqualFold(d.text(nm), "__invoke") {
			invoke = m
		}
	}
	if invoke != nil {
		c.route = ""
		d.symfonyRoute(at, c.fq+"::__invoke", path, verbs, name)
	}
}

// docComment is the comment right before a declaration; annotationRoutes
// reads it only when it is a /** one, as PHP's getDocComment() does.
func docComment(n *sitter.Node) *sitter.Node {
	if p := n.PrevSibling(); p != nil && p.Kind() == "comment" {
		return p
	}
	return nil
}

type annotated struct {
	path  string
	verbs []string
}

// annotationRoutes reads the @Route annotations of a doc comment.
func (d *domainWalker) annotationRoutes(doc *sitter.Node) []annotated {
	t := d.text(doc)
	if !strings.HasPrefix(t, "/**") {
		return nil
	}
	var out []annotated
	for _, sm := range annotationRoute.FindAllStringSubmatch(t, -1) {
		var verbs []string
		if mm := annotationMethods.FindStringSubmatch(sm[0]); mm != nil {
			for _, v := range strings.Split(mm[1], ",") {
				if v = strings.Trim(strings.TrimSpace(v), `"'`); v != "" {
					verbs = append(verbs, strings.ToUpper(v))
				}
			}
		}
		out = append(out, annotated{sm[1], verbs})
	}
	return out
}

// methodRoutes reports whether a method declares a route.
func (d *domainWalker) methodRoutes(m *sitter.Node) bool {
	for _, a := range d.attributes(m) {
		if a.name == "route" {
			return true
		}
	}
	if doc := docComment(m); doc != nil {
		return len(d.annotationRoutes(doc)) > 0
	}
	return false
}

// symfonyRoute adds one route per method of a Route under the class prefix.
func (d *domainWalker) symfonyRoute(at *sitter.Node, handler, path string, verbs []string, name string) {
	if len(verbs) == 0 {
		verbs = []string{"ANY"}
	}
	c := d.cls
	prefix := ""
	if c != nil {
		prefix = c.route
	}
	for _, v := range verbs {
		full := symfonyParams.ReplaceAllString(d.routePath(prefix+"/"+strings.TrimLeft(path, "/")), "{$1}")
		props := map[string]string{"method": v, "uri": full, "framework": "attribute"}
		if name != "" {
			props["name"] = name
		}
		id := d.entry(fact.WebRoute, v+" "+full, at, props, nil)
		d.ref(fact.RefHandles, id, at, handler, map[string]string{"raw": handler})
	}
}

// symfonyParams matches a route parameter with an entity mapping
// ({slug:post}), an inline requirement ({page<\d+>}) or default ({page?1}),
// which Symfony's Route moves out of the path: debug:router prints {slug}.
var symfonyParams = regexp.MustCompile(`\{(!?\w+)(?::[\w.]+)?(?:<[^>{}]*>)?(?:\?[^{}]*)?\}`)

// methodEntries finds #[Route] attributes and @Route annotations on a method.
func (d *domainWalker) methodEntries(m *sitter.Node, c *domainClass) {
	nm := m.ChildByFieldName("name")
	if nm == nil || c.fq == "" {
		return
	}
	handler := c.fq + "::" + d.text(nm)
	for _, a := range d.attributes(m) {
		if a.name != "route" {
			continue
		}
		var pv *sitter.Node
		if len(a.pos) > 0 {
			pv = a.pos[0]
		} else {
			pv = a.named["path"]
		}
		p, ok := d.literal(pv)
		if !ok {
			continue
		}
		var verbs []string
		if v := a.named["methods"]; v != nil {
			verbs = d.verbs(v)
		}
		name := ""
		if v := a.named["name"]; v != nil {
			name, _ = d.literal(v)
		}
		d.symfonyRoute(a.node, handler, p, verbs, name)
	}
	if doc := docComment(m); doc != nil {
		for _, r := range d.annotationRoutes(doc) {
			d.symfonyRoute(doc, handler, r.path, r.verbs, "")
		}
	}
}

var (
	annotationRoute   = regexp.MustCompile(`@Route\(\s*"([^"]*)"[^)]*\)`)
	annotationMethods = regexp.MustCompile(`methods\s*=\s*\{([^}]*)\}`)
)

type attr struct {
	node  *sitter.Node
	name  string // lower-case short name
	fq    string // lower-case fully qualified name
	pos   []*sitter.Node
	named map[string]*sitter.Node
}

// attributes lists the attributes on a declaration.
func (d *domainWalker) attributes(n *sitter.Node) []attr {
	var out []attr
	for _, l := range namedOf(n, "attribute_list") {
		for _, g := range namedOf(l, "attribute_group") {
			for _, a := range namedOf(g, "attribute") {
				if a.NamedChildCount() == 0 {
					continue
				}
				// the imported class's short name: use X\Route as R makes #[R] a Route
				fq := d.names.sc.class(d.text(a.NamedChild(0)))
				name := fq
				if i := strings.LastIndexByte(name, '\\'); i >= 0 {
					name = name[i+1:]
				}
				at := attr{node: a, name: fact.Lower(name), fq: fact.Lower(fq), named: map[string]*sitter.Node{}}
				if args := a.ChildByFieldName("parameters"); args != nil || a.NamedChildCount() > 1 {
					if args == nil {
						args = a.NamedChild(1)
					}
					for i := uint(0); i < args.NamedChildCount(); i++ {
						c := args.NamedChild(i)
						if c.Kind() != "argument" {
							continue
						}
						v := argValueNode(c)
						if v == nil {
							continue
						}
						if nm := c.ChildByFieldName("name"); nm != nil {
							at.named[d.text(nm)] = v
						} else {
							at.pos = append(at.pos, v)
						}
					}
				}
				out = append(out, at)
			}
		}
	}
	return out
}
