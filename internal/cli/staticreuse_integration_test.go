package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestM4_EmbeddingReuseThroughTheBinary: with no embeddings.model in
// project.yaml, `ragraf index` trains the static model (the default); after
// one class gains a docblock, `ragraf reindex --commit --json` says the model
// was reused from the first revision and embedded only the changed texts;
// `embeddings.model: none` indexes without vectors.
func TestM4_EmbeddingReuseThroughTheBinary(t *testing.T) {
	root := exampleCopy(t)
	writeConfig(t, root, "languages: [php, markdown, sql]\n")
	r := run(t, root, "index", "--json")
	if r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	type vectors struct {
		Model      string `json:"model"`
		Texts      int    `json:"texts"`
		Embedded   int    `json:"embedded"`
		Trained    bool   `json:"trained"`
		ReusedFrom string `json:"reused_from"`
		TrainedIn  string `json:"trained_in"`
	}
	var first struct {
		Rev     string   `json:"rev"`
		Vectors *vectors `json:"vectors"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &first); err != nil {
		t.Fatal(err)
	}
	if v := first.Vectors; v == nil || v.Model != "static:project" || !v.Trained || v.TrainedIn != first.Rev || v.Embedded != v.Texts {
		t.Fatalf("index: %s", r.stdout)
	}
	path := filepath.Join(root, "src", "Catalog", "Product.php")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "final class Product ", "/**\n * A thing the shop sells, with its price and stock.\n */\nfinal class Product ", 1)
	if edited == string(b) {
		t.Fatal("no class to document")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, root, "reindex", "--commit", "--json")
	if r.code != 0 {
		t.Fatalf("reindex: %d %s", r.code, r.stderr)
	}
	var second struct {
		Rev     string   `json:"rev"`
		Vectors *vectors `json:"vectors"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &second); err != nil {
		t.Fatal(err)
	}
	if v := second.Vectors; v == nil || v.Trained || v.ReusedFrom != first.Rev || v.TrainedIn != first.Rev || v.Embedded < 1 || v.Embedded > 3 {
		t.Fatalf("reindex: %s", r.stdout)
	}
	writeConfig(t, root, "embeddings:\n  model: none\n")
	if r = run(t, root, "index", "--json"); r.code != 0 || strings.Contains(r.stdout, `"vectors": {`) || !strings.Contains(r.stdout, "search is lexical") {
		t.Fatalf("index with model none: %d %s %s", r.code, r.stdout, r.stderr)
	}
}
