package php

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// sameLine are constructs that put several facts on one line: comments,
// closures, anonymous classes, destructuring, heredocs, attributes,
// declarations. %d is replaced by a number unique in the file.
var sameLine = []string{
	`list(/* $t%[1]d */, /* $p%[1]d */, $n%[1]d) = explode(',', $s); /* a */ /* b */`,
	`function f%[1]d(/* bool */ $a, /* bool */ $b, # c` + "\n" + `$c) { return [fn($x) => $x, fn($y) => $y]; }`,
	`$o%[1]d = new class { /** d */ public $a; /** e */ public $b; }; $p%[1]d = new class { };`,
	`[$a%[1]d, [$b, $c]] = [1, [2, 3]]; ['k' => $k%[1]d, 'v' => $v] = $arr; // x // y`,
	`$h%[1]d = <<<EOT` + "\n" + `x {$a} /* not a comment */` + "\n" + `EOT; $g%[1]d = <<<'EOT'` + "\n" + `y` + "\n" + `EOT;`,
	`#[A(1)] #[B] function g%[1]d() {} #[C] class K%[1]d { #[D] public function m() {} #[E] public function n() {} }`,
	`class C%[1]d { const A = 1, B = 2; public $x, $y; function a() {} function b() {} /** f */ function c() {} }`,
	`$c%[1]d = function() use ($a) { return function() { return /* z */ 1; }; }; $d = function() {};`,
	`if ($a) { function h%[1]d() {} } else { function h%[1]d() {} } /** g */ /** h */`,
	`interface I%[1]d { function a(); function b(); } trait T%[1]d { function a() {} } enum E%[1]d { case A; case B; }`,
	`define('K%[1]d', 1); define('K%[1]d', 2); $x = "SELECT a FROM t%[1]d" . "/* c */" . $y; $db->query("SELECT * FROM u%[1]d WHERE a = 1");`,
	`Route::get('/a%[1]d', [X::class, 'a']); Route::get('/a%[1]d', [X::class, 'a']); add_action('wp_ajax_a%[1]d', 'cb');`,
}

// endings are the line endings a generated file is written with; the
// extractor sees them as the corpus reader normalises them.
var endings = []string{"\n", "\r\n", "\r", "mixed"}

// genSameLine returns a PHP file of n constructs from sameLine, each on a line
// of its own or several on one line, with the given line ending.
func genSameLine(r *rand.Rand, n int, ending string) string {
	var b strings.Builder
	b.WriteString("<?php\nnamespace N;\n")
	for i := range n {
		b.WriteString(fmt.Sprintf(sameLine[r.IntN(len(sameLine))], i))
		if r.IntN(3) == 0 {
			b.WriteString(" ")
		} else {
			b.WriteString("\n")
		}
	}
	b.WriteString("\n")
	s := b.String()
	switch ending {
	case "mixed":
		var m strings.Builder
		for _, c := range s {
			if c == '\n' {
				m.WriteString(endings[r.IntN(3)])
				continue
			}
			m.WriteRune(c)
		}
		return m.String()
	default:
		return strings.ReplaceAll(s, "\n", ending)
	}
}

// normalise is what corpus.Read does to line endings.
func normalise(s string) []byte {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return []byte(strings.ReplaceAll(s, "\r", "\n"))
}

// TestFT13_UniqueIDsSameLineConstructs: files full of constructs that put
// several facts on one line, with every kind of line ending, give unique node
// and chunk ids, the same ids whatever the ending, and keep every comment
// (checkExtract's properties).
func TestFT13_UniqueIDsSameLineConstructs(t *testing.T) {
	x, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	parser, err := sitter.NewParser(language())
	if err != nil {
		t.Fatal(err)
	}
	defer parser.Close()
	for seed := range uint64(40) {
		var first []string
		for _, ending := range endings[:3] {
			r := rand.New(rand.NewPCG(seed, 7)) // the same constructs for each ending
			src := normalise(genSameLine(r, 12, ending))
			res, err := x.File(context.Background(), "f.php", src)
			if err != nil {
				t.Fatalf("seed %d %q: %v", seed, ending, err)
			}
			checkExtract(t, parser, src, res)
			var got []string
			for _, n := range res.Nodes {
				got = append(got, n.ID)
			}
			for _, c := range res.Chunks {
				got = append(got, c.ID)
			}
			if first == nil {
				first = got
			} else if strings.Join(got, ",") != strings.Join(first, ",") {
				t.Errorf("seed %d: ending %q gives other ids than LF", seed, ending)
			}
		}
		r := rand.New(rand.NewPCG(seed, 9))
		src := normalise(genSameLine(r, 12, "mixed"))
		res, err := x.File(context.Background(), "f.php", src)
		if err != nil {
			t.Fatalf("seed %d mixed: %v", seed, err)
		}
		checkExtract(t, parser, src, res)
	}
}
