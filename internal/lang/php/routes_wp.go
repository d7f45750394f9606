// This file finds WordPress REST routes (register_rest_route) the way core's
// controllers register them: the namespace and route are resolved from the
// class's property defaults and constructor assignments ($this->namespace,
// $this->rest_base), each method group of the options array becomes one
// http_endpoint, linked to its callback and, as a second handler role, to its
// permission callback. routes.go holds the other frameworks and entry().

package php

import (
	"regexp"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/extract/sqltext"
	"github.com/ragraf/ragraf/internal/fact"
)

// RolePermission is props.role of a handles reference and edge to a
// permission callback; a handler without a role is the callback itself.
const RolePermission = "permission"

// restMethods are the values of WP_REST_Server's method constants.
var restMethods = map[string]string{
	"READABLE": "GET", "CREATABLE": "POST", "EDITABLE": "POST,PUT,PATCH",
	"DELETABLE": "DELETE", "ALLMETHODS": "GET,POST,PUT,PATCH,DELETE",
}

// thisProp matches a hole that is one of the class's own properties.
var thisProp = regexp.MustCompile(`^\$this->([A-Za-z_][A-Za-z0-9_]*)$`)

// classValues records the string values a class gives its properties: a
// literal default, replaced by what the constructor assigns. A property the
// constructor assigns anything but one literal is unknown ("", false).
func (d *domainWalker) classValues(n *sitter.Node, c *domainClass) {
	c.values = map[string]string{}
	c.unknown = map[string]bool{}
	c.types = map[string]string{}
	body := n.ChildByFieldName("body")
	if body == nil {
		return
	}
	for _, m := range namedOf(body, "property_declaration") {
		for _, el := range namedOf(m, "property_element") {
			nm, v := el.ChildByFieldName("name"), el.ChildByFieldName("default_value")
			if nm == nil || v == nil {
				continue
			}
			if s, ok := d.literal(v); ok {
				c.values[strings.TrimPrefix(d.text(nm), "$")] = s
			}
		}
	}
	for _, m := range namedOf(body, "method_declaration") {
		if nm := m.ChildByFieldName("name"); nm == nil || !strings.EqualFold(d.text(nm), "__construct") {
			continue
		}
		assigned := map[string]bool{}
		m.Descendants(func(x *sitter.Node) bool {
			switch x.Kind() {
			case "anonymous_function", "arrow_function", "class_declaration":
				return false
			case "assignment_expression":
				l, r := x.ChildByFieldName("left"), x.ChildByFieldName("right")
				if l == nil || r == nil || l.Kind() != "member_access_expression" {
					return true
				}
				sm := thisProp.FindStringSubmatch(d.text(l))
				if sm == nil {
					return true
				}
				p := sm[1]
				if r.Kind() == "object_creation_expression" {
					if cls, _, _ := d.handler(r); cls != "" {
						c.types[p] = cls
					}
				}
				s, ok := d.literal(r)
				switch {
				case !ok || assigned[p] && c.values[p] != s:
					c.unknown[p] = true
					delete(c.values, p)
				case !c.unknown[p]:
					c.values[p] = s
				}
				assigned[p] = true
			}
			return true
		})
	}
	if c.fq != "" {
		if d.classes == nil {
			d.classes = map[string]*domainClass{}
		}
		d.classes[fact.Lower(c.fq)] = c
	}
}

// propValue is the value of $this->p in the class being walked, looked up in
// its parents declared earlier in the same file when the class itself does
// not set it.
func (d *domainWalker) propValue(p string) (string, bool) {
	for c, depth := d.cls, 0; c != nil && depth < 8; depth++ {
		if c.unknown[p] {
			return "", false
		}
		if v, ok := c.values[p]; ok {
			return v, true
		}
		if c.parent == "" {
			break
		}
		c = d.classes[fact.Lower(c.parent)]
	}
	return "", false
}

// routeText evaluates a route expression: the string, and whether every part
// of it is known. Unknown parts are kept as {expression}.
func (d *domainWalker) routeText(e *sitter.Node) (string, bool) {
	parts, ok := d.template(e, 0)
	if !ok {
		return "{" + d.text(e) + "}", false
	}
	return d.joinRoute(parts)
}

func (d *domainWalker) joinRoute(parts []sqltext.Part) (string, bool) {
	var b strings.Builder
	known := true
	for _, p := range parts {
		if p.Hole == "" {
			b.WriteString(p.Lit)
			continue
		}
		if sm := thisProp.FindStringSubmatch(p.Hole); sm != nil {
			if v, ok := d.propValue(sm[1]); ok {
				b.WriteString(v)
				continue
			}
		}
		known = false
		b.WriteString("{" + p.Hole + "}")
	}
	return b.String(), known
}

