package rev

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// pieces of generated files: constructs that put several facts on one line,
// in PHP, Markdown and SQL. %[1]d is a number unique in the project.
var (
	phpPieces = []string{
		`list(/* $t */, /* $p */, $n%[1]d) = explode(',', $s); /* a */ /* b */`,
		`function f%[1]d(/* bool */ $a, /* bool */ $b) { return [fn($x) => $x, fn($y) => $y]; }`,
		`$o%[1]d = new class { /** d */ public $a; /** e */ public $b; }; $p = new class { };`,
		`[$a%[1]d, [$b, $c]] = [1, [2, 3]]; ['k' => $k, 'v' => $v] = $arr; // x // y`,
		"$h%[1]d = <<<EOT\nx {$a} /* no */\nEOT; $g = <<<'EOT'\ny\nEOT;",
		`#[A(1)] #[B] function g%[1]d() {} #[C] class K%[1]d { #[D] public function m() {} #[E] public function n() {} }`,
		`class C%[1]d { const A = 1, B = 2; public $x, $y; function a() {} function b() {} /** f */ function c() {} }`,
		`if ($a) { function h%[1]d() {} } else { function h%[1]d() {} } /** g */ /** h */`,
		`define('K%[1]d', 1); define('K%[1]d', 2); $db->query("SELECT a FROM t%[1]d WHERE b = 1"); $db->query("SELECT a FROM t%[1]d");`,
		`Route::get('/a%[1]d', [X::class, 'a']); Route::get('/a%[1]d', [X::class, 'a']); add_action('wp_ajax_a%[1]d', 'cb');`,
		`$x%[1]d = f(g(h(1), i(2)), j(k(3))) + ${'v'} . "{$a->b[0]} ${c}" ?? $d ?: $e;`,
		"?>\n<p><?= $v%[1]d ?></p><?php /* c */ ?><?php",
	}
	mdPieces = []string{
		"# Title %[1]d\n\ntext `f%[1]d()` and `C%[1]d`\n", "## Title %[1]d\n## Title %[1]d\n", "Setext %[1]d\n===\n", "```php\n<?php f%[1]d();\n```\n",
	}
	sqlPieces = []string{
		"CREATE TABLE t%[1]d (a INT, b INT); CREATE TABLE t%[1]d (a INT);", "INSERT INTO t%[1]d VALUES (1); -- c\n", "not sql at all %[1]d (",
	}
)

// genProject writes a project of n files generated from seed: PHP, Markdown
// and SQL built from the pieces above, several on one line, with LF, CRLF,
// CR or mixed line endings and sometimes a BOM.
func genProject(root string, seed uint64, n int) error {
	r := rand.New(rand.NewPCG(seed, 11))
	id := 0
	for f := range n {
		var pieces []string
		var name, head string
		switch r.IntN(5) {
		case 0:
			pieces, name = mdPieces, fmt.Sprintf("docs/d%d.md", f)
		case 1:
			pieces, name = sqlPieces, fmt.Sprintf("db/s%d.sql", f)
		default:
			pieces, name, head = phpPieces, fmt.Sprintf("src/p%d.php", f), "<?php\nnamespace N;\n"
		}
		var b strings.Builder
		b.WriteString(head)
		for range 1 + r.IntN(12) {
			id++
			b.WriteString(fmt.Sprintf(pieces[r.IntN(len(pieces))], id))
			if r.IntN(3) == 0 {
				b.WriteString(" ")
			} else {
				b.WriteString("\n")
			}
		}
		s := b.String()
		var out strings.Builder
		ending := r.IntN(4)
		if r.IntN(6) == 0 {
			out.WriteString("\xEF\xBB\xBF")
		}
		for _, c := range s {
			if c != '\n' {
				out.WriteRune(c)
				continue
			}
			e := ending
			if e == 3 {
				e = r.IntN(3)
			}
			out.WriteString([]string{"\n", "\r\n", "\r"}[e])
		}
		abs := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(abs, []byte(out.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// checkBuild builds root twice (parallelism 1 and 2) and asserts both
// publish, every file has a row with a reason when it is not parsed, and the
// id sets are the same.
func checkBuild(t *testing.T, root string) {
	t.Helper()
	ctx := context.Background()
	a, err := Build(ctx, Options{Root: root, Config: config.Default(), Parallelism: 1, Full: true})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	b, err := Build(ctx, Options{Root: root, Config: config.Default(), Parallelism: 2, Full: true})
	if err != nil {
		t.Fatalf("second build: %v", err)
	}
	an, ae := ids(t, root, a.Rev)
	bn, be := ids(t, root, b.Rev)
	if strings.Join(an, ",") != strings.Join(bn, ",") || strings.Join(ae, ",") != strings.Join(be, ",") {
		t.Errorf("two builds give other id sets: %d/%d nodes, %d/%d edges", len(an), len(bn), len(ae), len(be))
	}
	if a.Chunks != b.Chunks {
		t.Errorf("chunks %d then %d", a.Chunks, b.Chunks)
	}
	rows, err := openGraph(t, root, a.Rev).Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rows {
		if f.Status != "parsed" && f.Reason == "" {
			t.Errorf("%s is %s without a reason", f.Path, f.Status)
		}
		if f.Status == "failed" {
			t.Errorf("%s failed: %s", f.Path, f.Reason)
		}
	}
	lx, err := lexvec.Open(ctx, filepath.Join(Layout{Root: root}.Rev(a.Rev), LexvecDB))
	if err != nil {
		t.Fatal(err)
	}
	defer lx.Close()
}

// TestFT13_GeneratedProjectsBuild: generated projects full of same-line
// constructs and mixed line endings always publish, with the same ids from
// two builds.
func TestFT13_GeneratedProjectsBuild(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			root := t.TempDir()
			if err := genProject(root, seed, 30); err != nil {
				t.Fatal(err)
			}
			checkBuild(t, root)
		})
	}
}

// FuzzBuild runs whole builds on projects generated from the fuzzed seed and
// size (go test -fuzz FuzzBuild ./internal/rev). Property: checkBuild's.
func FuzzBuild(f *testing.F) {
	f.Add(uint64(1), uint8(5))
	f.Add(uint64(42), uint8(20))
	f.Fuzz(func(t *testing.T, seed uint64, n uint8) {
		root := t.TempDir()
		if err := genProject(root, seed, 1+int(n%24)); err != nil {
			t.Fatal(err)
		}
		checkBuild(t, root)
	})
}
