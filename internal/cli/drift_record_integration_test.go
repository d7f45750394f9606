package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/control"
)

// TestFT35_LedgerRefusesPathsReadsRefuse: drift_record validates its path as
// strictly as the read operations (a NUL byte, an escape, query-language
// text are refused with their codes), so nothing it stores can break drift
// or the session-start hook; and an entry with such a path already in the
// ledger (written before this check) does not break them either.
func TestFT35_LedgerRefusesPathsReadsRefuse(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/a.php": "<?php\nfunction a() { return 1; }\n"})
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	for _, c := range []struct{ args, code string }{
		{`{"path":"src/a\u0000b.php","note":"x"}`, "E_BAD_INPUT"},
		{`{"path":"../etc/passwd"}`, "E_PATH_OUTSIDE_PROJECT"},
		{`{"path":"/etc/passwd"}`, "E_PATH_OUTSIDE_PROJECT"},
		{`{"path":"."}`, "E_BAD_INPUT"},
		{`{"path":"` + strings.Repeat("a", 1001) + `"}`, "E_BAD_INPUT"},
	} {
		r := run(t, root, "query", "drift_record", "--args", c.args)
		if r.code != 2 || !strings.Contains(r.stdout, c.code) {
			t.Errorf("drift_record %s: exit %d %s, want %s", c.args[:min(len(c.args), 40)], r.code, r.stdout, c.code)
		}
	}
	check := func(when string) {
		t.Helper()
		if r := run(t, root, "query", "drift"); r.code != 0 {
			t.Errorf("%s: drift: %d %s", when, r.code, r.stdout)
		}
		if r := run(t, root, "hook", "session-start"); r.code != 0 || !strings.Contains(r.stdout, "index rev-0001") || strings.Contains(r.stdout, "E_INTERNAL") {
			t.Errorf("%s: hook session-start: %d %s", when, r.code, r.stdout)
		}
	}
	check("after refused records")
	// a NUL path written by an older ragraf
	ctx := context.Background()
	ctl, err := control.Open(ctx, rev.Layout{Root: root}.Control())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ctl.DB().ExecContext(ctx, `INSERT INTO drift_entry(id, revision, method, kind, path, old_path, lines, nodes, note, content_hash, detected_at, dedup_key)
		VALUES ('d-0000000000000000', 'rev-0001', 'manual', 'note', ?, '', '[]', '[]', 'old', '', '2026-01-01T00:00:00Z', 'legacy')`, "src/a\x00b.php"); err != nil {
		t.Fatal(err)
	}
	ctl.Close()
	check("with a NUL path in the ledger")
}

// TestFT35_NoteSizeBounded: a drift note or acknowledgement note longer than
// 4 KB is refused with E_BAD_INPUT, so no entry can make every drift answer
// huge; 4 KB is accepted.
func TestFT35_NoteSizeBounded(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/a.php": "<?php\nfunction a() { return 1; }\n"})
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	big := strings.Repeat("n", 4097)
	r := run(t, root, "query", "drift_record", "--args", `{"path":"src/a.php","note":"`+big+`"}`)
	if r.code != 2 || !strings.Contains(r.stdout, "E_BAD_INPUT") || !strings.Contains(r.stdout, "4096") {
		t.Errorf("4097-byte note: exit %d %s", r.code, r.stdout[:min(len(r.stdout), 300)])
	}
	r = run(t, root, "query", "drift_record", "--args", `{"path":"src/a.php","note":"`+big[:4096]+`"}`)
	if r.code != 0 {
		t.Fatalf("4096-byte note: exit %d %s", r.code, r.stdout[:min(len(r.stdout), 300)])
	}
	r = run(t, root, "query", "drift")
	if r.code != 0 || len(r.stdout) > 16<<10 { // the note, and the dedup key that holds it
		t.Errorf("drift: exit %d, %d bytes", r.code, len(r.stdout))
	}
	var id string
	if i := strings.Index(r.stdout, `"id": "d-`); i >= 0 {
		id = r.stdout[i+7 : i+7+18]
	}
	r = run(t, root, "query", "drift_ack", "--args", `{"entry_id":"`+id+`","note":"`+big+`"}`)
	if r.code != 2 || !strings.Contains(r.stdout, "E_BAD_INPUT") {
		t.Errorf("4097-byte ack note on %s: exit %d %s", id, r.code, r.stdout[:min(len(r.stdout), 300)])
	}
}
