package rev

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/store/graph"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// modelProject writes 48 documented functions in 8 files: carts and mail,
// enough words for the static model.
func modelProject(t *testing.T, root string, doc func(file, fn int) string) {
	t.Helper()
	files := map[string]string{}
	for f := 0; f < 8; f++ {
		var b strings.Builder
		b.WriteString("<?php\n")
		for i := 0; i < 6; i++ {
			fmt.Fprintf(&b, "/**\n * %s\n */\nfunction f%d_%d($x)\n{\n    return $x;\n}\n", doc(f, i), f, i)
		}
		files[fmt.Sprintf("src/lib%d.php", f)] = b.String()
	}
	writeFiles(t, root, files)
}

func modelDoc(f, i int) string {
	if (f+i)%2 == 0 {
		return "Puts goods into the shopping basket before checkout and payment."
	}
	return "Delivers a letter to the recipient inbox through the postman relay."
}

func revVectors(t *testing.T, root, name string) *lexvec.Vectors {
	t.Helper()
	s, err := lexvec.Open(context.Background(), filepath.Join(Layout{Root: root}.Rev(name), LexvecDB))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v, err := s.Vectors(context.Background())
	if err != nil || v == nil {
		t.Fatalf("vectors of %s: %v %v", name, v, err)
	}
	return v
}

// revJSONVectors reads the vectors part of a published rev.json.
func revJSONVectors(t *testing.T, root, name string) VectorStats {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Layout{Root: root}.Rev(name), RevJSON))
	if err != nil {
		t.Fatal(err)
	}
	var info Info
	if err := json.Unmarshal(b, &info); err != nil || info.Vectors == nil {
		t.Fatalf("rev.json of %s: %v %s", name, err, b)
	}
	return *info.Vectors
}

func symbolID(t *testing.T, root, rev, name string) string {
	t.Helper()
	g, err := graph.Open(context.Background(), filepath.Join(Layout{Root: root}.Rev(rev), GraphDB))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	nodes, err := g.AllNodes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nodes {
		if n.Name == name {
			return n.ID
		}
	}
	t.Fatalf("no symbol %s", name)
	return ""
}

// TestM4_EmbeddingReuseOnReindex: `reindex --commit` after one edited
// docblock does not train the static model: rev.json says the model was
// reused from the parent (trained in the first revision), one text was
// embedded; the edited function's vector changed, every other symbol's and
// every word's stayed bit for bit. A second small reindex reuses the same
// training and adds up the changes; a plain index trains again.
func TestM4_EmbeddingReuseOnReindex(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	modelProject(t, root, modelDoc)
	cfg := config.Default()
	cfg.Embeddings.Model = config.StaticModel
	first, err := Build(ctx, Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if s := revJSONVectors(t, root, first.Rev); !s.Trained || s.TrainedIn != first.Rev || s.ReusedFrom != "" || s.Embedded != s.Texts || s.Texts < 48 {
		t.Fatalf("first build: %+v", s)
	}
	modelProject(t, root, func(f, i int) string {
		if f == 0 && i == 0 {
			return "Delivers a letter to the recipient inbox through the postman relay."
		}
		return modelDoc(f, i)
	})
	second, err := Reindex(ctx, Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	s := revJSONVectors(t, root, second.Rev)
	if s.Trained || s.ReusedFrom != first.Rev || s.TrainedIn != first.Rev || s.Embedded != 1 || s.Cached != s.Texts-1 || s.SinceTraining != 1 {
		t.Fatalf("reindex after one edit: %+v", s)
	}
	if !second.Capability.Vectors || second.Capability.VectorModel != config.StaticModel {
		t.Fatalf("capability: %+v", second.Capability)
	}
	v1, v2 := revVectors(t, root, first.Rev), revVectors(t, root, second.Rev)
	if !slices.Equal(v1.Words, v2.Words) || !slices.Equal(v1.WordVecs, v2.WordVecs) || !slices.Equal(v1.WordWeights, v2.WordWeights) {
		t.Fatal("the word vectors changed without training")
	}
	edited, other := symbolID(t, root, first.Rev, "f0_0"), symbolID(t, root, first.Rev, "f3_2")
	if slices.Equal(v1.Symbol(edited), v2.Symbol(edited)) {
		t.Fatal("the edited function kept its vector")
	}
	if !slices.Equal(v1.Symbol(other), v2.Symbol(other)) || !slices.Equal(v1.IDs, v2.IDs) {
		t.Fatal("an unchanged function's vector changed")
	}
	// a second small edit reuses the first revision's training again
	modelProject(t, root, func(f, i int) string {
		switch {
		case f == 0 && i == 0:
			return "Delivers a letter to the recipient inbox through the postman relay."
		case f == 0 && i == 1:
			return "Puts goods into the shopping basket before checkout and payment."
		}
		return modelDoc(f, i)
	})
	third, err := Reindex(ctx, Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if s := revJSONVectors(t, root, third.Rev); s.Trained || s.ReusedFrom != second.Rev || s.TrainedIn != first.Rev || s.Embedded != 1 || s.SinceTraining != 2 {
		t.Fatalf("second reindex: %+v", s)
	}
	// a plain index trains
	full, err := Build(ctx, Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if s := revJSONVectors(t, root, full.Rev); !s.Trained || s.TrainedIn != full.Rev || s.ReusedFrom != "" {
		t.Fatalf("index: %+v", s)
	}
}

// TestM4_EmbeddingRetrainsOnLargeChange: a reindex that changes more than
// reuseShare of the texts trains the model again.
func TestM4_EmbeddingRetrainsOnLargeChange(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	modelProject(t, root, modelDoc)
	cfg := config.Default()
	cfg.Embeddings.Model = config.StaticModel
	first, err := Build(ctx, Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	// 6 of 48 functions (12.5 %) change
	modelProject(t, root, func(f, i int) string {
		if f == 0 {
			return "Sorts the shelf of the library catalogue by author."
		}
		return modelDoc(f, i)
	})
	second, err := Reindex(ctx, Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if s := revJSONVectors(t, root, second.Rev); !s.Trained || s.TrainedIn != second.Rev || s.ReusedFrom != "" || s.Embedded != s.Texts {
		t.Fatalf("reindex after a large change (parent %s): %+v", first.Rev, s)
	}
}

// TestM4_StaticModelIsTheDefault: without embeddings.model the build trains
// the static model; "none", and "" as project.yaml files of earlier versions
// hold, build no vectors and say search is lexical.
func TestM4_StaticModelIsTheDefault(t *testing.T) {
	ctx := context.Background()
	cfg := config.Default()
	if cfg.Embeddings.Model != config.StaticModel {
		t.Fatalf("default model %q", cfg.Embeddings.Model)
	}
	for _, m := range []string{config.StaticModel, config.NoModel, ""} {
		root := t.TempDir()
		modelProject(t, root, modelDoc)
		cfg.Embeddings.Model = m
		info, err := Build(ctx, Options{Root: root, Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		c := info.Capability
		if m == config.StaticModel {
			if !c.Vectors || c.VectorModel != config.StaticModel || info.Vectors == nil || !info.Vectors.Trained {
				t.Errorf("model %q: %+v %+v", m, c, info.Vectors)
			}
			continue
		}
		if c.Vectors || info.Vectors != nil || !strings.Contains(c.Reason, "search is lexical") {
			t.Errorf("model %q: %+v %+v", m, c, info.Vectors)
		}
		if _, err := os.Stat(filepath.Join(Layout{Root: root}.Rev(info.Rev), ModelDigestFile)); err == nil {
			t.Errorf("model %q: a model.digest without a model", m)
		}
	}
}
