// This file finds Laravel routes: Route::get/post/…/match/any, groups
// (Route::group([...]), Route::prefix()->middleware()->namespace()
// ->controller()->group()), Route::resource / apiResource / resources with
// only/except, and every action form: [X::class, 'm'], X::class (invokable),
// 'X@m' (under the group's namespace), 'm' (under the group's controller) and
// ['uses' => …]. routes/api.php is under the prefix api, as Laravel's route
// provider loads it. routes.go holds the walk's entry() and other frameworks.

package php

import (
	"regexp"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
)

// laravelGroup is what a route group gives the routes inside it.
type laravelGroup struct {
	namespace  string // controller namespace for 'X@m' actions
	controller string // controller class for 'm' actions
}

// resourceActions are the routes of Route::resource and Route::apiResource.
var resourceActions = []struct{ verb, suffix, action string }{
	{"GET", "", "index"}, {"GET", "/create", "create"}, {"POST", "", "store"}, {"GET", "/{id}", "show"},
	{"GET", "/{id}/edit", "edit"}, {"PUT,PATCH", "/{id}", "update"}, {"DELETE", "/{id}", "destroy"},
}

// laravelStatic handles Route::…() calls.
func (d *domainWalker) laravelStatic(n *sitter.Node, method string, pos []*sitter.Node, named map[string]*sitter.Node) bool {
	switch method {
	case "resource", "apiresource":
		if len(pos) >= 2 {
			name, ok := d.literal(pos[0])
			if !ok {
				return false
			}
			var opts *sitter.Node
			if len(pos) >= 3 {
				opts = pos[2]
			}
			d.resource(n, method == "apiresource", name, pos[1], opts)
			return true
		}
	case "resources", "apiresources":
		if len(pos) >= 1 && pos[0].Kind() == "array_creation_expression" {
			for _, el := range namedOf(pos[0], "array_element_initializer") {
				if el.NamedChildCount() != 2 {
					continue
				}
				if name, ok := d.literal(el.NamedChild(0)); ok {
					d.resource(n, method == "apiresources", name, el.NamedChild(1), nil)
				}
			}
			return true
		}
	case "group":
		if len(pos) >= 2 {
			prefix, g := d.groupAttrs(pos[0])
			return d.laravelGroup(prefix, g, pos[len(pos)-1])
		}
	case "fallback":
		if len(pos) >= 1 {
			d.laravelRoute("GET", "{fallbackPlaceholder}", n, pos[0])
			d.visitArgs(pos)
			return true
		}
	case "view", "redirect", "permanentredirect":
		return false
	}
	return d.routeCall(n, method, pos, named, "laravel")
}

// apiInFile matches a route path that starts with api/ or an api prefix
// (not the api middleware), written in a route file: such a file is loaded
// without Laravel's api prefix.
var apiInFile = regexp.MustCompile(`prefix['"]?\s*(=>|\()\s*['"]/?api[/'"]|(get|post|put|patch|delete|any|match|resource|apiResource)\(\s*(\[[^\]]*\]\s*,\s*)?['"]/?api/`)

// laravelPath is a route's URI below the groups, under /api in routes/api.php
// (Laravel's route provider loads it so) unless the file names api itself,
// as applications that load it without the prefix do.
func (d *domainWalker) laravelPath(p string) string {
	full := d.routePath(p)
	if d.path != "routes/api.php" && !strings.HasSuffix(d.path, "/routes/api.php") {
		return full
	}
	if d.apiPrefixed == 0 {
		d.apiPrefixed = 1
		if apiInFile.Match(d.src) {
			d.apiPrefixed = 2
		}
	}
	if d.apiPrefixed == 1 {
		full = "/" + strings.Trim("api"+full, "/")
	}
	return full
}

// laravelRoute adds one route with its action.
func (d *domainWalker) laravelRoute(verb, path string, at, action *sitter.Node) {
	full := d.laravelPath(path)
	name, raw, short := d.laravelAction(action)
	props := map[string]string{"method": verb, "uri": full, "framework": "laravel"}
	if d.unresolvedURI {
		props["uri_resolved"] = "false"
	}
	d.entryTo(fact.WebRoute, verb+" "+full, at, props, action, name, raw, short)
}

// lvGroup returns the innermost group's namespace and controller.
func (d *domainWalker) lvGroup() laravelGroup {
	if len(d.lvGroups) == 0 {
		return laravelGroup{}
	}
	return d.lvGroups[len(d.lvGroups)-1]
}

