// This file defines the implementations operation: classes that extend or
// implement a type, classes that use a trait, and methods that override a
// method, followed transitively down the hierarchy.

package facade

import (
	"context"

	"github.com/ragraf/ragraf/internal/fact"
)

// ImplementationsArgs names the type or method.
type ImplementationsArgs struct {
	Target
	Page
	Output
}

// Implementation is one subtype, trait user or overriding method.
type Implementation struct {
	Symbol
	Relation   string `json:"relation"` // extends | implements | uses_trait | overrides (the first edge)
	Depth      int    `json:"depth"`
	Provenance string `json:"provenance"`
	Chain      []Step `json:"chain"`
}

// ImplementationsResult lists implementations of the target.
type ImplementationsResult struct {
	Target          Symbol           `json:"target"`
	Implementations []Implementation `json:"implementations"`
}

var hierarchyKinds = []fact.EdgeKind{fact.Extends, fact.Implements, fact.UsesTrait, fact.Overrides}

// hierarchyDepth bounds the walk down a hierarchy; PHP hierarchies are shallow.
const hierarchyDepth = 16

// Implementations lists what extends, implements, uses or overrides the target.
func (s *Service) Implementations(ctx context.Context, args ImplementationsArgs) (*Envelope, error) {
	if err := args.Target.check(); err != nil {
		return nil, err
	}
	pg, err := args.page("implementations", args)
	if err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, "implementations", pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	res := ImplementationsResult{Implementations: []Implementation{}}
	t, ok, err := c.target(args.Target)
	if err != nil || !ok {
		return c.fail(res, err)
	}
	res.Target = t
	snap := c.snap
	rs, err := s.closure(ctx, snap, []string{t.ID}, hierarchyKinds, hierarchyDepth, anyEdges, map[string][]fact.Edge{})
	if err != nil {
		return nil, err
	}
	syms, err := s.symbolsOf(ctx, snap, reachedIDs(rs))
	if err != nil {
		return nil, err
	}
	items := impactItems(rs, syms)
	all := make([]Implementation, 0, len(items))
	for _, it := range items {
		all = append(all, Implementation{Symbol: it.Symbol, Relation: it.Chain[0].Kind, Depth: it.Depth,
			Provenance: chainProvenance(it.Chain), Chain: it.Chain})
	}
	res.Implementations = pageOf(pg, all)
	c.page(len(res.Implementations), len(all))
	if len(all) == 0 {
		c.empty(t.Name)
	}
	c.cite(t.Path)
	for _, im := range res.Implementations {
		c.cite(im.Path)
		for _, st := range im.Chain {
			c.cite(st.Path)
		}
	}
	return c.done(res)
}
