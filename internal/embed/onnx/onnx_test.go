package onnx

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ragraf/ragraf/internal/embed/onnx/onnxtest"
)

// tinyModel loads the runtime and opens a freshly written tiny BERT.
func tinyModel(t *testing.T, opts Options) (*Model, string) {
	t.Helper()
	lib := onnxtest.Library(t)
	if err := Init(lib); err != nil {
		t.Fatal(err)
	}
	path, err := onnxtest.Write(t.TempDir(), onnxtest.Tiny)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m, path
}

func randomInputs(n, maxLen, vocab int) []Input {
	r := rand.New(rand.NewPCG(7, 7))
	var in []Input
	for i := range n {
		l := 1 + r.IntN(maxLen)
		if i == 0 {
			l = maxLen
		}
		x := Input{}
		for range l {
			x.IDs = append(x.IDs, int64(r.IntN(vocab)))
			x.TypeIDs = append(x.TypeIDs, int64(r.IntN(2)))
			x.Mask = append(x.Mask, 1)
		}
		in = append(in, x)
	}
	return in
}

// TestOnnxMatchesNodeOracle: the Go runtime's pooled, normalised vectors
// equal onnxruntime-node's (one run per text) within 1e-5, though Go runs
// the texts in padded batches.
func TestOnnxMatchesNodeOracle(t *testing.T) {
	mods := onnxtest.NodeModules(t)
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the oracle cannot run")
	}
	m, path := tinyModel(t, Options{Batch: 8})
	in := randomInputs(21, 60, onnxtest.Tiny.Vocab)
	got, err := m.Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}

	type item struct {
		IDs   []int64 `json:"ids"`
		Types []int64 `json:"types"`
		Mask  []int64 `json:"mask"`
	}
	req := struct {
		Model  string `json:"model"`
		Inputs []item `json:"inputs"`
	}{Model: path}
	for _, x := range in {
		req.Inputs = append(req.Inputs, item{x.IDs, x.TypeIDs, x.Mask})
	}
	body, _ := json.Marshal(req)
	cmd := exec.Command("node", filepath.Join("testdata", "oracle.js"))
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	cmd.Stdin = bytes.NewReader(body)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle: %v\n%s", err, stderr.String())
	}
	var want struct {
		Version string      `json:"version"`
		Vectors [][]float64 `json:"vectors"`
	}
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	if len(want.Vectors) != len(got) {
		t.Fatalf("oracle returned %d vectors, Go %d", len(want.Vectors), len(got))
	}
	worst := 0.0
	for i := range got {
		if len(got[i]) != onnxtest.Tiny.Hidden || len(want.Vectors[i]) != len(got[i]) {
			t.Fatalf("text %d: %d dims from Go, %d from the oracle, want %d", i, len(got[i]), len(want.Vectors[i]), onnxtest.Tiny.Hidden)
		}
		for d := range got[i] {
			worst = math.Max(worst, math.Abs(float64(got[i][d])-want.Vectors[i][d]))
		}
	}
	t.Logf("runtime %s (Go) / %s (node): max |Δ| = %.2g over %d texts", Version(), want.Version, worst, len(got))
	if worst > 1e-5 {
		t.Fatalf("Go and the oracle differ by %g > 1e-5", worst)
	}
}

// TestOnnxVectorsAreUnitAndBatchFree: every vector has norm 1, the same
// text gets the same vector alone and in a batch of others, and tokens past
// MaxTokens are not read.
func TestOnnxVectorsAreUnitAndBatchFree(t *testing.T) {
	m, _ := tinyModel(t, Options{MaxTokens: 16, Batch: 4})
	if m.Dim() != onnxtest.Tiny.Hidden {
		t.Fatalf("Dim = %d, want %d", m.Dim(), onnxtest.Tiny.Hidden)
	}
	ctx := context.Background()
	in := randomInputs(9, 30, onnxtest.Tiny.Vocab)
	all, err := m.Embed(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range all {
		var s float64
		for _, x := range v {
			s += float64(x) * float64(x)
		}
		if math.Abs(s-1) > 1e-5 {
			t.Errorf("text %d: |v|² = %g", i, s)
		}
		one, err := m.Embed(ctx, in[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		for d := range v {
			if math.Abs(float64(v[d]-one[0][d])) > 1e-5 {
				t.Fatalf("text %d: batched and alone differ at %d: %g vs %g", i, d, v[d], one[0][d])
			}
		}
	}
	long := in[0] // 30 tokens
	cut := Input{IDs: long.IDs[:16], TypeIDs: long.TypeIDs[:16], Mask: long.Mask[:16]}
	vs, err := m.Embed(ctx, []Input{long, cut, {}})
	if err != nil {
		t.Fatal(err)
	}
	for d := range vs[0] {
		if math.Abs(float64(vs[0][d]-vs[1][d])) > 1e-6 {
			t.Fatalf("a text longer than MaxTokens differs from its first MaxTokens tokens at %d", d)
		}
		if vs[2][d] != 0 {
			t.Fatalf("an empty input has a non-zero vector")
		}
	}
}

// TestFindLibrary: the flag wins over the variable, a named path that does
// not exist is an error saying which, and with nothing found the error is
// ErrNoLibrary naming where it looked.
func TestFindLibrary(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "libonnxruntime.so")
	other := filepath.Join(dir, "other.so")
	for _, p := range []string{lib, other} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	saved := systemDirs
	systemDirs = []string{filepath.Join(dir, "none")}
	defer func() { systemDirs = saved }()

	t.Setenv(LibEnv, other)
	if p, err := FindLibrary(lib, ""); err != nil || p != lib {
		t.Fatalf("flag: %q %v", p, err)
	}
	if p, err := FindLibrary("", ""); err != nil || p != other {
		t.Fatalf("env: %q %v", p, err)
	}
	t.Setenv(LibEnv, filepath.Join(dir, "missing.so"))
	if _, err := FindLibrary("", dir); !errors.Is(err, ErrNoLibrary) {
		t.Fatalf("a missing $%s: %v", LibEnv, err)
	}
	t.Setenv(LibEnv, "")
	if p, err := FindLibrary("", dir); err != nil || p != lib {
		t.Fatalf("runtime dir: %q %v", p, err)
	}
	if _, err := FindLibrary("", filepath.Join(dir, "empty")); !errors.Is(err, ErrNoLibrary) {
		t.Fatalf("nothing: %v", err)
	}
}

// TestPool: mean over the unmasked tokens only, then unit length.
func TestPool(t *testing.T) {
	h := []float32{3, 0, 1, 4, 100, 100} // 3 tokens × 2 dims
	got := Pool(h, []int64{1, 1, 0}, 1, 3, 2)[0]
	// mean (2, 2) → (0.7071, 0.7071)
	if math.Abs(float64(got[0])-math.Sqrt2/2) > 1e-6 || math.Abs(float64(got[1])-math.Sqrt2/2) > 1e-6 {
		t.Fatalf("Pool = %v", got)
	}
}
