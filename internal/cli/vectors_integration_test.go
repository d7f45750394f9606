package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/embed/onnx/onnxtest"
	"github.com/ragraf/ragraf/internal/embed/tokenizer"
)

// runEnv runs the real binary in dir with args and extra environment.
func runEnv(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(ragrafBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running ragraf %v: %v", args, err)
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// tinyModelFiles writes a tiny random BERT and a synthetic XLM-R-like
// tokenizer.json whose vocabulary it covers into a new directory.
func tinyModelFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	tj := tokenizer.SyntheticUnigramJSON()
	tok, err := tokenizer.LoadBytes(tj)
	if err != nil {
		t.Fatal(err)
	}
	b := onnxtest.Tiny
	b.Vocab = tok.VocabSize()
	if _, err := onnxtest.Write(dir, b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), tj, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

type indexSummary struct {
	Capability struct {
		Vectors     bool    `json:"vectors"`
		VectorModel string  `json:"vector_model"`
		VectorsDone float64 `json:"vectors_done"`
		Reason      string  `json:"reason"`
	} `json:"capability"`
	Vectors *struct {
		Model                            string
		Texts, Cached, Embedded, Missing int
	} `json:"vectors"`
}

func indexJSON(t *testing.T, root string, env []string, args ...string) indexSummary {
	t.Helper()
	r := runEnv(t, root, env, append([]string{"index", "--json"}, args...)...)
	if r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	var s indexSummary
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	return s
}

// TestSentenceModelIndexAndSearch: with embeddings.model naming an ONNX
// model installed by `ragraf model pull --from-dir` (a tiny random BERT and
// a synthetic tokenizer), ragraf index embeds every symbol and doc section
// once and stores the vectors in the user's vector cache; a reindex after
// an edit embeds only the changed texts; hybrid search and similar run with
// the query embedded through ONNX Runtime. Without the runtime library the
// index still succeeds: vectors from the cache only (partial) or none
// (false), each with the reason, and search falls back to lexical.
func TestSentenceModelIndexAndSearch(t *testing.T) {
	lib := onnxtest.Library(t)
	cache := t.TempDir()
	env := []string{"RAGRAF_CACHE_DIR=" + cache, "RAGRAF_ORT_LIB=" + lib}
	root := exampleCopy(t)
	if r := runEnv(t, root, env, "model", "pull", "test/tiny", "--from-dir", tinyModelFiles(t), "--no-runtime"); r.code != 0 {
		t.Fatalf("model pull: %d %s", r.code, r.stderr)
	}
	writeConfig(t, root, "embeddings:\n  model: test/tiny\n")

	first := indexJSON(t, root, env)
	c := first.Capability
	if !c.Vectors || !strings.HasPrefix(c.VectorModel, "onnx:test/tiny@") || c.VectorsDone != 0 || first.Vectors == nil {
		t.Fatalf("first index: %+v", first)
	}
	v := first.Vectors
	if v.Texts < 50 || v.Embedded != v.Texts || v.Cached != 0 || v.Missing != 0 {
		t.Fatalf("first index vectors: %+v", *v)
	}
	if _, err := os.Stat(filepath.Join(cache, "vectors.sqlite")); err != nil {
		t.Fatalf("no vector cache in the user cache dir: %v", err)
	}

	// the class's docblock changes: only its text is embedded again
	cart := filepath.Join(root, "src", "Cart", "Cart.php")
	b, err := os.ReadFile(cart)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "A shopping cart identified", "A shopping basket identified", 1)
	if edited == string(b) {
		t.Fatal("Cart.php has no 'A shopping cart identified'")
	}
	os.WriteFile(cart, []byte(edited), 0o644)
	second := indexJSON(t, root, env)
	v2 := second.Vectors
	if v2 == nil || v2.Embedded == 0 || v2.Embedded > 3 || v2.Cached+v2.Embedded != v2.Texts {
		t.Fatalf("reindex after one edit: %+v", v2)
	}
	t.Logf("reuse: %d of %d texts from the vector cache (%.1f%%), %d embedded", v2.Cached, v2.Texts, 100*float64(v2.Cached)/float64(v2.Texts), v2.Embedded)

	var env2 struct {
		Result struct {
			Mode     string `json:"mode"`
			Fallback string `json:"fallback"`
			Hits     []struct {
				Type  string `json:"type"`
				Score struct {
					SemanticRank int `json:"semantic_rank"`
				} `json:"score"`
			} `json:"hits"`
		} `json:"result"`
	}
	r := runEnv(t, root, env, "query", "search", "--args", `{"query":"put a product into the basket","mode":"hybrid","limit":50}`)
	if r.code != 0 {
		t.Fatalf("search: %d %s %s", r.code, r.stdout, r.stderr)
	}
	json.Unmarshal([]byte(r.stdout), &env2)
	sem, text := 0, 0
	for _, h := range env2.Result.Hits {
		if h.Score.SemanticRank > 0 {
			sem++
		}
		if h.Type == "text" {
			text++
		}
	}
	if env2.Result.Mode != "hybrid" || env2.Result.Fallback != "" || sem == 0 {
		t.Fatalf("hybrid search: %s", r.stdout)
	}
	r = runEnv(t, root, env, "query", "similar", "--args", `{"qname":"Shop\\Cart\\Cart::add","limit":5}`)
	if r.code != 0 || !strings.Contains(r.stdout, `"model": "onnx:test/tiny@`) {
		t.Fatalf("similar: %d %s %s", r.code, r.stdout, r.stderr)
	}

	// no runtime: the index still succeeds; another edit leaves one text
	// without a vector (partial); a fresh cache gives none (false)
	noLib := []string{"RAGRAF_CACHE_DIR=" + cache, "RAGRAF_ORT_LIB=" + filepath.Join(cache, "missing.so")}
	os.WriteFile(cart, []byte(strings.Replace(edited, "shopping basket", "trolley", 1)), 0o644)
	third := indexJSON(t, root, noLib)
	if c := third.Capability; !c.Vectors || c.VectorsDone <= 0.9 || c.VectorsDone >= 1 || !strings.Contains(c.Reason, "missing.so") {
		t.Fatalf("partial vectors: %+v", third)
	}
	r = runEnv(t, root, noLib, "query", "search", "--args", `{"query":"basket","mode":"semantic"}`)
	if r.code != 0 || !strings.Contains(r.stdout, `could not embed the query`) || !strings.Contains(r.stdout, `"mode": "lexical"`) {
		t.Fatalf("search without the runtime: %d %s %s", r.code, r.stdout, r.stderr)
	}
	fresh := []string{"RAGRAF_CACHE_DIR=" + t.TempDir(), "RAGRAF_ORT_LIB=" + lib}
	if r := runEnv(t, root, fresh, "model", "pull", "test/tiny", "--from-dir", tinyModelFiles(t), "--no-runtime"); r.code != 0 {
		t.Fatalf("model pull: %d %s", r.code, r.stderr)
	}
	fourth := indexJSON(t, root, fresh, "--no-embed")
	if c := fourth.Capability; c.Vectors || !strings.Contains(c.Reason, "--no-embed") {
		t.Fatalf("--no-embed on an empty cache: %+v", c)
	}
}
