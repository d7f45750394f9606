// This file walks the declarations of the reference walk (refs.go): classes,
// anonymous classes, their properties and trait uses, functions, parameters
// and closures, with the types their signatures and docblocks state.

package php

import (
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/typ"
)

// anonClass walks `new class(...) extends A implements B { ... }`.
func (r *refWalker) anonClass(n *sitter.Node) {
	ctx := &classCtx{}
	for _, c := range r.named(n) {
		switch c.Kind() {
		case "base_clause":
			for _, b := range r.named(c) {
				if isNameKind(b.Kind()) {
					fq := r.sc.class(r.text(b))
					ctx.parent = fq
					r.emitN(fact.RefExtends, b, fq, typ.Desc{}, "")
				}
			}
		case "class_interface_clause":
			for _, b := range r.named(c) {
				if isNameKind(b.Kind()) {
					r.emitN(fact.RefImplements, b, r.sc.class(r.text(b)), typ.Desc{}, "")
				}
			}
		case "arguments", "attribute_list":
			r.visit(c)
		}
	}
	prev := r.cls
	r.cls = ctx
	if body := n.ChildByFieldName("body"); body != nil {
		ctx.own = map[string]bool{}
		for _, m := range r.named(body) {
			if nn := m.ChildByFieldName("name"); m.Kind() == "method_declaration" && nn != nil {
				ctx.own[fact.Lower(r.text(nn))] = true
			}
		}
		r.classBody(body, "")
	}
	r.cls = prev
}

var classKinds = map[string]fact.NodeKind{
	"class_declaration": fact.Class, "interface_declaration": fact.Interface,
	"trait_declaration": fact.Trait, "enum_declaration": fact.Enum,
}

func (r *refWalker) classLike(n *sitter.Node) {
	nn := n.ChildByFieldName("name")
	if nn == nil {
		return
	}
	kind := classKinds[n.Kind()]
	fq := r.sc.qualify(r.text(nn))
	id := r.find(kind, fq, line(n.StartPosition()))
	ctx := &classCtx{fq: fq, id: id, trait: kind == fact.Trait}
	prevCls, prevFrom := r.cls, r.from
	if id != "" {
		r.from = id
	}
	for _, c := range r.named(n) {
		switch c.Kind() {
		case "base_clause":
			for _, b := range r.named(c) {
				if isNameKind(b.Kind()) {
					p := r.sc.class(r.text(b))
					if kind == fact.Class {
						ctx.parent = p
					}
					r.emitN(fact.RefExtends, b, p, typ.Desc{}, "")
				}
			}
		case "class_interface_clause":
			for _, b := range r.named(c) {
				if isNameKind(b.Kind()) {
					r.emitN(fact.RefImplements, b, r.sc.class(r.text(b)), typ.Desc{}, "")
				}
			}
		case "attribute_list":
			r.visit(c)
		}
	}
	r.cls = ctx
	if doc, dl := r.docBefore(n); doc != "" {
		ln := line(n.StartPosition())
		r.typeAliases(ctx, doc, dl)
		for _, t := range docTags(doc) {
			emit := r.docRefs(dl + t.line)
			switch t.tag {
			case "shape":
				r.docType(t.typ, false, emit)
			case "property":
				if t.name != "" {
					r.emit(fact.RefDocProperty, t.name, ln, r.docType(t.typ, false, emit), "")
				}
			case "method":
				r.emit(fact.RefDocMethod, t.name, ln, r.docType(t.typ, true, emit), "")
				// the classes its parameters are typed with are referenced
				for _, a := range splitTop(t.args, ',') {
					a, _, _ = strings.Cut(a, "=")
					if f := strings.Fields(a); len(f) > 1 && !strings.ContainsAny(f[0], "$&.") {
						r.docType(f[0], false, emit)
					}
				}
			case "mixin":
				if d := r.docType(t.typ, false, emit); d.Known() {
					if b := d.Alts()[0].Base(); b.Kind == typ.Class && b.Dims == 0 {
						r.emit(fact.RefMixin, b.Name, ln, typ.Desc{}, "")
					}
				}
			}
		}
	}
	if body := n.ChildByFieldName("body"); body != nil {
		r.classBody(body, fq)
	}
	r.cls, r.from = prevCls, prevFrom
}

func (r *refWalker) classBody(body *sitter.Node, fq string) {
	for _, m := range r.named(body) {
		switch m.Kind() {
		case "method_declaration":
			id := ""
			if nn := m.ChildByFieldName("name"); nn != nil && fq != "" {
				id = r.find(fact.Method, fq+"::"+r.text(nn), line(m.StartPosition()))
			}
			r.function(m, id)
		case "property_declaration":
			r.property(m, fq)
		case "const_declaration":
			r.constValues(m)
		case "use_declaration":
			r.traitUse(m)
		case "enum_case":
			if v := m.ChildByFieldName("value"); v != nil {
				r.visit(v)
			}
		case "comment":
			r.docComment(m)
		default:
			r.visit(m)
		}
	}
}

