package embed

import (
	"math"
	"slices"
	"testing"

	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// wordsOf serves a trained model's word rows, as a revision's file would,
// and records the words asked.
func wordsOf(v *lexvec.Vectors, asked *[]string) func([]string) (*lexvec.Vectors, error) {
	return func(ws []string) (*lexvec.Vectors, error) {
		*asked = append(*asked, ws...)
		out := &lexvec.Vectors{Model: v.Model, Dim: v.Dim}
		for _, w := range slices.Sorted(slices.Values(ws)) {
			if i, ok := v.Lookup(w); ok {
				out.Words = append(out.Words, w)
				out.WordWeights = append(out.WordWeights, v.WordWeights[i])
				out.WordVecs = append(out.WordVecs, v.WordVecs[i*v.Dim:(i+1)*v.Dim]...)
			}
		}
		out.Index()
		return out, nil
	}
}

// TestM4_EmbeddingReuseMatchesTraining: re-embedding every text with the
// trained model's stored word vectors gives the vectors training gave (the
// same words, weights and length scaling; the common direction is already
// out of the stored word vectors), within float32 rounding.
func TestM4_EmbeddingReuseMatchesTraining(t *testing.T) {
	nodes, chunks := corpus()
	c := NewCorpus(nodes, chunks)
	v := c.Train()
	if v == nil {
		t.Fatal("no model")
	}
	var asked []string
	r, gone, embedded, err := c.Reembed(nil, wordsOf(v, &asked))
	if err != nil || embedded != c.Len() || len(gone) != 0 || !slices.Equal(r.IDs, v.IDs) {
		t.Fatalf("embedded %d of %d, %d gone, ids %d against %d: %v", embedded, c.Len(), len(gone), len(r.IDs), len(v.IDs), err)
	}
	for i, id := range v.IDs {
		a, b := v.Symbol(id), r.Symbol(id)
		for k := range a {
			if math.Abs(float64(a[k]-b[k])) > 1e-5 {
				t.Fatalf("symbol %d (%s) dimension %d: trained %g, re-embedded %g", i, id, k, a[k], b[k])
			}
		}
	}
}

// TestM4_EmbeddingReuseEmbedsOnlyChanged: with the digests of the model's
// revision, only a symbol whose text changed is embedded again, only its
// words are asked for, and a word the model never saw adds nothing; a
// removed symbol loses its vector.
func TestM4_EmbeddingReuseEmbedsOnlyChanged(t *testing.T) {
	nodes, chunks := corpus()
	c := NewCorpus(nodes, chunks)
	v := c.Train()
	prev := c.Digests()
	// n000's docblock now speaks of the mail, plus a word nobody used; n001 is gone
	chunks[0].Text = "Delivers a letter to the recipient inbox, zyxwvut."
	nodes = slices.Delete(nodes, 1, 2)
	var asked []string
	r, gone, embedded, err := NewCorpus(nodes, chunks).Reembed(prev, wordsOf(v, &asked))
	if err != nil || embedded != 1 || !slices.Equal(r.IDs, []string{"n000"}) || !slices.Equal(gone, []string{"n001"}) {
		t.Fatalf("embedded %d %v, gone %v: %v", embedded, r.IDs, gone, err)
	}
	if !slices.Contains(asked, "zyxwvut") || slices.Contains(asked, "basket") {
		t.Fatalf("words asked: %v", asked)
	}
	old, now, mail := v.Symbol("n000"), r.Symbol("n000"), v.Symbol("n003")
	if slices.Equal(old, now) {
		t.Fatal("the edited symbol kept its vector")
	}
	if cos(now, mail) <= cos(old, mail) {
		t.Fatalf("the edited symbol did not move towards the mail symbols: %.3f -> %.3f", cos(old, mail), cos(now, mail))
	}
	// the unknown word changes nothing: the same text without it embeds alike
	chunks[0].Text = "Delivers a letter to the recipient inbox."
	r2, _, _, _ := NewCorpus(nodes, chunks).Reembed(prev, wordsOf(v, &asked))
	if !slices.Equal(r2.Symbol("n000"), now) {
		t.Fatal("a word the model never saw changed the vector")
	}
}

func cos(a, b []float32) float64 {
	return dot(a, b) / math.Sqrt(dot(a, a)*dot(b, b))
}
