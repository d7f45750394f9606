package syntax

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"
)

// shape renders every node of a tree with what the extractors read: kind,
// field, flags, byte and point ranges, parent and child positions.
func shape(t *Tree) string {
	var b strings.Builder
	for i := range t.Len() {
		n := &t.nodes[i]
		parent := -1
		if p := n.Parent(); p != nil {
			parent = int(p.Id())
		}
		fmt.Fprintf(&b, "%d %s %q n=%v m=%v e=%v err=%v %d-%d %v-%v parent=%d kids=%d named=%d\n",
			i, n.Kind(), n.FieldName(), n.IsNamed(), n.IsMissing(), n.IsExtra(), n.HasError(),
			n.StartByte(), n.EndByte(), n.StartPosition(), n.EndPosition(), parent, n.ChildCount(), n.NamedChildCount())
		for c := range n.ChildCount() {
			fmt.Fprintf(&b, " %d", n.Child(c).Id())
		}
		for c := range n.NamedChildCount() {
			fmt.Fprintf(&b, " n%d", n.NamedChild(c).Id())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestFT2_RecycledTreeSameAsFresh: a parser that reuses a recycled tree's
// memory, larger or smaller than the next file, gives the tree a fresh parser
// gives, node for node.
func TestFT2_RecycledTreeSameAsFresh(t *testing.T) {
	lang := NewLanguage(tsphp.LanguagePHP())
	big := "<?php\nnamespace A;\n" + strings.Repeat("class C%d extends B { public function f(int $x = 1): ?string { return $this->g($x, [1, 2]) . \"s\"; } }\n", 40)
	big = fmt.Sprintf(strings.ReplaceAll(big, "%d", "%[1]d"), 7)
	small := "<?php function g($a) { if ($a) { echo 'x'; } }\n?><p><?= $v ?></p>\n"
	broken := "<?php class { function ( }\n"
	ctx := context.Background()
	recycling, err := NewParser(lang)
	if err != nil {
		t.Fatal(err)
	}
	defer recycling.Close()
	for i, src := range []string{big, small, big, broken, small, big} {
		fresh, err := NewParser(lang)
		if err != nil {
			t.Fatal(err)
		}
		want, err := fresh.Parse(ctx, []byte(src))
		fresh.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, err := recycling.Parse(ctx, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if g, w := shape(got), shape(want); g != w {
			t.Fatalf("source %d: the tree in recycled memory differs from a fresh one:\n%s\nwant\n%s", i, g, w)
		}
		recycling.Recycle(got)
	}
	if recycling.spare == nil {
		t.Fatal("Recycle kept no tree to reuse")
	}
}

// BenchmarkParsePHP parses every .php file under RAGRAF_BENCH_CORPUS (a
// directory from ../shared/corpora/get.sh) on one core, recycling trees as
// the extractor does; skipped when unset.
func BenchmarkParsePHP(b *testing.B) {
	dir := os.Getenv("RAGRAF_BENCH_CORPUS")
	if dir == "" {
		b.Skip("RAGRAF_BENCH_CORPUS not set")
	}
	var srcs [][]byte
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".php") {
			return err
		}
		src, err := os.ReadFile(p)
		srcs, total = append(srcs, src), total+int64(len(src))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	p, err := NewParser(NewLanguage(tsphp.LanguagePHP()))
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	b.SetBytes(total)
	ctx := context.Background()
	for b.Loop() {
		for _, src := range srcs {
			t, err := p.Parse(ctx, src)
			if err != nil {
				b.Fatal(err)
			}
			p.Recycle(t)
		}
	}
}
