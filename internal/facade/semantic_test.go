package facade

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/embed/model2vec"
	"github.com/ragraf/ragraf/internal/rev"
)

// newVectorService indexes a small project whose cart functions speak of
// baskets and whose mail functions speak of letters, with the real build
// (which trains the static model), and returns a Service on it.
func newVectorService(t *testing.T) *Service {
	t.Helper()
	root := t.TempDir()
	var b strings.Builder
	b.WriteString("<?php\nnamespace Shop;\n\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "/**\n * Puts goods into the shopping basket before checkout.\n */\nfunction cartAddProduct%d($goods) { return $goods; }\n\n", i)
		fmt.Fprintf(&b, "/**\n * Delivers a letter to the recipient inbox through the relay.\n */\nfunction mailSendMessage%d($to) { return $to; }\n\n", i)
	}
	must(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "src", "lib.php"), []byte(b.String()), 0o644))
	cfg := config.Default()
	cfg.Embeddings.Model = config.StaticModel
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: cfg}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	must(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// TestSearchModesWithStaticVectors: semantic search finds symbols by words
// of their docblocks that their names lack, hybrid fuses both lists with the
// ranks in the score, and capability names the model.
func TestSearchModesWithStaticVectors(t *testing.T) {
	s := newVectorService(t)
	env := call(t, s, "search", `{"query":"shopping basket","mode":"semantic","limit":5}`)
	r := env.Result.(SearchResult)
	if !env.Capability.Vectors || env.Capability.VectorModel != "static:project" || !strings.Contains(env.Capability.Reason, "ONNX") {
		t.Errorf("capability %+v", env.Capability)
	}
	if r.Mode != "semantic" || r.Fallback != "" || len(r.Hits) != 5 {
		t.Fatalf("semantic: %+v", r)
	}
	for _, h := range r.Hits {
		if !strings.HasPrefix(h.Name, "cartAddProduct") || h.Score.Semantic <= 0 || h.Score.Total != h.Score.Semantic {
			t.Errorf("semantic hit %s %+v", h.Name, h.Score)
		}
	}
	// with vectors the default mode is hybrid (ARCHITECTURE.md §12)
	if r := call(t, s, "search", `{"query":"send message","limit":3}`).Result.(SearchResult); r.Mode != "hybrid" || r.Fallback != "" {
		t.Errorf("search without a mode on a revision with vectors ran %q (%s)", r.Mode, r.Fallback)
	}
	env = call(t, s, "search", `{"query":"send message","mode":"hybrid","limit":50}`)
	r = env.Result.(SearchResult)
	if r.Mode != "hybrid" || len(r.Hits) == 0 {
		t.Fatalf("hybrid: %+v", r)
	}
	both, expanded := 0, 0
	for _, h := range r.Hits {
		if h.Score.ExpandedRank > 0 {
			expanded++
		}
		if h.Score.LexicalRank == 0 && h.Score.SemanticRank == 0 && h.Score.ExpandedRank == 0 {
			t.Errorf("hybrid hit %s without ranks", h.ID)
		}
		if h.Score.LexicalRank > 0 && h.Score.SemanticRank > 0 {
			both++
		}
		if h.Type == "symbol" && !strings.HasPrefix(h.Name, "mailSendMessage") && h.Score.SemanticRank <= 20 {
			t.Errorf("hybrid: %s in the top semantic ranks for send message", h.Name)
		}
	}
	if both == 0 {
		t.Error("no hit is in both lists")
	}
	if expanded == 0 {
		t.Error("no hit comes from the expanded lexical list")
	}
	// a question in a symbol's own words keeps lexical search's answer first
	lex := call(t, s, "search", `{"query":"cartAddProduct3","mode":"lexical","limit":3}`).Result.(SearchResult)
	hyb := call(t, s, "search", `{"query":"cartAddProduct3","mode":"hybrid","limit":3}`).Result.(SearchResult)
	if len(lex.Hits) == 0 || len(hyb.Hits) == 0 || hyb.Hits[0].ID != lex.Hits[0].ID || hyb.Hits[0].Score.Total <= 1 {
		t.Errorf("hybrid cartAddProduct3: %+v, lexical: %+v", hyb.Hits, lex.Hits)
	}
	// a query of unknown words finds nothing semantically
	env = call(t, s, "search", `{"query":"zzzz","mode":"semantic"}`)
	if r := env.Result.(SearchResult); len(r.Hits) != 0 || !env.NotFound {
		t.Errorf("unknown words: %+v", r)
	}
}

// TestSimilarFindsTheSameFamily: similar lists the symbols like the target,
// without the target; on a revision without vectors it answers empty and
// says why.
func TestSimilarFindsTheSameFamily(t *testing.T) {
	s := newVectorService(t)
	env := call(t, s, "similar", `{"qname":"Shop\\cartAddProduct3","limit":10}`)
	r := env.Result.(SimilarResult)
	if r.Target.Name != "cartAddProduct3" || r.Model != "static:project" || len(r.Hits) != 10 {
		t.Fatalf("similar: %+v", r)
	}
	for _, h := range r.Hits {
		if h.ID == r.Target.ID || !strings.HasPrefix(h.Name, "cartAddProduct") {
			t.Errorf("similar hit %s %+v", h.Name, h.Score)
		}
	}
	if _, err := s.Call(context.Background(), "similar", []byte(`{}`)); err == nil {
		t.Error("similar without a target answered")
	}
	root := t.TempDir()
	f := genFixture(3, 0)
	f.noVectors = true // a revision written without vectors
	f.publish(t, root, "rev-0001")
	old, err := New(root, Options{})
	must(t, err)
	defer old.Close()
	env = call(t, old, "similar", `{"qname":"App\\C1::helper"}`)
	if r := env.Result.(SimilarResult); len(r.Hits) != 0 || !strings.Contains(r.Fallback, "vectors") || !env.NotFound {
		t.Errorf("without vectors: %+v", r)
	}
}

// TestSearchWithModel2VecModel: embeddings.model "model2vec:DIR" embeds the
// symbols with a model2vec static model the user installed, search embeds
// the query with the same model (hybrid by default), and a model whose files
// changed since the build is refused with a reason rather than mixed in.
func TestSearchWithModel2VecModel(t *testing.T) {
	root, modelDir := t.TempDir(), filepath.Join(t.TempDir(), "m2v")
	basket := map[string]bool{"shopping": true, "basket": true, "goods": true, "cart": true, "trolley": true}
	letter := map[string]bool{"letter": true, "inbox": true, "mail": true, "recipient": true, "post": true}
	vocab := []string{"shopping", "basket", "goods", "cart", "trolley", "letter", "inbox", "mail", "recipient", "post",
		"puts", "into", "the", "before", "checkout", "delivers", "to", "through", "relay", "add", "product", "send", "message"}
	group := func(w string) int {
		switch {
		case basket[w]:
			return 1
		case letter[w]:
			return 2
		}
		return 100 + len(w)*7 + int(w[0])
	}
	must(t, model2vec.WriteTiny(modelDir, vocab, 16, group))
	var b strings.Builder
	b.WriteString("<?php\nnamespace Shop;\n\n")
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "/**\n * Puts goods into the shopping basket before checkout.\n */\nfunction cartAddProduct%d($goods) { return $goods; }\n\n", i)
		fmt.Fprintf(&b, "/**\n * Delivers a letter to the recipient inbox through the relay.\n */\nfunction mailSendMessage%d($to) { return $to; }\n\n", i)
	}
	must(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "src", "lib.php"), []byte(b.String()), 0o644))
	cfgPath := rev.Layout{Root: root}.Config()
	must(t, os.MkdirAll(filepath.Dir(cfgPath), 0o755))
	must(t, os.WriteFile(cfgPath, []byte("embeddings:\n  model: \"model2vec:"+modelDir+"\"\n"), 0o644))
	cfg, err := config.Load(cfgPath)
	must(t, err)
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: cfg}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	must(t, err)
	defer s.Close()
	env := call(t, s, "search", `{"query":"trolley","limit":5}`)
	r := env.Result.(SearchResult)
	if !env.Capability.Vectors || !strings.HasPrefix(env.Capability.VectorModel, "model2vec:m2v@") {
		t.Fatalf("capability %+v", env.Capability)
	}
	if r.Mode != "hybrid" || r.Fallback != "" || len(r.Hits) == 0 {
		t.Fatalf("search: mode %s, fallback %q, %d hits", r.Mode, r.Fallback, len(r.Hits))
	}
	syms := 0
	// "trolley" is in no symbol; the model puts it beside basket and goods
	for _, h := range r.Hits {
		if h.Type == "symbol" {
			syms++
		}
		if h.Type == "symbol" && !strings.HasPrefix(h.Name, "cartAddProduct") {
			t.Errorf("hit %s for trolley, want only the basket functions", h.Name)
		}
	}
	if syms == 0 {
		t.Errorf("no symbol among the hits for trolley: %+v", r.Hits)
	}
	// the model's files change: the revision's vectors no longer match
	must(t, model2vec.WriteTiny(modelDir, vocab, 16, nil))
	model2vecs.Clear()
	r = call(t, s, "search", `{"query":"trolley","mode":"semantic","limit":5}`).Result.(SearchResult)
	if r.Mode != "lexical" || !strings.Contains(r.Fallback, "reindex") {
		t.Errorf("after the model changed: mode %s, fallback %q", r.Mode, r.Fallback)
	}
}

// TestHybridFusionWeighsTheSemanticList: reciprocal rank fusion with k = 60
// and the semantic list weighted 2, the lexical and the expanded lists 1: a
// hit first in the semantic list alone outranks one first in the lexical
// list alone, and a hit in every list sums its three parts.
func TestHybridFusionWeighsTheSemanticList(t *testing.T) {
	lex := []Hit{{ID: "lex1"}, {ID: "all"}}
	sem := []Hit{{ID: "sem1"}, {ID: "all"}}
	exp := []Hit{{ID: "all"}}
	got := fuse(lex, sem, exp)
	var ids []string
	for _, h := range got {
		ids = append(ids, h.ID)
	}
	if want := []string{"all", "sem1", "lex1"}; !slices.Equal(ids, want) {
		t.Fatalf("fused order %v, want %v", ids, want)
	}
	want := map[string]float64{"all": 1.0/62 + 2.0/62 + 1.0/61, "sem1": 2.0 / 61, "lex1": 1.0 / 61}
	for _, h := range got {
		if math.Abs(h.Score.Total-want[h.ID]) > 1e-6 {
			t.Errorf("%s: total %v, want %v", h.ID, h.Score.Total, want[h.ID])
		}
	}
}
