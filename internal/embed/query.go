// This file builds vectors from words and finds the nearest symbols by exact
// brute-force cosine (the vectors are normalised, so a dot product): fine up
// to about 100,000 symbols.

package embed

import (
	"math"
	"sort"

	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// Mean returns the IDF-weighted mean of the vectors of the words v knows,
// L2-normalised; nil when it knows none of them. v must be indexed.
func Mean(v *lexvec.Vectors, words []string) []float32 {
	acc := make([]float64, v.Dim)
	found := false
	for _, w := range words {
		i, ok := v.Lookup(w)
		if !ok {
			continue
		}
		found = true
		wt := float64(v.WordWeights[i])
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

// Hit is one nearest symbol with its cosine similarity.
type Hit struct {
	ID    string
	Score float64
}

// Nearest returns the k symbols whose vectors are closest to q, best first,
// ties by id; skip (an id, or "") is left out.
func Nearest(v *lexvec.Vectors, q []float32, k int, skip string) []Hit {
	if q == nil || k <= 0 {
		return nil
	}
	hits := make([]Hit, 0, len(v.IDs))
	for i, id := range v.IDs {
		if id == skip {
			continue
		}
		row := v.SymVecs[i*v.Dim : (i+1)*v.Dim]
		var s float32
		for d, x := range row {
			s += x * q[d]
		}
		hits = append(hits, Hit{ID: id, Score: float64(s)})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ID < hits[j].ID
	})
	if len(hits) > k {
		hits = hits[:k]
	}
	return hits
}

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
