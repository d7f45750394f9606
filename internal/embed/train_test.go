package embed

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
)

// at returns m's entry (i, j), 0 when absent.
func (m *sparse) at(i, j int) float64 {
	cols := m.cols[m.rowStart[i]:m.rowStart[i+1]]
	if k, ok := slices.BinarySearch(cols, int32(j)); ok {
		return m.vals[m.rowStart[i]+k]
	}
	return 0
}

// strDoc is a document in words, for hand-made corpora.
type strDoc struct {
	id          string
	name, words []string
}

// encodeStr encodes documents in words with the vocabulary rows of index
// (a word outside it is a term without a row), as Train encodes its own.
func encodeStr(docs []strDoc, index map[string]int) []encoded {
	ids := map[string]int32{}
	var row []int32
	term := func(ws []string) []int32 {
		var out []int32
		for _, w := range ws {
			id, ok := ids[w]
			if !ok {
				id = int32(len(row))
				ids[w] = id
				r, in := index[w]
				if !in {
					r = -1
				}
				row = append(row, int32(r))
			}
			out = append(out, id)
		}
		return out
	}
	var ds []doc
	for _, d := range docs {
		ds = append(ds, doc{id: d.id, name: term(d.name), words: term(d.words)})
	}
	return encode(ds, row)
}

// tinyCorpus is two documents over the words a, b, x, y (rows 0-3):
// x(a b) is named x with text "x a b", y(a a) named y with text "y a a".
func tinyCorpus() ([]strDoc, map[string]int) {
	docs := []strDoc{
		{id: "1", name: []string{"x"}, words: []string{"x", "a", "b"}},
		{id: "2", name: []string{"y"}, words: []string{"y", "a", "a"}},
	}
	return docs, map[string]int{"a": 0, "b": 1, "x": 2, "y": 3}
}

// TestStaticModelCooccurrenceCounts: the counts of a hand-made corpus,
// computed by hand. Document 1: the window pairs x-a, x-b, a-b count 1
// each, the name x with the distinct words a and b 0.5 each: x-a 1.5, x-b
// 1.5, a-b 1. Document 2: the window pairs y-a twice (a-a is no pair), the
// name y with a 0.5: y-a 2.5.
func TestStaticModelCooccurrenceCounts(t *testing.T) {
	docs, index := tinyCorpus()
	c := cooccurrence(encodeStr(docs, index), 4)
	const a, b, x, y = 0, 1, 2, 3
	want := map[[2]int]float64{{x, a}: 1.5, {x, b}: 1.5, {a, b}: 1, {y, a}: 2.5}
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			w := want[[2]int{i, j}] + want[[2]int{j, i}]
			if got := c.at(i, j); got != w {
				t.Errorf("count(%d, %d) = %v, want %v", i, j, got, w)
			}
		}
	}
	if nnz := len(c.vals); nnz != 8 {
		t.Errorf("%d entries, want 8 (4 pairs, both ways)", nnz)
	}
}

// TestStaticModelPPMI: PPMI of the hand-made counts. Row sums: a 5, b 2.5,
// x 3, y 2.5; context weights are the sums to the power 0.75, C their total;
// pmi(i, j) = ln(count·C / (sum_i · sum_j^0.75)), negatives dropped, and the
// matrix keeps the mean of the two directions.
func TestStaticModelPPMI(t *testing.T) {
	docs, index := tinyCorpus()
	m := ppmi(cooccurrence(encodeStr(docs, index), 4), 4)
	sum := []float64{5, 2.5, 3, 2.5}
	var C float64
	for _, s := range sum {
		C += math.Pow(s, 0.75)
	}
	pmi := func(count float64, i, j int) float64 {
		return math.Max(0, math.Log(count*C/(sum[i]*math.Pow(sum[j], 0.75))))
	}
	counts := map[[2]int]float64{{2, 0}: 1.5, {2, 1}: 1.5, {0, 1}: 1, {3, 0}: 2.5}
	for p, count := range counts {
		i, j := p[0], p[1]
		want := (pmi(count, i, j) + pmi(count, j, i)) / 2
		if got := m.at(i, j); math.Abs(got-want) > 1e-12 || m.at(j, i) != got {
			t.Errorf("ppmi(%d, %d) = %v, (%d, %d) = %v, want %v both", i, j, got, j, i, m.at(j, i), want)
		}
	}
	// b and y never meet; a word never pairs with itself
	if m.at(1, 3) != 0 || m.at(0, 0) != 0 {
		t.Error("an entry for a pair that never co-occurs")
	}
}

// naiveCooccurrence is the definition, a map per row.
func naiveCooccurrence(docs []strDoc, index map[string]int) []map[int]float64 {
	rows := make([]map[int]float64, len(index))
	for i := range rows {
		rows[i] = map[int]float64{}
	}
	add := func(a, b int, w float64) {
		if a != b {
			rows[a][b] += w
			rows[b][a] += w
		}
	}
	for _, d := range docs {
		var seq []int
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
		distinct := slices.Compact(slices.Sorted(slices.Values(seq)))
		var name []int
		for _, w := range d.name {
			if i, ok := index[w]; ok {
				name = append(name, i)
			}
		}
		for _, a := range slices.Compact(slices.Sorted(slices.Values(name))) {
			for _, b := range distinct {
				add(a, b, 0.5)
			}
		}
	}
	return rows
}

