package facade

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/cochange"
	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

// writeTree writes files (path -> content) under root, making directories.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// treeService indexes root and serves it.
func treeService(t *testing.T, root string) *Service {
	t.Helper()
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var testsFixture = map[string]string{
	"src/Cart.php": `<?php
namespace App;
class Cart {
    public function add(int $n): void {}
    public function total(): int { return 0; }
}
`,
	"tests/CartTest.php": `<?php
namespace Tests;
use App\Cart;
class CartTest {
    public function testAddKeepsItems(): void { $c = new Cart(); $c->add(1); }
    public function testTotalStartsAtZero(): void {}
}
`,
	"tests/TotalCoverTest.php": `<?php
namespace Tests;
class TotalCoverTest {
    /**
     * @covers \App\Cart::total
     */
    public function testSomething(): void {}
}
`,
	"tests/AttrTest.php": `<?php
namespace Tests;
use App\Cart;
use PHPUnit\Framework\Attributes\CoversClass;
#[CoversClass(Cart::class)]
class AttrTest {
    public function testIt(): void {}
}
`,
}

func testNames(ss []Symbol) []string {
	out := []string{}
	for _, s := range ss {
		out = append(out, s.QName)
	}
	sort.Strings(out)
	return out
}

// Impact's tests block lists the tests that call the symbol (stated), that
// name it in @covers or #[CoversClass] (stated), and that are named after it
// (derived); never empty when a test calls the symbol.
func TestFT27_ImpactTestsBlock(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, testsFixture)
	s := treeService(t, root)
	ctx := context.Background()
	ask := func(qname string) ImpactResult {
		t.Helper()
		env, err := s.Impact(ctx, ImpactArgs{QName: qname, Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		return env.Result.(ImpactResult)
	}
	add := ask(`App\Cart::add`)
	if diff := cmp.Diff([]string{`Tests\AttrTest`, `Tests\CartTest::testAddKeepsItems`}, testNames(add.Hard.Tests)); diff != "" {
		t.Errorf("add: stated tests (-want +got):\n%s", diff)
	}
	total := ask(`App\Cart::total`)
	if diff := cmp.Diff([]string{`Tests\AttrTest`, `Tests\TotalCoverTest::testSomething`}, testNames(total.Hard.Tests)); diff != "" {
		t.Errorf("total: stated tests (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`Tests\CartTest::testTotalStartsAtZero`}, testNames(total.Soft.Tests)); diff != "" {
		t.Errorf("total: derived tests by name (-want +got):\n%s", diff)
	}
}

func TestFT27_CoversNames(t *testing.T) {
	for _, c := range []struct {
		doc, class, method string
		want               bool
	}{
		{"/** @covers \\App\\Cart::total */", `App\Cart`, "total", true},
		{"/** @covers \\App\\Cart::total */", `App\Cart`, "add", false},
		{"/** @covers \\App\\Cart */", `App\Cart`, "add", true},
		{"/** @covers \\App\\Carts */", `App\Cart`, "", false},
		{"/**\n * @coversDefaultClass \\App\\Cart\n * @covers ::add\n */", `App\Cart`, "add", true},
		{"/** @coversDefaultClass \\App\\Cart */", `App\Cart`, "add", false},
		{"/** @covers ::helper */", "", "helper", true},
	} {
		if got := coversNames(c.doc, c.class, c.method); got != c.want {
			t.Errorf("coversNames(%q, %q, %q) = %v, want %v", c.doc, c.class, c.method, got, c.want)
		}
	}
}

func gitRun(t *testing.T, root string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func cartSrc(add, total string) map[string]string {
	return map[string]string{
		"src/Cart.php":  "<?php\nnamespace App;\nclass Cart {\n    public function add(int $n): void {\n        " + add + "\n    }\n    public function other(): void {}\n}\n",
		"src/Price.php": "<?php\nnamespace App;\nclass Price {\n    public function total(): int {\n        " + total + "\n    }\n}\n",
	}
}

// impact's co_changed block lists the definitions and files that changed
// in the same commits (derived, commits as evidence); reindex --commit
// extends the history; outside git the block says why it is empty.
func TestFT27_ImpactCoChanged(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	root := t.TempDir()
	gitRun(t, root, "init", "-q", "-b", "main")
	for i, v := range []string{"1", "2", "3"} {
		writeTree(t, root, cartSrc("$x = "+v+";", "return "+v+";"))
		gitRun(t, root, "add", "-A")
		gitRun(t, root, "commit", "-qm", "c"+strconv.Itoa(i))
	}
	s := treeService(t, root)
	co := func() *CoChanged {
		t.Helper()
		env, err := s.Impact(ctx, ImpactArgs{QName: `App\Cart::add`, Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		c := env.Result.(ImpactResult).CoChanged
		if c == nil {
			t.Fatal("no co_changed block")
		}
		return c
	}
	c := co()
	if c.Reason != "" || c.Basis != "definition" || c.With != 3 || c.Provenance != "derived" {
		t.Fatalf("block %+v", c)
	}
	// Cart::other was declared in the first commit only: support 1 of 3,
	// under the floor
	if len(c.Symbols) != 1 || c.Symbols[0].QName != `App\Price::total` || c.Symbols[0].Support != 3 || len(c.Symbols[0].Commits) != 3 {
		t.Fatalf("symbols %+v, want Price::total with support 3", c.Symbols)
	}
	if len(c.Files) != 1 || c.Files[0].Path != "src/Price.php" {
		t.Errorf("files %+v", c.Files)
	}
	writeTree(t, root, cartSrc("$x = 4;", "return 4;"))
	gitRun(t, root, "add", "-A")
	gitRun(t, root, "commit", "-qm", "c4")
	if _, err := rev.Reindex(ctx, rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	if c := co(); c.With != 4 || len(c.Symbols) != 1 || c.Symbols[0].Support != 4 {
		t.Errorf("after reindex: %+v", c)
	}
	cur, err := rev.Layout{Root: root}.CurrentRev()
	if err != nil {
		t.Fatal(err)
	}
	h, err := cochange.Load(rev.Layout{Root: root}.Rev(cur))
	if err != nil || h.Mined != 1 || h.Reused != 3 {
		t.Errorf("reindex mined %d and reused %d commits (%v), want 1 and 3", h.Mined, h.Reused, err)
	}

	plain := t.TempDir()
	writeTree(t, plain, cartSrc("$x = 1;", "return 1;"))
	env, err := treeService(t, plain).Impact(ctx, ImpactArgs{QName: `App\Cart::add`})
	if err != nil {
		t.Fatal(err)
	}
	if c := env.Result.(ImpactResult).CoChanged; c == nil || c.Reason != "the project is not a git repository" || len(c.Symbols) != 0 {
		t.Errorf("outside git: %+v", c)
	}
}
