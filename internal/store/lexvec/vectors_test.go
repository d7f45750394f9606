package lexvec

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func sampleVectors() *Vectors {
	return &Vectors{Model: "static:project", Dim: 2,
		Words: []string{"basket", "cart"}, WordWeights: []float32{0.5, 1.25}, WordVecs: []float32{1, 0, -0.6, 0.8},
		IDs: []string{"n1", "n2"}, SymVecs: []float32{0.6, 0.8, 0, -1}}
}

// TestVectorsRoundTrip: the vectors a build writes read back bit for bit,
// through the full write and through Update, and a file without them reads
// as none.
func TestVectorsRoundTrip(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lexvec.sqlite")
	w, err := Create(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	want := sampleVectors()
	if err := w.Vectors(ctx, want); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	read := func() *Vectors {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		v, err := s.Vectors(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	got := read()
	if got == nil || got.Model != want.Model || got.Dim != 2 || !slices.Equal(got.Words, want.Words) || !slices.Equal(got.WordWeights, want.WordWeights) ||
		!slices.Equal(got.WordVecs, want.WordVecs) || !slices.Equal(got.IDs, want.IDs) || !slices.Equal(got.SymVecs, want.SymVecs) {
		t.Fatalf("read %+v, wrote %+v", got, want)
	}
	if i, ok := got.Lookup("cart"); !ok || i != 1 || !slices.Equal(got.Symbol("n2"), []float32{0, -1}) || got.Symbol("n3") != nil {
		t.Errorf("lookup cart %d %v, symbol n2 %v", i, ok, got.Symbol("n2"))
	}
	// Update replaces them whole; nil removes them
	next := sampleVectors()
	next.IDs, next.SymVecs = next.IDs[:1], next.SymVecs[:2]
	if _, _, err := Update(ctx, path, nil, nil, next, nil, ContentDigests(nil, nil)); err != nil {
		t.Fatal(err)
	}
	if got := read(); got == nil || !slices.Equal(got.IDs, []string{"n1"}) {
		t.Fatalf("after update %+v", got)
	}
	if _, _, err := Update(ctx, path, nil, nil, nil, nil, ContentDigests(nil, nil)); err != nil {
		t.Fatal(err)
	}
	if got := read(); got != nil {
		t.Fatalf("after removal %+v", got)
	}
}

// TestM4_VectorDeltaUpdateEqualsFullWrite: a delta to a file's vectors
// (n2 deleted, n1 changed, n3 added) applied by Update to a copy of it holds
// what a full write of the same delta holds (read from its base): the word
// rows and the unchanged symbol rows of the base, the delta's rows; and
// WordVectors reads only the words asked.
func TestM4_VectorDeltaUpdateEqualsFullWrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	base := filepath.Join(dir, "base.sqlite")
	w, err := Create(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	v := sampleVectors()
	v.IDs, v.SymVecs = append(v.IDs, "n4"), append(v.SymVecs, 1, 0)
	if err := w.Vectors(ctx, v); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	delta := &Vectors{Model: v.Model, Dim: 2, IDs: []string{"n1", "n3"}, SymVecs: []float32{0, 1, -1, 0},
		Delta: &VectorDelta{Base: base, Delete: []string{"n2"}}}
	updated := filepath.Join(dir, "updated.sqlite")
	b, _ := os.ReadFile(base)
	if err := os.WriteFile(updated, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Update(ctx, updated, nil, nil, delta, nil, ContentDigests(nil, nil)); err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(dir, "full.sqlite")
	if w, err = Create(ctx, full); err != nil {
		t.Fatal(err)
	}
	if err := w.Vectors(ctx, delta); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{updated, full} {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Vectors(ctx)
		if err != nil || got == nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Words, v.Words) || !slices.Equal(got.WordVecs, v.WordVecs) || !slices.Equal(got.IDs, []string{"n1", "n3", "n4"}) ||
			!slices.Equal(got.SymVecs, []float32{0, 1, -1, 0, 1, 0}) {
			t.Errorf("%s: %+v", filepath.Base(path), got)
		}
		wv, err := s.WordVectors(ctx, []string{"cart", "nowhere", "cart"})
		if err != nil || !slices.Equal(wv.Words, []string{"cart"}) || !slices.Equal(wv.WordVecs, []float32{-0.6, 0.8}) || wv.WordWeights[0] != 1.25 {
			t.Errorf("%s: word vectors %+v %v", filepath.Base(path), wv, err)
		}
		s.Close()
	}
}

// TestReliability_CancelledVectorsReadNotKept: a Vectors call whose context
// is cancelled does not leave its cancellation behind: the calls after it,
// on the same open store, get the model (before, the first call's error was
// kept for as long as the store stayed open, and semantic search, hybrid
// search and similar failed in every session).
func TestReliability_CancelledVectorsReadNotKept(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lexvec.sqlite")
	w, err := Create(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Vectors(ctx, sampleVectors()); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for round := range 3 {
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if v, err := s.Vectors(cancelled); err == nil && v == nil {
			t.Fatalf("round %d: a cancelled call answered no model and no error", round)
		}
		for i := range 2 {
			v, err := s.Vectors(ctx)
			if err != nil || v == nil || !slices.Equal(v.IDs, []string{"n1", "n2"}) {
				t.Fatalf("round %d, call %d after a cancelled one: %v, %v", round, i, v, err)
			}
		}
	}
}
