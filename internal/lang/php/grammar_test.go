package php

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// treeDump writes every node of a tree in preorder: kind, byte range,
// field, named, and its depth, so two trees compare as text.
func treeDump(n *sitter.Node, depth int, b *strings.Builder) {
	fmt.Fprintf(b, "%d %s %d %d %q %v\n", depth, n.Kind(), n.StartByte(), n.EndByte(), n.FieldName(), n.IsNamed())
	for i := uint(0); i < n.ChildCount(); i++ {
		treeDump(n.Child(i), depth+1, b)
	}
}

// sameTree parses src with both grammars when the extractor would take the
// grammar of PHP alone, and reports whether the trees are equal; used is
// false when the extractor parses src with the grammar of PHP with HTML.
func sameTree(t *testing.T, x *Extractor, src []byte) (used, same bool) {
	t.Helper()
	if !onlyPHP(src) {
		return false, false
	}
	only, err := x.only.Parse(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	if only.RootNode().HasError() {
		return false, false
	}
	full, err := x.parser.Parse(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	var a, b strings.Builder
	treeDump(only.RootNode(), 0, &a)
	treeDump(full.RootNode(), 0, &b)
	return true, a.String() == b.String()
}

// TestPHPOnlyGrammarSameTree: a file that opens with `<?php`, never closes
// it and parses without error gets the same tree from the grammar of PHP
// alone as from the grammar of PHP with HTML, so the extractor may take the
// faster one (Extractor.parse). Checked on testdata, on cases written here,
// and on the corpora when they are present.
func TestPHPOnlyGrammarSameTree(t *testing.T) {
	x, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	cases := map[string]string{
		"heredoc":   "<?php\n$a = <<<EOT\nx {$b} y\nEOT;\n$c = <<<'N'\nraw\nN;\n",
		"attribute": "<?php\n#[Attr(1)]\nfinal class A { public function __construct(private readonly int $x = 1) {} }\n",
		"enum":      "<?php\nenum S: string { case A = 'a'; public function f(): static { return $this; } }\n",
		"match":     "<?php\n$r = match(true) { $a > 1, $a < 0 => 'x', default => null };\n$f = fn($x) => $x?->y;\n",
		"comments":  "<?php\n# hash\n// line\n/** doc */\nfunction f(int ...$a) {}\n",
	}
	for name, src := range cases {
		if used, same := sameTree(t, x, []byte(src)); !used || !same {
			t.Errorf("%s: taken %v, same tree %v", name, used, same)
		}
	}
	// a file with HTML, or that closes PHP, is never parsed as PHP alone
	for _, src := range []string{"<html><?php echo 1; ?></html>", "<?php echo 1; ?>\n<p>x</p>\n", "plain text"} {
		if used, _ := sameTree(t, x, []byte(src)); used {
			t.Errorf("%q: parsed as PHP alone", src)
		}
	}
	var paths []string
	filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".php") {
			paths = append(paths, p)
		}
		return nil
	})
	base := os.Getenv("RAGRAF_CORPORA")
	if base == "" {
		if home, err := os.UserHomeDir(); err == nil {
			base = filepath.Join(home, ".cache", "ragraf-corpora")
		}
	}
	if !testing.Short() {
		for _, name := range []string{"wordpress", "phpmyadmin", "laravel"} {
			filepath.WalkDir(filepath.Join(base, name), func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if d.IsDir() && (d.Name() == ".ragraf" || d.Name() == "vendor" || d.Name() == "node_modules") {
					return filepath.SkipDir
				}
				if d.Type().IsRegular() && strings.HasSuffix(p, ".php") {
					paths = append(paths, p)
				}
				return nil
			})
		}
	}
	taken := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		used, same := sameTree(t, x, src)
		if used && !same {
			t.Errorf("%s: the two grammars give different trees", p)
		}
		if used {
			taken++
		}
	}
	t.Logf("%d of %d files parsed as PHP alone, each with the same tree", taken, len(paths))
}