func (r *refWalker) property(m *sitter.Node, fq string) {
	var d typ.Desc
	// declared: the property states a type (maybe one naming no class), so
	// what methods assign to it does not type it
	declared := false
	if t := m.ChildByFieldName("type"); t != nil {
		declared = true
		d = r.typeNode(t, false, func(cfq string, nn *sitter.Node) { r.emitN(fact.RefType, nn, cfq, typ.Desc{}, "") })
	}
	ln := line(m.StartPosition())
	if doc, dl := r.docBefore(m); doc != "" {
		for _, t := range docTags(doc) {
			if t.tag == "shape" {
				r.docType(t.typ, false, r.docRefs(dl+t.line))
			}
			if t.tag == "var" {
				declared = true
				dd := r.docType(t.typ, false, r.docRefs(dl+t.line))
				d = typ.Union(d, dd)
			}
		}
	}
	for _, el := range r.named(m) {
		switch el.Kind() {
		case "attribute_list":
			r.visit(el)
		case "property_element":
			nn := el.ChildByFieldName("name")
			if nn == nil {
				continue
			}
			if v := el.ChildByFieldName("default_value"); v != nil {
				r.visit(v)
			}
			if declared && fq != "" {
				if id := r.find(fact.Property, fq+"::"+r.text(nn), line(el.StartPosition())); id != "" {
					r.refs = append(r.refs, fact.Ref{Kind: fact.RefPropType, From: id, Path: r.path, Line: ln, Name: strings.TrimPrefix(r.text(nn), "$"), Recv: d})
				}
			}
		}
	}
}

