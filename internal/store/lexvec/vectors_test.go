package lexvec

import (
	"context"
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
