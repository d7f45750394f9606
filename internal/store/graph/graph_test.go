package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// TestOpenRefusesOtherSchemaVersion: a graph.sqlite written by another schema
// version is refused with an error that names both versions.
func TestOpenRefusesOtherSchemaVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "graph.sqlite")
	w, err := Create(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Nodes(ctx, []fact.Node{{ID: "n1", Kind: fact.Class, Name: "A", QName: "A", Path: "a.php", StartLine: 1, EndLine: 2}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("current version refused: %v", err)
	}
	s.Close()

	db, err := sqlitedb.OpenBuild(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := sqlitedb.SetVersion(ctx, db, SchemaVersion+41); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(ctx, path)
	var ve *sqlitedb.VersionError
	if !errors.As(err, &ve) || !errors.Is(err, sqlitedb.ErrSchema) {
		t.Fatalf("Open = %v, want a VersionError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, fmt.Sprint(SchemaVersion+41)) || !strings.Contains(msg, fmt.Sprintf("version %d", SchemaVersion)) {
		t.Errorf("message does not name both versions: %s", msg)
	}
}

// TestPropsJSONMatchesEncodingJSON: the direct encoding of plain props gives
// the bytes encoding/json gives, and props that need escaping still do.
func TestPropsJSONMatchesEncodingJSON(t *testing.T) {
	alphabet := []string{"a", "Z", "9", " ", "_", "-", "/", ":", "\\", `"`, "<", ">", "&", "\n", "\t", "é", "\u2028", "\xff", "{", "'"}
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	many := map[string]string{}
	for i := range 12 {
		many[fmt.Sprintf("k%02d", 11-i)] = fmt.Sprint(i)
	}
	if b, _ := json.Marshal(many); PropsJSON(many) != string(b) {
		t.Fatalf("PropsJSON of 12 plain keys = %s, want %s", PropsJSON(many), b)
	}
	plain := 0
	for range 20000 {
		m := map[string]string{}
		n := r.IntN(4)
		if r.IntN(8) == 0 {
			n = r.IntN(13) // past the keys PropsJSON sorts in place
		}
		for range n {
			m[word()] = word()
		}
		want := "{}"
		if len(m) > 0 {
			b, _ := json.Marshal(m)
			want = string(b)
		}
		if got := PropsJSON(m); got != want {
			t.Fatalf("PropsJSON(%q) = %s, want %s", m, got, want)
		}
		if !strings.ContainsAny(want, `\`) {
			plain++
		}
	}
	if plain < 1000 {
		t.Fatalf("only %d plain cases exercised the direct path", plain)
	}
}

// TestUpdateRebuildsChangedIndexes: a store copied from a revision written
// with another definition of an index gets this build's definition.
func TestUpdateRebuildsChangedIndexes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "graph.sqlite")
	c := Content{Nodes: []fact.Node{{ID: "n1", Kind: fact.Function, Name: "f", QName: "f", Path: "a.php", StartLine: 1, EndLine: 2}},
		Edges: []fact.Edge{{ID: "e1", Kind: fact.Calls, From: "n1", To: "n1", Provenance: fact.Stated, Confidence: 1, EvidencePath: "a.php", EvidenceLine: 1}}}
	w, err := Create(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Nodes(ctx, c.Nodes); err != nil {
		t.Fatal(err)
	}
	if err := w.Edges(ctx, c.Edges); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	db, err := sqlitedb.OpenBuild(path)
	if err != nil {
		t.Fatal(err)
	}
	indexSQL := func() string {
		var s string
		if err := db.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE name = 'edge_dst'`).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	want := indexSQL()
	if _, err := db.ExecContext(ctx, `DROP INDEX edge_dst; CREATE INDEX edge_dst ON edge(dst)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `DROP INDEX node_name`); err != nil {
		t.Fatal(err)
	}
	d := ContentDigests(c)
	if _, err := Update(ctx, path, c, d, d); err != nil {
		t.Fatal(err)
	}
	if got := indexSQL(); got != want {
		t.Errorf("edge_dst after Update: %s, want %s", got, want)
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name = 'node_name'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("node_name after Update: %d %v", n, err)
	}
	db.Close()
}

// TestPropValueDecodesEscapes: one value read from props as written, plain or
// escaped by encoding/json.
func TestPropValueDecodesEscapes(t *testing.T) {
	props := PropsJSON(map[string]string{"receiver": "assigned ->c", "use": "method_call"})
	if got := propValue(props, "receiver"); got != "assigned ->c" {
		t.Errorf("receiver = %q from %s", got, props)
	}
	if got := propValue(props, "use"); got != "method_call" {
		t.Errorf("use = %q from %s", got, props)
	}
	if got := propValue(props, "missing"); got != "" {
		t.Errorf("missing = %q", got)
	}
}

// TestUpdateRewritesChangedSnapshots: a file whose bytes are unchanged but
// whose indexed content is not (redacted by a newer ragraf) gets its new
// snapshot, with the parent's digests and without them.
func TestUpdateRewritesChangedSnapshots(t *testing.T) {
	ctx := context.Background()
	row := File{Path: "a.php", Lang: "php", Status: "parsed", Size: 20, Lines: 1, Hash: "h1", MTime: 7}
	old := Content{Files: []File{row}, Snapshot: func(string) []byte { return []byte("$password = 'x1';") }}
	redacted := Content{Files: []File{row}, Snapshot: func(string) []byte { return []byte("$password = '[REDACTED]';") }}
	for _, withPrev := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "graph.sqlite")
		w, err := Create(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Files(ctx, old.Files); err != nil {
			t.Fatal(err)
		}
		if err := w.Snapshots(ctx, old.Files, old.Snapshot); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(ctx); err != nil {
			t.Fatal(err)
		}
		var prev *Digests
		if withPrev {
			prev = ContentDigests(old)
		}
		st, err := Update(ctx, path, redacted, prev, ContentDigests(redacted))
		if err != nil {
			t.Fatal(err)
		}
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := s.Snapshot(ctx, row.Path)
		s.Close()
		if err != nil || !ok || string(got) != string(redacted.Snapshot(row.Path)) {
			t.Errorf("with parent digests %v: snapshot %q (%v, %v) after Update (%+v), want the redacted one", withPrev, got, ok, err, st)
		}
	}
}
