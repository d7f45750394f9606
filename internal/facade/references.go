// This file defines the references operation: every use site of a
// definition with path:line and the kind of use, paged straight from the
// edge index so a symbol with many uses answers its first page fast.

package facade

import (
	"context"
	"maps"
	"slices"

	"github.com/ragraf/ragraf/internal/fact"
)

// ReferencesArgs names the definition and the kinds of use.
type ReferencesArgs struct {
	ID                 string   `json:"id,omitempty" jsonschema:"node id from an earlier answer"`
	QName              string   `json:"qname,omitempty" jsonschema:"qualified name instead of id, e.g. App\\Cart::addItem"`
	Kinds              []string `json:"kinds,omitempty" jsonschema:"edge kinds (default all): calls, calls_heuristic, references, instantiates, extends, implements, uses_trait, overrides, includes, imports, queries, references_table, handles, documented_by"`
	IncludeDeclaration bool     `json:"include_declaration,omitempty" jsonschema:"also list the definition itself first"`
	Page
	Output
}

// Use is one use site.
type Use struct {
	Path       string     `json:"path"`
	Line       int        `json:"line"`
	Kind       string     `json:"kind"` // edge kind, or "declaration"
	Provenance string     `json:"provenance"`
	Confidence float64    `json:"confidence"`
	From       *Symbol    `json:"from"`            // the enclosing definition of the use
	Stale      *StaleMark `json:"stale,omitempty"` // the use's line changed since the revision
}

// ReferencesResult lists use sites.
type ReferencesResult struct {
	Target *Symbol `json:"target"`
	Uses   []Use   `json:"uses"`
}

// useKinds are the edge kinds that count as a use of their target.
var useKinds = []fact.EdgeKind{fact.Calls, fact.CallsHeuristic, fact.References, fact.Instantiates, fact.Extends,
	fact.Implements, fact.UsesTrait, fact.Overrides, fact.Includes, fact.Imports, fact.Queries, fact.ReferencesTable,
	fact.Handles, fact.DocumentedBy}

func checkEdgeKinds(field string, kinds []string, allowed []fact.EdgeKind) ([]fact.EdgeKind, error) {
	if len(kinds) == 0 {
		return allowed, nil
	}
	var names []string
	for _, a := range allowed {
		names = append(names, string(a))
	}
	var out []fact.EdgeKind
	for _, k := range kinds {
		v, err := checkEnum(field, k, "", names...)
		if err != nil || v == "" {
			return nil, badInput("%s: unknown kind %q", field, k)
		}
		out = append(out, fact.EdgeKind(v))
	}
	return out, nil
}

// References lists the use sites of a definition.
func (s *Service) References(ctx context.Context, args ReferencesArgs) (*Envelope, error) {
	const op = "references"
	if err := checkTarget(args.ID, args.QName); err != nil {
		return nil, err
	}
	kinds, err := checkEdgeKinds("kinds", args.Kinds, useKinds)
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
	res := ReferencesResult{Uses: []Use{}}
	target, ok, err := s.target(ctx, snap, args.ID, args.QName)
	if err != nil {
		return nil, err
	}
	if !ok {
		env.Result = res
		notFound(env, args.QName)
		return s.done(ctx, env, snap, nil)
	}
	res.Target = &target
	decl := 0
	if args.IncludeDeclaration {
		decl = 1
		if offset == 0 {
			res.Uses = append(res.Uses, Use{Path: target.Path, Line: target.Line, Kind: "declaration", Provenance: string(fact.Stated), Confidence: 1,
				From: &Symbol{ID: target.ID, Kind: target.Kind, Name: target.Name, QName: target.QName, Signature: target.Signature,
					Path: target.Path, Line: target.Line, EndLine: target.EndLine, ContainerID: target.ContainerID, Container: target.Container}})
		}
	}
	eoff, elim := max(offset-decl, 0), limit-len(res.Uses)
	edges, total, err := snap.graph.EdgesTo(ctx, target.ID, kinds, elim, eoff)
	if err != nil {
		return nil, storeError(err)
	}
	from, err := s.symbolsOf(ctx, snap, srcIDs(edges))
	if err != nil {
		return nil, err
	}
	for _, e := range edges {
		f := from[e.From]
		res.Uses = append(res.Uses, Use{Path: e.EvidencePath, Line: e.EvidenceLine, Kind: string(e.Kind),
			Provenance: string(e.Provenance), Confidence: e.Confidence, From: f})
	}
	env.Result = res
	env.Limits = pg.limits(snap, len(res.Uses), total+decl)
	if total+decl == 0 {
		env.NotFound = true
		env.Suggest = append(env.Suggest, Suggestion{Op: "search", Args: map[string]any{"query": target.Name}, Why: "text mentions of the name, which the graph does not link"})
	}
	paths := []string{target.Path}
	for _, u := range res.Uses {
		paths = append(paths, u.Path)
	}
	return s.done(ctx, env, snap, paths)
}

func checkTarget(id, qname string) error {
	if id == "" && qname == "" {
		return badInput("pass id or qname")
	}
	if id != "" && qname != "" {
		return badInput("pass id or qname, not both")
	}
	if err := checkID("id", id); err != nil {
		return err
	}
	return checkName("qname", qname, false)
}

// target resolves id or qname to one definition. An unknown id is an error
// (ids come from earlier answers); an unknown qname is a not-found answer.
// A qname declared more than once picks the first in symbol order.
func (s *Service) target(ctx context.Context, snap *snapshot, id, qname string) (Symbol, bool, error) {
	g := snap.graph
	if id != "" {
		n, ok, err := g.Node(ctx, id)
		if err != nil {
			return Symbol{}, false, storeError(err)
		}
		if !ok {
			return Symbol{}, false, &Error{Code: ErrUnknownID, Message: "no node " + id + " in " + snap.name + "; ids change only between revisions: look the name up again with symbol"}
		}
		syms, err := symbols(ctx, g, []fact.Node{n})
		if err != nil {
			return Symbol{}, false, err
		}
		return syms[0], true, nil
	}
	ns, err := g.NodesByQName(ctx, qname)
	if err != nil {
		return Symbol{}, false, storeError(err)
	}
	if len(ns) == 0 {
		return Symbol{}, false, nil
	}
	best := ns[0]
	for _, n := range ns[1:] {
		if symbolLess(n, best) {
			best = n
		}
	}
	syms, err := symbols(ctx, g, []fact.Node{best})
	if err != nil {
		return Symbol{}, false, err
	}
	return syms[0], true, nil
}

// symbolsOf loads the definitions with the given ids.
func (s *Service) symbolsOf(ctx context.Context, snap *snapshot, ids []string) (map[string]*Symbol, error) {
	byID, err := snap.graph.NodesByID(ctx, ids)
	if err != nil {
		return nil, storeError(err)
	}
	nodes := make([]fact.Node, 0, len(byID))
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		nodes = append(nodes, byID[id])
	}
	syms, err := symbols(ctx, snap.graph, nodes)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*Symbol, len(syms))
	for i := range syms {
		out[syms[i].ID] = &syms[i]
	}
	return out, nil
}

func srcIDs(es []fact.Edge) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, e.From)
	}
	return out
}
