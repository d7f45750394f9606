package rev

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// dump renders every row of every table of a store file, sorted, so two
// files compare by content whatever their page layout.
func dump(t *testing.T, path string) map[string][]string {
	t.Helper()
	db, err := sqlitedb.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tables := map[string]string{
		"file": "*", "snapshot": "*", "dataflow": "*", "dfsummary": "*", "node": "*", "edge": "*", "unresolved": "*", "meta": "*",
		"chunk": "*", "chunk_fts": "terms, id", "symbol_fts": "name, qname, signature, id, kind",
	}
	out := map[string][]string{}
	for table, cols := range tables {
		var exists int
		if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = ?`, table).Scan(&exists); err != nil || exists == 0 {
			continue
		}
		rows, err := db.Query(`SELECT ` + cols + ` FROM ` + table)
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		names, _ := rows.Columns()
		for rows.Next() {
			vals := make([]sql.RawBytes, len(names))
			ptrs := make([]any, len(names))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, v := range vals {
				parts = append(parts, string(v))
			}
			out[table] = append(out[table], strings.Join(parts, "|"))
		}
		rows.Close()
		sortStrings(out[table])
	}
	return out
}

func sortStrings(s []string) { slices.Sort(s) }

// TestNFR3_IncrementalStoresEqualFullWrite: after edits (modify, add,
// delete), a revision written by updating the parent's stores holds exactly
// the rows of a full write of the same tree.
func TestNFR3_IncrementalStoresEqualFullWrite(t *testing.T) {
	for _, digests := range []bool{true, false} {
		t.Run(fmt.Sprintf("digests=%v", digests), func(t *testing.T) { testIncremental(t, digests) })
	}
}

// testIncremental runs the scenario; without digests the parent's rows.digest
// is removed first, so the update reads the parent's rows instead.
func testIncremental(t *testing.T, digests bool) {
	root := writeProject(t, sampleProject)
	first := build(t, root, config.Default(), 0)
	if !digests {
		if err := os.Remove(filepath.Join(Layout{Root: root}.Rev(first.Rev), DigestFile)); err != nil {
			t.Fatal(err)
		}
	}
	edits := map[string]string{
		"src/Cart.php":  strings.Replace(sampleProject["src/Cart.php"], "public function count(): int", "/** How many. */\n    public function size(): int { return 0; }\n    public function count(): int", 1),
		"src/New.php":   "<?php\nnamespace Shop;\n\n// a new helper\nfunction fresh(Cart $c): Cart { return $c->add(new Item('x', Kind::Book)); }\n",
		"docs/guide.md": "# Guide\n\nUse `Shop\\Cart::add()`.\n",
	}
	for p, c := range edits {
		abs := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(abs), 0o755)
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(filepath.Join(root, "lib", "legacy.php")); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	inc, err := Build(context.Background(), Options{Root: root, Config: config.Default(), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "stores updated from parent") {
		t.Fatalf("the build did not update the parent's stores:\n%s", logs.String())
	}
	full, err := Build(context.Background(), Options{Root: root, Config: config.Default(), Full: true})
	if err != nil {
		t.Fatal(err)
	}
	l := Layout{Root: root}
	for _, f := range []string{GraphDB, LexvecDB} {
		a := dump(t, filepath.Join(l.Rev(inc.Rev), f))
		b := dump(t, filepath.Join(l.Rev(full.Rev), f))
		if d := cmp.Diff(b, a); d != "" {
			t.Errorf("%s: incremental differs from full write (-full +incremental):\n%s", f, d)
		}
		if len(a["node"]) == 0 && f == GraphDB {
			t.Errorf("%s: no nodes", f)
		}
	}
	if inc.Nodes != full.Nodes || inc.Edges != full.Edges || inc.CorpusHash != full.CorpusHash {
		t.Errorf("summaries differ: %+v vs %+v", inc, full)
	}

}
