package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/embed/models"
)

// TestModelPullListRemoveThroughTheBinary: ragraf model pull refuses the
// default model while ragraf's manifest has no verified sha256 for it (and
// asks the hub nothing); with --insecure it installs from the hub (a local
// server here) into the user's cache, not the project; list shows it
// unverified; --from-dir installs copied files; remove deletes it.
func TestModelPullListRemoveThroughTheBinary(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("RAGRAF_CACHE_DIR", cache)
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		switch r.URL.Path {
		case "/" + models.DefaultModel + "/resolve/main/onnx/model.onnx":
			w.Write([]byte("onnx"))
		case "/" + models.DefaultModel + "/resolve/main/tokenizer.json":
			w.Write([]byte("{}"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()

	r := run(t, dir, "model", "pull", "--endpoint", srv.URL, "--no-runtime")
	if r.code != 1 || !strings.Contains(r.stderr, "no verified sha256") || requests != 0 {
		t.Fatalf("unverified pull: code %d, %d requests, %s", r.code, requests, r.stderr)
	}
	r = run(t, dir, "model", "pull", "--endpoint", srv.URL, "--no-runtime", "--insecure")
	if r.code != 0 || !strings.Contains(r.stdout, "NOT verified") {
		t.Fatalf("insecure pull: %d %s %s", r.code, r.stdout, r.stderr)
	}
	want := filepath.Join(cache, "models", strings.ReplaceAll(models.DefaultModel, "/", "--"))
	if b, err := os.ReadFile(filepath.Join(want, "model.onnx")); err != nil || string(b) != "onnx" {
		t.Fatalf("model.onnx in %s: %q %v", want, b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".ragraf")); err == nil {
		t.Fatal("model pull wrote into the project")
	}
	r = run(t, dir, "model", "list")
	if r.code != 0 || !strings.Contains(r.stdout, models.DefaultModel+"\tunverified\tmain\t"+want) {
		t.Fatalf("list: %d %q", r.code, r.stdout)
	}

	src := writeFiles(t, map[string]string{"model.onnx": "copied", "tokenizer.json": "{}"})
	r = run(t, dir, "model", "pull", "me/copied", "--from-dir", src, "--no-runtime")
	if r.code != 0 {
		t.Fatalf("from-dir: %d %s", r.code, r.stderr)
	}
	r = run(t, dir, "model", "remove", "paraphrase-multilingual-MiniLM-L12-v2")
	if r.code != 0 {
		t.Fatalf("remove: %d %s", r.code, r.stderr)
	}
	r = run(t, dir, "model", "list")
	if strings.Contains(r.stdout, models.DefaultModel) || !strings.Contains(r.stdout, "me/copied\tunverified") {
		t.Fatalf("list after remove: %q", r.stdout)
	}
	if r = run(t, dir, "model", "remove", "paraphrase-multilingual-MiniLM-L12-v2"); r.code != 1 {
		t.Fatalf("removing twice: %d", r.code)
	}
}

// TestReliability_ModelRemoveValidatesName: `ragraf model remove` with ".",
// "..", "/", "", a path or a name with separators exits non-zero and every
// installed model stays; a real name still removes its model alone.
func TestReliability_ModelRemoveValidatesName(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("RAGRAF_CACHE_DIR", cache)
	dir := t.TempDir()
	src := writeFiles(t, map[string]string{"model.onnx": "copied", "tokenizer.json": "{}"})
	for _, name := range []string{"me/one", "me/two"} {
		if r := run(t, dir, "model", "pull", name, "--from-dir", src, "--no-runtime"); r.code != 0 {
			t.Fatalf("pull %s: %d %s", name, r.code, r.stderr)
		}
	}
	keep := filepath.Join(cache, "keep.txt")
	if err := os.WriteFile(keep, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{".", "..", "/", "", "./", "me/..", "../models", "me/one/..", "a/b/c", `me\one`, "me--one", filepath.Join(cache, "models")} {
		r := run(t, dir, "model", "remove", bad)
		if r.code == 0 {
			t.Errorf("remove %q: exit 0: %s", bad, r.stdout)
		}
		if l := run(t, dir, "model", "list"); !strings.Contains(l.stdout, "me/one\t") || !strings.Contains(l.stdout, "me/two\t") {
			t.Fatalf("after remove %q: %s", bad, l.stdout)
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Fatalf("the cache lost a file: %v", err)
	}
	if r := run(t, dir, "model", "remove", "me/one"); r.code != 0 {
		t.Fatalf("remove me/one: %d %s", r.code, r.stderr)
	}
	if l := run(t, dir, "model", "list"); strings.Contains(l.stdout, "me/one\t") || !strings.Contains(l.stdout, "me/two\t") {
		t.Fatalf("after remove me/one: %s", l.stdout)
	}
}
