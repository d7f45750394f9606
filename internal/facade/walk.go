// This file defines the graph walks impact, context and the reach of a change
// share: the closure of a set of nodes along edges of some kinds (hard over
// stated edges, soft over derived ones) and the nodes one edge away from what
// a closure reached (tables, entry points).

package facade

import (
	"context"
	"slices"
	"sort"

	"github.com/ragraf/ragraf/internal/fact"
)

type Step struct {
	Kind       string  `json:"kind"`
	Provenance string  `json:"provenance"`
	Confidence float64 `json:"confidence"`
	From       string  `json:"from"` // node id
	To         string  `json:"to"`   // node id
	Path       string  `json:"path"`
	Line       int     `json:"line"`
}

// reached is one node found by a closure, with the chain that reached it,
// ordered from the node towards the start.
type reached struct {
	id    string
	depth int
	chain []fact.Edge
}

// closure walks edges of kinds backwards (from dst to src) from start, up to
// depth levels, and returns each node reached once, at its shallowest depth,
// with the first chain found in edge order. follow statedEdges limits the
// walk to stated edges. Start nodes are never returned. cache holds the incoming edges of
// nodes already fetched, in the store's order, and is filled as the walk goes,
// so a second walk over the same region reads nothing.
func (s *Service) closure(ctx context.Context, snap *snapshot, start []string, kinds []fact.EdgeKind, depth int, follow edgeTrust, cache map[string][]fact.Edge) ([]reached, error) {
	seen := map[string]bool{}
	for _, id := range start {
		seen[id] = true
	}
	chains := map[string][]fact.Edge{}
	frontier := append([]string(nil), start...)
	sort.Strings(frontier)
	var out []reached
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var missing []string
		for _, id := range frontier {
			if _, ok := cache[id]; !ok {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			edges, err := snap.graph.EdgeLinksToAny(ctx, missing, kinds)
			if err != nil {
				return nil, storeError(err)
			}
			for _, id := range missing {
				cache[id] = nil // fetched, maybe with no edge
			}
			for _, e := range edges {
				cache[e.To] = append(cache[e.To], e)
			}
		}
		var next []string
		for _, to := range frontier {
			for _, e := range cache[to] {
				if follow == statedEdges && e.Provenance != fact.Stated {
					continue
				}
				if seen[e.From] {
					continue
				}
				seen[e.From] = true
				chain := append([]fact.Edge{e}, chains[e.To]...)
				chains[e.From] = chain
				out = append(out, reached{id: e.From, depth: d, chain: chain})
				next = append(next, e.From)
			}
		}
		sort.Strings(next)
		frontier = next
	}
	return out, nil
}

// edgeTrust is which edges a walk follows.
type edgeTrust bool

const (
	anyEdges    edgeTrust = false // stated and derived
	statedEdges edgeTrust = true
)

// walkWant is what hardSoft returns: the hard chains only, or the soft ones
// too (which costs a second walk).
type walkWant bool

const (
	hardOnly    walkWant = false
	hardAndSoft walkWant = true
)

// hardSoft walks over all edges first, then over stated edges from the
// edges that walk fetched (every node the stated walk expands was expanded by
// the first one, at the same depth or shallower), keeping in soft only what
// hard lacks.
func (s *Service) hardSoft(ctx context.Context, snap *snapshot, start []string, kinds []fact.EdgeKind, depth int, want walkWant) (hard, soft []reached, err error) {
	cache := map[string][]fact.Edge{}
	var all []reached
	if want == hardAndSoft {
		if all, err = s.closure(ctx, snap, start, kinds, depth, anyEdges, cache); err != nil {
			return nil, nil, err
		}
	}
	if hard, err = s.closure(ctx, snap, start, kinds, depth, statedEdges, cache); err != nil {
		return nil, nil, err
	}
	if want == hardOnly {
		return hard, nil, nil
	}
	inHard := map[string]bool{}
	for _, r := range hard {
		inHard[r.id] = true
	}
	for _, r := range all {
		if !inHard[r.id] {
			soft = append(soft, r)
		}
	}
	return hard, soft, nil
}

func steps(chain []fact.Edge) []Step {
	out := make([]Step, 0, len(chain))
	for _, e := range chain {
		out = append(out, Step{Kind: string(e.Kind), Provenance: string(e.Provenance), Confidence: e.Confidence,
			From: e.From, To: e.To, Path: e.EvidencePath, Line: e.EvidenceLine})
	}
	return out
}

