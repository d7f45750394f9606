package rev

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragraf/ragraf/internal/embed"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// revContent reads the nodes and text chunks of a published revision.
func revContent(tb testing.TB, dir string) ([]fact.Node, []fact.TextChunk) {
	tb.Helper()
	ctx := context.Background()
	g, err := graph.Open(ctx, filepath.Join(dir, GraphDB))
	if err != nil {
		tb.Fatal(err)
	}
	defer g.Close()
	nodes, err := g.AllNodes(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	db, err := sqlitedb.OpenReadOnly(filepath.Join(dir, LexvecDB))
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT id, node_id, kind, path, start_line, end_line, text FROM chunk ORDER BY id`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	var chunks []fact.TextChunk
	for rows.Next() {
		var c fact.TextChunk
		if err := rows.Scan(&c.ID, &c.NodeID, &c.Kind, &c.Path, &c.StartLine, &c.EndLine, &c.Text); err != nil {
			tb.Fatal(err)
		}
		chunks = append(chunks, c)
	}
	return nodes, chunks
}

// BenchmarkStaticModelTrain trains the static model on the revision
// directory named by RAGRAF_BENCH_REV (e.g. a WordPress copy's
// .ragraf/revs/rev-0001); skipped when unset.
func BenchmarkStaticModelTrain(b *testing.B) {
	dir := os.Getenv("RAGRAF_BENCH_REV")
	if dir == "" {
		b.Skip("RAGRAF_BENCH_REV not set")
	}
	nodes, chunks := revContent(b, dir)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := embed.Train(nodes, chunks)
		if v == nil {
			b.Fatal("no model")
		}
		if i == 0 {
			h := fnv.New64a()
			for _, w := range v.Words {
				h.Write([]byte(w))
			}
			for _, x := range [][]float32{v.WordWeights, v.WordVecs, v.SymVecs} {
				for _, f := range x {
					binary.Write(h, binary.LittleEndian, math.Float32bits(f))
				}
			}
			b.Logf("%d words, %d symbols, fingerprint %x", len(v.Words), len(v.IDs), h.Sum64())
		}
	}
}
