package lexvec

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// TestLooseQueryDropsCommonTerms: a term in more than commonLimit chunks
// leaves the loose query when a rarer one remains, and stays when it is all
// there is.
func TestLooseQueryDropsCommonTerms(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lexvec.sqlite")
	w, err := Create(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var chunks []fact.TextChunk
	for i := 0; i < commonLimit+10; i++ {
		chunks = append(chunks, fact.TextChunk{ID: fmt.Sprintf("c%04d", i), Kind: "comment", Path: "a.php", StartLine: i + 1, EndLine: i + 1, Text: "get the value"})
	}
	chunks = append(chunks, fact.TextChunk{ID: "rare", Kind: "comment", Path: "b.php", StartLine: 1, EndLine: 1, Text: "ftp_base holds the root"})
	if err := w.Chunks(ctx, chunks); err != nil {
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
	for _, c := range []struct{ in, want string }{
		{"ftp_base get", `"ftp_base" OR "ftp" OR "base"`},
		{"get", `"get"`},
		{"get the", `"get" OR "the"`},
	} {
		got, err := s.LooseQuery(ctx, c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("LooseQuery(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestNFR2_BulkLoadLeavesServingConfig: a full write loads the full-text
// indexes in one pass (no automatic merges, a large term buffer) and leaves
// them with FTS5's defaults for later updates, intact, and searchable.
func TestNFR2_BulkLoadLeavesServingConfig(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lexvec.sqlite")
	w, err := Create(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var chunks []fact.TextChunk
	for i := range 3000 {
		chunks = append(chunks, fact.TextChunk{ID: fmt.Sprintf("c%05d", i), Kind: "comment", Path: "a.php", StartLine: i + 1, EndLine: i + 1,
			Text: fmt.Sprintf("word%d checks the user%d record before saving", i, i%97)})
	}
	nodes := []fact.Node{{ID: "n1", Kind: fact.Method, Name: "saveUser", QName: `App\Repo::saveUser`, Signature: "public function saveUser(User $u): void"}}
	if err := w.Chunks(ctx, chunks); err != nil {
		t.Fatal(err)
	}
	if err := w.Symbols(ctx, nodes); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	db, err := sqlitedb.OpenBuild(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, table := range []string{"chunk_fts", "symbol_fts"} {
		got := map[string]string{}
		rows, err := db.QueryContext(ctx, "SELECT k, v FROM "+table+"_config")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var k, v string
			if err := rows.Scan(&k, &v); err != nil {
				t.Fatal(err)
			}
			got[k] = v
		}
		rows.Close()
		if got["automerge"] != "4" || got["hashsize"] != "1048576" {
			t.Errorf("%s config after a full write = %v, want automerge 4 and hashsize 1048576", table, got)
		}
		if _, err := db.ExecContext(ctx, "INSERT INTO "+table+"("+table+") VALUES ('integrity-check')"); err != nil {
			t.Errorf("%s integrity check: %v", table, err)
		}
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hits, err := s.SearchChunks(ctx, MatchQuery("user42"), 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 31 { // i%97 == 42 for i < 3000
		t.Errorf("search user42: %d hits, want 31", len(hits))
	}
	syms, err := s.SearchSymbols(ctx, MatchQuery("saveUser"), 10)
	if err != nil || len(syms) != 1 || syms[0].ID != "n1" {
		t.Errorf("search saveUser: %v %v, want n1", syms, err)
	}
}

// BenchmarkWriterChunks writes 30,000 chunks and 8,000 symbols shaped like a
// PHP project's docblocks into a new lexvec.sqlite and closes it: the
// lexvec half of a full build's store writes.
func BenchmarkWriterChunks(b *testing.B) {
	ctx := context.Background()
	chunks := make([]fact.TextChunk, 30000)
	for i := range chunks {
		chunks[i] = fact.TextChunk{ID: fmt.Sprintf("t%032x", i*2654435761), Kind: "docblock", Path: fmt.Sprintf("src/Dir%d/File%d.php", i%40, i%600),
			StartLine: i%2000 + 1, EndLine: i%2000 + 3,
			Text: fmt.Sprintf("/**\n * Returns the value of option %d for user%d; see getOption() and set_value_%d in Config%d.\n * @param int $id\n */", i, i%311, i%97, i%53)}
	}
	nodes := make([]fact.Node, 8000)
	for i := range nodes {
		nodes[i] = fact.Node{ID: fmt.Sprintf("n%032x", i*40503), Kind: fact.Method, Name: fmt.Sprintf("getValue%d", i),
			QName: fmt.Sprintf(`App\Models\Repo%d::getValue%d`, i%300, i), Signature: fmt.Sprintf("public function getValue%d(int $id, ?string $name = null): array", i)}
	}
	for i := 0; b.Loop(); i++ {
		w, err := Create(ctx, filepath.Join(b.TempDir(), fmt.Sprint(i, ".sqlite")))
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Chunks(ctx, chunks); err != nil {
			b.Fatal(err)
		}
		if err := w.Symbols(ctx, nodes); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