// laravelAction reads a route action as handler() does, with the group's
// namespace and controller applied.
func (d *domainWalker) laravelAction(e *sitter.Node) (name, raw string, short bool) {
	if e == nil {
		return "", "", false
	}
	e = d.bound(e)
	g := d.lvGroup()
	switch e.Kind() {
	case "string", "encapsed_string":
		s, ok := d.literal(e)
		if !ok || s == "" {
			break
		}
		cls, m, hasAt := strings.Cut(s, "@")
		if !hasAt && g.controller != "" {
			return g.controller + "::" + s, d.text(e), false
		}
		fq, sh := d.groupClass(cls)
		if !hasAt {
			return fq, d.text(e), sh
		}
		return fq + "::" + m, d.text(e), sh
	case "array_creation_expression":
		var unkeyed []*sitter.Node
		for _, el := range namedOf(e, "array_element_initializer") {
			switch el.NamedChildCount() {
			case 1:
				unkeyed = append(unkeyed, el.NamedChild(0))
			case 2:
				if k, _ := d.literal(el.NamedChild(0)); k == "uses" || k == "controller" {
					return d.laravelAction(el.NamedChild(1))
				}
			}
		}
		if len(unkeyed) == 1 {
			// ['as' => 'name', 'X@m'], [X::class] (invokable), ['as' => …, fn]
			return d.laravelAction(unkeyed[0])
		}
	case "binary_expression":
		// X::class . '@m'
		if s, ok := d.classConcat(e); ok {
			cls, m, _ := strings.Cut(s, "@")
			return cls + "::" + m, d.text(e), false
		}
	}
	return d.handler(e)
}

