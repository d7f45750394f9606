// This file defines the references operation: every use site of a
// definition with path:line and the kind of use, paged straight from the
// edge index so a symbol with many uses answers its first page fast.

package facade

import (
	"context"

	"github.com/ragraf/ragraf/internal/fact"
)

// ReferencesArgs names the definition and the kinds of use.
type ReferencesArgs struct {
	Target
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
	Via        string     `json:"via,omitempty"`   // the family declaration the use goes through (family.go)
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
	if err := args.Target.check(); err != nil {
		return nil, err
	}
	kinds, err := checkEdgeKinds("kinds", args.Kinds, useKinds)
	if err != nil {
		return nil, err
	}
	pg, err := args.page("references", args)
	if err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, "references", pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	res := ReferencesResult{Uses: []Use{}}
	target, ok, err := c.target(args.Target)
	if err != nil || !ok {
		return c.fail(res, err)
	}
	res.Target = &target
	limit, offset := pg.limit, pg.offset
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
	edges, total, err := c.snap.graph.EdgesTo(ctx, target.ID, kinds, elim, eoff)
	if err != nil {
		return nil, storeError(err)
	}
	from, err := s.symbolsOf(ctx, c.snap, srcIDs(edges))
	if err != nil {
		return nil, err
	}
	for _, e := range edges {
		res.Uses = append(res.Uses, Use{Path: e.EvidencePath, Line: e.EvidenceLine, Kind: string(e.Kind),
			Provenance: string(e.Provenance), Confidence: e.Confidence, From: from[e.From]})
	}
	// a method's family uses follow its own (family.go)
	fam, err := s.familyUses(ctx, c.snap, target, kinds)
	if err != nil {
		return nil, err
	}
	if rest := limit - len(res.Uses); rest > 0 && len(fam) > 0 {
		fo := max(offset-decl-total, 0)
		page := fam[min(fo, len(fam)):min(fo+rest, len(fam))]
		var ids []string
		for _, u := range page {
			ids = append(ids, u.edge.From)
		}
		from, err := s.symbolsOf(ctx, c.snap, ids)
		if err != nil {
			return nil, err
		}
		for _, u := range page {
			res.Uses = append(res.Uses, Use{Path: u.edge.EvidencePath, Line: u.edge.EvidenceLine, Kind: string(u.edge.Kind),
				Provenance: u.provenance, Confidence: u.confidence, From: from[u.edge.From], Via: u.via})
		}
	}
	total += len(fam)
	c.page(len(res.Uses), total+decl)
	if total+decl == 0 {
		c.empty(target.Name)
	}
	c.cite(target.Path)
	for _, u := range res.Uses {
		c.cite(u.Path)
	}
	return c.done(res)
}
