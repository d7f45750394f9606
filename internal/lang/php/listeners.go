// This file finds event listeners, entry points the framework calls on an
// event: Symfony #[AsEventListener] on a class or method, Doctrine
// #[AsDoctrineListener] and #[AsEntityListener], and the events an
// EventSubscriberInterface's getSubscribedEvents() returns. Each is an
// event_listener node named "event <event>" whose handles reference names
// the method.

package php

import (
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
)

// eventName is the event an attribute argument or array key names: a
// literal, else the constant as written (KernelEvents::REQUEST).
func (d *domainWalker) eventName(v *sitter.Node) string {
	if v == nil {
		return ""
	}
	if s, ok := d.literal(v); ok {
		return s
	}
	return d.text(v)
}

// listenerMethod is Symfony's default method of a listener on event: "on"
// and the event's last word in camel case (kernel.request -> onKernelRequest).
func listenerMethod(event string) string {
	if _, c, ok := strings.Cut(event, "::"); ok {
		return c // Doctrine: Events::onFlush -> onFlush
	}
	var b strings.Builder
	b.WriteString("on")
	for _, w := range strings.FieldsFunc(event, func(r rune) bool { return r == '.' || r == '_' || r == '-' || r == '\\' }) {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

func (d *domainWalker) listener(at *sitter.Node, event, framework, handler string) {
	if event == "" || handler == "" {
		return
	}
	d.entryTo(fact.EventListener, "event "+event, at, map[string]string{"event": event, "framework": framework}, at, handler, handler, false)
}

// listeners reads the listener attributes of a class and its methods and a
// subscriber's getSubscribedEvents().
func (d *domainWalker) listeners(n, body *sitter.Node, c *domainClass) {
	if c.fq == "" || body == nil {
		return
	}
	hasInvoke := false
	for _, m := range namedOf(body, "method_declaration") {
		if nm := m.ChildByFieldName("name"); nm != nil && strings.EqualFold(d.text(nm), "__invoke") {
			hasInvoke = true
		}
	}
	for _, a := range d.attributes(n) {
		fw := ""
		switch a.name {
		case "aseventlistener":
			fw = "symfony"
		case "asdoctrinelistener", "asentitylistener":
			fw = "doctrine"
		default:
			continue
		}
		ev := d.eventName(a.named["event"])
		if ev == "" && len(a.pos) > 0 {
			ev = d.eventName(a.pos[0])
		}
		m := ""
		if v := a.named["method"]; v != nil {
			m, _ = d.literal(v)
		}
		if m == "" {
			if hasInvoke && fw == "symfony" {
				m = "__invoke"
			} else {
				m = listenerMethod(ev)
			}
		}
		d.listener(a.node, ev, fw, c.fq+"::"+m)
	}
	for _, m := range namedOf(body, "method_declaration") {
		nm := m.ChildByFieldName("name")
		if nm == nil {
			continue
		}
		name := d.text(nm)
		for _, a := range d.attributes(m) {
			if a.name != "aseventlistener" {
				continue
			}
			ev := d.eventName(a.named["event"])
			if ev == "" && len(a.pos) > 0 {
				ev = d.eventName(a.pos[0])
			}
			if ev == "" {
				// the event is the first parameter's class
				if ps := m.ChildByFieldName("parameters"); ps != nil && ps.NamedChildCount() > 0 {
					if t := ps.NamedChild(0).ChildByFieldName("type"); t != nil {
						ev = d.names.sc.class(strings.TrimPrefix(d.text(t), "?"))
					}
				}
			}
			d.listener(a.node, ev, "symfony", c.fq+"::"+name)
		}
		if strings.EqualFold(name, "getSubscribedEvents") {
			d.subscribedEvents(m, c)
		}
	}
}

// subscribedEvents reads `return [Event => 'method' | ['method', prio] |
// [['m1', prio], ['m2']]]`.
func (d *domainWalker) subscribedEvents(m *sitter.Node, c *domainClass) {
	m.Descendants(func(x *sitter.Node) bool {
		if x.Kind() != "return_statement" || x.NamedChildCount() == 0 || x.NamedChild(0).Kind() != "array_creation_expression" {
			return true
		}
		for _, el := range namedOf(x.NamedChild(0), "array_element_initializer") {
			if el.NamedChildCount() != 2 {
				continue
			}
			ev := d.eventName(el.NamedChild(0))
			v := el.NamedChild(1)
			if s, ok := d.literal(v); ok {
				d.listener(el, ev, "symfony", c.fq+"::"+s)
				continue
			}
			if v.Kind() != "array_creation_expression" {
				continue
			}
			items := namedOf(v, "array_element_initializer")
			if len(items) > 0 && items[0].NamedChildCount() == 1 {
				if s, ok := d.literal(items[0].NamedChild(0)); ok {
					d.listener(el, ev, "symfony", c.fq+"::"+s) // ['method', priority]
					continue
				}
			}
			for _, it := range items {
				if it.NamedChildCount() == 1 && it.NamedChild(0).Kind() == "array_creation_expression" {
					if inner := namedOf(it.NamedChild(0), "array_element_initializer"); len(inner) > 0 && inner[0].NamedChildCount() == 1 {
						if s, ok := d.literal(inner[0].NamedChild(0)); ok {
							d.listener(it, ev, "symfony", c.fq+"::"+s)
						}
					}
				}
			}
		}
		return false
	})
}

// containerBind reads a Laravel container binding on the application:
// $this->app->bind(I::class, C::class), singleton, scoped, bindIf,
// singletonIf, and instance(I::class, new C(...)).
func (d *domainWalker) containerBind(n *sitter.Node, recv, method string, pos []*sitter.Node) {
	switch method {
	case "bind", "singleton", "scoped", "bindif", "singletonif", "instance":
	default:
		return
	}
	if len(pos) < 2 || !(strings.HasSuffix(recv, "->app") || recv == "$app" || recv == "app()") {
		return
	}
	name := func(v *sitter.Node) string {
		if v.Kind() == "object_creation_expression" && method == "instance" {
			for i := uint(0); i < v.NamedChildCount(); i++ {
				if c := v.NamedChild(i); c.Kind() == "name" || c.Kind() == "qualified_name" {
					return d.names.sc.class(d.text(c))
				}
			}
			return ""
		}
		if s, ok := d.literal(v); ok && identLike(s) && strings.Contains(s, `\`) {
			return strings.TrimPrefix(s, `\`)
		}
		t := d.text(v)
		if v.Kind() == "class_constant_access_expression" && strings.HasSuffix(fact.Lower(t), "::class") {
			return d.names.sc.class(t[:len(t)-len("::class")])
		}
		return ""
	}
	iface, impl := name(pos[0]), name(pos[1])
	if iface == "" || impl == "" || fact.Lower(iface) == fact.Lower(impl) {
		return
	}
	d.ref(fact.RefContainerBind, d.enclosing(line(n.StartPosition())), n, iface, map[string]string{"class": impl})
}