func (r *refWalker) traitUse(m *sitter.Node) {
	for _, c := range r.named(m) {
		switch {
		case isNameKind(c.Kind()):
			r.emitN(fact.RefUsesTrait, c, r.sc.class(r.text(c)), typ.Desc{}, "")
		case c.Kind() == "use_list":
			for _, cl := range r.named(c) {
				kids := r.named(cl)
				if len(kids) == 0 {
					continue
				}
				target := "" // the method the alias renames: `\T::m` or `m`
				method := ""
				if kids[0].Kind() == "class_constant_access_expression" {
					parts := r.named(kids[0])
					if len(parts) == 2 {
						tfq := r.sc.class(r.text(parts[0]))
						r.emitN(fact.RefClassName, parts[0], tfq, typ.Desc{}, "")
						method = r.text(parts[1])
						target = `\` + tfq + "::" + method
					}
				} else {
					method = r.text(kids[0])
					target = method
				}
				switch cl.Kind() {
				case "use_instead_of_clause":
					for _, k := range kids[1:] {
						if isNameKind(k.Kind()) {
							r.emitN(fact.RefClassName, k, r.sc.class(r.text(k)), typ.Desc{}, "")
						}
					}
					r.emit(fact.RefTraitAlias, method, line(cl.StartPosition()), typ.Desc{}, "")
					r.refs[len(r.refs)-1].Alias = target
				case "use_as_clause":
					last := kids[len(kids)-1]
					if len(kids) > 1 && last.Kind() == "name" {
						r.emit(fact.RefTraitAlias, r.text(last), line(cl.StartPosition()), typ.Desc{}, "")
						r.refs[len(r.refs)-1].Alias = target
					}
				}
			}
		}
	}
}

// docBefore returns the docblock right before n and its first line, or "".
func (r *refWalker) docBefore(n *sitter.Node) (string, int) {
	p := n.PrevSibling()
	if p == nil || p.Kind() != "comment" {
		return "", 0
	}
	t := r.text(p)
	if !strings.HasPrefix(t, "/**") {
		return "", 0
	}
	return t, line(p.StartPosition())
}

// function walks a function or method: parameters and return types give
// type refs and the variable environment of the body.
func (r *refWalker) function(n *sitter.Node, id string) {
	prevFrom, prevEnv, prevPinned, prevIn, prevGlobals, prevBreaks := r.from, r.env, r.pinned, r.inFunc, r.globals, r.breaks
	r.breaks = nil
	if id != "" {
		r.from = id
	}
	r.env, r.pinned, r.inFunc, r.globals = map[string]typ.Desc{}, map[string]int{}, true, nil
	ln := line(n.StartPosition())
	var docRet typ.Desc
	docParams := map[string]typ.Desc{}
	if doc, dl := r.docBefore(n); doc != "" {
		for _, t := range docTags(doc) {
			d := r.docType(t.typ, t.tag == "return", r.docRefs(dl+t.line))
			switch t.tag {
			case "return":
				docRet = d
			case "param":
				if t.name != "" {
					docParams[t.name] = d
				}
			case "global":
				if t.name != "" && d.Known() {
					r.env[t.name] = d
					r.emit(fact.RefGlobal, t.name, dl+t.line, d, "")
				}
			}
		}
	}
	for _, c := range r.named(n) {
		if c.Kind() == "attribute_list" {
			r.visit(c)
		}
	}
	r.params(n, docParams)
	var ret typ.Desc
	if t := n.ChildByFieldName("return_type"); t != nil {
		ret = r.typeNode(t, true, func(cfq string, nn *sitter.Node) { r.emitN(fact.RefType, nn, cfq, typ.Desc{}, "") })
	}
	if d := typ.Union(ret, docRet); d.Known() && id != "" {
		r.refs = append(r.refs, fact.Ref{Kind: fact.RefReturns, From: id, Path: r.path, Line: ln, Recv: d})
	}
	if b := n.ChildByFieldName("body"); b != nil {
		r.visit(b)
	}
	r.from, r.env, r.pinned, r.inFunc, r.globals, r.breaks = prevFrom, prevEnv, prevPinned, prevIn, prevGlobals, prevBreaks
}

// params types the parameters of n into r.env and emits their type refs.
func (r *refWalker) params(n *sitter.Node, docParams map[string]typ.Desc) {
	ps := n.ChildByFieldName("parameters")
	if ps == nil {
		return
	}
	for _, p := range r.named(ps) {
		switch p.Kind() {
		case "simple_parameter", "variadic_parameter", "property_promotion_parameter":
		default:
			continue
		}
		var d typ.Desc
		if t := p.ChildByFieldName("type"); t != nil {
			d = r.typeNode(t, false, func(cfq string, nn *sitter.Node) { r.emitN(fact.RefType, nn, cfq, typ.Desc{}, "") })
		}
		for _, c := range r.named(p) {
			if c.Kind() == "attribute_list" {
				r.visit(c)
			}
		}
		if v := p.ChildByFieldName("default_value"); v != nil {
			r.visit(v)
		}
		nn := p.ChildByFieldName("name")
		if nn == nil {
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(r.text(nn), "&"), "$")
		if dp := docParams[name]; dp.Known() {
			d = typ.Union(d, dp)
		}
		if p.Kind() == "variadic_parameter" {
			d = d.ArrayOf() // unknown for several types
		}
		if d.Known() {
			r.env[name] = d
		}
		if p.Kind() == "property_promotion_parameter" && r.cls != nil && r.cls.fq != "" {
			if p.ChildByFieldName("type") == nil && !docParams[name].Known() {
				r.untypedPromotion(p, name)
			} else if id := r.find(fact.Property, r.cls.fq+"::$"+name, line(p.StartPosition())); id != "" {
				r.refs = append(r.refs, fact.Ref{Kind: fact.RefPropType, From: id, Path: r.path, Line: line(p.StartPosition()), Name: name, Recv: d})
			}
		}
	}
}

// closure walks an anonymous or arrow function; it sees the variables it
// captures and $this.
func (r *refWalker) closure(n *sitter.Node) {
	prevEnv := r.env
	env := map[string]typ.Desc{}
	if n.Kind() == "arrow_function" {
		for k, v := range prevEnv {
			env[k] = v
		}
	}
	for _, c := range r.named(n) {
		if c.Kind() == "anonymous_function_use_clause" {
			for _, v := range r.named(c) {
				name := strings.TrimPrefix(strings.TrimPrefix(r.text(v), "&"), "$")
				if d, ok := prevEnv[name]; ok {
					env[name] = d
				}
			}
		}
		if c.Kind() == "attribute_list" {
			r.visit(c)
		}
	}
	prevIn, prevGlobals, prevBreaks := r.inFunc, r.globals, r.breaks
	r.env, r.inFunc, r.globals, r.breaks = env, true, nil, nil
	defer func() { r.inFunc, r.globals, r.breaks = prevIn, prevGlobals, prevBreaks }()
	r.params(n, nil)
	if t := n.ChildByFieldName("return_type"); t != nil {
		r.typeNode(t, true, func(cfq string, nn *sitter.Node) { r.emitN(fact.RefType, nn, cfq, typ.Desc{}, "") })
	}
	if b := n.ChildByFieldName("body"); b != nil {
		r.visit(b)
	}
	r.env = prevEnv
}
