package embed

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// TestNearestBinaryRerank: above ExactLimit vectors, Nearest ranks by sign
// bits then re-ranks RerankDepth by cosine; its top 10 equal the exact top
// 10 on clustered data (recall@10 ≥ 0.95 over 20 queries), and below the
// limit it is exact.
func TestNearestBinaryRerank(t *testing.T) {
	const n, dim = ExactLimit + 10000, 64
	r := rand.New(rand.NewPCG(3, 4))
	v := &lexvec.Vectors{Model: "test", Dim: dim}
	centres := make([][]float64, 200)
	for c := range centres {
		centres[c] = make([]float64, dim)
		for d := range dim {
			centres[c][d] = r.NormFloat64()
		}
	}
	unit := func(x []float64) []float32 {
		var s float64
		for _, a := range x {
			s += a * a
		}
		out := make([]float32, len(x))
		for i, a := range x {
			out[i] = float32(a / math.Sqrt(s))
		}
		return out
	}
	for i := range n {
		c := centres[r.IntN(len(centres))]
		x := make([]float64, dim)
		for d := range dim {
			x[d] = c[d] + 0.7*r.NormFloat64()
		}
		v.IDs = append(v.IDs, fmt.Sprintf("s%06d", i))
		v.SymVecs = append(v.SymVecs, unit(x)...)
	}
	exact := func(q []float32, k int) map[string]bool {
		small := &lexvec.Vectors{Model: v.Model, Dim: dim, IDs: v.IDs, SymVecs: v.SymVecs}
		out := map[string]bool{}
		hits := Nearest(small, q, n, "") // k = n: every row, exact
		for _, h := range hits[:k] {
			out[h.ID] = true
		}
		return out
	}
	found, total := 0, 0
	for range 20 {
		c := centres[r.IntN(len(centres))]
		x := make([]float64, dim)
		for d := range dim {
			x[d] = c[d] + 0.7*r.NormFloat64()
		}
		q := unit(x)
		want := exact(q, 10)
		for _, h := range Nearest(v, q, 10, "") {
			if want[h.ID] {
				found++
			}
		}
		total += 10
	}
	recall := float64(found) / float64(total)
	t.Logf("recall@10 = %.3f over %d vectors × %d dims, depth %d", recall, n, dim, RerankDepth)
	if recall < 0.95 {
		t.Fatalf("recall@10 = %.3f < 0.95", recall)
	}
	if rows := candidateRows(v, v.SymVecs[:dim], 10); len(rows) != RerankDepth {
		t.Fatalf("binary stage kept %d rows, want %d", len(rows), RerankDepth)
	}
	small := &lexvec.Vectors{Model: "t", Dim: dim, IDs: v.IDs[:100], SymVecs: v.SymVecs[:100*dim]}
	all, top := Nearest(small, v.SymVecs[:dim], 100, ""), Nearest(small, v.SymVecs[:dim], 7, "s000003")
	all = slices.DeleteFunc(all, func(h Hit) bool { return h.ID == "s000003" })
	if !slices.Equal(top, all[:7]) {
		t.Fatalf("top 7 %v, the first 7 of all %v", top, all[:7])
	}
	if rows := candidateRows(small, v.SymVecs[:dim], 10); len(rows) != 100 {
		t.Fatalf("a small set is not searched exactly: %d rows", len(rows))
	}
}
