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
// (PPMI, context counts smoothed by the power 0.75) and reduced to Dim
// dimensions by a randomised eigendecomposition of the symmetric matrix
// (range finder, power iterations, Gram-Schmidt, Jacobi on the small
// projection). A word's vector is its eigenvector row scaled by the square
// root of the eigenvalue, L2-normalised, less its part along the direction
// of the symbols' average (removeCommon); a symbol's is the IDF-weighted mean
// of its words' vectors, L2-normalised.
//
// Everything is deterministic: the vocabulary is sorted, the random start is
// seeded, and every sum runs in a fixed order (FT-13).
package embed

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/lexvec"
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
	oversample  = 10
	powerIters  = 2
	seed        = 0x7261677261660001
)

// stopwords are English words too common to mean anything here.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the of to in on for and or is are be by with as at it its this that from
		if not no into than then else can will was were has have had do does should would may
		param return returns var type string int bool array mixed null true false void since see
		php default optional`) {
		stopwords[w] = true
	}
}

// Words returns the words of text the model reads: the code-aware terms of
// lexvec.Terms (whole identifiers and their parts), lower-case, without
// stopwords, numbers and one-letter words.
func Words(text string) []string {
	var out []string
	for _, t := range strings.Fields(lexvec.Terms(text)) {
		if len(t) < 2 || stopwords[t] || isNumber(t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// modelWords returns the words the model trains on and looks up: the
// Words of text, each reduced to its stem, so that "stored", "storing" and
// "store" are one word. An unknown stem is looked up as the word itself
// (Lookup), which keeps revisions trained before stemming answering.
func modelWords(text string) []string {
	ws := Words(text)
	for i, w := range ws {
		ws[i] = Stem(w)
	}
	return ws
}

// Stem reduces an English word of ASCII letters to a crude stem: plural
// and verb endings (-ies, -es, -s, -ing, -ed) and a final e go, a doubled
// last consonant is undoubled ("running" -> "run"). Identifiers with
// underscores or digits, short words and other scripts stay as they are.
func Stem(w string) string {
	if len(w) < 4 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		w = undouble(w[:len(w)-2])
	}
	if strings.HasSuffix(w, "e") && len(w) > 4 {
		w = w[:len(w)-1]
	}
	return w
}

func undouble(w string) string {
	if n := len(w); n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("lsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// doc is the text of one symbol as the model reads it.
type doc struct {
	id    string
	name  []string // name and qualified-name words
	words []string // the whole sequence: name, signature, path, docblock
}

// documents builds one document per symbol, sorted by id.
func documents(nodes []fact.Node, chunks []fact.TextChunk) []doc {
	docblocks, comments := map[string][]string{}, map[string][]string{}
	for i := range chunks {
		c := &chunks[i]
		switch {
		case c.NodeID == "":
		case c.Kind == "docblock":
			docblocks[c.NodeID] = append(docblocks[c.NodeID], c.Text)
		case c.Kind == "comment":
			comments[c.NodeID] = append(comments[c.NodeID], c.Text)
		}
	}
	var docs []doc
	for i := range nodes {
		n := &nodes[i]
		if n.Kind == fact.File {
			continue
		}
		d := doc{id: n.ID, name: modelWords(n.Name + " " + n.QName)}
		d.words = append(d.words, d.name...)
		d.words = append(d.words, modelWords(n.Signature)...)
		d.words = append(d.words, modelWords(strings.TrimSuffix(n.Path, ".php"))...)
		for _, texts := range [][]string{docblocks[n.ID], comments[n.ID]} {
			sort.Strings(texts)
			var dw []string
			for _, t := range texts {
				dw = append(dw, modelWords(t)...)
			}
			if len(dw) > maxDocWords {
				dw = dw[:maxDocWords]
			}
			d.words = append(d.words, dw...)
		}
		docs = append(docs, d)
	}
	sort.SliceStable(docs, func(i, j int) bool { return docs[i].id < docs[j].id })
	return docs
}

// Train builds the model and the symbol vectors of a revision's content. It
// returns nil when the content has too few words to train on.
func Train(nodes []fact.Node, chunks []fact.TextChunk) *lexvec.Vectors {
	docs := documents(nodes, chunks)
	words, df := vocabulary(docs)
	if len(words) < 2 {
		return nil
	}
	index := make(map[string]int, len(words))
	for i, w := range words {
		index[w] = i
	}
	m := ppmi(cooccurrence(docs, index), len(words))
	wv := reduce(m, len(words))
	weights := make([]float32, len(words))
	for i := range words {
		weights[i] = float32(math.Log(float64(len(docs)+1) / float64(df[i]+1)))
	}
	v := &lexvec.Vectors{Model: ModelID, Dim: Dim, Words: words, WordWeights: weights, WordVecs: wv}
	v.Index()
	removeCommon(v, docs)
	for _, d := range docs {
		if vec := Mean(v, d.words); vec != nil {
			v.IDs = append(v.IDs, d.id)
			v.SymVecs = append(v.SymVecs, vec...)
		}
	}
	return v
}

// removeCommon takes the direction every symbol shares out of the word
// vectors (as SIF does: here the direction of the symbols' average): a mean
// is linear in its words, so symbol and query vectors built from the
// projected words lack it too, and cosines compare what is particular.
func removeCommon(v *lexvec.Vectors, docs []doc) {
	u := make([]float64, Dim)
	for _, d := range docs {
		for i, x := range Mean(v, d.words) {
			u[i] += float64(x)
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
}

// vocabulary lists the words in at least minDocFreq documents, the
// maxVocab most frequent, sorted, with their document frequencies.
func vocabulary(docs []doc) ([]string, []int) {
	count := map[string]int{}
	for _, d := range docs {
		seen := map[string]bool{}
		for _, w := range d.words {
			if !seen[w] {
				seen[w] = true
				count[w]++
			}
		}
	}
	var words []string
	for w, c := range count {
		if c >= minDocFreq {
			words = append(words, w)
		}
	}
	sort.Slice(words, func(i, j int) bool {
		if count[words[i]] != count[words[j]] {
			return count[words[i]] > count[words[j]]
		}
		return words[i] < words[j]
	})
	if len(words) > maxVocab {
		words = words[:maxVocab]
	}
	sort.Strings(words)
	df := make([]int, len(words))
	for i, w := range words {
		df[i] = count[w]
	}
	return words, df
}

// sparse is a symmetric matrix in compressed rows, columns sorted.
type sparse struct {
	rowStart []int
	cols     []int32
	vals     []float64
}

// cooccurrence counts word pairs, symmetric, as a map per row.
func cooccurrence(docs []doc, index map[string]int) []map[int32]float64 {
	rows := make([]map[int32]float64, len(index))
	for i := range rows {
		rows[i] = map[int32]float64{}
	}
	add := func(a, b int, w float64) {
		if a == b {
			return
		}
		rows[a][int32(b)] += w
		rows[b][int32(a)] += w
	}
	for _, d := range docs {
		seq := make([]int, 0, len(d.words))
		for _, w := range d.words {
			if i, ok := index[w]; ok {
				seq = append(seq, i)
			}
		}
		for i := range seq {
			for j := i + 1; j < len(seq) && j <= i+window; j++ {
				add(seq[i], seq[j], 1)
			}
		}
		// name parts with every distinct word of the document
		distinct := slices.Clone(seq)
		slices.Sort(distinct)
		distinct = slices.Compact(distinct)
		var name []int
		for _, w := range d.name {
			if i, ok := index[w]; ok {
				name = append(name, i)
			}
		}
		slices.Sort(name)
		name = slices.Compact(name)
		for _, a := range name {
			for _, b := range distinct {
				add(a, b, 0.5)
			}
		}
	}
	return rows
}

// ppmi weights the counts by positive pointwise mutual information with
// context smoothing (power 0.75), dropping the rest.
func ppmi(rows []map[int32]float64, n int) *sparse {
	rowSum := make([]float64, n)
	ctxPow := make([]float64, n)
	var total, ctxTotal float64
	for i, r := range rows {
		keys := sortedKeys(r)
		for _, k := range keys {
			rowSum[i] += r[k]
		}
		total += rowSum[i]
	}
	for i := range rows {
		ctxPow[i] = math.Pow(rowSum[i], 0.75)
		ctxTotal += ctxPow[i]
	}
	m := &sparse{rowStart: make([]int, n+1)}
	for i, r := range rows {
		for _, k := range sortedKeys(r) {
			pmi := math.Log(r[k] * ctxTotal / (rowSum[i] * ctxPow[k]))
			if pmi > 0 {
				m.cols = append(m.cols, k)
				m.vals = append(m.vals, pmi)
			}
		}
		m.rowStart[i+1] = len(m.cols)
	}
	// the context smoothing makes the weights slightly asymmetric: use the
	// symmetric part, min of the two, so the matrix stays symmetric
	return symmetrise(m, n)
}

func sortedKeys(r map[int32]float64) []int32 {
	keys := make([]int32, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func symmetrise(m *sparse, n int) *sparse {
	at := func(i int, j int32) float64 {
		cols := m.cols[m.rowStart[i]:m.rowStart[i+1]]
		k, ok := slices.BinarySearch(cols, j)
		if !ok {
			return 0
		}
		return m.vals[m.rowStart[i]+k]
	}
	out := &sparse{rowStart: make([]int, n+1)}
	for i := 0; i < n; i++ {
		for k := m.rowStart[i]; k < m.rowStart[i+1]; k++ {
			j := m.cols[k]
			v := (m.vals[k] + at(int(j), int32(i))) / 2
			if v > 0 {
				out.cols = append(out.cols, j)
				out.vals = append(out.vals, v)
			}
		}
		out.rowStart[i+1] = len(out.cols)
	}
	return out
}

// mulDense returns m·x for x with n rows of l columns (row-major); rows are
// split between two goroutines, each row summed in column order.
func (m *sparse) mulDense(x []float64, n, l int) []float64 {
	y := make([]float64, n*l)
	var wg sync.WaitGroup
	parts := 2
	for p := 0; p < parts; p++ {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				yi := y[i*l : (i+1)*l]
				for k := m.rowStart[i]; k < m.rowStart[i+1]; k++ {
					v := m.vals[k]
					xj := x[int(m.cols[k])*l : (int(m.cols[k])+1)*l]
					for c := range yi {
						yi[c] += v * xj[c]
					}
				}
			}
		}(n*p/parts, n*(p+1)/parts)
	}
	wg.Wait()
	return y
}

// orthonormalise makes the l columns of the n×l row-major matrix x
// orthonormal (modified Gram-Schmidt, twice for stability, on a transposed
// copy so every column is contiguous); a column that vanishes becomes zero.
func orthonormalise(x []float64, n, l int) {
	t := make([]float64, n*l)
	for i := 0; i < n; i++ {
		for c := 0; c < l; c++ {
			t[c*n+i] = x[i*l+c]
		}
	}
	for pass := 0; pass < 2; pass++ {
		for c := 0; c < l; c++ {
			col := t[c*n : (c+1)*n]
			for p := 0; p < c; p++ {
				prev := t[p*n : (p+1)*n]
				var dot float64
				for i, v := range col {
					dot += v * prev[i]
				}
				for i := range col {
					col[i] -= dot * prev[i]
				}
			}
			var norm float64
			for _, v := range col {
				norm += v * v
			}
			norm = math.Sqrt(norm)
			for i := range col {
				if norm > 1e-12 {
					col[i] /= norm
				} else {
					col[i] = 0
				}
			}
		}
	}
	for i := 0; i < n; i++ {
		for c := 0; c < l; c++ {
			x[i*l+c] = t[c*n+i]
		}
	}
}

// reduce returns n word vectors of Dim dimensions (flat, float32,
// L2-normalised) from the top eigenpairs of the symmetric matrix m.
func reduce(m *sparse, n int) []float32 {
	l := min(Dim+oversample, n)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	q := make([]float64, n*l)
	for i := range q {
		q[i] = rng.NormFloat64()
	}
	q = m.mulDense(q, n, l)
	orthonormalise(q, n, l)
	for it := 0; it < powerIters; it++ {
		q = m.mulDense(q, n, l)
		orthonormalise(q, n, l)
	}
	// t = qᵀ m q, l×l symmetric
	mq := m.mulDense(q, n, l)
	t := make([]float64, l*l)
	for i := 0; i < n; i++ {
		qi, mi := q[i*l:(i+1)*l], mq[i*l:(i+1)*l]
		for a := 0; a < l; a++ {
			if qi[a] == 0 {
				continue
			}
			for b := 0; b < l; b++ {
				t[a*l+b] += qi[a] * mi[b]
			}
		}
	}
	for a := 0; a < l; a++ {
		for b := a + 1; b < l; b++ {
			s := (t[a*l+b] + t[b*l+a]) / 2
			t[a*l+b], t[b*l+a] = s, s
		}
	}
	vals, vecs := jacobi(t, l)
	order := make([]int, l)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return vals[order[i]] > vals[order[j]] })
	k := min(Dim, l)
	out := make([]float32, n*Dim)
	row := make([]float64, Dim)
	for i := 0; i < n; i++ {
		clear(row)
		qi := q[i*l : (i+1)*l]
		for d := 0; d < k; d++ {
			e := order[d]
			if vals[e] <= 0 {
				continue
			}
			var s float64
			for a := 0; a < l; a++ {
				s += qi[a] * vecs[a*l+e]
			}
			row[d] = s * math.Sqrt(vals[e])
		}
		normalise64(row)
		for d := range row {
			out[i*Dim+d] = float32(row[d])
		}
	}
	fixSigns(out, n)
	return out
}

// fixSigns flips each dimension so that its largest-magnitude entry is
// positive: an eigenvector's sign is arbitrary.
func fixSigns(v []float32, n int) {
	for d := 0; d < Dim; d++ {
		var best float32
		for i := 0; i < n; i++ {
			if x := v[i*Dim+d]; abs32(x) > abs32(best) {
				best = x
			}
		}
		if best < 0 {
			for i := 0; i < n; i++ {
				v[i*Dim+d] = -v[i*Dim+d]
			}
		}
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

func normalise64(v []float64) {
	var s float64
	for _, x := range v {
		s += x * x
	}
	if s == 0 {
		return
	}
	s = math.Sqrt(s)
	for i := range v {
		v[i] /= s
	}
}

// jacobi returns the eigenvalues and eigenvectors (columns of an l×l
// row-major matrix) of the symmetric matrix a, by cyclic Jacobi rotations.
func jacobi(a []float64, l int) ([]float64, []float64) {
	a = slices.Clone(a)
	v := make([]float64, l*l)
	for i := 0; i < l; i++ {
		v[i*l+i] = 1
	}
	for sweep := 0; sweep < 50; sweep++ {
		var off float64
		for p := 0; p < l; p++ {
			for q := p + 1; q < l; q++ {
				off += a[p*l+q] * a[p*l+q]
			}
		}
		if off < 1e-22 {
			break
		}
		for p := 0; p < l; p++ {
			for q := p + 1; q < l; q++ {
				apq := a[p*l+q]
				if math.Abs(apq) < 1e-300 {
					continue
				}
				theta := (a[q*l+q] - a[p*l+p]) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := 0; k < l; k++ {
					akp, akq := a[k*l+p], a[k*l+q]
					a[k*l+p] = c*akp - s*akq
					a[k*l+q] = s*akp + c*akq
				}
				for k := 0; k < l; k++ {
					apk, aqk := a[p*l+k], a[q*l+k]
					a[p*l+k] = c*apk - s*aqk
					a[q*l+k] = s*apk + c*aqk
				}
				for k := 0; k < l; k++ {
					vkp, vkq := v[k*l+p], v[k*l+q]
					v[k*l+p] = c*vkp - s*vkq
					v[k*l+q] = s*vkp + c*vkq
				}
			}
		}
	}
	vals := make([]float64, l)
	for i := 0; i < l; i++ {
		vals[i] = a[i*l+i]
	}
	return vals, v
}
