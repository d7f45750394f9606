// This file describes the type of an expression for the reference walk: the
// type descriptor (types.go) a value holds, from its variables, calls, `new`,
// ternaries, match arms and `::` scopes.

package php

import (
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/typ"
)

// exprDesc describes the type of an expression; unknown when it cannot.
func (r *refWalker) exprDesc(e *sitter.Node) typ.Desc {
	switch e.Kind() {
	case "variable_name":
		name := strings.TrimPrefix(r.text(e), "$")
		if name == "this" {
			if r.cls != nil && r.cls.fq != "" {
				if d := r.env["this"]; d.Known() {
					// `$this instanceof I`: the class and I, whose methods a
					// trait or an abstract class may call before declaring them
					return typ.Join(typ.NewClass(r.cls.fq), d)
				}
				return typ.NewClass(r.cls.fq)
			}
			if r.cls != nil && r.cls.parent != "" {
				// an anonymous class: what its body does not declare comes
				// from the class it extends (calls to its own methods are
				// marked PropAnonMethod)
				return typ.NewClass(r.cls.parent)
			}
			return typ.Desc{}
		}
		if d, ok := r.env[name]; ok || r.inFunc {
			return d
		}
		return typ.NewGlobal(name) // a file-scope variable is a global
	case "object_creation_expression":
		for _, c := range r.named(e) {
			if isNameKind(c.Kind()) || c.Kind() == "relative_scope" {
				if fq := r.classRef(c); fq != "" {
					return typ.NewClass(fq)
				}
				return typ.Desc{}
			}
		}
	case "clone_expression", "parenthesized_expression", "error_suppression_expression":
		if k := r.named(e); len(k) == 1 {
			return r.exprDesc(k[0])
		}
	case "member_call_expression", "nullsafe_member_call_expression":
		obj, nm := e.ChildByFieldName("object"), e.ChildByFieldName("name")
		if obj != nil && nm != nil && nm.Kind() == "name" {
			return step(r.exprDesc(obj), typ.Step{Kind: typ.Method, Name: r.text(nm)})
		}
	case "member_access_expression", "nullsafe_member_access_expression":
		obj, nm := e.ChildByFieldName("object"), e.ChildByFieldName("name")
		if k := r.narrowKey(e); k != "" && r.env[k].Known() {
			return r.env[k] // narrowed by instanceof
		}
		if obj != nil && nm != nil && nm.Kind() == "name" {
			return step(r.exprDesc(obj), typ.Step{Kind: typ.Prop, Name: r.text(nm)})
		}
	case "scoped_call_expression":
		scope, nm := e.ChildByFieldName("scope"), e.ChildByFieldName("name")
		if scope != nil && nm != nil && nm.Kind() == "name" {
			return step(r.scopeDesc(scope), typ.Step{Kind: typ.StaticMethod, Name: r.text(nm)})
		}
	case "scoped_property_access_expression":
		scope, nm := e.ChildByFieldName("scope"), e.ChildByFieldName("name")
		if scope != nil && nm != nil && nm.Kind() == "variable_name" {
			return step(r.scopeDesc(scope), typ.Step{Kind: typ.StaticProp, Name: strings.TrimPrefix(r.text(nm), "$")})
		}
	case "function_call_expression":
		fn := e.ChildByFieldName("function")
		if fn != nil && isNameKind(fn.Kind()) {
			if elementFuncs[strings.TrimPrefix(fact.Lower(r.text(fn)), `\`)] {
				// array_shift($nodes) and the like return an element of their array
				if args := e.ChildByFieldName("arguments"); args != nil {
					if a := r.named(args); len(a) > 0 {
						arg := a[0]
						if arg.Kind() == "argument" && arg.NamedChildCount() == 1 {
							arg = arg.NamedChild(0)
						}
						if d := r.exprDesc(arg); d.Known() {
							return step(d, typ.Step{Kind: typ.Elem})
						}
					}
				}
				return typ.Desc{}
			}
			fq, alt := r.sc.function(r.text(fn))
			if alt != "" {
				return typ.NewFunc(fq, alt)
			}
			return typ.NewFunc(fq)
		}
	case "assignment_expression":
		if rt := e.ChildByFieldName("right"); rt != nil {
			return r.exprDesc(rt)
		}
	case "conditional_expression":
		// `c ? a : b` is an a or a b; `a ?: b` likewise
		a, b := e.ChildByFieldName("body"), e.ChildByFieldName("alternative")
		if a == nil {
			a = e.ChildByFieldName("condition")
		}
		if a != nil && b != nil {
			return r.eitherDesc(a, b)
		}
	case "match_expression":
		// `match ($t) { 'a' => new A, default => new B }` is an A or a B; an
		// arm that throws or gives null adds nothing
		return r.matchDesc(e)
	case "binary_expression":
		// `a ?? b` is an a or a b
		op, a, b := e.ChildByFieldName("operator"), e.ChildByFieldName("left"), e.ChildByFieldName("right")
		if op != nil && a != nil && b != nil && r.text(op) == "??" {
			return r.eitherDesc(a, b)
		}
	case "subscript_expression":
		if g := globalsKey(r, e); g != "" {
			return typ.NewGlobal(g)
		}
		// an element of a typed array, or what an ArrayAccess object's
		// offsetGet returns
		if k := r.named(e); len(k) == 2 {
			return step(r.exprDesc(k[0]), typ.Step{Kind: typ.Elem})
		}
	}
	return typ.Desc{}
}

// eitherDesc is the type of a value that is one of the expressions a and b:
// the union of both types, "" when either is unknown. A null literal adds
// nothing, as `?Foo` types a Foo.
func (r *refWalker) matchDesc(e *sitter.Node) typ.Desc {
	body := e.ChildByFieldName("body")
	if body == nil {
		return typ.Desc{}
	}
	var d typ.Desc
	arms := 0
	for _, arm := range r.named(body) {
		v := arm.ChildByFieldName("return_expression")
		if v == nil || v.Kind() == "throw_expression" || isNull(r, v) {
			continue
		}
		ad := r.exprDesc(v)
		if !ad.Known() {
			return typ.Desc{} // an arm of unknown type: the value is unknown
		}
		if arms++; arms == 1 {
			d = ad
		} else if d = either(d, ad); !d.Known() {
			return typ.Desc{}
		}
	}
	return d
}

func (r *refWalker) eitherDesc(a, b *sitter.Node) typ.Desc {
	switch {
	case isNull(r, a):
		return r.exprDesc(b)
	case isNull(r, b):
		return r.exprDesc(a)
	}
	return either(r.exprDesc(a), r.exprDesc(b))
}

// either describes a value that is an a or a b: a strict group, which
// package resolve types only when both a and b evaluate to a type, so an
// unknown side never lets the other pass for proven. It is unknown when
// either is.
func either(a, b typ.Desc) typ.Desc {
	if d := typ.Either(a, b); d.Len() <= maxDesc {
		return d
	}
	return typ.Desc{}
}

// scopeDesc describes the left side of `::` without emitting anything.
func (r *refWalker) scopeDesc(scope *sitter.Node) typ.Desc {
	if isNameKind(scope.Kind()) || scope.Kind() == "relative_scope" {
		if fq := r.classRef(scope); fq != "" {
			return typ.NewClass(fq)
		}
		return typ.Desc{}
	}
	return r.exprDesc(scope)
}
