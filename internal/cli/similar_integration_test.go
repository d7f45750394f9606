package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeConfig writes root's .ragraf/project.yaml.
func writeConfig(t *testing.T, root, yaml string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, ".ragraf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".ragraf", "project.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSimilarAndSemanticSearchThroughTheBinary: after ragraf index with
// embeddings.model static:project the example's revision has vectors from
// the static model; ragraf query similar
// lists symbols like a method, without it, and search runs in semantic mode.
func TestSimilarAndSemanticSearchThroughTheBinary(t *testing.T) {
	root := exampleCopy(t)
	writeConfig(t, root, "embeddings:\n  model: static:project\n")
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	var env struct {
		Capability struct {
			Vectors     bool   `json:"vectors"`
			VectorModel string `json:"vector_model"`
		} `json:"capability"`
		Result struct {
			Target struct{ ID, QName string } `json:"target"`
			Mode   string                     `json:"mode"`
			Model  string                     `json:"model"`
			Hits   []struct {
				ID    string `json:"id"`
				Score struct {
					Semantic float64 `json:"semantic"`
				} `json:"score"`
			} `json:"hits"`
		} `json:"result"`
	}
	r := run(t, root, "query", "similar", "--args", `{"qname":"Shop\\Cart\\Cart::add","limit":5}`)
	if r.code != 0 {
		t.Fatalf("similar: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
		t.Fatal(err)
	}
	if !env.Capability.Vectors || env.Capability.VectorModel != "static:project" || env.Result.Model != "static:project" || len(env.Result.Hits) != 5 {
		t.Fatalf("similar: %s", r.stdout)
	}
	for _, h := range env.Result.Hits {
		if h.ID == env.Result.Target.ID || h.Score.Semantic == 0 {
			t.Errorf("similar hit %+v", h)
		}
	}
	r = run(t, root, "query", "search", "--args", `{"query":"shopping basket","mode":"semantic"}`)
	if r.code != 0 {
		t.Fatalf("search: %d %s", r.code, r.stderr)
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || env.Result.Mode != "semantic" {
		t.Fatalf("semantic search: %v %s", err, r.stdout)
	}
	// --no-embed skips the static model's training: no vectors, and why
	s := indexJSON(t, root, nil, "--no-embed")
	if c := s.Capability; c.Vectors || !strings.Contains(c.Reason, "--no-embed") {
		t.Fatalf("static model with --no-embed: %+v", c)
	}
}