// impactKinds are the edges along which a change propagates to the user:
// code use, and the queries and references_table edges from code to a table
// that changes.
var impactKinds = []fact.EdgeKind{fact.Calls, fact.CallsHeuristic, fact.References, fact.Instantiates,
	fact.Extends, fact.Implements, fact.UsesTrait, fact.Overrides, fact.Includes,
	fact.Queries, fact.ReferencesTable}

// tableKinds are the edges from code to the tables it touches.
var tableKinds = []fact.EdgeKind{fact.Queries, fact.ReferencesTable}

// handlesKinds are the edges from an entry point to its handler (or from a
// job to the command it runs).
var handlesKinds = []fact.EdgeKind{fact.Handles}

// origin is a node impact starts from or reached, for attach.
type origin struct {
	id    string
	depth int
	chain []fact.Edge
	hard  bool
}

func origins(start []string, hard, soft []reached) []origin {
	var out []origin
	for _, id := range start {
		out = append(out, origin{id: id, hard: true})
	}
	for _, r := range hard {
		out = append(out, origin{id: r.id, depth: r.depth, chain: r.chain, hard: true})
	}
	for _, r := range soft {
		out = append(out, origin{id: r.id, depth: r.depth, chain: r.chain})
	}
	return out
}

// attachOpts says which edges attach follows and how.
type attachOpts struct {
	kinds []fact.EdgeKind
	// forward follows origin -> node (tables); otherwise node -> origin
	// (entry points).
	forward bool
	// again follows found nodes again (a cron job runs a command that
	// handles the change), so entry points are reported whatever the depth
	// of the closure.
	again bool
	// skip holds nodes never returned.
	skip map[string]bool
}

// attach finds the nodes one edge of opt.kinds away from the origins. A node
// reached from a hard origin by a stated edge is hard; any other is soft
// unless hard has it.
func (s *Service) attach(ctx context.Context, snap *snapshot, from []origin, opt attachOpts) (hard, soft []reached, err error) {
	kinds, forward, again, skip := opt.kinds, opt.forward, opt.again, opt.skip
	seenHard, seenSoft := map[string]bool{}, map[string]bool{}
	asked := map[string]bool{}
	// only nodes at an end of such an edge can have one: ask only those
	ends, err := snap.graph.EdgeEnds(ctx, kinds, forward)
	if err != nil {
		return nil, nil, storeError(err)
	}
	for len(from) > 0 {
		// one query for the whole level; each origin's edges keep the order
		// a query for it alone would give
		var ids []string
		for _, o := range from {
			if !asked[o.id] && ends[o.id] {
				ids = append(ids, o.id)
			}
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		var fetched []fact.Edge
		switch {
		case len(ids) == 0:
		case forward:
			fetched, err = snap.graph.EdgesFromAny(ctx, ids, kinds)
		default:
			fetched, err = snap.graph.EdgeLinksToAny(ctx, ids, kinds)
		}
		if err != nil {
			return nil, nil, storeError(err)
		}
		byEnd := map[string][]fact.Edge{}
		for _, e := range fetched {
			end := e.To
			if forward {
				end = e.From
			}
			byEnd[end] = append(byEnd[end], e)
		}
		var next []origin
		for _, o := range from { // shallowest first
			if asked[o.id] {
				continue
			}
			asked[o.id] = true
			for _, e := range byEnd[o.id] {
				to := e.To
				if !forward {
					to = e.From
				}
				if skip[to] {
					continue
				}
				r := reached{id: to, depth: o.depth + 1, chain: append([]fact.Edge{e}, o.chain...)}
				isHard := o.hard && e.Provenance == fact.Stated
				switch {
				case isHard && !seenHard[to]:
					seenHard[to] = true
					hard = append(hard, r)
				case !isHard && !seenSoft[to]:
					seenSoft[to] = true
					soft = append(soft, r)
				default:
					continue
				}
				if again {
					next = append(next, origin{id: to, depth: r.depth, chain: r.chain, hard: isHard})
				}
			}
		}
		from = next
	}
	kept := soft[:0]
	for _, r := range soft {
		if !seenHard[r.id] {
			kept = append(kept, r)
		}
	}
	return hard, kept, nil
}
