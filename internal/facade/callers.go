// This file defines the callers and callees operations. Callers walk call
// edges backwards up to depth levels (closure, in impact.go); both split
// their answer into stated and derived lists.

package facade

import (
	"context"
	"slices"
	"sort"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// CallersArgs names the callee.
type CallersArgs struct {
	Target
	Depth int `json:"depth,omitempty" jsonschema:"levels of callers (1-5, default 1)"`
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
	// Via is the declaration a call goes through when it is made to another
	// method of the target's override family (an interface's or parent's
	// method it implements, or a method overriding it).
	Via string `json:"via,omitempty"`
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
	if err := args.Target.check(); err != nil {
		return nil, err
	}
	depth, err := checkRange("depth", args.Depth, 1, 1, 5)
	if err != nil {
		return nil, err
	}
	pg, err := args.page("callers", args)
	if err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, "callers", pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	res := CallsResult{Stated: []Call{}, Derived: []Call{}}
	t, ok, err := c.target(args.Target)
	if err != nil || !ok {
		return c.fail(res, err)
	}
	res.Target = t
	snap, limit, offset := c.snap, pg.limit, pg.offset
	hard, soft, err := s.hardSoft(ctx, snap, []string{t.ID}, callKinds, depth, hardAndSoft)
	if err != nil {
		return nil, err
	}
	if t.Kind == string(fact.Method) {
		// calls through the declarations it overrides and to its overriders
		seen := map[string]bool{t.ID: true}
		for _, r := range slices.Concat(hard, soft) {
			seen[r.id] = true
		}
		fh, fs, err := s.familyCallers(ctx, snap, t.ID, seen)
		if err != nil {
			return nil, err
		}
		hard, soft = append(hard, fh...), append(soft, fs...)
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
	var chains [][]fact.Edge
	for _, r := range slices.Concat(pageHard, pageSoft) {
		if r.depth == 1 {
			chains = append(chains, r.chain)
		}
	}
	via, err := s.viaNames(ctx, snap, t.ID, chains)
	if err != nil {
		return nil, err
	}
	for _, l := range [][]Call{res.Stated, res.Derived} {
		for i := range l {
			if st := l[i].steps; l[i].Depth == 1 && len(st) > 0 && st[0].To != t.ID {
				l[i].Via = via[st[0].To]
			}
		}
	}
	return c.calls(res, len(hard)+len(soft))
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

// calls ends a callers or callees call: one page of res out of total.
func (c *reply) calls(res CallsResult, total int) (*Envelope, error) {
	c.page(len(res.Stated)+len(res.Derived), total)
	if total == 0 {
		c.empty(res.Target.Name)
	}
	c.cite(res.Target.Path)
	for _, l := range [][]Call{res.Stated, res.Derived} {
		for _, cl := range l {
			c.cite(cl.Path, cl.SitePath)
			for _, st := range cl.steps {
				c.cite(st.Path)
			}
		}
	}
	return c.done(res)
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
	Target
	Page
	Output
}

// Callees lists the definitions a function or method calls.
func (s *Service) Callees(ctx context.Context, args CalleesArgs) (*Envelope, error) {
	if err := args.Target.check(); err != nil {
		return nil, err
	}
	pg, err := args.page("callees", args)
	if err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, "callees", pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	res := CallsResult{Stated: []Call{}, Derived: []Call{}}
	t, ok, err := c.target(args.Target)
	if err != nil || !ok {
		return c.fail(res, err)
	}
	res.Target = t
	snap, limit, offset := c.snap, pg.limit, pg.offset
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
		cl := newCall(*sym, 1, e.EvidencePath, e.EvidenceLine, string(e.Kind), string(e.Provenance), e.Confidence, ch)
		if e.Provenance == fact.Stated {
			stated = append(stated, cl)
		} else {
			derived = append(derived, cl)
		}
	}
	res.Stated = window(stated, limit, offset)
	if rest := limit - len(res.Stated); rest > 0 {
		res.Derived = window(derived, rest, max(offset-len(stated), 0))
	}
	return c.calls(res, len(stated)+len(derived))
}
