package facade

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

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
