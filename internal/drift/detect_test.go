package drift

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/extract/sqlschema"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang/php"
	"github.com/ragraf/ragraf/internal/secrets"
)

// memIndex is a revision held in memory: what a build would have recorded.
type memIndex struct {
	files map[string]IndexedFile
	snaps map[string][]byte
	nodes map[string][]fact.Node
}

func indexDir(t *testing.T, root string) Source {
	t.Helper()
	ctx := context.Background()
	walked, err := corpus.Walk(ctx, corpus.Options{Root: root, Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	x, err := php.New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	m := &memIndex{files: map[string]IndexedFile{}, snaps: map[string][]byte{}, nodes: map[string][]fact.Node{}}
	for _, f := range walked {
		if f.Status != corpus.Pending {
			continue
		}
		c, err := corpus.Read(filepath.Join(root, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		data, _ := secrets.Redact(c.Data)
		m.files[f.Path] = IndexedFile{Path: f.Path, Lang: f.Lang, Size: f.Size, MTime: f.ModTime, Hash: c.Hash}
		m.snaps[f.Path] = data
		nodes := []fact.Node{{ID: fact.FileNodeID(f.Path), Kind: fact.File, Path: f.Path, StartLine: 1, EndLine: c.Lines}}
		if f.Lang == "php" {
			r, err := x.File(ctx, f.Path, data)
			if err != nil {
				t.Fatal(err)
			}
			nodes = append(nodes, r.Nodes...)
			nodes = append(nodes, r.Domain.Nodes...)
		}
		if f.Lang == "sql" {
			sch, _ := sqlschema.Parse(f.Path, data, sqlschema.Options{})
			n, _ := sch.Facts()
			nodes = append(nodes, n...)
		}
		m.nodes[f.Path] = nodes
	}
	return Source{
		Rev: "rev-0001",
		File: func(_ context.Context, p string) (IndexedFile, bool, error) {
			f, ok := m.files[p]
			return f, ok, nil
		},
		Files: func(context.Context) ([]IndexedFile, error) {
			var out []IndexedFile
			for _, f := range m.files {
				out = append(out, f)
			}
			return out, nil
		},
		Snapshot: func(_ context.Context, p string) ([]byte, bool, error) {
			b, ok := m.snaps[p]
			return b, ok, nil
		},
		Nodes: func(_ context.Context, p string) ([]fact.Node, error) { return m.nodes[p], nil },
	}
}

func write(t *testing.T, root, p, content string) {
	t.Helper()
	abs := filepath.Join(root, p)
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const cartPHP = `<?php
namespace Shop;

class Cart
{
    public function total(array $items): int
    {
        $sum = 0;
        foreach ($items as $item) {
            $price = $item->price * $item->qty;
            $price = $price - $item->discount;
            $sum += $price;
        }
        return $sum;
    }

    public function count(array $items): int
    {
        return count($items);
    }
}
`

const helperPHP = `<?php
function shop_helper($a)
{
    $b = $a * 2;
    $c = $b + 1;
    $d = $c * $c;
    return $d;
}
`

func kinds(ds []Delta) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Kind+" "+d.Path)
	}
	return out
}

func TestFT25_Compare(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write(t, root, "src/Cart.php", cartPHP)
	write(t, root, "src/helper.php", helperPHP)
	write(t, root, "src/Old.php", "<?php\nclass Old {\n  public function a() { return 1; }\n  public function b() { return 2; }\n}\n")
	write(t, root, "src/Gone.php", "<?php\nclass Gone {}\n")
	src := indexDir(t, root)
	cfg := config.Default()

	ds, err := Compare(ctx, src, root, cfg)
	if err != nil || len(ds) != 0 {
		t.Fatalf("unchanged tree: %v, %v", kinds(ds), err)
	}
	// a touch with the same content is not a change
	later := time.Now().Add(time.Hour)
	_ = os.Chtimes(filepath.Join(root, "src/helper.php"), later, later)

	write(t, root, "src/Cart.php", strings.Replace(cartPHP, "return count($items);", "return \\count($items) + 0;", 1))
	write(t, root, "src/New.php", "<?php\nfunction fresh() {}\n")
	os.Remove(filepath.Join(root, "src/Gone.php"))
	old, _ := os.ReadFile(filepath.Join(root, "src/Old.php"))
	os.Remove(filepath.Join(root, "src/Old.php"))
	write(t, root, "lib/Moved.php", string(old))

	ds, err = Compare(ctx, src, root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"rename lib/Moved.php", "modify src/Cart.php", "delete src/Gone.php", "add src/New.php"}
	if got := kinds(ds); !reflect.DeepEqual(got, want) {
		t.Fatalf("deltas = %v, want %v", got, want)
	}
	mod := ds[1]
	if !reflect.DeepEqual(mod.Lines, [][2]int{{19, 19}}) {
		t.Errorf("modify lines = %v", mod.Lines)
	}
	// the changed line is inside Cart::count and Cart, not Cart::total
	nodes, _ := src.Nodes(ctx, "src/Cart.php")
	var names []string
	for _, id := range mod.Nodes {
		for _, n := range nodes {
			if n.ID == id {
				names = append(names, n.QName)
			}
		}
	}
	joined := strings.Join(names, " ")
	if !strings.Contains(joined, "Shop\\Cart::count") || strings.Contains(joined, "Shop\\Cart::total") {
		t.Errorf("affected nodes = %v", names)
	}
	if ds[0].OldPath != "src/Old.php" || len(ds[0].Lines) != 0 {
		t.Errorf("rename = %+v", ds[0])
	}
	// detecting again yields the same keys
	again, _ := Compare(ctx, src, root, cfg)
	for i := range again {
		if again[i].DedupKey != ds[i].DedupKey {
			t.Errorf("key %d changed: %s vs %s", i, again[i].DedupKey, ds[i].DedupKey)
		}
	}

	// the Checker agrees and caches by stat
	c := NewChecker(src, root, cfg)
	got, fresh, err := c.Check(ctx, "src/Cart.php")
	if err != nil || !fresh || len(got) != 1 || got[0].DedupKey != mod.DedupKey {
		t.Fatalf("Check = %v, %v, %v", got, fresh, err)
	}
	if _, fresh, _ := c.Check(ctx, "src/Cart.php"); fresh {
		t.Error("second check was not served from the cache")
	}
	if got, _, _ := c.Check(ctx, "src/helper.php"); len(got) != 0 {
		t.Errorf("touched file reported: %v", got)
	}
}

func TestFT29_SliceBoundary(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write(t, root, "src/Cart.php", cartPHP)
	src := indexDir(t, root)
	extracted := strings.Replace(cartPHP, `            $price = $item->price * $item->qty;
            $price = $price - $item->discount;
            $sum += $price;`, `            $sum += $this->linePrice($item);`, 1)
	extracted = strings.Replace(extracted, `    public function count(`, `    private function linePrice($item): int
    {
            $price = $item->price * $item->qty;
            $price = $price - $item->discount;
            return $price;
    }

    public function count(`, 1)
	write(t, root, "src/Cart.php", extracted)
	ds, err := Compare(ctx, src, root, config.Default())
	if err != nil {
		t.Fatal(err)
	}
	if got := kinds(ds); !reflect.DeepEqual(got, []string{"modify src/Cart.php", "slice_boundary src/Cart.php"}) {
		t.Fatalf("deltas = %v", got)
	}
	sb := ds[1]
	if !reflect.DeepEqual(sb.Lines, [][2]int{{10, 11}}) || len(sb.Nodes) != 1 || !strings.Contains(sb.Note, "Shop\\Cart::total") || !strings.Contains(sb.Note, "linePrice") {
		t.Errorf("slice_boundary = %+v", sb)
	}
	// an edit that adds a function with new code is no slice boundary
	write(t, root, "src/Cart.php", strings.Replace(cartPHP, "    public function count(", "    public function fresh(): int\n    {\n        return 42;\n    }\n\n    public function count(", 1))
	ds, _ = Compare(ctx, src, root, config.Default())
	if got := kinds(ds); !reflect.DeepEqual(got, []string{"modify src/Cart.php"}) {
		t.Fatalf("deltas = %v", got)
	}
}

func TestFT25_GitDiff(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	root := t.TempDir()
	write(t, root, "src/Cart.php", cartPHP)
	write(t, root, "src/helper.php", helperPHP)
	run := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.email=t@example.org", "-c", "user.name=t"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("init", "-q")
	run("add", ".")
	run("commit", "-qm", "init")
	src := indexDir(t, root)
	src.GitHead = run("rev-parse", "HEAD")
	cfg := config.Default()

	// one committed change, one uncommitted, one untracked file
	write(t, root, "src/helper.php", strings.Replace(helperPHP, "* 2", "* 3", 1))
	run("commit", "-qam", "edit")
	write(t, root, "src/Cart.php", strings.Replace(cartPHP, "return $sum;", "return $sum + 1;", 1))
	write(t, root, "src/Extra.php", "<?php\nfunction extra() {}\n")
	write(t, root, "notes.bin", "\x00\x01")

	gd, err := GitDiff(ctx, src, root, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"modify src/Cart.php", "add src/Extra.php", "modify src/helper.php"}
	if got := kinds(gd); !reflect.DeepEqual(got, want) {
		t.Fatalf("git-diff = %v, want %v", got, want)
	}
	// compare sees the same deltas under the same keys (one entry per change)
	cd, _ := Compare(ctx, src, root, cfg)
	if len(cd) != len(gd) {
		t.Fatalf("compare = %v", kinds(cd))
	}
	for i := range cd {
		if cd[i].DedupKey != gd[i].DedupKey {
			t.Errorf("%s: compare key %s, git-diff key %s", cd[i].Path, cd[i].DedupKey, gd[i].DedupKey)
		}
	}
	src.GitHead = ""
	if _, err := GitDiff(ctx, src, root, cfg); err == nil {
		t.Error("git-diff without a HEAD succeeded")
	}
}
