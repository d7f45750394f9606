// This file holds helpers for benchmarks in this and other packages (the MCP
// benchmark asks the same questions through the transport); nothing in the
// product calls them.

package facade

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// BenchOps are the operations the corpus benchmarks time, in report order.
var BenchOps = []string{"symbol", "references", "callers", "impact", "search", "repo_map"}

// CorpusRequests returns ~200 varied requests per operation for the index at
// root: methods named get (phpMyAdmin) or functions (WordPress) and their
// classes. The MCP benchmark uses the same requests.
func CorpusRequests(ctx context.Context, s *Service) (map[string][]string, error) {
	env, err := s.Call(ctx, "symbol", []byte(`{"name":"get","limit":200}`))
	if err != nil {
		return nil, err
	}
	syms := env.Result.(SymbolResult).Symbols
	if len(syms) < 50 {
		env, err = s.Call(ctx, "search", []byte(`{"query":"get","kind":"function","limit":200}`))
		if err != nil {
			return nil, err
		}
		for _, h := range env.Result.(SearchResult).Hits {
			syms = append(syms, Symbol{ID: h.ID, Name: h.Name, QName: h.QName, Container: h.QName})
		}
	}
	if len(syms) == 0 {
		return nil, fmt.Errorf("no symbols to ask about")
	}
	out := map[string][]string{}
	for i := 0; i < 200; i++ {
		sym := syms[i%len(syms)]
		name := sym.Container
		if name == "" {
			name = sym.Name
		}
		out["symbol"] = append(out["symbol"], fmt.Sprintf(`{"name":%q}`, lastName(name)))
		out["references"] = append(out["references"], fmt.Sprintf(`{"id":%q}`, sym.ID))
		out["callers"] = append(out["callers"], fmt.Sprintf(`{"id":%q,"depth":1}`, sym.ID))
		out["impact"] = append(out["impact"], fmt.Sprintf(`{"id":%q,"depth":3}`, sym.ID))
		out["search"] = append(out["search"], fmt.Sprintf(`{"query":%q}`, lastName(name)+" get"))
		out["repo_map"] = append(out["repo_map"], `{"budget_tokens":2000}`)
	}
	return out, nil
}

// BenchLoop is the part of *testing.B that Percentiles uses; taking it as an
// interface keeps package testing out of the ragraf binary.
type BenchLoop interface {
	Loop() bool
	ReportMetric(n float64, unit string)
}

// Percentiles is percentiles for other packages' benchmarks.
func Percentiles(b BenchLoop, call func(i int)) {
	var times []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		call(i)
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	at := func(q float64) float64 {
		return float64(times[min(len(times)-1, int(q*float64(len(times))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
}
