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
	ID    string `json:"id,omitempty" jsonschema:"node id of a class, interface, trait or method"`
	QName string `json:"qname,omitempty" jsonschema:"qualified name instead of id, e.g. App\\Countable"`
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
	const op = "implementations"
	if err := checkTarget(args.ID, args.QName); err != nil {
		return nil, err
	}
	pg, err := args.page(op, args)
	if err != nil {
		return nil, err
	}
	limit, offset := pg.limit, pg.offset
	snap, release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := pg.check(snap); err != nil {
		return nil, err
	}
	env := s.envelope(op, snap)
	res := ImplementationsResult{Implementations: []Implementation{}}
	t, ok, err := s.target(ctx, snap, args.ID, args.QName)
	if err != nil {
		return nil, err
	}
	if !ok {
		env.Result = res
		notFound(env, args.QName)
		return s.done(ctx, env, snap, nil)
	}
	res.Target = t
	rs, err := s.closure(ctx, snap, []string{t.ID}, hierarchyKinds, hierarchyDepth, false, map[string][]fact.Edge{})
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
	res.Implementations = window(all, limit, offset)
	env.Result = res
	env.Limits = pg.limits(snap, len(res.Implementations), len(all))
	if len(all) == 0 {
		env.NotFound = true
		env.Suggest = append(env.Suggest, Suggestion{Op: "search", Args: map[string]any{"query": t.Name}, Why: "text mentions of the name, which the graph does not link"})
	}
	paths := []string{t.Path}
	for _, im := range res.Implementations {
		paths = append(paths, im.Path)
		for _, st := range im.Chain {
			paths = append(paths, st.Path)
		}
	}
	return s.done(ctx, env, snap, paths)
}
