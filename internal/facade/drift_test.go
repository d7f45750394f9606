package facade

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

const cartPHP = `<?php
namespace Shop;

class Cart
{
    public function total(array $items): int
    {
        $sum = 0;
        foreach ($items as $item) {
            $sum += $this->price($item);
        }
        return $sum;
    }

    public function price($item): int
    {
        return $item->price * $item->qty;
    }
}
`

// driftProject indexes a small project and returns its Service.
func driftProject(t *testing.T) (string, *Service) {
	t.Helper()
	root := t.TempDir()
	writeFile(t, root, "src/Cart.php", cartPHP)
	writeFile(t, root, "src/util.php", "<?php\nfunction util_twice($x)\n{\n    return $x * 2;\n}\n")
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return root, s
}

func writeFile(t *testing.T, root, p, content string) {
	t.Helper()
	abs := filepath.Join(root, p)
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cite runs the finish step of an answer that cites paths.
func cite(t *testing.T, s *Service, paths ...string) *Envelope {
	t.Helper()
	ctx := context.Background()
	snap, release, err := s.acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	env := s.envelope("test", snap)
	if err := s.finish(ctx, env, snap, paths); err != nil {
		t.Fatal(err)
	}
	return env
}

func TestFT28_StaleWarnings(t *testing.T) {
	ctx := context.Background()
	root, s := driftProject(t)
	env := cite(t, s, "src/Cart.php", "src/util.php")
	if len(env.StaleWarnings) != 0 || env.Drift.Entries != 0 || env.Drift.LedgerCheckedAt == "" {
		t.Fatalf("clean tree: %+v %+v", env.StaleWarnings, env.Drift)
	}
	writeFile(t, root, "src/Cart.php", strings.Replace(cartPHP, "$item->price * $item->qty", "$item->price * $item->qty * 2", 1))
	env = cite(t, s, "src/Cart.php", "src/util.php")
	if len(env.StaleWarnings) != 1 {
		t.Fatalf("warnings = %+v", env.StaleWarnings)
	}
	w := env.StaleWarnings[0]
	if w.Path != "src/Cart.php" || w.Kind != "modify" || !reflect.DeepEqual(w.Lines, []int{17, 17}) || len(w.Entries) != 1 {
		t.Fatalf("warning = %+v", w)
	}
	// the change was recorded in the ledger before the answer left
	if env.Drift.Entries != 1 || env.Drift.Unacked != 1 {
		t.Fatalf("drift = %+v", env.Drift)
	}
	env = cite(t, s, "src/Cart.php")
	if env.Drift.Entries != 1 || len(env.StaleWarnings) != 1 || env.StaleWarnings[0].Entries[0] != w.Entries[0] {
		t.Fatalf("second answer: %+v %+v", env.Drift, env.StaleWarnings)
	}

	// facts are marked one by one, chains carry the warning of a drifted step
	snap, release, _ := s.acquire(ctx)
	defer release()
	v, err := s.staleView(ctx, snap, []string{"src/Cart.php", "src/util.php"})
	if err != nil {
		t.Fatal(err)
	}
	if m := v.At("src/Cart.php", 15, 18); m == nil || m.Kind != "modify" {
		t.Errorf("price() not marked: %+v", m)
	}
	if m := v.At("src/Cart.php", 6, 12); m != nil {
		t.Errorf("total() marked: %+v", m)
	}
	if m := v.Chain(StaleStep{Path: "src/util.php", Start: 2, End: 5}, StaleStep{Path: "src/Cart.php", Start: 6, End: 12}, StaleStep{Path: "src/Cart.php", Start: 15, End: 18}); m == nil || m.Via != "src/Cart.php:15" {
		t.Errorf("chain mark = %+v", m)
	}
	ctl, _ := s.control(ctx)
	edges, _ := ctl.StaleEdges(ctx, snap.name)
	if len(edges) == 0 {
		t.Error("no stale_edge recorded for the changed method")
	}
	for _, e := range edges {
		if !v.EdgeStale(e.EdgeID) {
			t.Errorf("view does not know stale edge %s", e.EdgeID)
		}
	}

	// a deleted file is stale as a whole
	os.Remove(filepath.Join(root, "src/util.php"))
	env = cite(t, s, "src/util.php")
	if len(env.StaleWarnings) != 1 || env.StaleWarnings[0].Kind != "delete" {
		t.Fatalf("deleted: %+v", env.StaleWarnings)
	}
}

func TestFT27_DetectDedup(t *testing.T) {
	ctx := context.Background()
	root, s := driftProject(t)
	writeFile(t, root, "src/Cart.php", strings.Replace(cartPHP, "return $sum;", "return $sum + 1;", 1))
	writeFile(t, root, "src/New.php", "<?php\nfunction brand_new() {}\n")
	env, err := s.DriftDetect(ctx, DriftDetectArgs{Method: "compare"})
	if err != nil {
		t.Fatal(err)
	}
	res := env.Result.(DriftDetectResult)
	if res.Found != 2 || len(res.Added) != 2 {
		t.Fatalf("first detect: %+v", res)
	}
	for _, m := range []string{"compare", "hook:session-start"} {
		env, err = s.DriftDetect(ctx, DriftDetectArgs{Method: m})
		if err != nil {
			t.Fatal(err)
		}
		if res := env.Result.(DriftDetectResult); res.Found != 2 || len(res.Added) != 0 {
			t.Fatalf("%s again: %+v", m, res)
		}
	}
	if _, err := s.DriftDetect(ctx, DriftDetectArgs{Method: "git-diff"}); err == nil || AsError(err).Code != ErrBadInput {
		t.Fatalf("git-diff without git: %v", err)
	}
	if _, err := s.DriftDetect(ctx, DriftDetectArgs{Method: "cypher"}); err == nil {
		t.Fatal("unknown method accepted")
	}
	env, _ = s.Drift(ctx, DriftArgs{})
	if got := env.Result.(DriftResult).Entries; len(got) != 2 || env.Drift.Entries != 2 {
		t.Fatalf("ledger = %+v", got)
	}
}

func TestFT36_Ack(t *testing.T) {
	ctx := context.Background()
	_, s := driftProject(t)
	env, err := s.DriftRecord(ctx, DriftRecordArgs{Path: "src/Cart.php", Note: "pricing will change"})
	if err != nil {
		t.Fatal(err)
	}
	e := env.Result.(DriftEntryResult)
	if !e.Added || e.Entry.Method != "manual" || e.Entry.Kind != "note" {
		t.Fatalf("record = %+v", e)
	}
	if env, _ := s.DriftRecord(ctx, DriftRecordArgs{Path: "./src/Cart.php", Note: "pricing will change"}); env.Result.(DriftEntryResult).Added {
		t.Error("the same manual note was recorded twice")
	}
	if _, err := s.DriftRecord(ctx, DriftRecordArgs{Path: "../etc/passwd", Note: "x"}); err == nil || AsError(err).Code != ErrPathOutside {
		t.Errorf("outside path: %v", err)
	}
	env, err = s.DriftAck(ctx, DriftAckArgs{EntryID: e.Entry.ID, Note: "reviewed"})
	if err != nil {
		t.Fatal(err)
	}
	acked := env.Result.(DriftEntryResult).Entry
	if len(acked.Acks) != 1 || acked.Acks[0].Note != "reviewed" || acked.Kind != e.Entry.Kind || acked.DetectedAt != e.Entry.DetectedAt {
		t.Fatalf("acked = %+v", acked)
	}
	if env.Drift.Entries != 1 || env.Drift.Unacked != 0 {
		t.Fatalf("drift = %+v", env.Drift)
	}
	if _, err := s.DriftAck(ctx, DriftAckArgs{EntryID: "d-0000"}); err == nil || AsError(err).Code != ErrUnknownID {
		t.Fatalf("unknown id: %v", err)
	}
	env, _ = s.Drift(ctx, DriftArgs{Unacked: true})
	if !env.NotFound {
		t.Fatalf("unacked list: %+v", env.Result)
	}
}

func fileHash(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestFT24_ReadsKeepStores runs 200 reads while the tree drifts and the
// detectors record entries: the revision's store files keep their bytes.
func TestFT24_ReadsKeepStores(t *testing.T) {
	ctx := context.Background()
	root, s := driftProject(t)
	l := rev.Layout{Root: root}
	name, _ := l.CurrentRev()
	files := []string{filepath.Join(l.Rev(name), rev.GraphDB), filepath.Join(l.Rev(name), rev.LexvecDB)}
	before := []string{fileHash(t, files[0]), fileHash(t, files[1])}
	for i := range 200 {
		if i == 50 {
			writeFile(t, root, "src/Cart.php", strings.Replace(cartPHP, "return $sum;", "return $sum * 2;", 1))
		}
		switch i % 4 {
		case 0:
			if _, err := s.Status(ctx, StatusArgs{}); err != nil {
				t.Fatal(err)
			}
		case 1:
			cite(t, s, "src/Cart.php", "src/util.php")
		case 2:
			if _, err := s.DriftDetect(ctx, DriftDetectArgs{Method: "compare"}); err != nil {
				t.Fatal(err)
			}
		case 3:
			if _, err := s.Drift(ctx, DriftArgs{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	after := []string{fileHash(t, files[0]), fileHash(t, files[1])}
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("store files changed: %v -> %v", before, after)
	}
}

// TestFT28_StaleMarksOnItems: once a file changes, the items of an answer
// whose lines changed carry a stale mark, and so does every item whose chain
// passes through the changed definition; unchanged items carry none.
func TestFT28_StaleMarksOnItems(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "src/A.php", "<?php\nfunction a_top()\n{\n    return b_mid();\n}\n")
	writeFile(t, root, "src/B.php", "<?php\nfunction b_mid()\n{\n    $x = 1;\n    return c_leaf($x);\n}\n")
	writeFile(t, root, "src/C.php", "<?php\nfunction c_leaf($x)\n{\n    return $x;\n}\n")
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	callers := func() map[string]*StaleMark {
		env := call(t, s, "callers", `{"qname":"c_leaf","depth":2}`)
		r := env.Result.(CallsResult)
		out := map[string]*StaleMark{}
		for _, c := range append(r.Stated, r.Derived...) {
			out[c.QName] = c.Stale
		}
		return out
	}
	before := callers()
	if len(before) != 2 || before["b_mid"] != nil || before["a_top"] != nil {
		t.Fatalf("clean tree: %+v", before)
	}

	writeFile(t, root, "src/B.php", "<?php\nfunction b_mid()\n{\n    $x = 2;\n    return c_leaf($x);\n}\n")
	after := callers()
	if m := after["b_mid"]; m == nil || m.Kind != "modify" || m.Via != "src/B.php:2" || !reflect.DeepEqual(m.Lines, []int{4, 4}) {
		t.Errorf("b_mid, whose body changed: %+v", m)
	}
	if m := after["a_top"]; m == nil || m.Via == "" {
		t.Errorf("a_top, whose chain passes through b_mid: %+v", m)
	}

	outline := func(p string) map[string]*StaleMark {
		env := call(t, s, "outline", `{"path":"`+p+`"}`)
		out := map[string]*StaleMark{}
		for _, it := range env.Result.(OutlineResult).Symbols {
			out[it.Name] = it.Stale
		}
		return out
	}
	if m := outline("src/B.php")["b_mid"]; m == nil {
		t.Error("outline: b_mid not marked")
	}
	if m := outline("src/A.php")["a_top"]; m != nil {
		t.Errorf("outline: unchanged a_top marked %+v", m)
	}

	env := call(t, s, "references", `{"qname":"c_leaf"}`)
	for _, u := range env.Result.(ReferencesResult).Uses {
		if u.Kind == "declaration" {
			if u.Stale != nil {
				t.Errorf("declaration in the unchanged C.php marked: %+v", u.Stale)
			}
			continue
		}
		// the call on line 5 did not change; the function around it did
		if u.Path != "src/B.php" || u.Line != 5 || u.Stale != nil || u.From == nil || u.From.Stale == nil {
			t.Errorf("use %s:%d stale=%+v from=%+v", u.Path, u.Line, u.Stale, u.From)
		}
	}
}
