package models

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func sum(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }

// hub serves files at /{repo}/resolve/{rev}/{path} and counts requests.
func hub(t *testing.T, files map[string][]byte) (*httptest.Server, *int) {
	n := new(int)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*n++
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv, n
}

// withManifest replaces the manifest and the cache directory for one test.
func withManifest(t *testing.T, entries ...Entry) string {
	saved := Manifest
	Manifest = entries
	t.Cleanup(func() { Manifest = saved })
	cache := t.TempDir()
	t.Setenv("RAGRAF_CACHE_DIR", cache)
	t.Setenv("HF_ENDPOINT", "")
	return cache
}

// TestPullChecksManifest: a verified entry installs when the hub serves the
// files the manifest names; a byte changed is a ChecksumError and leaves
// nothing installed; list and remove see the install.
func TestPullChecksManifest(t *testing.T) {
	onnx, tok := []byte("weights"), []byte(`{"model":{}}`)
	e := Entry{Name: "org/tiny", Revision: "abc123",
		Files: []File{{Remote: "onnx/model.onnx", Local: "model.onnx", SHA256: sum(onnx)}, {Remote: "tokenizer.json", Local: "tokenizer.json", SHA256: sum(tok)}}}
	cache := withManifest(t, e)
	files := map[string][]byte{"/org/tiny/resolve/abc123/onnx/model.onnx": onnx, "/org/tiny/resolve/abc123/tokenizer.json": tok}
	srv, _ := hub(t, files)
	ctx := context.Background()

	files["/org/tiny/resolve/abc123/tokenizer.json"] = []byte(`{"model":{},"evil":1}`)
	_, err := Pull(ctx, "tiny", PullOptions{Endpoint: srv.URL})
	var ce *ChecksumError
	if !errors.As(err, &ce) || ce.File != "tokenizer.json" {
		t.Fatalf("a changed tokenizer.json: %v", err)
	}
	if _, err := Open("org/tiny"); !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("after a checksum failure the model is installed: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(cache, "models")); len(ents) != 0 {
		t.Fatalf("a checksum failure left %d entries in the cache", len(ents))
	}

	files["/org/tiny/resolve/abc123/tokenizer.json"] = tok
	m, err := Pull(ctx, "tiny", PullOptions{Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Verified || m.SHA256["model.onnx"] != sum(onnx) || m.Dir != filepath.Join(cache, "models", "org--tiny") {
		t.Fatalf("installed %+v", m)
	}
	if b, err := os.ReadFile(m.ModelPath()); err != nil || !bytes.Equal(b, onnx) {
		t.Fatalf("model.onnx: %q %v", b, err)
	}
	list, err := List()
	if err != nil || len(list) != 1 || list[0].Name != "org/tiny" {
		t.Fatalf("List = %v %v", list, err)
	}
	if err := Remove("org/tiny"); err != nil {
		t.Fatal(err)
	}
	if list, _ := List(); len(list) != 0 {
		t.Fatalf("after Remove: %v", list)
	}
	if err := Remove("org/tiny"); !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("removing twice: %v", err)
	}
}

// TestPullRefusesUnverified: an entry without a pinned revision and sha256
// downloads nothing unless Insecure; with it, the sha256 it got is recorded
// and the install says it is not verified.
func TestPullRefusesUnverified(t *testing.T) {
	onnx, tok := []byte("w"), []byte("{}")
	withManifest(t, Entry{Name: "org/open", Files: []File{{Remote: "onnx/model.onnx", Local: "model.onnx"}, {Remote: "tokenizer.json", Local: "tokenizer.json"}}})
	srv, n := hub(t, map[string][]byte{"/org/open/resolve/main/onnx/model.onnx": onnx, "/org/open/resolve/main/tokenizer.json": tok})
	t.Setenv("HF_ENDPOINT", srv.URL)
	if _, err := Pull(context.Background(), "org/open", PullOptions{}); !errors.Is(err, ErrUnverified) || *n != 0 {
		t.Fatalf("unverified pull: %v after %d requests", err, *n)
	}
	m, err := Pull(context.Background(), "org/open", PullOptions{Insecure: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.Verified || m.SHA256["tokenizer.json"] != sum(tok) || m.Revision != "main" {
		t.Fatalf("insecure install %+v", m)
	}
}

// TestFromDir: copied files install under the model's name, checked
// against the manifest; a wrong file is refused.
func TestFromDir(t *testing.T) {
	onnx, tok := []byte("weights"), []byte("{}")
	withManifest(t, Entry{Name: "org/tiny", Revision: "r", Files: []File{{Remote: "onnx/model.onnx", Local: "model.onnx", SHA256: sum(onnx)}, {Remote: "tokenizer.json", Local: "tokenizer.json", SHA256: sum(tok)}}})
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "model.onnx"), []byte("other"), 0o644)
	os.WriteFile(filepath.Join(src, "tokenizer.json"), tok, 0o644)
	var ce *ChecksumError
	if _, err := FromDir("org/tiny", src); !errors.As(err, &ce) {
		t.Fatalf("wrong model.onnx: %v", err)
	}
	os.WriteFile(filepath.Join(src, "model.onnx"), onnx, 0o644)
	m, err := FromDir("org/tiny", src)
	if err != nil || !m.Verified {
		t.Fatalf("FromDir: %+v %v", m, err)
	}
	// a name the manifest does not know installs, unverified
	m, err = FromDir("me/custom", src)
	if err != nil || m.Verified || m.ID() != "onnx:me/custom@"+sum(onnx)[:12] {
		t.Fatalf("unknown name: %+v %v", m, err)
	}
	if _, err := Dir("../x"); err == nil {
		t.Fatal("a name with .. is accepted")
	}
}

// TestPullRuntime: the library is taken out of the release archive into
// the cache's onnxruntime directory; a wrong archive is refused.
func TestPullRuntime(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the pinned runtime is for linux/amd64")
	}
	withManifest(t)
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	lib := []byte("\x7fELF fake")
	tw.WriteHeader(&tar.Header{Name: "ort/lib/libonnxruntime.so.9", Mode: 0o644, Size: int64(len(lib))})
	tw.Write(lib)
	tw.Close()
	gz.Close()
	srv, _ := hub(t, map[string][]byte{"/ort.tgz": buf.Bytes()})
	rt := Runtime{Version: "9", URL: srv.URL + "/ort.tgz", Member: "ort/lib/libonnxruntime.so.9", SHA256: sum(buf.Bytes())}
	p, err := PullRuntime(context.Background(), rt, "", PullOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); !bytes.Equal(b, lib) || p != filepath.Join(RuntimeDir(), "libonnxruntime.so") {
		t.Fatalf("runtime at %s: %q", p, b)
	}
	rt.SHA256 = sum([]byte("x"))
	var ce *ChecksumError
	if _, err := PullRuntime(context.Background(), rt, "", PullOptions{}); !errors.As(err, &ce) {
		t.Fatalf("wrong archive: %v", err)
	}
	rt.SHA256 = ""
	if _, err := PullRuntime(context.Background(), rt, "", PullOptions{}); !errors.Is(err, ErrUnverified) {
		t.Fatalf("unverified runtime: %v", err)
	}
}
