// This file answers what a type extends, implements or uses, and what a
// method overrides: the hierarchy upwards, the other direction from
// implementations. The web view draws a type's hierarchy from both.

package facade

import (
	"context"

	"github.com/ragraf/ragraf/internal/fact"
)

// SupertypesArgs names the type or method.
type SupertypesArgs struct {
	ID    string `json:"id,omitempty"`
	QName string `json:"qname,omitempty" jsonschema:"a name (Cart), qualified name or path:line instead of id"`
	Near  string `json:"near,omitempty" jsonschema:"your file: picks among same-named definitions"`
}

// SupertypesResult is the target and what it derives from, nearest first;
// each item's chain runs from the target up to it.
type SupertypesResult struct {
	Target     Symbol           `json:"target"`
	Supertypes []Implementation `json:"supertypes"`
}

// supertypesCap bounds the answer; hierarchies are shallow and narrow.
const supertypesCap = 500

// Supertypes lists what the target extends, implements, uses or overrides,
// transitively up to the depth implementations walks down.
func (s *Service) Supertypes(ctx context.Context, args SupertypesArgs) (*Envelope, error) {
	const op = "supertypes"
	target := Target(args)
	if err := target.check(); err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, op, pager{})
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	env := c.env
	res := SupertypesResult{Supertypes: []Implementation{}}
	t, ok, err := c.target(target)
	if err != nil || !ok {
		return c.fail(res, err)
	}
	res.Target = t
	type up struct {
		id    string
		chain []fact.Edge
	}
	seen := map[string]bool{t.ID: true}
	frontier := []up{{id: t.ID}}
	var found []up
	for depth := 1; depth <= hierarchyDepth && len(frontier) > 0 && len(found) < supertypesCap; depth++ {
		var next []up
		for _, f := range frontier {
			edges, err := snap.graph.EdgesFrom(ctx, f.id, hierarchyKinds)
			if err != nil {
				return nil, storeError(err)
			}
			for _, e := range edges {
				if seen[e.To] {
					continue
				}
				seen[e.To] = true
				u := up{id: e.To, chain: append(append([]fact.Edge{}, f.chain...), e)}
				next = append(next, u)
				found = append(found, u)
			}
		}
		frontier = next
	}
	ids := make([]string, len(found))
	for i, f := range found {
		ids[i] = f.id
	}
	syms, err := s.symbolsOf(ctx, snap, ids)
	if err != nil {
		return nil, err
	}
	paths := []string{t.Path}
	for _, f := range found {
		sym := syms[f.id]
		if sym == nil || len(res.Supertypes) >= supertypesCap {
			continue
		}
		ch := steps(f.chain)
		res.Supertypes = append(res.Supertypes, Implementation{Symbol: *sym, Relation: ch[0].Kind, Depth: len(ch),
			Provenance: chainProvenance(ch), Chain: ch})
		paths = append(paths, sym.Path)
	}
	env.Result = res
	env.Limits = Limits{Limit: supertypesCap, Returned: len(res.Supertypes), Total: len(found), Truncated: len(found) > len(res.Supertypes)}
	env.NotFound = len(res.Supertypes) == 0
	c.cite(paths...)
	return c.done(env.Result)
}

// markStale marks the target and each supertype by its chain, as
// implementations are marked.
func (r SupertypesResult) markStale(v *StaleView) any {
	markSymbol(&r.Target, v)
	for i := range r.Supertypes {
		im := &r.Supertypes[i]
		im.Stale = v.Chain(chainSteps(im.Symbol, im.Chain)...)
	}
	return r
}
