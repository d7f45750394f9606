package graph

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
)

// benchEdges makes n edges shaped like a PHP project's: 33-character ids,
// a few kinds, evidence in one of 600 files.
func benchEdges(n int) []fact.Edge {
	id := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return "e" + hex.EncodeToString(h[:16])
	}
	kinds := []fact.EdgeKind{"calls", "references", "contains", "instantiates", "calls_heuristic"}
	edges := make([]fact.Edge, n)
	for i := range edges {
		e := fact.Edge{
			ID: id(fmt.Sprint("e", i)), Kind: kinds[i%len(kinds)],
			From: id(fmt.Sprint("n", i%8000)), To: id(fmt.Sprint("n", (i*7)%8000)),
			Provenance: fact.Stated, Confidence: 1, EvidencePath: fmt.Sprintf("libraries/classes/Dir%d/File%d.php", i%40, i%600),
			EvidenceLine: i % 2000, Sources: []string{"php-resolve"},
		}
		edges[i] = e
	}
	return edges
}

// BenchmarkWriterEdges writes 40,000 edges and builds the indexes, the
// largest serial part of a full build.
func BenchmarkWriterEdges(b *testing.B) {
	ctx := context.Background()
	edges := benchEdges(40000)
	for i := 0; b.Loop(); i++ {
		w, err := Create(ctx, filepath.Join(b.TempDir(), fmt.Sprint(i, ".sqlite")))
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Edges(ctx, edges); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
