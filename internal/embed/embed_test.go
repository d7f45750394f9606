package embed

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
)

// corpus is a synthetic project: functions about carts mention baskets and
// checkout, functions about mail mention letters and inboxes; the two
// vocabularies never meet.
func corpus() ([]fact.Node, []fact.TextChunk) {
	var nodes []fact.Node
	var chunks []fact.TextChunk
	add := func(i int, name, doc string) {
		id := fmt.Sprintf("n%03d", i)
		nodes = append(nodes, fact.Node{ID: id, Kind: fact.Function, Name: name, QName: name, Path: "src/lib.php"})
		chunks = append(chunks, fact.TextChunk{ID: "t" + id, NodeID: id, Kind: "docblock", Path: "src/lib.php", Text: doc})
	}
	for i := 0; i < 40; i++ {
		add(2*i, fmt.Sprintf("cartAddProduct%d", i), "Puts goods into the shopping basket before checkout and payment.")
		add(2*i+1, fmt.Sprintf("mailSendMessage%d", i), "Delivers a letter to the recipient inbox through the postman relay.")
	}
	return nodes, chunks
}

func wordVec(t *testing.T, v interface {
	Lookup(string) (int, bool)
}, vecs []float32, w string) []float32 {
	t.Helper()
	i, ok := v.Lookup(w)
	if !ok {
		t.Fatalf("word %q not in the vocabulary", w)
	}
	return vecs[i*Dim : (i+1)*Dim]
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// TestStaticModelCooccurringWordsAreCloser: words that share documents end up
// closer than words that never do, and so do the symbols built from them.
func TestStaticModelCooccurringWordsAreCloser(t *testing.T) {
	nodes, chunks := corpus()
	v := Train(nodes, chunks)
	if v == nil || v.Model != ModelID || v.Dim != Dim {
		t.Fatalf("model %+v", v)
	}
	basket, cart, inbox := wordVec(t, v, v.WordVecs, "basket"), wordVec(t, v, v.WordVecs, "cart"), wordVec(t, v, v.WordVecs, "inbox")
	if near, far := dot(basket, cart), dot(basket, inbox); near <= far+0.1 {
		t.Errorf("cos(basket, cart) = %.3f, cos(basket, inbox) = %.3f: co-occurring words are not closer", near, far)
	}
	// a query in words no name uses finds the right family
	hits := Nearest(v, Query(v, "shopping basket"), 5, "")
	if len(hits) != 5 {
		t.Fatalf("hits %v", hits)
	}
	for _, h := range hits {
		if i := slices.IndexFunc(nodes, func(n fact.Node) bool { return n.ID == h.ID }); nodes[i].Name[:4] != "cart" {
			t.Errorf("shopping basket -> %s (%.3f)", nodes[i].Name, h.Score)
		}
	}
	if q := Query(v, "zzzz qqqq"); q != nil {
		t.Errorf("unknown words gave a vector")
	}
}

// TestFT13_StaticModelDeterministic: two trainings on the same content give
// the same bits.
func TestFT13_StaticModelDeterministic(t *testing.T) {
	nodes, chunks := corpus()
	a, b := Train(nodes, chunks), Train(nodes, chunks)
	if !slices.Equal(a.Words, b.Words) || !slices.Equal(a.WordVecs, b.WordVecs) || !slices.Equal(a.IDs, b.IDs) || !slices.Equal(a.SymVecs, b.SymVecs) || !slices.Equal(a.WordWeights, b.WordWeights) {
		t.Fatal("two trainings differ")
	}
	if Train(nil, nil) != nil {
		t.Error("an empty project gave a model")
	}
}

// TestStaticModelStems: the forms of an English word share one stem, so a
// query in one form meets a comment in another; identifiers and other
// scripts stay as they are.
func TestStaticModelStems(t *testing.T) {
	for _, group := range [][]string{{"store", "stored", "storing", "stores"}, {"run", "running", "runs"},
		{"query", "queries", "queried"}, {"cache", "cached", "caching", "caches"}, {"password", "passwords"}} {
		for _, w := range group[1:] {
			if Stem(w) != Stem(group[0]) {
				t.Errorf("Stem(%q) = %q, Stem(%q) = %q: want one stem", w, Stem(w), group[0], Stem(group[0]))
			}
		}
	}
	for _, w := range []string{"wp_mail", "utf8", "class", "status", "пароли", "is"} {
		if Stem(w) != w {
			t.Errorf("Stem(%q) = %q, want it unchanged", w, Stem(w))
		}
	}
}

// TestStaticModelReadsComments: a symbol described only by a comment in
// its body is found by the words of that comment, in another form.
func TestStaticModelReadsComments(t *testing.T) {
	nodes, chunks := corpus()
	for i := 0; i < 3; i++ {
		id := fmt.Sprintf("z%03d", i)
		nodes = append(nodes, fact.Node{ID: id, Kind: fact.Function, Name: fmt.Sprintf("zqx%d", i), QName: fmt.Sprintf("zqx%d", i), Path: "src/z.php"})
		chunks = append(chunks, fact.TextChunk{ID: "t" + id, NodeID: id, Kind: "comment", Path: "src/z.php",
			Text: "// rotates the telescope lenses towards distant galaxies"})
	}
	v := Train(nodes, chunks)
	hits := Nearest(v, Query(v, "rotating telescope lens"), 3, "")
	if len(hits) != 3 {
		t.Fatalf("rotating telescope lens -> %v, want 3 hits", hits)
	}
	for _, h := range hits {
		if h.ID[0] != 'z' {
			t.Errorf("rotating telescope lens -> %s (%.3f), want a zqx function", h.ID, h.Score)
		}
	}
}

// TestStaticModelExpandsQueries: the words nearest a query are the project's
// words for the same thing, never the query's own words nor the other family's.
func TestStaticModelExpandsQueries(t *testing.T) {
	nodes, chunks := corpus()
	v := Train(nodes, chunks)
	got := Expand(v, "shopping baskets", 3)
	if len(got) != 3 {
		t.Fatalf("Expand(shopping baskets) = %v, want 3 words", got)
	}
	for _, w := range got {
		switch w {
		case "shopping", "basket", "baskets":
			t.Errorf("Expand(shopping baskets) = %v: holds a word of the query", got)
		case "letter", "inbox", "mail", "recipient", "postman", "relay", "deliver":
			t.Errorf("Expand(shopping baskets) = %v: holds a word of the mail family", got)
		}
	}
	if Expand(v, "zzzz", 3) != nil {
		t.Error("unknown words were expanded")
	}
}
