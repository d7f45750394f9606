// This file defines the callers and callees operations. Callers walk call
// edges backwards up to depth levels (closure, in impact.go); both split
// their answer into stated and derived lists.

package facade

import (
	"context"
	"sort"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// CallersArgs names the callee.
type CallersArgs struct {
	ID    string `json:"id,omitempty" jsonschema:"node id of the function or method"`
	QName string `json:"qname,omitempty" jsonschema:"qualified name instead of id, e.g. App\\Cart::addItem"`
	Depth int    `json:"depth,omitempty" jsonschema:"levels of callers (1-5, default 1)"`
	Page
	Output
}

// Call is one calling (or called) definition with the call site and, for
// deeper levels, the chain of calls.
type Call struct {
	Symbol
	Depth      int     `json:"depth"`
	SitePath   string  `json:"site_path"`
	SiteLine   int     `json:"site_line"`
	Kind       string  `json:"kind"`
	Provenance string  `json:"provenance"`
	Confidence float64 `json:"confidence"`
	// Chain is the calls from this definition to the target, beyond depth 1;
	// at depth 1 the site fields above are the whole chain.
	Chain []Step `json:"chain,omitempty"`
	steps []Step // the chain at every depth, for stale marks
}

// CallsResult splits calls by provenance: stated calls are proven targets,
// derived ones are inferred (dynamic receivers, name matches).
type CallsResult struct {
	Target  Symbol `json:"target"`
	Stated  []Call `json:"stated"`
	Derived []Call `json:"derived"`
}

var callKinds = []fact.EdgeKind{fact.Calls, fact.CallsHeuristic}

// Callers lists the definitions that call a function or method.
func (s *Service) Callers(ctx context.Context, args CallersArgs) (*Envelope, error) {
	const op = "callers"
	if err := checkTarget(args.ID, args.QName); err != nil {
		return nil, err
	}
	depth, err := checkRange("depth", args.Depth, 1, 1, 5)
	if err != nil {
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
	res := CallsResult{Stated: []Call{}, Derived: []Call{}}
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
	hard, soft, err := s.hardSoft(ctx, snap, []string{t.ID}, callKinds, depth, true)
	if err != nil {
		return nil, err
	}
	// order every caller by its place, then load the symbols of one page
	places, err := snap.graph.Places(ctx, reachedIDs(append(append([]reached(nil), hard...), soft...)))
	if err != nil {
		return nil, storeError(err)
	}
	hard, soft = byPlace(hard, places), byPlace(soft, places)
	pageHard := window(hard, limit, offset)
	var pageSoft []reached
	if rest := limit - len(pageHard); rest > 0 {
		pageSoft = window(soft, rest, max(offset-len(hard), 0))
	}
	syms, err := s.symbolsOf(ctx, snap, reachedIDs(append(append([]reached(nil), pageHard...), pageSoft...)))
	if err != nil {
		return nil, err
	}
	res.Stated, res.Derived = calls(pageHard, syms), calls(pageSoft, syms)
	return s.finishCalls(ctx, env, snap, pg, res, len(hard)+len(soft))
}

// byPlace drops what reaches a node that does not exist and orders the rest
// as impactItems orders its items: by depth, then by the node's place and id.
func byPlace(rs []reached, places map[string]graph.Place) []reached {
	out := make([]reached, 0, len(rs))
	for _, r := range rs {
		if _, ok := places[r.id]; ok {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.depth != b.depth {
			return a.depth < b.depth
		}
		pa, pb := places[a.id], places[b.id]
		if pa.Path != pb.Path {
			return pa.Path < pb.Path
		}
		if pa.Line != pb.Line {
			return pa.Line < pb.Line
		}
		return a.id < b.id
	})
	return out
}

func (s *Service) finishCalls(ctx context.Context, env *Envelope, snap *snapshot, pg pager, res CallsResult, total int) (*Envelope, error) {
	env.Result = res
	env.Limits = pg.limits(snap, len(res.Stated)+len(res.Derived), total)
	if total == 0 {
		env.NotFound = true
		env.Suggest = append(env.Suggest, Suggestion{Op: "search", Args: map[string]any{"query": res.Target.Name}, Why: "text mentions of the name, which the graph does not link"})
	}
	paths := []string{res.Target.Path}
	for _, l := range [][]Call{res.Stated, res.Derived} {
		for _, c := range l {
			paths = append(paths, c.Path, c.SitePath)
			for _, st := range c.steps {
				paths = append(paths, st.Path)
			}
		}
	}
	return s.done(ctx, env, snap, paths)
}

func calls(rs []reached, syms map[string]*Symbol) []Call {
	items := impactItems(rs, syms) // ordered by depth and place
	out := make([]Call, 0, len(items))
	for _, it := range items {
		first := it.Chain[0]
		out = append(out, newCall(it.Symbol, it.Depth, first.Path, first.Line, first.Kind, chainProvenance(it.Chain), chainConfidence(it.Chain), it.Chain))
	}
	return out
}

func newCall(sym Symbol, depth int, path string, line int, kind, prov string, conf float64, chain []Step) Call {
	c := Call{Symbol: sym, Depth: depth, SitePath: path, SiteLine: line, Kind: kind, Provenance: prov, Confidence: conf, steps: chain}
	if depth > 1 {
		c.Chain = chain
	}
	return c
}

func chainProvenance(ch []Step) string {
	for _, s := range ch {
		if s.Provenance != string(fact.Stated) {
			return string(fact.Derived)
		}
	}
	return string(fact.Stated)
}

func chainConfidence(ch []Step) float64 {
	c := 1.0
	for _, s := range ch {
		c *= s.Confidence
	}
	return c
}

// CalleesArgs names the caller.
type CalleesArgs struct {
	ID    string `json:"id,omitempty" jsonschema:"node id of the function, method or file"`
	QName string `json:"qname,omitempty" jsonschema:"qualified name instead of id"`
	Page
	Output
}

// Callees lists the definitions a function or method calls.
func (s *Service) Callees(ctx context.Context, args CalleesArgs) (*Envelope, error) {
	const op = "callees"
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
	res := CallsResult{Stated: []Call{}, Derived: []Call{}}
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
	edges, err := snap.graph.EdgesFrom(ctx, t.ID, callKinds)
	if err != nil {
		return nil, storeError(err)
	}
	dst := make([]string, 0, len(edges))
	for _, e := range edges {
		dst = append(dst, e.To)
	}
	syms, err := s.symbolsOf(ctx, snap, dst)
	if err != nil {
		return nil, err
	}
	var stated, derived []Call
	for _, e := range edges {
		sym := syms[e.To]
		if sym == nil {
			continue
		}
		ch := steps([]fact.Edge{e})
		c := newCall(*sym, 1, e.EvidencePath, e.EvidenceLine, string(e.Kind), string(e.Provenance), e.Confidence, ch)
		if e.Provenance == fact.Stated {
			stated = append(stated, c)
		} else {
			derived = append(derived, c)
		}
	}
	res.Stated = window(stated, limit, offset)
	if rest := limit - len(res.Stated); rest > 0 {
		res.Derived = window(derived, rest, max(offset-len(stated), 0))
	}
	return s.finishCalls(ctx, env, snap, pg, res, len(stated)+len(derived))
}
