package embed

import (
	"math"
	"slices"
	"testing"
)

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
	r, embedded := c.Reembed(v, nil)
	if embedded != c.Len() || !slices.Equal(r.IDs, v.IDs) {
		t.Fatalf("embedded %d of %d, ids %d against %d", embedded, c.Len(), len(r.IDs), len(v.IDs))
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

// TestM4_EmbeddingReuseKeepsUnchanged: with the digests of the model's
// revision, only a symbol whose text changed is embedded again; the others
// keep their vectors bit for bit, and a word the model never saw adds
// nothing.
func TestM4_EmbeddingReuseKeepsUnchanged(t *testing.T) {
	nodes, chunks := corpus()
	c := NewCorpus(nodes, chunks)
	v := c.Train()
	prev := c.Digests()
	// n000's docblock now speaks of the mail, plus a word nobody used
	chunks[0].Text = "Delivers a letter to the recipient inbox, zyxwvut."
	c2 := NewCorpus(nodes, chunks)
	r, embedded := c2.Reembed(v, prev)
	if embedded != 1 {
		t.Fatalf("embedded %d texts, want 1", embedded)
	}
	if !slices.Equal(r.Words, v.Words) {
		t.Fatal("the word table changed")
	}
	for _, id := range v.IDs {
		if id == "n000" {
			continue
		}
		if !slices.Equal(v.Symbol(id), r.Symbol(id)) {
			t.Fatalf("%s changed though its text did not", id)
		}
	}
	old, now, mail := v.Symbol("n000"), r.Symbol("n000"), v.Symbol("n001")
	if slices.Equal(old, now) {
		t.Fatal("the edited symbol kept its vector")
	}
	if cos(now, mail) <= cos(old, mail) {
		t.Fatalf("the edited symbol did not move towards the mail symbols: %.3f -> %.3f", cos(old, mail), cos(now, mail))
	}
}

func cos(a, b []float32) float64 {
	return dot(a, b) / math.Sqrt(dot(a, a)*dot(b, b))
}
