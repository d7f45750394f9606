// This file joins a method's override family into its callers and
// references: a call made through a declaration the method overrides or
// implements (`$action->run()` on a variable typed by the interface) can
// dispatch to it, and a call made to a method that overrides it is a call of
// its contract. Each such use names the declaration it goes through (via);
// it is stated when the call and every overrides edge between are stated,
// derived otherwise.

package facade

import (
	"context"
	"slices"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// maxFamily bounds the members of one override family walked.
const maxFamily = 500

// familyMember is a method of t's override family other than t, with the
// overrides edges linking it to t, from the member towards t.
type familyMember struct {
	id   string
	path []fact.Edge
}

// family returns the methods id overrides or implements, transitively
// (up), and those that override it, transitively (down); never siblings (a
// call on a sibling cannot dispatch to id).
func (s *Service) family(ctx context.Context, snap *snapshot, id string) ([]familyMember, error) {
	var out []familyMember
	seen := map[string]bool{id: true}
	for _, up := range []bool{true, false} {
		queue := []familyMember{{id: id}}
		for len(queue) > 0 && len(out) < maxFamily {
			m := queue[0]
			queue = queue[1:]
			var edges []fact.Edge
			var err error
			if up {
				edges, err = snap.graph.EdgesFrom(ctx, m.id, []fact.EdgeKind{fact.Overrides})
			} else {
				edges, err = snap.graph.EdgeLinksToAny(ctx, []string{m.id}, []fact.EdgeKind{fact.Overrides})
			}
			if err != nil {
				return nil, storeError(err)
			}
			for _, e := range edges {
				next := e.To
				if !up {
					next = e.From
				}
				if seen[next] {
					continue
				}
				seen[next] = true
				n := familyMember{id: next, path: append([]fact.Edge{e}, m.path...)}
				out = append(out, n)
				queue = append(queue, n)
			}
		}
	}
	return out, nil
}

// familyEdges returns the edges of kinds to the members of id's family,
// each with the overrides edges that join its member to id. Edges whose
// source is in skip are left out.
func (s *Service) familyEdges(ctx context.Context, snap *snapshot, id string, kinds []fact.EdgeKind) ([]fact.Edge, map[string][]fact.Edge, error) {
	members, err := s.family(ctx, snap, id)
	if err != nil || len(members) == 0 {
		return nil, nil, err
	}
	paths := map[string][]fact.Edge{}
	ids := make([]string, 0, len(members))
	for _, m := range members {
		paths[m.id] = m.path
		ids = append(ids, m.id)
	}
	edges, err := snap.graph.EdgeLinksToAny(ctx, ids, kinds)
	if err != nil {
		return nil, nil, storeError(err)
	}
	return edges, paths, nil
}

// familyCallers returns the callers of id's family members that are not
// already in seen, as one-level reached items (the call, then the
// overrides edges to id), stated chains first.
func (s *Service) familyCallers(ctx context.Context, snap *snapshot, id string, seen map[string]bool) (hard, soft []reached, err error) {
	edges, paths, err := s.familyEdges(ctx, snap, id, callKinds)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range edges {
		if seen[e.From] {
			continue
		}
		seen[e.From] = true
		r := reached{id: e.From, depth: 1, chain: append([]fact.Edge{e}, paths[e.To]...)}
		if chainStated(r.chain) {
			hard = append(hard, r)
		} else {
			soft = append(soft, r)
		}
	}
	return hard, soft, nil
}

func chainStated(ch []fact.Edge) bool {
	return !slices.ContainsFunc(ch, func(e fact.Edge) bool { return e.Provenance != fact.Stated })
}

// viaNames returns the qualified names of the declarations family chains
// go through (the first step's target when it is not the target itself).
func (s *Service) viaNames(ctx context.Context, snap *snapshot, target string, chains [][]fact.Edge) (map[string]string, error) {
	var ids []string
	for _, ch := range chains {
		if len(ch) > 0 && ch[0].To != target {
			ids = append(ids, ch[0].To)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	syms, err := s.symbolsOf(ctx, snap, ids)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for id, sym := range syms {
		out[id] = sym.QName
	}
	return out, nil
}

// familyUse is one use of another member of a method's family.
type familyUse struct {
	edge       fact.Edge
	via        string
	provenance string
	confidence float64
}

// familyKinds are the uses of a family member that count as uses of the
// method: calls and named references (callables, @see).
var familyKinds = []fact.EdgeKind{fact.Calls, fact.CallsHeuristic, fact.References}

// familyUses returns the uses of kinds of t's family members (a method's
// only), by place.
func (s *Service) familyUses(ctx context.Context, snap *snapshot, t Symbol, kinds []fact.EdgeKind) ([]familyUse, error) {
	if t.Kind != string(fact.Method) {
		return nil, nil
	}
	var ks []fact.EdgeKind
	for _, k := range kinds {
		if slices.Contains(familyKinds, k) {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return nil, nil
	}
	edges, paths, err := s.familyEdges(ctx, snap, t.ID, ks)
	if err != nil || len(edges) == 0 {
		return nil, err
	}
	var chains [][]fact.Edge
	for _, e := range edges {
		chains = append(chains, []fact.Edge{e})
	}
	via, err := s.viaNames(ctx, snap, t.ID, chains)
	if err != nil {
		return nil, err
	}
	out := make([]familyUse, 0, len(edges))
	for _, e := range edges {
		ch := append([]fact.Edge{e}, paths[e.To]...)
		u := familyUse{edge: e, via: via[e.To], provenance: string(fact.Derived), confidence: 1}
		if chainStated(ch) {
			u.provenance = string(fact.Stated)
		}
		for _, x := range ch {
			u.confidence *= x.Confidence
		}
		out = append(out, u)
	}
	slices.SortStableFunc(out, func(a, b familyUse) int {
		if a.edge.EvidencePath != b.edge.EvidencePath {
			return strings.Compare(a.edge.EvidencePath, b.edge.EvidencePath)
		}
		if a.edge.EvidenceLine != b.edge.EvidenceLine {
			return a.edge.EvidenceLine - b.edge.EvidenceLine
		}
		return strings.Compare(a.edge.ID, b.edge.ID)
	})
	return out, nil
}
