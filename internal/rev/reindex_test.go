package rev

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/store/control"
	"github.com/ragraf/ragraf/internal/store/graph"
)

var ledgerProject = map[string]string{
	"src/Cart.php": `<?php
namespace Shop;

class Cart
{
    public function total(array $items): int
    {
        $sum = 0;
        foreach ($items as $item) {
            $sum += $item->price;
        }
        return $sum;
    }
}
`,
	"src/util.php": "<?php\nfunction util_twice($x)\n{\n    return $x * 2;\n}\n",
	"src/Old.php":  "<?php\nclass Old\n{\n    public function a() { return 1; }\n}\n",
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		abs := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func nodeIDs(t *testing.T, root, name string) map[string]bool {
	t.Helper()
	g, err := graph.Open(context.Background(), filepath.Join(Layout{Root: root}.Rev(name), GraphDB))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	nodes, err := g.AllNodes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, n := range nodes {
		out[n.ID+" "+n.Signature] = true
	}
	return out
}

// TestFT32_ReindexCommit: a reindex re-extracts only the changed file, gives
// the same facts as a full build, and starts the new revision with an empty
// ledger while the old entries stay and are archived.
func TestFT32_ReindexCommit(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeFiles(t, root, ledgerProject)
	cfg := config.Default()
	first, err := Build(ctx, Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	cached := CacheEntries(root)
	if cached != 3 {
		t.Fatalf("cache entries after index = %d", cached)
	}
	ctl, err := control.Open(ctx, Layout{Root: root}.Control())
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	if _, err := ctl.AppendEntries(ctx, []control.Entry{{Revision: first.Rev, Method: "manual", Kind: "note", Path: "src/util.php", DetectedAt: "t", DedupKey: "k"}}); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{"src/util.php": "<?php\nfunction util_twice($x, $y = 1)\n{\n    return $x * 2 * $y;\n}\n"})
	second, err := Reindex(ctx, Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if second.Reused != cached-1 || CacheEntries(root) != cached {
		t.Errorf("reindex reused %d files, cache holds %d; want %d reused (one file re-extracted), %d cached", second.Reused, CacheEntries(root), cached-1, cached)
	}
	// the reused extraction equals a fresh one
	fresh := t.TempDir()
	writeFiles(t, fresh, ledgerProject)
	writeFiles(t, fresh, map[string]string{"src/util.php": "<?php\nfunction util_twice($x, $y = 1)\n{\n    return $x * 2 * $y;\n}\n"})
	third, err := Build(ctx, Options{Root: fresh, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	a, b := nodeIDs(t, root, second.Rev), nodeIDs(t, fresh, third.Rev)
	if len(a) != len(b) {
		t.Fatalf("reindex has %d nodes, full build %d", len(a), len(b))
	}
	for k := range a {
		if !b[k] {
			t.Errorf("node %s only in the reindexed revision", k)
		}
	}
	if second.Edges != third.Edges || second.CorpusHash != third.CorpusHash {
		t.Errorf("reindex %d edges %s, full %d edges %s", second.Edges, second.CorpusHash, third.Edges, third.CorpusHash)
	}
	if n, _, _ := ctl.Summary(ctx, second.Rev); n != 0 {
		t.Errorf("new revision's ledger has %d entries", n)
	}
	if n, _, _ := ctl.Summary(ctx, first.Rev); n != 1 {
		t.Errorf("old revision's ledger has %d entries, want 1 (never deleted)", n)
	}
	arch, err := ctl.Archived(ctx, second.Rev)
	if err != nil || len(arch) != 1 || arch[0].FromRev != first.Rev || arch[0].Report != "archive/rev-0001..rev-0002.md" {
		t.Fatalf("archive = %+v, %v", arch, err)
	}
	if _, err := Reindex(ctx, Options{Root: t.TempDir(), Config: cfg}); err == nil {
		t.Error("reindex of a project without an index succeeded")
	}
}

// TestFT33_ArchiveReport: the report names changed files, symbols with new
// signatures, added and removed ones, renames, slice boundaries and acks.
func TestFT33_ArchiveReport(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeFiles(t, root, ledgerProject)
	cfg := config.Default()
	first, err := Build(ctx, Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	ctl, err := control.Open(ctx, Layout{Root: root}.Control())
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	added, err := ctl.AppendEntries(ctx, []control.Entry{
		{Revision: first.Rev, Method: "compare", Kind: "modify", Path: "src/util.php", Lines: [][2]int{{2, 4}}, DetectedAt: "t", DedupKey: "k1"},
		{Revision: first.Rev, Method: "compare", Kind: "rename", Path: "lib/Old.php", OldPath: "src/Old.php", DetectedAt: "t", DedupKey: "k2"},
		{Revision: first.Rev, Method: "compare", Kind: "slice_boundary", Path: "src/Cart.php", Lines: [][2]int{{10, 10}}, Note: "1 lines of method Shop\\Cart::total moved into new method Shop\\Cart::add", DetectedAt: "t", DedupKey: "k3"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ctl.AppendAck(ctx, added[0].ID, "intended: new parameter", time.Now()); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{
		"src/util.php": "<?php\nfunction util_twice($x, $y = 1)\n{\n    return $x * 2 * $y;\n}\n",
		"lib/Old.php":  ledgerProject["src/Old.php"],
		"src/New.php":  "<?php\nfunction brand_new() {}\n",
	})
	os.Remove(filepath.Join(root, "src/Old.php"))
	second, err := Reindex(ctx, Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(Layout{Root: root}.Archive(), "rev-0001..rev-0002")
	md, err := os.ReadFile(base + ".md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# Knowledge changes rev-0001 → rev-0002",
		"- `lib/Old.php`: renamed from `src/Old.php`",
		"- `src/New.php`: added (not in the ledger)",
		"- `src/util.php`: modified, lines 2-4 of rev-0001",
		"- added function `brand_new`",
		"- signature of function `util_twice`",
		"## Slice boundaries",
		"moved into new method Shop\\Cart::add",
		"intended: new parameter",
		"## Schema changes\n\n- none",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	var rep Report
	js, _ := os.ReadFile(base + ".json")
	if err := json.Unmarshal(js, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.From != first.Rev || rep.To != second.Rev || rep.Ledger.Entries != 3 || rep.Ledger.Unacked != 2 || len(rep.SliceBoundaries) != 1 {
		t.Errorf("json report = %+v", rep)
	}
}

// TestFT34_Retention: five revisions with retain_revs 3 keep five history
// rows, remove two revision directories, and keep every archive report.
func TestFT34_Retention(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeFiles(t, root, ledgerProject)
	cfg := config.Default()
	cfg.RetainRevs = 3
	if _, err := Build(ctx, Options{Root: root, Config: cfg}); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		writeFiles(t, root, map[string]string{"src/util.php": strings.Repeat("\n", i) + ledgerProject["src/util.php"]})
		if _, err := Reindex(ctx, Options{Root: root, Config: cfg}); err != nil {
			t.Fatal(err)
		}
	}
	l := Layout{Root: root}
	ents, _ := os.ReadDir(l.Revs())
	if len(ents) != 3 {
		t.Errorf("%d revision directories, want 3", len(ents))
	}
	ctl, err := control.Open(ctx, l.Control())
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	revs, _ := ctl.Revs(ctx)
	removed := 0
	for _, r := range revs {
		if r.RemovedAt != "" {
			removed++
		}
	}
	if len(revs) != 5 || removed != 2 {
		t.Errorf("history: %d rows, %d removed; want 5 and 2", len(revs), removed)
	}
	reports, _ := filepath.Glob(filepath.Join(l.Archive(), "*.md"))
	if len(reports) != 4 {
		t.Errorf("archive reports = %v, want 4", reports)
	}
}
