package rev

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/control"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// TestMain lets the test binary act as a build process that kills itself at a
// given stage (see TestNFR11_CrashLeavesPreviousRevision).
func TestMain(m *testing.M) {
	if stage := os.Getenv("RAGRAF_TEST_CRASH_STAGE"); stage != "" {
		root := os.Getenv("RAGRAF_TEST_ROOT")
		opts := Options{Root: root, Config: config.Default(), Archive: os.Getenv("RAGRAF_TEST_COMMIT") != "", Hook: func(s string) {
			if s == stage {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
		}}
		if n, err := strconv.Atoi(os.Getenv("RAGRAF_TEST_RETAIN")); err == nil {
			opts.Config.RetainRevs = n
		}
		_, err := Build(context.Background(), opts)
		fmt.Fprintln(os.Stderr, "build finished without reaching stage", stage, err)
		os.Exit(4)
	}
	os.Exit(m.Run())
}

// writeProject creates files (slash paths) under a new temp dir.
func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

var sampleProject = map[string]string{
	"src/Cart.php": `<?php
namespace Shop;

/** A cart. */
final class Cart implements \Countable {
    private array $items = [];
    public function add(Item $i): static { $this->items[] = $i; return $this; }
    public function count(): int { return \count($this->items); }
}
`,
	"src/Item.php": `<?php
namespace Shop;

enum Kind: string { case Book = 'book'; case Food = 'food'; }

readonly class Item {
    public function __construct(public string $sku, public Kind $kind) {}
}

function total(Cart $c): int { return count($c); }
`,
	"lib/legacy.php": "<?php\ndefine('LEGACY', 1);\nfunction legacy_helper() { return LEGACY; }\n",
	"broken.php":     "<?php\nclass Broken {\n  public function ok() {}\n  public function bad( {\n}\n",
	"README.md":      "# Shop\n\nThe `Shop\\Cart` class.\n",
	"logo.png":       "\x89PNG\r\n\x1a\n\x00\x00\x00binary",
	"notes.txt":      "plain text\n",
}

func build(t *testing.T, root string, cfg config.Config, par int) Info {
	t.Helper()
	info, err := Build(context.Background(), Options{Root: root, Config: cfg, Parallelism: par})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return info
}

func openGraph(t *testing.T, root, name string) *graph.Store {
	t.Helper()
	g, err := graph.Open(context.Background(), filepath.Join(Layout{Root: root}.Rev(name), GraphDB))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// TestFT1_IndexPublishesRevision: a build creates rev.json, both stores, a
// rev_history row and CURRENT.
func TestFT1_IndexPublishesRevision(t *testing.T) {
	root := writeProject(t, sampleProject)
	info := build(t, root, config.Default(), 0)
	if info.Rev != "rev-0001" {
		t.Fatalf("rev = %s", info.Rev)
	}
	l := Layout{Root: root}
	for _, f := range []string{RevJSON, GraphDB, LexvecDB} {
		if _, err := os.Stat(filepath.Join(l.Rev(info.Rev), f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	cur, err := l.CurrentRev()
	if err != nil || cur != "rev-0001" {
		t.Fatalf("CURRENT = %q, %v", cur, err)
	}
	ctl, err := control.Open(context.Background(), l.Control())
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	revs, err := ctl.Revs(context.Background())
	if err != nil || len(revs) != 1 || revs[0].Rev != "rev-0001" || revs[0].CorpusHash != info.CorpusHash {
		t.Fatalf("rev_history = %+v, %v", revs, err)
	}
	if info.Nodes == 0 || info.Edges == 0 {
		t.Errorf("empty revision: %+v", info)
	}
}

// TestFT11_EveryCorpusFileHasARow: the number of file rows equals the number
// of corpus files, whatever became of them, and statuses are truthful.
func TestFT11_EveryCorpusFileHasARow(t *testing.T) {
	root := writeProject(t, sampleProject)
	info := build(t, root, config.Default(), 0)
	walked, err := corpus.Walk(context.Background(), corpus.Options{Root: root, Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	files, err := openGraph(t, root, info.Rev).Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(walked) || info.FilesTotal != len(walked) {
		t.Fatalf("%d file rows, %d in rev.json, %d corpus files", len(files), info.FilesTotal, len(walked))
	}
	status := map[string]string{}
	for _, f := range files {
		status[f.Path] = f.Status
	}
	want := map[string]string{
		"src/Cart.php": "parsed", "src/Item.php": "parsed", "lib/legacy.php": "parsed",
		"broken.php": "partial", "logo.png": "skipped", "notes.txt": "skipped",
	}
	for p, s := range want {
		if status[p] != s {
			t.Errorf("%s: status %q, want %q", p, status[p], s)
		}
	}
	sum := 0
	for _, n := range info.Files {
		sum += n
	}
	if sum != len(walked) {
		t.Errorf("status counts sum to %d, want %d", sum, len(walked))
	}
}

func ids(t *testing.T, root, name string) ([]string, []string) {
	t.Helper()
	n, e, err := openGraph(t, root, name).IDs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n, e
}

// TestFT13_Determinism: two builds of one corpus with different parallelism
// give the same corpus hash, counts and id sets.
func TestFT13_Determinism(t *testing.T) {
	root := writeProject(t, sampleProject)
	a := build(t, root, config.Default(), 1)
	b := build(t, root, config.Default(), 4)
	if a.CorpusHash != b.CorpusHash || a.Nodes != b.Nodes || a.Edges != b.Edges || a.Chunks != b.Chunks {
		t.Fatalf("builds differ:\n%+v\n%+v", a, b)
	}
	an, ae := ids(t, root, a.Rev)
	bn, be := ids(t, root, b.Rev)
	if d := cmp.Diff(an, bn); d != "" {
		t.Errorf("node ids differ (-a +b):\n%s", d)
	}
	if d := cmp.Diff(ae, be); d != "" {
		t.Errorf("edge ids differ (-a +b):\n%s", d)
	}
}

// TestNFR6_DropThenIndex: drop and index again gives the same ids and counts.
func TestNFR6_DropThenIndex(t *testing.T) {
	root := writeProject(t, sampleProject)
	a := build(t, root, config.Default(), 0)
	an, ae := ids(t, root, a.Rev)
	if err := Drop(root); err != nil {
		t.Fatal(err)
	}
	if _, err := (Layout{Root: root}).CurrentRev(); err != ErrNotIndexed {
		t.Fatalf("after drop: %v", err)
	}
	b := build(t, root, config.Default(), 0)
	if b.Rev != "rev-0001" {
		t.Errorf("after drop the first revision is %s", b.Rev)
	}
	bn, be := ids(t, root, b.Rev)
	if a.CorpusHash != b.CorpusHash || !cmp.Equal(an, bn) || !cmp.Equal(ae, be) {
		t.Errorf("drop+index changed the revision: %d/%d nodes, %d/%d edges", len(an), len(bn), len(ae), len(be))
	}
}

// TestFT38_MandatoryExcludes: excluded files never get a row, whatever the config says.
func TestFT38_MandatoryExcludes(t *testing.T) {
	files := map[string]string{
		"app.php":                        "<?php function app() {}\n",
		"vendor/lib/x.php":               "<?php function vendored() {}\n",
		"node_modules/p/index.php":       "<?php\n",
		"sub/vendor/y.php":               "<?php\n",
		"debug.log":                      "log\n",
		"old_bak.php":                    "<?php\n",
		"app.php.bak":                    "<?php\n",
		".claude/settings.php":           "<?php\n",
		".cursor/rules.php":              "<?php\n",
		".aider.chat.history.md":         "# x\n",
		".git/config":                    "[core]\n",
		"ignored/by-gitignore.php":       "<?php\n",
		".gitignore":                     "ignored/\n",
		"tests/excluded-by-config.php":   "<?php\n",
		"tests/ok-but-excluded/more.php": "<?php\n",
	}
	root := writeProject(t, files)
	cfg := config.Default()
	cfg.Include = []string{"**", "vendor/**", "node_modules/**"} // cannot re-include mandatory excludes
	cfg.Exclude = []string{"tests/**"}
	info := build(t, root, cfg, 0)
	rows, err := openGraph(t, root, info.Rev).Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Path)
	}
	if d := cmp.Diff([]string{".gitignore", "app.php"}, got); d != "" {
		t.Errorf("file rows (-want +got):\n%s", d)
	}
}

// TestFT39_SecretsNeverReachStores: planted secrets, in excluded files and
// inline, appear in no byte of the three stores or the log.
func TestFT39_SecretsNeverReachStores(t *testing.T) {
	secretsList := []string{
		"hunter2-plain-db-password-77",
		"AKIAIOSFODNN7EXAMPLQ",
		"ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5",
		"MIIEowIBAAKCAQEAvx7secretkeymaterial",
		"env-only-secret-value-991",
		"pem-file-secret-123",
	}
	files := map[string]string{
		".env":        "DB_PASSWORD=env-only-secret-value-991\n",
		"certs/a.pem": "pem-file-secret-123\n",
		"config.php": `<?php
define('DB_PASSWORD', 'hunter2-plain-db-password-77');
$aws = 'AKIAIOSFODNN7EXAMPLQ';
// token: ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5
const KEY = "-----BEGIN RSA PRIVATE KEY-----
MIIEowIBAAKCAQEAvx7secretkeymaterial
-----END RSA PRIVATE KEY-----";
function db() { return new PDO('mysql:host=x', 'root', DB_PASSWORD); }
`,
	}
	root := writeProject(t, files)
	build(t, root, config.Default(), 0)
	err := filepath.Walk(filepath.Join(root, Dir), func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || filepath.Base(p) == "project.yaml" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, s := range secretsList {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s contains planted secret %q", p, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNFR11_CrashLeavesPreviousRevision kills a real build process with
// SIGKILL at each stage; the previous revision stays current and readable and
// the next build succeeds.
func TestNFR11_CrashLeavesPreviousRevision(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	root := writeProject(t, sampleProject)
	first := build(t, root, config.Default(), 0)
	l := Layout{Root: root}
	for i, stage := range []string{"extracted", "written", "renamed", "recorded"} {
		if err := os.WriteFile(filepath.Join(root, "src", fmt.Sprintf("New%d.php", i)), []byte("<?php class New"+fmt.Sprint(i)+" {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "RAGRAF_TEST_CRASH_STAGE="+stage, "RAGRAF_TEST_ROOT="+root)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if err == nil || !strings.Contains(err.Error(), "killed") && !(asExit(err, &ee) && ee.Sys().(syscall.WaitStatus).Signal() == syscall.SIGKILL) {
			t.Fatalf("stage %s: child was not killed: %v\n%s", stage, err, out)
		}
		cur, err := l.CurrentRev()
		if err != nil || cur != first.Rev {
			t.Fatalf("stage %s: CURRENT = %q, %v; want %s", stage, cur, err, first.Rev)
		}
		g := openGraph(t, root, cur)
		if _, err := g.Files(context.Background()); err != nil {
			t.Fatalf("stage %s: current revision unreadable: %v", stage, err)
		}
	}
	next := build(t, root, config.Default(), 0)
	if cur, _ := l.CurrentRev(); cur != next.Rev || next.Rev == first.Rev {
		t.Fatalf("build after crashes: %s, current %s", next.Rev, cur)
	}
	if ents, _ := os.ReadDir(l.Tmp()); len(ents) != 0 {
		t.Errorf("tmp not cleaned: %d entries", len(ents))
	}
}

func asExit(err error, ee **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	if ok {
		*ee = e
	}
	return ok
}

// TestFT34_RotationKeepsHistory: with retain_revs 3, five builds leave five
// history rows and three revision directories.
func TestFT34_RotationKeepsHistory(t *testing.T) {
	root := writeProject(t, sampleProject)
	cfg := config.Default()
	cfg.RetainRevs = 3
	for i := 0; i < 5; i++ {
		build(t, root, cfg, 0)
	}
	l := Layout{Root: root}
	ents, err := os.ReadDir(l.Revs())
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range ents {
		dirs = append(dirs, e.Name())
	}
	if d := cmp.Diff([]string{"rev-0003", "rev-0004", "rev-0005"}, dirs); d != "" {
		t.Errorf("revision dirs (-want +got):\n%s", d)
	}
	ctl, err := control.Open(context.Background(), l.Control())
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	revs, err := ctl.Revs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	removed := 0
	for _, r := range revs {
		if r.RemovedAt != "" {
			removed++
		}
	}
	if len(revs) != 5 || removed != 2 {
		b, _ := json.Marshal(revs)
		t.Errorf("history: %d rows, %d removed: %s", len(revs), removed, b)
	}
}

// TestDedup: repeated edges and unresolved references (same id) are written once.
func TestDedup(t *testing.T) {
	e := []fact.Edge{{ID: "b"}, {ID: "a", Kind: "calls"}, {ID: "b"}, {ID: "a", Kind: "references"}}
	if got := dedupEdges(e); len(got) != 2 || got[0].ID != "b" || got[1].ID != "a" || got[1].Kind != "calls" {
		t.Errorf("dedupEdges = %+v", got)
	}
	u := []fact.Unresolved{{ID: "y"}, {ID: "x", Reason: "first"}, {ID: "x", Reason: "second"}}
	if got := dedupUnresolved(u); len(got) != 2 || got[0].Reason != "first" || got[1].ID != "y" {
		t.Errorf("dedupUnresolved = %+v", got)
	}
}

// TestNFR11_CanceledBuildLeavesNothing: a build canceled after extraction
// returns the cancellation, leaves the current revision as it was and no
// build files behind, and the next build succeeds; for a first build and for
// a full build over a parent.
func TestNFR11_CanceledBuildLeavesNothing(t *testing.T) {
	root := writeProject(t, sampleProject)
	cancelAt := func(full bool) error {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		_, err := Build(ctx, Options{Root: root, Config: config.Default(), Full: full, Hook: func(s string) {
			if s == "extracted" {
				cancel()
			}
		}})
		return err
	}
	leftovers := func() []string {
		entries, _ := os.ReadDir(Layout{Root: root}.Tmp())
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	if err := cancelAt(false); !errors.Is(err, context.Canceled) {
		t.Fatalf("first build canceled after extraction: err = %v, want context.Canceled", err)
	}
	if _, err := (Layout{Root: root}).CurrentRev(); err != ErrNotIndexed {
		t.Fatalf("after a canceled first build: CurrentRev err = %v, want ErrNotIndexed", err)
	}
	if l := leftovers(); len(l) > 0 {
		t.Errorf("canceled build left %v in tmp", l)
	}
	first := build(t, root, config.Default(), 0)
	if err := cancelAt(true); !errors.Is(err, context.Canceled) {
		t.Fatalf("full build canceled after extraction: err = %v, want context.Canceled", err)
	}
	if cur, err := (Layout{Root: root}).CurrentRev(); err != nil || cur != first.Rev {
		t.Fatalf("after a canceled build CURRENT is %q (%v), want %s", cur, err, first.Rev)
	}
	if l := leftovers(); len(l) > 0 {
		t.Errorf("canceled build left %v in tmp", l)
	}
	next := build(t, root, config.Default(), 0)
	if next.Nodes != first.Nodes || next.Edges != first.Edges {
		t.Errorf("build after the canceled one: %d nodes, %d edges; want %d, %d", next.Nodes, next.Edges, first.Nodes, first.Edges)
	}
}