// restRoute handles register_rest_route($namespace, $route, $args).
func (d *domainWalker) restRoute(n *sitter.Node, pos []*sitter.Node) {
	if len(pos) < 2 {
		return
	}
	ns, nsOK := d.routeText(pos[0])
	rt, rtOK := d.routeText(pos[1])
	uri := "/wp-json/" + strings.Trim(ns, "/") + "/" + strings.TrimLeft(rt, "/")
	var groups []*sitter.Node
	if len(pos) >= 3 {
		groups = restOptions(pos[2])
	}
	if len(groups) == 0 {
		// options built elsewhere: the route is known, its handler is not
		props := map[string]string{"method": "?", "uri": uri, "framework": "wordpress", "type": "rest", "uri_resolved": boolString(nsOK && rtOK)}
		var h *sitter.Node
		if len(pos) >= 3 {
			h = pos[2]
		}
		d.entry(fact.HTTPEndpoint, "? "+uri, n, props, h)
		return
	}
	for _, g := range groups {
		verb := "GET"
		var cb, perm *sitter.Node
		for _, el := range namedOf(g, "array_element_initializer") {
			if el.NamedChildCount() != 2 {
				continue
			}
			k, _ := d.literal(el.NamedChild(0))
			v := el.NamedChild(1)
			switch k {
			case "methods":
				verb = d.restVerb(v)
			case "callback":
				cb = v
			case "permission_callback":
				perm = v
			}
		}
		props := map[string]string{"method": verb, "uri": uri, "framework": "wordpress", "type": "rest", "uri_resolved": boolString(nsOK && rtOK)}
		at := n
		if g != pos[2] {
			at = g
		}
		id := d.entry(fact.HTTPEndpoint, verb+" "+uri, at, props, cb)
		if perm != nil {
			if name, raw, short := d.handler(perm); name != "" {
				rp := map[string]string{"raw": clip(raw, 160), "role": RolePermission}
				if short {
					rp["short"] = "true"
				}
				d.ref(fact.RefHandles, id, perm, name, rp)
			}
		}
	}
}

// restVerb reads a group's methods: a WP_REST_Server constant, a string
// ("GET, POST") or a list of strings, as upper-case methods joined by commas.
func (d *domainWalker) restVerb(v *sitter.Node) string {
	one := func(v *sitter.Node) string {
		if v.Kind() == "class_constant_access_expression" && v.NamedChildCount() == 2 {
			if m, ok := restMethods[d.text(v.NamedChild(1))]; ok {
				return m
			}
		}
		s, _ := d.literal(v)
		return s
	}
	var vs []string
	if v.Kind() == "array_creation_expression" {
		for _, el := range namedOf(v, "array_element_initializer") {
			if el.NamedChildCount() == 1 {
				vs = append(vs, strings.Split(one(el.NamedChild(0)), ",")...)
			}
		}
	} else {
		vs = strings.Split(one(v), ",")
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range vs {
		if s = strings.ToUpper(strings.TrimSpace(s)); s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return d.text(v)
	}
	return strings.Join(out, ",")
}

// restOptions returns the method groups of register_rest_route's third
// argument: its unkeyed array elements (keyed ones such as 'args' and
// 'schema' apply to the route), or the array itself when it has none.
func restOptions(a *sitter.Node) []*sitter.Node {
	if a.Kind() != "array_creation_expression" {
		return nil
	}
	var list []*sitter.Node
	for _, el := range namedOf(a, "array_element_initializer") {
		if el.NamedChildCount() == 1 && el.NamedChild(0).Kind() == "array_creation_expression" {
			list = append(list, el.NamedChild(0))
		}
	}
	if len(list) > 0 {
		return list
	}
	return []*sitter.Node{a}
}

// wpHook handles add_action / add_filter: the hook callback every hook
// keeps, an endpoint for AJAX (wp_ajax_X, wp_ajax_nopriv_X) and admin-post
// (admin_post_X, admin_post_nopriv_X) actions, and an event_listener entry
// point "event <hook>" for every other hook.
func (d *domainWalker) wpHook(n *sitter.Node, name string, pos []*sitter.Node) {
	if len(pos) < 2 {
		return
	}
	hook, ok := d.literal(pos[0])
	if !ok {
		hook, _ = d.routeText(pos[0])
	}
	h, raw, short := d.handler(pos[1])
	d.ref(fact.RefHookCallback, d.enclosing(line(n.StartPosition())), n, hook, map[string]string{"handler": h, "raw": clip(raw, 160)})
	if name == "add_action" {
		for _, p := range []string{"wp_ajax_nopriv_", "wp_ajax_", "admin_post_nopriv_", "admin_post_"} {
			if action, ok := strings.CutPrefix(hook, p); ok && action != "" {
				typ := strings.TrimSuffix(p, "_")
				d.entry(fact.HTTPEndpoint, hook, n, map[string]string{"action": action, "type": typ, "framework": "wordpress"}, pos[1])
				return
			}
		}
	}
	if hook != "" {
		typ := strings.TrimPrefix(name, "add_")
		d.entryTo(fact.EventListener, "event "+hook, n, map[string]string{"event": hook, "type": typ, "framework": "wordpress"}, pos[1], h, raw, short)
	}
}
