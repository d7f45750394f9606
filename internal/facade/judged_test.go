package facade

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/embed"
)

// TestSearchJudgedQueries scores lexical, semantic and hybrid search on the
// judged queries of bench/semantic/wordpress.tsv (hit@10, nDCG@10), over a
// WordPress project indexed at $RAGRAF_JUDGED_ROOT; skipped without it. It
// also checks that the fixture is honest: every target exists, and no query
// word is a word of a target's name, qualified name or docblock.
func TestSearchJudgedQueries(t *testing.T) {
	root := os.Getenv("RAGRAF_JUDGED_ROOT")
	if root == "" {
		t.Skip("RAGRAF_JUDGED_ROOT is not set: index WordPress there to score the judged queries")
	}
	ctx := context.Background()
	s, err := New(root)
	must(t, err)
	defer s.Close()
	type judged struct {
		query   string
		targets map[string]bool // node ids
		want    int             // targets found
	}
	var qs []judged
	f, err := os.Open(filepath.Join("..", "..", "bench", "semantic", "wordpress.tsv"))
	must(t, err)
	defer f.Close()
	snap, release, err := s.acquire(ctx)
	must(t, err)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		query, names, _ := strings.Cut(line, "\t")
		j := judged{query: query, targets: map[string]bool{}}
		qwords := embed.Words(query)
		for _, qn := range strings.Split(names, "|") {
			ns, err := snap.graph.NodesByQName(ctx, qn)
			must(t, err)
			if len(ns) == 0 {
				t.Errorf("%q: no symbol %s", query, qn)
				continue
			}
			j.want++
			for _, n := range ns {
				j.targets[n.ID] = true
				text := n.Name + " " + n.QName
				chunks, err := snap.lex.ChunksOf(ctx, n.ID)
				must(t, err)
				for _, c := range chunks {
					if c.Kind == "docblock" {
						text += " " + c.Text
					}
				}
				tw := map[string]bool{}
				for _, w := range embed.Words(text) {
					tw[w] = true
				}
				for _, w := range qwords {
					if tw[w] {
						t.Errorf("%q: the word %q is in %s's name or docblock", query, w, qn)
					}
				}
			}
		}
		qs = append(qs, j)
	}
	release()
	if len(qs) < 30 {
		t.Fatalf("%d judged queries, want at least 30", len(qs))
	}
	var report strings.Builder
	fmt.Fprintf(&report, "%d queries\n| mode | hit@10 | nDCG@10 |\n|---|---|---|\n", len(qs))
	for _, mode := range []string{"lexical", "semantic", "hybrid"} {
		var hit, ndcg float64
		for _, j := range qs {
			env, err := s.Search(ctx, SearchArgs{Query: j.query, Mode: mode, Page: Page{Limit: 10}})
			must(t, err)
			seen := map[string]bool{}
			var dcg float64
			for i, h := range env.Result.(SearchResult).Hits {
				id := h.ID
				if !j.targets[id] {
					id = h.NodeID // a docblock or comment of a target
				}
				if j.targets[id] && !seen[id] {
					seen[id] = true
					dcg += 1 / math.Log2(float64(i+2))
				}
			}
			var idcg float64
			for i := 0; i < min(j.want, 10); i++ {
				idcg += 1 / math.Log2(float64(i+2))
			}
			if len(seen) > 0 {
				hit++
			}
			ndcg += min(dcg/idcg, 1)
		}
		n := float64(len(qs))
		fmt.Fprintf(&report, "| %s | %.3f | %.3f |\n", mode, hit/n, ndcg/n)
	}
	t.Log("\n" + report.String())
}
