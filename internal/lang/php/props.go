// This file records what a class's methods assign to its own properties
// (`$this->p = e`, `self::$p = e`, `$this->p ??= e`): package resolve types a
// property that declares no type from these assignments (resolve/props.go).

package php

import (
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
)

// propAssign records n when it assigns to a property of the class being
// walked. An assignment of null adds no type; one of an unknown value is
// recorded with an empty descriptor, which leaves the property untyped.
func (r *refWalker) propAssign(n *sitter.Node) {
	if r.cls == nil || r.cls.id == "" || !r.inFunc {
		return
	}
	if n.Kind() == "augmented_assignment_expression" {
		if op := n.ChildByFieldName("operator"); op == nil || r.text(op) != "??=" {
			return
		}
	}
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if left == nil || right == nil || isNull(r, right) {
		return
	}
	name := r.ownProp(left)
	if name == "" {
		return
	}
	r.refs = append(r.refs, fact.Ref{Kind: fact.RefPropAssign, From: r.cls.id, Path: r.path, Line: line(left.StartPosition()), Name: name, Recv: r.exprDesc(right)})
}

// ownProp returns p for `$this->p` and `self::$p` / `static::$p`, "" for
// anything else.
func (r *refWalker) ownProp(left *sitter.Node) string {
	switch left.Kind() {
	case "member_access_expression":
		obj, nm := left.ChildByFieldName("object"), left.ChildByFieldName("name")
		if obj != nil && nm != nil && obj.Kind() == "variable_name" && r.text(obj) == "$this" && nm.Kind() == "name" {
			return r.text(nm)
		}
	case "scoped_property_access_expression":
		scope, nm := left.ChildByFieldName("scope"), left.ChildByFieldName("name")
		if scope == nil || nm == nil || nm.Kind() != "variable_name" {
			return ""
		}
		switch fact.Lower(r.text(scope)) {
		case "self", "static":
			return strings.TrimPrefix(r.text(nm), "$")
		}
	}
	return ""
}

func isNull(r *refWalker, e *sitter.Node) bool {
	switch e.Kind() {
	case "null":
		return true
	case "name":
		return fact.Lower(r.text(e)) == "null"
	}
	return false
}

// untypedPromotion records a promoted constructor parameter without a type:
// the constructor assigns it an unknown value.
func (r *refWalker) untypedPromotion(p *sitter.Node, name string) {
	if r.cls == nil || r.cls.id == "" {
		return
	}
	r.refs = append(r.refs, fact.Ref{Kind: fact.RefPropAssign, From: r.cls.id, Path: r.path, Line: line(p.StartPosition()), Name: name})
}
