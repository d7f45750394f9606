package sentence

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragraf/ragraf/internal/embed/onnx"
	"github.com/ragraf/ragraf/internal/embed/onnx/onnxtest"
	"github.com/ragraf/ragraf/internal/embed/tokenizer"
)

func cos(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// TestTinyModelEmbedsText: a model directory (tiny random BERT, synthetic
// XLM-R-like tokenizer) loads, gives unit vectors of its hidden size, the
// same text the same vector, a 300-word text embeds (cut at 128 tokens);
// a missing runtime library is an error, not a crash.
func TestTinyModelEmbedsText(t *testing.T) {
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
	inst, err := Resolve("test/tiny", dir)
	if err != nil {
		t.Fatal(err)
	}

	if _, err := Load(inst, filepath.Join(dir, "missing.so")); !errors.Is(err, onnx.ErrNoLibrary) {
		t.Fatalf("a missing library: %v", err)
	}
	lib := onnxtest.Library(t)
	m, err := Load(inst, lib)
	if err != nil {
		t.Fatal(err)
	}
	if m.Dim() != b.Hidden || m.ID() != inst.ID() {
		t.Fatalf("dim %d id %s", m.Dim(), m.ID())
	}
	long := ""
	for range 300 {
		long += "word "
	}
	vs, err := m.Embed(context.Background(), []string{"save user preferences", "сохранить настройки пользователя", "save user preferences", long})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		if math.Abs(cos(v, v)-1) > 1e-5 {
			t.Errorf("text %d: |v|² = %g", i, cos(v, v))
		}
	}
	if cos(vs[0], vs[2]) < 1-1e-6 {
		t.Fatal("the same text gave two vectors")
	}
	if again, _ := Load(inst, lib); again != m {
		t.Fatal("a second Load loaded the model again")
	}
}

// TestRealModel runs the model in $RAGRAF_MODEL_DIR (model.onnx and
// tokenizer.json of a sentence-transformers model such as
// paraphrase-multilingual-MiniLM-L12-v2): a paraphrase is nearer than an
// unrelated sentence, in English and, for a multilingual model, across
// English and Russian.
func TestRealModel(t *testing.T) {
	dir := os.Getenv("RAGRAF_MODEL_DIR")
	if dir == "" {
		t.Skip("RAGRAF_MODEL_DIR is not set: no real model weights on this machine (ragraf model pull or copy model.onnx and tokenizer.json there)")
	}
	lib := onnxtest.Library(t)
	inst, err := Resolve("real", dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(inst, lib)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := m.Embed(context.Background(), []string{
		"save user preferences", "store the settings of a user", "parse an HTTP date header",
		"сохранить настройки пользователя"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("dim %d; cos(paraphrase) %.3f, cos(unrelated) %.3f, cos(ru) %.3f", m.Dim(), cos(vs[0], vs[1]), cos(vs[0], vs[2]), cos(vs[0], vs[3]))
	if cos(vs[0], vs[1]) <= cos(vs[0], vs[2]) {
		t.Fatal("the paraphrase is not nearer than the unrelated sentence")
	}
	if os.Getenv("RAGRAF_MODEL_MULTILINGUAL") != "" && cos(vs[0], vs[3]) <= cos(vs[0], vs[2]) {
		t.Fatal("the Russian paraphrase is not nearer than the unrelated sentence")
	}
}