// classConcat evaluates a concatenation of strings and X::class, such as
// X::class . '@m' or '\\' . X::class . '@m', to "Fq\X@m".
func (d *domainWalker) classConcat(e *sitter.Node) (string, bool) {
	var b strings.Builder
	var walk func(n *sitter.Node, depth int) bool
	walk = func(n *sitter.Node, depth int) bool {
		if depth > 8 {
			return false
		}
		switch n.Kind() {
		case "binary_expression":
			op := n.ChildByFieldName("operator")
			l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right")
			return op != nil && d.text(op) == "." && l != nil && r != nil && walk(l, depth+1) && walk(r, depth+1)
		case "class_constant_access_expression":
			cls, _, _ := d.handler(n)
			if cls == "" || strings.Contains(cls, "::") {
				return false
			}
			b.WriteString(cls)
			return true
		}
		s, ok := d.literal(n)
		b.WriteString(s)
		return ok
	}
	if !walk(e, 0) {
		return "", false
	}
	s := strings.TrimPrefix(b.String(), `\`)
	if cls, m, ok := strings.Cut(s, "@"); ok && identLike(cls) && identLike(m) {
		return s, true
	}
	return "", false
}

// groupClass resolves a controller named in a string under the group's
// namespace; without one, as handler() would.
func (d *domainWalker) groupClass(cls string) (string, bool) {
	cls = strings.TrimSpace(cls)
	if strings.HasPrefix(cls, `\`) {
		return cls[1:], false
	}
	if ns := d.lvGroup().namespace; ns != "" {
		return strings.Trim(ns, `\`) + `\` + cls, false
	}
	return d.className(cls)
}

// groupAttrs reads a group's attributes: a prefix string, or ['prefix' =>,
// 'namespace' =>, 'controller' =>] (a namespace is relative to the outer
// group's unless it starts with \).
func (d *domainWalker) groupAttrs(a *sitter.Node) (string, laravelGroup) {
	g := d.lvGroup()
	if s, ok := d.literal(a); ok {
		return s, g
	}
	prefix := ""
	if a.Kind() == "array_creation_expression" {
		for _, el := range namedOf(a, "array_element_initializer") {
			if el.NamedChildCount() != 2 {
				continue
			}
			k, _ := d.literal(el.NamedChild(0))
			v := el.NamedChild(1)
			switch k {
			case "prefix":
				prefix, _ = d.literal(v)
			case "namespace":
				if s, ok := d.literal(v); ok {
					g.namespace = d.nestNamespace(g.namespace, s)
				}
			case "controller":
				if c, _, _ := d.handler(v); c != "" {
					g.controller = c
				}
			}
		}
	}
	return prefix, g
}

func (d *domainWalker) nestNamespace(outer, ns string) string {
	if strings.HasPrefix(ns, `\`) || outer == "" {
		return strings.Trim(ns, `\`)
	}
	return strings.Trim(outer, `\`) + `\` + strings.Trim(ns, `\`)
}

func (d *domainWalker) laravelGroup(prefix string, g laravelGroup, body *sitter.Node) bool {
	d.lvGroups = append(d.lvGroups, g)
	d.group(prefix, body)
	d.lvGroups = d.lvGroups[:len(d.lvGroups)-1]
	return true
}

// chainGroup handles Route::prefix('x')->middleware(..)->namespace('N')
// ->controller(X::class)->group(fn).
func (d *domainWalker) chainGroup(n, obj *sitter.Node, pos []*sitter.Node) bool {
	if len(pos) == 0 {
		return false
	}
	prefix, g, ok := d.chainAttrs(obj)
	if !ok {
		return false
	}
	return d.laravelGroup(prefix, g, pos[len(pos)-1])
}

// chainRoute handles a route registered on a chain of route attributes,
// Route::middleware('auth')->prefix('x')->get('/y', …).
func (d *domainWalker) chainRoute(n, obj *sitter.Node, method string, pos []*sitter.Node, named map[string]*sitter.Node) bool {
	prefix, g, ok := d.chainAttrs(obj)
	if !ok {
		return false
	}
	d.lvGroups = append(d.lvGroups, g)
	d.prefix = append(d.prefix, prefix)
	done := d.laravelStatic(n, method, pos, named)
	d.prefix = d.prefix[:len(d.prefix)-1]
	d.lvGroups = d.lvGroups[:len(d.lvGroups)-1]
	return done
}

// chainAttrs reads the prefix, namespace and controller of a chain of calls
// rooted at Route::…(); ok is false when the chain is not Laravel's.
func (d *domainWalker) chainAttrs(obj *sitter.Node) (string, laravelGroup, bool) {
	var calls []*sitter.Node // outermost first
	laravel := false
	for c := obj; c != nil; {
		calls = append(calls, c)
		switch c.Kind() {
		case "member_call_expression":
			c = c.ChildByFieldName("object")
		case "scoped_call_expression":
			if s := c.ChildByFieldName("scope"); s != nil && strings.HasSuffix(fact.Lower(d.text(s)), "route") {
				laravel = true
			}
			c = nil
		default:
			c = nil
		}
	}
	if !laravel {
		return "", laravelGroup{}, false
	}
	prefix := ""
	g := d.lvGroup()
	for i := len(calls) - 1; i >= 0; i-- {
		c := calls[i]
		nm := c.ChildByFieldName("name")
		if nm == nil {
			continue
		}
		p, _ := d.args(c)
		if len(p) == 0 {
			continue
		}
		switch fact.Lower(d.text(nm)) {
		case "prefix":
			s, _ := d.literal(p[0])
			prefix = strings.Trim(prefix+"/"+strings.Trim(s, "/"), "/")
		case "namespace":
			if s, ok := d.literal(p[0]); ok {
				g.namespace = d.nestNamespace(g.namespace, s)
			}
		case "controller":
			if cls, _, _ := d.handler(p[0]); cls != "" {
				g.controller = cls
			}
		case "group":
			pre, gg := d.groupAttrs(p[0])
			prefix, g = strings.Trim(prefix+"/"+pre, "/"), gg
		}
	}
	return prefix, g, true
}

// resource adds the routes of a resource controller: its actions, less those
// only/except leave out (an options array or ->only()/->except() chained).
// A nested name "photos.comments" is /photos/{photo}/comments.
func (d *domainWalker) resource(n *sitter.Node, api bool, name string, ctlNode, opts *sitter.Node) {
	ctl, _, sh := d.laravelAction(ctlNode)
	if ctl == "" {
		return
	}
	only, except := map[string]bool{}, map[string]bool{}
	list := func(v *sitter.Node, into map[string]bool) {
		for _, s := range d.verbs(v) {
			into[fact.Lower(s)] = true
		}
	}
	if opts != nil && opts.Kind() == "array_creation_expression" {
		for _, el := range namedOf(opts, "array_element_initializer") {
			if el.NamedChildCount() == 2 {
				switch k, _ := d.literal(el.NamedChild(0)); k {
				case "only":
					list(el.NamedChild(1), only)
				case "except":
					list(el.NamedChild(1), except)
				}
			}
		}
	}
	for p := n.Parent(); p != nil && p.Kind() == "member_call_expression"; p = p.Parent() {
		nm := p.ChildByFieldName("name")
		if nm == nil {
			break
		}
		args, _ := d.args(p)
		switch fact.Lower(d.text(nm)) {
		case "only":
			for _, a := range args {
				list(a, only)
			}
		case "except":
			for _, a := range args {
				list(a, except)
			}
		}
	}
	segs := strings.Split(strings.Trim(name, "/"), ".")
	base := ""
	for i, s := range segs {
		base += "/" + s
		if i < len(segs)-1 {
			base += "/{" + s + "}"
		}
	}
	for _, a := range resourceActions {
		if api && (a.action == "create" || a.action == "edit") || len(only) > 0 && !only[a.action] || except[a.action] {
			continue
		}
		full := d.laravelPath(base + a.suffix)
		rp := map[string]string{"method": a.verb, "uri": full, "framework": "laravel", "action": a.action}
		d.entryTo(fact.WebRoute, a.verb+" "+full, n, rp, ctlNode, ctl+"::"+a.action, d.text(ctlNode), sh)
	}
}
