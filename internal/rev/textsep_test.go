package rev

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// TestFT9_NoCommentTextInStructure indexes the example application and checks
// that no node's name, signature or props holds a line of any comment,
// docblock or documentation chunk.
func TestFT9_NoCommentTextInStructure(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	example := filepath.Join(filepath.Dir(file), "..", "..", "examples", "shop")
	if _, err := os.Stat(example); err != nil {
		t.Skip("examples/shop not present")
	}
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(example)); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(root, Dir))
	info := build(t, root, config.Default(), 0)
	ctx := context.Background()
	g := openGraph(t, root, info.Rev)
	lx, err := lexvec.Open(ctx, filepath.Join(Layout{Root: root}.Rev(info.Rev), LexvecDB))
	if err != nil {
		t.Fatal(err)
	}
	defer lx.Close()
	nodes, err := g.AllNodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// every comment line with at least three words is a probe
	var probes []string
	seen := map[string]bool{}
	for _, n := range nodes {
		if seen[n.Path] {
			continue
		}
		seen[n.Path] = true
		chunks, err := lx.ChunksInFile(ctx, n.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range chunks {
			if c.Kind == "doc_section" {
				continue // section headings are the sections' names by design
			}
			for _, l := range strings.Split(c.Text, "\n") {
				l = strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "/*#"))
				if len(strings.Fields(l)) >= 3 {
					probes = append(probes, l)
				}
			}
		}
	}
	if len(probes) < 20 {
		t.Fatalf("only %d comment probes: the example lost its comments?", len(probes))
	}
	for _, n := range nodes {
		fields := []string{n.Name, n.Signature}
		for k, v := range n.Props {
			fields = append(fields, k, v)
		}
		for _, f := range fields {
			for _, p := range probes {
				if strings.Contains(f, p) {
					t.Errorf("%s %s (%s:%d) holds comment text %q", n.Kind, n.QName, n.Path, n.StartLine, p)
				}
			}
		}
	}
}