// TestStaticModelCooccurrenceMatchesDefinition: the inverted-index counting
// gives the counts of the definition on random documents (repeated words,
// names of several parts, sequences shorter and longer than the window).
func TestStaticModelCooccurrenceMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	index := map[string]int{}
	for i := 0; i < 60; i++ {
		index[fmt.Sprintf("w%02d", i)] = i
	}
	var docs []strDoc
	for d := 0; d < 300; d++ {
		var dc strDoc
		for k := rng.IntN(3) + 1; k > 0; k-- {
			dc.name = append(dc.name, fmt.Sprintf("w%02d", rng.IntN(60)))
		}
		dc.words = slices.Clone(dc.name)
		for k := rng.IntN(15); k > 0; k-- {
			w := fmt.Sprintf("w%02d", rng.IntN(60))
			if rng.IntN(10) == 0 {
				w = "unknown"
			}
			dc.words = append(dc.words, w)
		}
		docs = append(docs, dc)
	}
	got := cooccurrence(encodeStr(docs, index), len(index))
	want := naiveCooccurrence(docs, index)
	nnz := 0
	for i, row := range want {
		nnz += len(row)
		for j, w := range row {
			if g := got.at(i, j); g != w {
				t.Fatalf("count(%d, %d) = %v, want %v", i, j, g, w)
			}
		}
	}
	if len(got.vals) != nnz {
		t.Errorf("%d entries, want %d", len(got.vals), nnz)
	}
}

// TestStaticModelRenumberingByDensity: the renumbered matrix holds the same
// entries, each row's columns sorted, the densest row first.
func TestStaticModelRenumberingByDensity(t *testing.T) {
	docs, index := tinyCorpus()
	m := cooccurrence(encodeStr(docs, index), 4)
	pos, r := m.byDensity(4)
	if pos[0] != 0 { // a pairs with b, x and y
		t.Errorf("row a is at %d, want 0", pos[0])
	}
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if r.at(pos[i], pos[j]) != m.at(i, j) {
				t.Errorf("entry (%d, %d) moved to (%d, %d) with %v, want %v", i, j, pos[i], pos[j], r.at(pos[i], pos[j]), m.at(i, j))
			}
		}
		if !slices.IsSorted(r.cols[r.rowStart[i]:r.rowStart[i+1]]) {
			t.Errorf("row %d columns not sorted", i)
		}
	}
}

// TestStaticModelOrthonormalise: one pass or two, the columns come out
// orthonormal.
func TestStaticModelOrthonormalise(t *testing.T) {
	const n, l = 50, 7
	rng := rand.New(rand.NewPCG(3, 4))
	for _, passes := range []int{1, 2} {
		x := make([]float64, n*l)
		for i := range x {
			x[i] = rng.NormFloat64() + 3 // far from orthogonal
		}
		orthonormalise(x, make([]float64, n*l), n, l, passes)
		for a := 0; a < l; a++ {
			for b := 0; b < l; b++ {
				var d float64
				for i := 0; i < n; i++ {
					d += x[i*l+a] * x[i*l+b]
				}
				want := 0.0
				if a == b {
					want = 1
				}
				if math.Abs(d-want) > 1e-9 {
					t.Errorf("passes %d: column %d · column %d = %v, want %v", passes, a, b, d, want)
				}
			}
		}
	}
}

// TestStaticModelShortSymbolsWeighLess: a symbol's vector is its unit mean
// scaled by m/(m+lengthPrior), m the distinct words of its text besides its
// name, so a symbol whose text is only its name cannot capture a query by
// that name.
func TestStaticModelShortSymbolsWeighLess(t *testing.T) {
	nodes, chunks := corpus()
	// named with a word of the cart family, no other text
	nodes = append(nodes, fact.Node{ID: "s001", Kind: fact.Property, Name: "basket", QName: "basket"})
	v := Train(nodes, chunks)
	norm := func(id string) float64 {
		s := v.Symbol(id)
		if s == nil {
			t.Fatalf("no vector for %s", id)
		}
		return math.Sqrt(dot(s, s))
	}
	if got := norm("s001"); math.Abs(got-0.01) > 1e-6 {
		t.Errorf("|basket| = %v, want 0.01: its text is its name", got)
	}
	// n000 cartAddProduct0: name words cartaddproduct0, cart, add, product0
	// (the first and the last in one document only: not in the vocabulary);
	// besides them src, lib (the path), put, good, shop, basket, befor,
	// checkout, payment (stems of the docblock's words) = 9
	if got, want := norm("n000"), 9.0/(9+lengthPrior); math.Abs(got-want) > 1e-6 {
		t.Errorf("|cartAddProduct0| = %v, want %v", got, want)
	}
	hits := Nearest(v, Query(v, "basket"), 3, "")
	for _, h := range hits {
		if h.ID == "s001" {
			t.Errorf("basket -> %v: the property named basket comes before symbols about baskets", hits)
		}
	}
}
