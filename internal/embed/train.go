// Package embed is the vector layer's model that needs no download: a static
// word embedding trained on the project at index time, and the symbol and
// query vectors built from it.
//
// Training: every symbol is a small document (its split name and qualified
// name, signature, path, docblock and the comments in its body, each English
// word reduced to its stem by Stem). Words co-occur within a window of the
// document's word sequence, and every name part co-occurs with every word of
// its document, which ties the words of comments to the identifiers they
// describe. The counts are weighted by positive pointwise mutual information
// (PPMI, context counts smoothed by the power 0.75, symmetrised) and reduced
// to Dim dimensions by a randomised eigendecomposition of the symmetric
// matrix (range finder, power iterations, Gram-Schmidt, Jacobi on the small
// projection). A word's vector is its eigenvector row scaled by the square
// root of the eigenvalue, L2-normalised, less its part along the direction
// of the symbols' average (removeCommon); a symbol's is the IDF-weighted mean
// of its words' vectors, L2-normalised, then shortened when its text holds
// few words besides its name (lengthScale).
//
// Everything is deterministic: the vocabulary is sorted, the random start is
// seeded, and every sum runs in a fixed order (FT-13).
package embed

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/lexvec"
	"github.com/ragraf/ragraf/internal/store/rowhash"
)

// ModelID names the model in capability and in lexvec.sqlite's meta.
const ModelID = "static:project"

// Dim is the number of dimensions of a vector.
const Dim = 128

const (
	maxVocab    = 10000 // most frequent words kept
	minDocFreq  = 2     // a word in one document only says nothing about others
	window      = 4     // words either side that co-occur in the sequence
	maxDocWords = 200   // a long docblock adds little beyond its start
	oversample  = 4     // 0, 2, 4, 6 and 10 differ by noise on the judged queries; fewer cost less
	powerIters  = 2
	seed        = 0x7261677261660001
)

// Settings fingerprints what a trained model depends on besides the
// content: the model, its constants and trainVersion. A revision's model is
// reused by the next only under the same settings (internal/rev).
var Settings = fmt.Sprintf("%s dim=%d vocab=%d mindf=%d window=%d docwords=%d oversample=%d power=%d seed=%x prior=%d v%d",
	ModelID, Dim, maxVocab, minDocFreq, window, maxDocWords, oversample, powerIters, uint64(seed), lengthPrior, trainVersion)

// trainVersion changes whenever training changes what it computes.
const trainVersion = 1

// Train builds the model and the symbol vectors of a revision's content. It
// returns nil when the content has too few words to train on.
func Train(nodes []fact.Node, chunks []fact.TextChunk) *lexvec.Vectors {
	return NewCorpus(nodes, chunks).Train()
}

// Corpus is a revision's symbols as the model reads them, sorted by id.
type Corpus struct {
	syms []symText
}

// NewCorpus gathers the texts of a revision's symbols.
func NewCorpus(nodes []fact.Node, chunks []fact.TextChunk) *Corpus {
	return &Corpus{syms: symbolTexts(nodes, chunks)}
}

// Len is the number of symbols.
func (c *Corpus) Len() int { return len(c.syms) }

// Digests fingerprints each symbol's text (name, qualified name, signature,
// path, docblocks and comments), from which its document is read: two
// revisions whose digests agree on a symbol give it the same vector from the
// same model.
func (c *Corpus) Digests() map[string]uint64 {
	out := make(map[string]uint64, len(c.syms))
	for i := range c.syms {
		st := &c.syms[i]
		h := rowhash.New()
		h.Str(st.name)
		h.Str(st.sig)
		h.Str(st.path)
		h.Int(int64(len(st.docblocks)))
		for _, x := range st.docblocks {
			h.Str(x)
		}
		h.Int(int64(len(st.comments)))
		for _, x := range st.comments {
			h.Str(x)
		}
		out[st.id] = h.Sum()
	}
	return out
}

// Train builds the model and the symbol vectors of the corpus; nil when it
// has too few words to train on.
func (c *Corpus) Train() *lexvec.Vectors {
	docs, terms := documents(c.syms)
	words, df, row := vocabulary(docs, terms)
	if len(words) < 2 {
		return nil
	}
	enc := encode(docs, row)
	m := ppmi(cooccurrence(enc, len(words)), len(words))
	wv := reduce(m, len(words))
	weights := make([]float32, len(words))
	for i := range words {
		weights[i] = float32(math.Log(float64(len(docs)+1) / float64(df[i]+1)))
	}
	v := &lexvec.Vectors{Model: ModelID, Dim: Dim, Words: words, WordWeights: weights, WordVecs: wv}
	v.Index()
	sums := symbolSums(v, enc)
	u := removeCommon(v, sums)
	for di, e := range enc {
		s := sums[di*Dim : (di+1)*Dim]
		p := dot64(s, u)
		for k := range s {
			s[k] -= p * u[k]
		}
		if norm := math.Sqrt(dot64(s, s)); norm > 0 {
			scale := lengthScale(len(e.distinct)-len(e.name)) / norm
			v.IDs = append(v.IDs, docs[di].id)
			for _, x := range s {
				v.SymVecs = append(v.SymVecs, float32(x*scale))
			}
		}
	}
	return v
}

