// This file builds vectors from words and finds the nearest symbols by dot
// product (cosine for unit vectors; the static model shortens the vectors of
// symbols with little text): exact up to ExactLimit vectors, sign bits then
// a float re-rank above.

package embed

import (
	"math"
	"math/bits"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// Mean returns the IDF-weighted mean of the vectors of the words v knows,
// L2-normalised; nil when it knows none of them. v must be indexed.
func Mean(v *lexvec.Vectors, words []string) []float32 {
	return MeanWeighted(v, words, nil)
}

// MeanWeighted is Mean with each word's IDF weight multiplied by its weight
// in weights (nil: 1 each).
func MeanWeighted(v *lexvec.Vectors, words []string, weights []float64) []float32 {
	acc := make([]float64, v.Dim)
	found := false
	for k, w := range words {
		i, ok := v.Lookup(w)
		if !ok {
			continue
		}
		found = true
		wt := float64(v.WordWeights[i])
		if weights != nil {
			wt *= weights[k]
		}
		for d, x := range v.WordVecs[i*v.Dim : (i+1)*v.Dim] {
			acc[d] += wt * float64(x)
		}
	}
	if !found {
		return nil
	}
	var s float64
	for _, x := range acc {
		s += x * x
	}
	if s == 0 {
		return nil
	}
	s = math.Sqrt(s)
	out := make([]float32, v.Dim)
	for d, x := range acc {
		out[d] = float32(x / s)
	}
	return out
}

// Query embeds free text; nil when no word of it is known.
func Query(v *lexvec.Vectors, text string) []float32 {
	var words []string
	for _, w := range Words(text) {
		if _, ok := v.Lookup(Stem(w)); ok {
			w = Stem(w)
		}
		words = append(words, w)
	}
	return Mean(v, words)
}

// QueryWeighted embeds weighted words (each stemmed when the vocabulary
// knows its stem); nil when none is known.
func QueryWeighted(v *lexvec.Vectors, words []string, weights []float64) []float32 {
	ws := make([]string, len(words))
	for i, w := range words {
		ws[i] = strings.ToLower(w)
		if _, ok := v.Lookup(Stem(ws[i])); ok {
			ws[i] = Stem(ws[i])
		}
	}
	return MeanWeighted(v, ws, weights)
}

// Hit is one nearest symbol with its dot product with the query.
type Hit struct {
	ID    string
	Score float64
}

// ExactLimit is the number of vectors up to which Nearest compares the query
// with every float vector; above it, and when fewer than all are asked for,
// it ranks by the Hamming distance of the sign bits first and re-ranks the
// RerankDepth best by cosine (measured: 500k × 384 dims, recall@10 1.0 at
// depth 1,000).
const (
	ExactLimit  = 20000
	RerankDepth = 1000
)

// Nearest returns the k symbols whose vectors are closest to q, best first,
// ties by id; skip (an id, or "") is left out.
func Nearest(v *lexvec.Vectors, q []float32, k int, skip string) []Hit {
	if q == nil || k <= 0 || len(q) != v.Dim {
		return nil
	}
	rows := candidateRows(v, q, k)
	// the k best in a min-heap (worst on top), then sorted: a full sort of
	// every row costs more than the dot products on a large revision
	worse := func(a, b Hit) bool { return a.Score < b.Score || (a.Score == b.Score && a.ID > b.ID) }
	heap := make([]Hit, 0, min(k, len(rows)))
	down := func(i int) {
		for {
			l, m := 2*i+1, i
			if l < len(heap) && worse(heap[l], heap[m]) {
				m = l
			}
			if r := l + 1; r < len(heap) && worse(heap[r], heap[m]) {
				m = r
			}
			if m == i {
				return
			}
			heap[i], heap[m] = heap[m], heap[i]
			i = m
		}
	}
	for _, i := range rows {
		id := v.IDs[i]
		if id == skip {
			continue
		}
		row := v.SymVecs[i*v.Dim : (i+1)*v.Dim]
		var s float32
		for d, x := range row {
			s += x * q[d]
		}
		h := Hit{ID: id, Score: float64(s)}
		switch {
		case len(heap) < k:
			heap = append(heap, h)
			for j := len(heap) - 1; j > 0; {
				p := (j - 1) / 2
				if !worse(heap[j], heap[p]) {
					break
				}
				heap[j], heap[p] = heap[p], heap[j]
				j = p
			}
		case worse(heap[0], h):
			heap[0] = h
			down(0)
		}
	}
	sort.Slice(heap, func(i, j int) bool { return worse(heap[j], heap[i]) })
	return heap
}

// candidateRows is every row for an exact search, or the rows of the
// RerankDepth (at least k+1) smallest Hamming distances to q's sign bits.
func candidateRows(v *lexvec.Vectors, q []float32, k int) []int {
	n := len(v.IDs)
	depth := max(RerankDepth, k+1)
	if n <= ExactLimit || depth >= n {
		rows := make([]int, n)
		for i := range rows {
			rows[i] = i
		}
		return rows
	}
	bits, words := v.Signs()
	qb := make([]uint64, words)
	for d, x := range q {
		if x > 0 {
			qb[d/64] |= 1 << (d % 64)
		}
	}
	dist := make([]uint16, n)
	count := make([]int, v.Dim+1)
	for i := range n {
		var h int
		for w, b := range bits[i*words : (i+1)*words] {
			h += popcount(b ^ qb[w])
		}
		dist[i] = uint16(h)
		count[h]++
	}
	// the distance below which fewer than depth rows lie: take all rows
	// under it, then rows at it in order until depth
	limit, taken := 0, 0
	for limit <= v.Dim && taken+count[limit] < depth {
		taken += count[limit]
		limit++
	}
	rows := make([]int, 0, depth)
	atLimit := depth - taken
	for i, d := range dist {
		switch {
		case int(d) < limit:
			rows = append(rows, i)
		case int(d) == limit && atLimit > 0:
			rows = append(rows, i)
			atLimit--
		}
	}
	return rows
}

func popcount(x uint64) int { return bits.OnesCount64(x) }

// Expand returns up to k words of the vocabulary nearest the vector of text
// (by cosine, best first, ties by word), without the words of text itself:
// the words the project uses for what the text asks, for a lexical query.
func Expand(v *lexvec.Vectors, text string, k int) []string {
	q := Query(v, text)
	if q == nil || k <= 0 {
		return nil
	}
	own := map[string]bool{}
	for _, w := range Words(text) {
		own[w], own[Stem(w)] = true, true
	}
	type near struct {
		word string
		cos  float64
	}
	var best []near
	for i, w := range v.Words {
		if own[w] {
			continue
		}
		var dot, norm float64
		for d, x := range v.WordVecs[i*v.Dim : (i+1)*v.Dim] {
			dot += float64(x) * float64(q[d])
			norm += float64(x) * float64(x)
		}
		if norm == 0 {
			continue
		}
		best = append(best, near{w, dot / math.Sqrt(norm)})
	}
	sort.Slice(best, func(i, j int) bool {
		if best[i].cos != best[j].cos {
			return best[i].cos > best[j].cos
		}
		return best[i].word < best[j].word
	})
	out := make([]string, 0, k)
	for _, b := range best[:min(k, len(best))] {
		out = append(out, b.word)
	}
	return out
}
