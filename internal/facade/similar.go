// This file defines the similar operation: the symbols whose vectors are
// closest to a given symbol's ("how is this done elsewhere"), by exact
// cosine over the revision's vectors (internal/embed).

package facade

import (
	"context"
)

// SimilarArgs names the symbol to compare against.
type SimilarArgs struct {
	Target
	Page
	Output
}

// SimilarResult lists the symbols most like Target, best first; each hit's
// score.semantic is its cosine similarity to the target. Model names the
// vector model; Fallback says why the list is empty when the revision has no
// vectors or the target none.
type SimilarResult struct {
	Target   Symbol `json:"target"`
	Model    string `json:"model,omitempty"`
	Fallback string `json:"fallback,omitempty"`
	Hits     []Hit  `json:"hits"`
}

// SimilarConcise is similar in concise form.
type SimilarConcise struct {
	Target   Brief   `json:"target"`
	Model    string  `json:"model,omitempty"`
	Fallback string  `json:"fallback,omitempty"`
	Hits     []Brief `json:"hits"`
}

func (r SimilarResult) concise() any {
	out := SimilarConcise{Target: briefSymbol(r.Target), Model: r.Model, Fallback: r.Fallback, Hits: make([]Brief, 0, len(r.Hits))}
	for _, h := range r.Hits {
		out.Hits = append(out.Hits, Brief{ID: h.ID, At: at(h.Path, h.Line), Kind: h.Kind, Name: h.QName, Stale: h.Stale != nil})
	}
	return out
}

// Similar lists the symbols most like a symbol.
func (s *Service) Similar(ctx context.Context, args SimilarArgs) (*Envelope, error) {
	if err := args.Target.check(); err != nil {
		return nil, err
	}
	pg, err := args.page("similar", args)
	if err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, "similar", pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	res := SimilarResult{Hits: []Hit{}}
	t, ok, err := c.target(args.Target)
	if err != nil || !ok {
		return c.fail(res, err)
	}
	res.Target = t
	snap := c.snap
	vec, err := snap.lex.Vectors(ctx)
	if err != nil {
		return nil, storeError(err)
	}
	var hits []Hit
	switch {
	case vec == nil:
		res.Fallback = "similar needs vectors, which this revision does not have (" + vectorReason(snap) + ")"
	case vec.Symbol(t.ID) == nil:
		res.Model = vec.Model
		res.Fallback = "the target has no vector (none of its words is in the static model's vocabulary, or its text was not embedded)"
	default:
		res.Model = vec.Model
		if hits, err = s.semantic(ctx, snap, vec, vec.Symbol(t.ID), t.ID, "", ""); err != nil {
			return nil, err
		}
	}
	res.Hits = window(hits, pg.limit, pg.offset)
	if res.Hits == nil {
		res.Hits = []Hit{}
	}
	c.page(len(res.Hits), len(hits))
	if len(hits) == 0 {
		c.env.NotFound = true
	}
	c.cite(t.Path)
	for _, h := range res.Hits {
		c.cite(h.Path)
	}
	return c.done(res)
}