// Reembed embeds, without training, the symbols whose text differs from
// prev (the digests of the revision whose model is reused: added symbols and
// changed ones) with that model's word vectors, as Train embeds a symbol;
// words the model never saw add nothing. words returns the model's rows of
// the words asked (those it has). It returns the new vectors of the symbols
// embedded (Model, Dim, IDs, SymVecs; no word table), the ids that lose the
// vector they had (removed from the corpus, or with no known word now), and
// how many symbols were embedded. Every other symbol keeps the model's
// vector.
func (c *Corpus) Reembed(prev map[string]uint64, words func([]string) (*lexvec.Vectors, error)) (*lexvec.Vectors, []string, int, error) {
	digests := c.Digests()
	var changed []symText
	for i := range c.syms {
		if p, ok := prev[c.syms[i].id]; !ok || p != digests[c.syms[i].id] {
			changed = append(changed, c.syms[i])
		}
	}
	var gone []string
	for id := range prev {
		if _, ok := digests[id]; !ok {
			gone = append(gone, id)
		}
	}
	docs, terms := documents(changed)
	model, err := words(terms)
	if err != nil {
		return nil, nil, 0, err
	}
	if model == nil || model.Dim <= 0 {
		return nil, nil, 0, errors.New("embed: the model to reuse has no word vectors")
	}
	v := &lexvec.Vectors{Model: model.Model, Dim: model.Dim}
	s := make([]float64, model.Dim)
	for i := range docs {
		if sv := embedDoc(model, terms, &docs[i], s); sv != nil {
			v.IDs = append(v.IDs, docs[i].id)
			v.SymVecs = append(v.SymVecs, sv...)
		} else if _, ok := prev[docs[i].id]; ok {
			gone = append(gone, docs[i].id)
		}
	}
	sort.Strings(gone)
	return v, gone, len(docs), nil
}

// embedDoc is a document's vector from the word vectors of v (which have
// the common direction removed already): the IDF-weighted sum of its
// words, unit length, scaled by lengthScale; nil when no word is known.
// s is scratch of v.Dim values.
func embedDoc(v *lexvec.Vectors, terms []string, d *doc, s []float64) []float32 {
	clear(s)
	var distinct, name []int32
	for _, w := range d.words {
		i, ok := v.Lookup(terms[w])
		if !ok {
			continue
		}
		distinct = append(distinct, int32(i))
		wt := float64(v.WordWeights[i])
		for k, x := range v.WordVecs[i*v.Dim : (i+1)*v.Dim] {
			s[k] += wt * float64(x)
		}
	}
	for _, w := range d.name {
		if i, ok := v.Lookup(terms[w]); ok {
			name = append(name, int32(i))
		}
	}
	slices.Sort(distinct)
	slices.Sort(name)
	norm := math.Sqrt(dot64(s, s))
	if norm == 0 {
		return nil
	}
	scale := lengthScale(len(slices.Compact(distinct))-len(slices.Compact(name))) / norm
	out := make([]float32, len(s))
	for k, x := range s {
		out[k] = float32(x * scale)
	}
	return out
}

// lengthPrior is how many words besides its name a symbol's text needs for
// half its vector's length: a symbol's vector is the unit mean of its words
// scaled by m/(m+lengthPrior), m the distinct words of its text that are
// not name words (a hundredth when there are none). A symbol whose text is
// little more than its name has the vector of its name words, and a query
// holding one of them would land on it ("name capture", docs/accuracy.md);
// scaled, it ranks below symbols whose longer text points the same way.
// 10 scored best of 0, 1, 3, 8, 10, 15 and 30 on the tune half of the judged
// English queries.
const lengthPrior = 10

func lengthScale(m int) float64 {
	if m <= 0 {
		return 0.01
	}
	return float64(m) / float64(m+lengthPrior)
}

// symbolSums returns, per document, the IDF-weighted sum of its words'
// vectors (every occurrence counts), flat, Dim values a document.
func symbolSums(v *lexvec.Vectors, enc []encoded) []float64 {
	sums := make([]float64, len(enc)*Dim)
	for di, e := range enc {
		s := sums[di*Dim : (di+1)*Dim]
		for _, w := range e.seq {
			wt := float64(v.WordWeights[w])
			row := v.WordVecs[int(w)*Dim : (int(w)+1)*Dim]
			for k, x := range row {
				s[k] += wt * float64(x)
			}
		}
	}
	return sums
}

// removeCommon takes the direction every symbol shares out of the word
// vectors (as SIF does: here the direction of the average of the symbols'
// unit means) and returns it: a mean is linear in its words, so symbol and
// query vectors built from the projected words lack it too, and cosines
// compare what is particular.
func removeCommon(v *lexvec.Vectors, sums []float64) []float64 {
	u := make([]float64, Dim)
	for di := 0; di < len(sums)/Dim; di++ {
		s := sums[di*Dim : (di+1)*Dim]
		if norm := math.Sqrt(dot64(s, s)); norm > 0 {
			axpy(1/norm, s, u)
		}
	}
	normalise64(u)
	for i := range v.Words {
		w := v.WordVecs[i*Dim : (i+1)*Dim]
		var p float64
		for d, x := range w {
			p += float64(x) * u[d]
		}
		for d := range w {
			w[d] -= float32(p * u[d])
		}
	}
	return u
}
