package facade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

// TestReliability_OneNotionOfChanged: after a CRLF-only and a BOM-only
// conversion (new bytes, new mtime, the same text as the index prepared
// it), outline, symbol, code and live_read all call the files unchanged;
// a real edit is a change for all of them.
func TestReliability_OneNotionOfChanged(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	cart := "<?php\nclass Cart\n{\n    public function total() { return 1; }\n}\n"
	writeFile(t, root, "src/Cart.php", cart)
	writeFile(t, root, "src/Bom.php", "\xef\xbb\xbf<?php\nfunction bom() { return 2; }\n")
	if _, err := rev.Build(ctx, rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "src/Cart.php", strings.ReplaceAll(cart, "\n", "\r\n"))
	writeFile(t, root, "src/Bom.php", "<?php\nfunction bom() { return 2; }\n")
	later := time.Now().Add(time.Hour)
	for _, p := range []string{"src/Cart.php", "src/Bom.php"} {
		_ = os.Chtimes(filepath.Join(root, filepath.FromSlash(p)), later, later)
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	states := func(p, name string) []string {
		t.Helper()
		var out []string
		env, err := s.Call(ctx, "outline", []byte(`{"path":"`+p+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, "outline:"+warned(env, p))
		env, err = s.Call(ctx, "symbol", []byte(`{"name":"`+name+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, "symbol:"+warned(env, p))
		env, err = s.Call(ctx, "code", []byte(`{"path":"`+p+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, "code:"+env.Result.(CodeResult).FileState)
		env, err = s.Call(ctx, "live_read", []byte(`{"path":"`+p+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, "live_read:"+env.Result.(LiveReadResult).FileState)
		return out
	}
	same := []string{"outline:unchanged", "symbol:unchanged", "code:unchanged", "live_read:unchanged"}
	for p, name := range map[string]string{"src/Cart.php": "total", "src/Bom.php": "bom"} {
		if got := states(p, name); !reflect.DeepEqual(got, same) {
			t.Errorf("%s after a line-end or BOM conversion: %v", p, got)
		}
	}
	writeFile(t, root, "src/Cart.php", strings.ReplaceAll(strings.Replace(cart, "return 1;", "return 3;", 1), "\n", "\r\n"))
	want := []string{"outline:modify", "symbol:modify", "code:modified", "live_read:modified"}
	if got := states("src/Cart.php", "total"); !reflect.DeepEqual(got, want) {
		t.Errorf("after an edit: %v, want %v", got, want)
	}
	env, _ := s.Call(ctx, "drift", []byte(`{}`))
	if n := len(env.Result.(DriftResult).Entries); n != 1 {
		t.Errorf("the ledger holds %d entries, want the one edit: %+v", n, env.Result)
	}
}

// warned is the kind of env's stale warning for p, "unchanged" without one.
func warned(env *Envelope, p string) string {
	for _, w := range env.StaleWarnings {
		if w.Path == p {
			return w.Kind
		}
	}
	return "unchanged"
}

// TestReliability_LiveReadHunksStartAtTheChange: a hunk covers the changed
// lines only, not the unchanged line before them.
func TestReliability_LiveReadHunksStartAtTheChange(t *testing.T) {
	old := "a\nb\nc\nd\ne\n"
	for cur, want := range map[string][]Hunk{
		"a\nb\nX\nd\ne\n":    {{Line: 3, EndLine: 3, IndexedLine: 3, IndexedEndLine: 3}},
		"a\nb\nc\nY\nd\ne\n": {{Line: 4, EndLine: 4, IndexedLine: 4, IndexedEndLine: 3}},
		"a\nb\nd\ne\n":       {{Line: 3, EndLine: 2, IndexedLine: 3, IndexedEndLine: 3}},
		"Z\na\nb\nc\nd\ne\n": {{Line: 1, EndLine: 1, IndexedLine: 1, IndexedEndLine: 0}},
		"a\nb\nc\nd\ne\nW\n": {{Line: 6, EndLine: 6, IndexedLine: 6, IndexedEndLine: 5}},
		"a\nQ\nc\nR\nS\ne\n": {{Line: 2, EndLine: 2, IndexedLine: 2, IndexedEndLine: 2}, {Line: 4, EndLine: 5, IndexedLine: 4, IndexedEndLine: 4}},
		"a\nb\nc\nd\ne":      {{Line: 5, EndLine: 5, IndexedLine: 5, IndexedEndLine: 5}},
	} {
		if got := hunks(old, cur); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: hunks %+v, want %+v", cur, got, want)
		}
	}
}

// TestReliability_AcksBoundedAndPaged: an entry takes at most maxAcks
// acknowledgements; a list carries each entry's latest shownAcks with
// acks_total, so `drift limit: 1` stays small however many notes were
// written; drift entry_id pages through all of them in order.
func TestReliability_AcksBoundedAndPaged(t *testing.T) {
	ctx := context.Background()
	_, s := driftProject(t)
	env, err := s.DriftRecord(ctx, DriftRecordArgs{Path: "src/Cart.php", Note: "x"})
	if err != nil {
		t.Fatal(err)
	}
	id := env.Result.(DriftEntryResult).Entry.ID
	note := strings.Repeat("n", maxNoteBytes-4)
	for i := range maxAcks {
		if _, err := s.DriftAck(ctx, DriftAckArgs{EntryID: id, Note: fmt.Sprintf("%04d", i) + note}); err != nil {
			t.Fatalf("ack %d: %v", i, err)
		}
	}
	if _, err := s.DriftAck(ctx, DriftAckArgs{EntryID: id, Note: "one more"}); AsError(errOr(err)).Code != ErrBadInput {
		t.Errorf("ack %d: %v, want %s", maxAcks+1, err, ErrBadInput)
	}
	env, err = s.Drift(ctx, DriftArgs{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := EncodeCompactJSON(env)
	e := env.Result.(DriftResult).Entries[0]
	if len(b) > (shownAcks+2)*maxNoteBytes || len(e.Acks) != shownAcks || e.AcksTotal != maxAcks ||
		!strings.HasPrefix(e.Acks[shownAcks-1].Note, fmt.Sprintf("%04d", maxAcks-1)) {
		t.Errorf("drift limit 1: %d bytes, %d acks shown, acks_total %d", len(b), len(e.Acks), e.AcksTotal)
	}
	var seen []string
	cursor := ""
	for range maxAcks {
		env, err := s.Drift(ctx, DriftArgs{EntryID: id, Limit: 40, Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range env.Result.(DriftResult).Entries[0].Acks {
			seen = append(seen, a.Note[:4])
		}
		if cursor = env.Limits.Cursor; cursor == "" {
			break
		}
	}
	if len(seen) != maxAcks || seen[0] != "0000" || seen[maxAcks-1] != fmt.Sprintf("%04d", maxAcks-1) {
		t.Errorf("paged acks: %d, first %v", len(seen), seen[:min(3, len(seen))])
	}
	if _, err := s.Drift(ctx, DriftArgs{EntryID: "d-0000000000000000"}); AsError(errOr(err)).Code != ErrUnknownID {
		t.Errorf("unknown entry: %v", err)
	}
}
