package control

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func testStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "control.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func entry(rev, method, kind, path, key string) Entry {
	return Entry{Revision: rev, Method: method, Kind: kind, Path: path, Lines: [][2]int{{3, 4}},
		Nodes: []string{"n1"}, DetectedAt: "2026-01-01T00:00:00Z", DedupKey: key}
}

func TestFT26_LedgerAppendOnly(t *testing.T) {
	ctx := context.Background()
	s := testStore(t)
	added, err := s.AppendEntries(ctx, []Entry{entry("rev-0001", "compare", "modify", "a.php", "k1")})
	if err != nil || len(added) != 1 {
		t.Fatalf("AppendEntries = %v, %v", added, err)
	}
	if _, err := s.AppendAck(ctx, added[0].ID, "seen", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendArchive(ctx, "rev-0001", "rev-0002", "archive/rev-0001..rev-0002.md", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendStaleEdges(ctx, []StaleEdge{{Revision: "rev-0001", EdgeID: "e1", EntryID: added[0].ID, Reason: "evidence", RecordedAt: "x"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendRotation(ctx, "rev-0001", time.Now()); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`UPDATE drift_entry SET kind = 'note'`,
		`DELETE FROM drift_entry`,
		`UPDATE drift_ack SET note = ''`,
		`DELETE FROM drift_ack`,
		`UPDATE drift_archive SET report = ''`,
		`DELETE FROM drift_archive`,
		`UPDATE stale_edge SET reason = ''`,
		`DELETE FROM stale_edge`,
		`UPDATE rev_rotation SET removed_at = ''`,
		`DELETE FROM rev_rotation`,
	} {
		if _, err := s.DB().ExecContext(ctx, stmt); err == nil {
			t.Errorf("%s: succeeded, want refused", stmt)
		}
	}
	// a replace is ignored rather than deleting the entry it would replace
	if _, err := s.DB().ExecContext(ctx, `INSERT OR REPLACE INTO drift_entry(id, revision, method, kind, path, old_path, lines, nodes, note, content_hash, detected_at, dedup_key)
		VALUES ('x','r','m','note','p','','[]','[]','','','t','k1')`); err != nil {
		t.Fatal(err)
	}
	got, err := s.Entries(ctx, Filter{})
	if err != nil || len(got) != 1 || got[0].Kind != "modify" || len(got[0].Acks) != 1 {
		t.Fatalf("entries after refused writes = %+v, %v", got, err)
	}
}

func TestFT27_Dedup(t *testing.T) {
	ctx := context.Background()
	s := testStore(t)
	a, err := s.AppendEntries(ctx, []Entry{entry("rev-0001", "compare", "modify", "a.php", "rev-0001|a.php|modify|h1")})
	if err != nil || len(a) != 1 {
		t.Fatal(a, err)
	}
	// the same delta again, and seen by another method: nothing new
	b, err := s.AppendEntries(ctx, []Entry{
		entry("rev-0001", "compare", "modify", "a.php", "rev-0001|a.php|modify|h1"),
		entry("rev-0001", "git-diff", "modify", "a.php", "rev-0001|a.php|modify|h1"),
	})
	if err != nil || len(b) != 0 {
		t.Fatalf("re-detection added %v, %v", b, err)
	}
	all, _ := s.Entries(ctx, Filter{Revision: "rev-0001"})
	if len(all) != 1 || all[0].Method != "compare" || all[0].ID != EntryID("rev-0001|a.php|modify|h1") {
		t.Fatalf("entries = %+v", all)
	}
}

func TestFT36_Ack(t *testing.T) {
	ctx := context.Background()
	s := testStore(t)
	added, _ := s.AppendEntries(ctx, []Entry{
		entry("rev-0001", "manual", "note", "a.php", "k1"),
		entry("rev-0001", "compare", "modify", "b.php", "k2"),
	})
	if _, err := s.AppendAck(ctx, added[0].ID, "checked", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendAck(ctx, added[0].ID, "checked again", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendAck(ctx, "d-nope", "", time.Now()); err == nil {
		t.Fatal("ack of an unknown entry succeeded")
	}
	n, un, err := s.Summary(ctx, "rev-0001")
	if err != nil || n != 2 || un != 1 {
		t.Fatalf("Summary = %d, %d, %v", n, un, err)
	}
	all, _ := s.Entries(ctx, Filter{Revision: "rev-0001"})
	if len(all) != 2 || len(all[0].Acks) != 2 || all[0].Acks[1].Note != "checked again" {
		t.Fatalf("entries = %+v", all)
	}
	unacked, _ := s.Entries(ctx, Filter{Revision: "rev-0001", Unacked: true})
	if len(unacked) != 1 || unacked[0].Path != "b.php" {
		t.Fatalf("unacked = %+v", unacked)
	}
	// archiving copies entries and acks; the ledger rows stay
	if n, err := s.AppendArchive(ctx, "rev-0001", "rev-0002", "r.md", time.Now()); err != nil || n != 2 {
		t.Fatal(n, err)
	}
	arch, _ := s.Archived(ctx, "rev-0002")
	if len(arch) != 2 || len(arch[0].Entry.Acks) != 2 {
		t.Fatalf("archive = %+v", arch)
	}
	if n, _, _ := s.Summary(ctx, "rev-0002"); n != 0 {
		t.Fatalf("new revision's ledger has %d entries", n)
	}
}

// TestBackwardsCompat opens a version 1 file: it migrates in place and keeps
// its history.
func TestBackwardsCompat(t *testing.T) {
	ctx := context.Background()
	src, err := os.Open("testdata/backcompat/control-v1.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	p := filepath.Join(t.TempDir(), "control.sqlite")
	dst, _ := os.Create(p)
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	dst.Close()
	s, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	revs, err := s.Revs(ctx)
	if err != nil || len(revs) != 1 || revs[0].Rev != "rev-0001" {
		t.Fatalf("revs = %v, %v", revs, err)
	}
	var v int
	_ = s.DB().QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	if v != SchemaVersion {
		t.Fatalf("user_version = %d", v)
	}
	if _, err := s.AppendEntries(ctx, []Entry{entry("rev-0001", "manual", "note", "a", "k")}); err != nil {
		t.Fatal(err)
	}
}

// TestLedgerRefusesUnnameablePaths: a path no project file can have is not
// stored, whoever asks; the batch it came in adds nothing.
func TestLedgerRefusesUnnameablePaths(t *testing.T) {
	ctx := context.Background()
	s := testStore(t)
	for _, p := range []string{"", "a\x00b.php", "/etc/passwd", "../x.php", "src/../../x.php", string(make([]byte, 4097))} {
		if _, err := s.AppendEntries(ctx, []Entry{entry("rev-0001", "compare", "modify", "ok.php", "k-ok"), entry("rev-0001", "manual", "note", p, "k-"+p)}); !errors.Is(err, ErrBadPath) {
			t.Errorf("path %q: %v", p, err)
		}
	}
	if es, err := s.Entries(ctx, Filter{}); err != nil || len(es) != 0 {
		t.Errorf("entries stored: %v %v", es, err)
	}
	if _, err := s.AppendEntries(ctx, []Entry{entry("rev-0001", "db-schema-diff", "schema_change", "db:main", "k-db")}); err != nil {
		t.Errorf("db path: %v", err)
	}
}
