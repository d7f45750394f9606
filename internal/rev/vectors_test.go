package rev

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/embed/models"
	"github.com/ragraf/ragraf/internal/embed/onnx/onnxtest"
	"github.com/ragraf/ragraf/internal/embed/tokenizer"
)

// TestEmbeddingResumesAfterInterrupt: a build cancelled after its first
// batch of embeddings fails with context.Canceled, and the next build takes
// that batch from the vector cache and embeds only the rest: the cache
// makes an interrupted index resumable.
func TestEmbeddingResumesAfterInterrupt(t *testing.T) {
	lib := onnxtest.Library(t)
	t.Setenv("RAGRAF_CACHE_DIR", t.TempDir())
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
	os.WriteFile(filepath.Join(dir, "tokenizer.json"), tj, 0o644)
	if _, err := models.FromDir("test/tiny", dir); err != nil {
		t.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join(filepath.Dir(file), "..", "..", "examples", "shop"))); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(root, ".ragraf"))
	cfg := config.Default()
	cfg.Embeddings.Model = "test/tiny"

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = Build(ctx, Options{Root: root, Config: cfg, ORTLib: lib, EmbedProgress: func(done, total int) {
		if done > 0 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled build: %v", err)
	}
	info, err := Build(context.Background(), Options{Root: root, Config: cfg, ORTLib: lib})
	if err != nil {
		t.Fatal(err)
	}
	v := info.Vectors
	// the first batch's 64 texts; symbols sharing one of them get it too
	if v == nil || v.Cached < embedBatch || v.Cached > v.Texts/2 || v.Cached+v.Embedded != v.Texts || v.Missing != 0 || !info.Capability.Vectors {
		t.Fatalf("resumed build: %+v %+v", v, info.Capability)
	}
}
