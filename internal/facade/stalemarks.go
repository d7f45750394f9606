// This file marks the items of an answer one by one (FT-28): once the cited
// paths are checked (stale.go), a fact whose lines fall in a changed range
// gets a "stale" mark, and an item reached through a chain of edges (callers,
// callees, impact, implementations) gets the mark of the first drifted step of
// its chain: its own definition, an edge's evidence line, or an edge recorded
// in stale_edge because its evidence or an endpoint changed. Unchanged items
// carry no mark, so an answer over a clean tree is unchanged.

package facade

import "github.com/ragraf/ragraf/internal/fact"

// markStale returns result with the stale marks of v set on its items.
// Results without facts to mark are returned as they are.
func markStale(result any, v *StaleView) any {
	if m, ok := result.(staleMarker); ok {
		return m.markStale(v)
	}
	switch r := result.(type) {
	case SymbolResult:
		markSymbols(r.Symbols, v)
		return r
	case OutlineResult:
		markOutline(r.Symbols, v)
		return r
	case ReferencesResult:
		if r.Target != nil {
			markSymbol(r.Target, v)
		}
		for i := range r.Uses {
			u := &r.Uses[i]
			u.Stale = v.At(u.Path, u.Line, u.Line)
			if u.From != nil {
				markSymbol(u.From, v)
			}
		}
		return r
	case CallsResult:
		markSymbol(&r.Target, v)
		for _, l := range [][]Call{r.Stated, r.Derived} {
			for i := range l {
				l[i].Stale = v.Chain(chainSteps(l[i].Symbol, l[i].steps)...)
			}
		}
		return r
	case ImpactResult:
		markSymbols(r.Targets, v)
		for _, b := range []*ImpactBlock{&r.Hard, &r.Soft} {
			for _, l := range [][]ImpactItem{b.Symbols, b.EntryPoints, b.Tables} {
				for i := range l {
					l[i].Stale = v.Chain(chainSteps(l[i].Symbol, l[i].Chain)...)
				}
			}
			markSymbols(b.Tests, v)
		}
		r.Data.markStale(v)
		return r
	case ImplementationsResult:
		markSymbol(&r.Target, v)
		for i := range r.Implementations {
			im := &r.Implementations[i]
			im.Stale = v.Chain(chainSteps(im.Symbol, im.Chain)...)
		}
		return r
	case SearchResult:
		for i := range r.Hits {
			h := &r.Hits[i]
			h.Stale = v.At(h.Path, h.Line, h.EndLine)
		}
		return r
	case ContextResult:
		return r.mark(v)
	case ChangesResult:
		return r.mark(v)
	case CodeResult:
		if r.Symbol != nil {
			markSymbol(r.Symbol, v)
		}
		return r
	}
	return result
}

// staleMarker is a result that marks its own items (slice, flow).
type staleMarker interface{ markStale(v *StaleView) any }

func markSymbol(s *Symbol, v *StaleView) { s.Stale = v.At(s.Path, s.Line, s.EndLine) }

func markSymbols(ss []Symbol, v *StaleView) {
	for i := range ss {
		markSymbol(&ss[i], v)
	}
}

func markOutline(items []OutlineItem, v *StaleView) {
	for i := range items {
		it := &items[i]
		it.Stale = v.At(it.Path, it.Line, it.EndLine)
		markOutline(it.Children, v)
	}
}

// chainSteps are the places an item reached through chain depends on: its
// own definition, then each edge's evidence, from the item towards the
// target.
func chainSteps(s Symbol, chain []Step) []StaleStep {
	out := make([]StaleStep, 0, len(chain)+1)
	out = append(out, StaleStep{Path: s.Path, Start: s.Line, End: s.EndLine})
	for _, st := range chain {
		out = append(out, StaleStep{Path: st.Path, Start: st.Line,
			Edge: fact.EdgeID(fact.EdgeKind(st.Kind), st.From, st.To, st.Path, st.Line)})
	}
	return out
}
