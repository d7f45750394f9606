// This file walks a symbol's family: the declarations it implements or
// overrides and their other implementations, whose uses a server reports as
// the symbol's own.

package lsp

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/resolve"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// familyUses returns the uses of the other members of method n's override
// family (none for other kinds), each with the member it uses.
func (e *evaluator) familyUses(ctx context.Context, n fact.Node) ([]familyUse, error) {
	if n.Kind != fact.Method {
		return nil, nil
	}
	ids, outside, err := e.family(ctx, n.ID)
	if err != nil {
		return nil, err
	}
	// implementations of the same method of one of PHP's own interfaces
	// (ArrayAccess::offsetGet, JsonSerializable::jsonSerialize) are one
	// family too: servers list them together, and no node joins them
	sibs, err := e.builtinSiblings(ctx, n)
	if err != nil {
		return nil, err
	}
	full := map[string]bool{} // members all of whose uses count
	for _, id := range ids {
		if _, ok := outside[id]; !ok {
			full[id] = true
		}
	}
	for _, s := range sibs {
		more, out, err := e.walkFamily(ctx, s, true)
		if err != nil {
			return nil, err
		}
		for _, id := range more {
			if t, ok := out[id]; !ok {
				full[id] = true
				delete(outside, id)
			} else if !full[id] {
				outside[id] = t
			}
		}
		ids = append(ids, more...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var family []familyUse
	for _, id := range ids {
		if id == n.ID {
			continue
		}
		u, err := e.st.UsesOf(ctx, id, refEdgeKinds...)
		if err != nil {
			return nil, err
		}
		for _, x := range u {
			if t, ok := outside[id]; !ok || !within(x, t) {
				family = append(family, familyUse{x, id})
			}
		}
	}
	return family, nil
}

// familyUse is a use of a member of an override family.
type familyUse struct {
	graph.Use
	Member string // the member's node id
}

// builtinSiblings returns the project methods of n's name in other classes
// that implement the same built-in interface method as n.
func (e *evaluator) builtinSiblings(ctx context.Context, n fact.Node) ([]string, error) {
	if n.Parent == "" {
		return nil, nil
	}
	ifaces, err := e.builtinIfaces(ctx, n.Parent, 0)
	if err != nil {
		return nil, err
	}
	mine := map[string]bool{}
	for _, i := range ifaces {
		if resolve.BuiltinDeclares(i, n.Name) {
			mine[i] = true
		}
	}
	if len(mine) == 0 {
		return nil, nil
	}
	cands, err := e.st.NodesByName(ctx, n.Name)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range cands {
		if c.Kind != fact.Method || c.ID == n.ID || c.Parent == "" {
			continue
		}
		theirs, err := e.builtinIfaces(ctx, c.Parent, 0)
		if err != nil {
			return nil, err
		}
		for _, i := range theirs {
			if mine[i] {
				out = append(out, c.ID)
				break
			}
		}
	}
	return out, nil
}

// builtinIfaces lists, lower-cased, the interfaces of PHP itself that a class
// or interface node implements or extends, directly (its signature names
// them: no edge does) or through the project classes and interfaces it
// extends or implements.
func (e *evaluator) builtinIfaces(ctx context.Context, id string, depth int) ([]string, error) {
	if v, ok := e.ifaces[id]; ok || depth > 16 {
		return v, nil
	}
	if e.ifaces == nil {
		e.ifaces = map[string][]string{}
	}
	e.ifaces[id] = nil // cycle guard
	byID, err := e.st.NodesByID(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	var out []string
	sig := byID[id].Signature
	for _, kw := range []string{" implements ", " extends "} {
		_, list, ok := strings.Cut(sig, kw)
		if !ok {
			continue
		}
		list, _, _ = strings.Cut(list, " implements ")
		for _, name := range strings.Split(list, ",") {
			if name = strings.TrimSpace(name); resolve.IsBuiltinClass(name) {
				out = append(out, fact.Lower(strings.TrimPrefix(name, `\`)))
			}
		}
	}
	es, err := e.st.EdgesFrom(ctx, id, []fact.EdgeKind{fact.Extends, fact.Implements})
	if err != nil {
		return nil, err
	}
	for _, ed := range es {
		up, err := e.builtinIfaces(ctx, ed.To, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, up...)
	}
	e.ifaces[id] = out
	return out, nil
}

// family returns the methods of id's override family: in component mode
// the methods connected to it by overrides edges in either direction, in
// chain mode what it overrides and what overrides it, transitively. Traits
// are followed as servers follow them (intelephense, probed on a project
// written for it; TestOverrideFamilyTraits): a trait's method that
// overrides what a using class's parent or interface declares (an edge
// ragraf draws for the using class) is reached from that declaration but
// never leaves the trait upwards, and when it is reached through a sibling
// (after going up from id) only its uses outside the trait's body count,
// since servers file those under the using classes and the ones inside
// under the trait; such a method is returned in outside with its trait,
// and the walk does not go on from it.
func (e *evaluator) family(ctx context.Context, id string) (ids []string, outside map[string]fact.Node, err error) {
	return e.walkFamily(ctx, id, false)
}

// walkFamily is family, from a sibling of the method asked about when
// sibling is set (a method implementing the same method of one of PHP's
// interfaces): everything it reaches is reached through a sibling.
func (e *evaluator) walkFamily(ctx context.Context, id string, sibling bool) (ids []string, outside map[string]fact.Node, err error) {
	seen := map[string]bool{id: true}
	outside = map[string]fact.Node{}
	if trait, ok, err := e.traitOf(ctx, id); err != nil {
		return nil, nil, err
	} else if ok && sibling {
		outside[id] = trait
		return []string{id}, outside, nil
	}
	type step struct {
		id       string
		up, down bool // directions still open from here
		wentUp   bool // reached by going up from id at some point
	}
	queue := []step{{id, true, true, sibling}}
	chain := e.chain
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		up, down, err := e.st.Overrides(ctx, cur.id)
		if err != nil {
			return nil, nil, err
		}
		_, curTrait, err := e.traitOf(ctx, cur.id)
		if err != nil {
			return nil, nil, err
		}
		for _, n := range up {
			if !cur.up || seen[n] {
				continue
			}
			if curTrait {
				if _, t, err := e.traitOf(ctx, n); err != nil {
					return nil, nil, err
				} else if !t {
					continue // the using class's override, not the trait's
				}
			}
			seen[n] = true
			queue = append(queue, step{n, true, !chain, true})
		}
		for _, n := range down {
			if !cur.down || seen[n] {
				continue
			}
			seen[n] = true
			trait, isTrait, err := e.traitOf(ctx, n)
			if err != nil {
				return nil, nil, err
			}
			if isTrait && !curTrait && cur.wentUp {
				outside[n] = trait
				continue
			}
			queue = append(queue, step{n, !chain, true, cur.wentUp})
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, outside, nil
}

// traitOf returns the trait that declares method id, if a trait does.
func (e *evaluator) traitOf(ctx context.Context, id string) (fact.Node, bool, error) {
	m, ok, err := e.st.Node(ctx, id)
	if err != nil || !ok || m.Parent == "" {
		return fact.Node{}, false, err
	}
	p, ok, err := e.st.Node(ctx, m.Parent)
	if err != nil || !ok || p.Kind != fact.Trait {
		return fact.Node{}, false, err
	}
	return p, true, nil
}

// within tells whether use u is inside declaration t's lines.
func within(u graph.Use, t fact.Node) bool {
	return u.Path == t.Path && u.Line >= t.StartLine && u.Line <= t.EndLine
}
