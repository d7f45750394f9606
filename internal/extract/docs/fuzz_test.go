package docs

import (
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
)

// FuzzSplit checks the section model on any input: every section lies inside
// its parent, sections of one parent do not overlap, and the chunks tile the
// file's non-blank text in order without overlap.
func FuzzSplit(f *testing.F) {
	f.Add("# A\ntext\n## B\n```\n# no\n```\n", ".md")
	f.Add("Title\n=====\n\nSub\n---\nx\n", ".md")
	f.Add("=====\nTitle\n=====\n\nSub\n---\n", ".rst")
	f.Fuzz(func(t *testing.T, src, ext string) {
		if ext != ".rst" {
			ext = ".md"
		}
		r := ExtractWith("f"+ext, []byte(src), Options{ChunkTokens: 8})
		nodes := map[string]fact.Node{}
		for _, n := range r.Nodes {
			nodes[n.ID] = n
		}
		if len(nodes) != len(r.Nodes) {
			t.Fatalf("duplicate node ids")
		}
		doc := r.Nodes[0]
		for _, n := range r.Nodes[1:] {
			p, ok := nodes[n.Parent]
			if !ok || n.StartLine > n.EndLine || n.StartLine < p.StartLine || n.EndLine > p.EndLine || n.EndLine > doc.EndLine {
				t.Fatalf("section %q %d-%d outside parent %q %d-%d", n.Name, n.StartLine, n.EndLine, p.Name, p.StartLine, p.EndLine)
			}
		}
		last := 0
		for _, c := range r.Chunks {
			if c.StartLine <= last || c.StartLine > c.EndLine || c.EndLine > doc.EndLine {
				t.Fatalf("chunk %d-%d after %d", c.StartLine, c.EndLine, last)
			}
			if _, ok := nodes[c.NodeID]; !ok {
				t.Fatalf("chunk of unknown node")
			}
			last = c.EndLine
		}
		lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
		covered := 0
		for _, c := range r.Chunks {
			covered += strings.Count(c.Text, "\n") + 1
		}
		if covered > len(lines) {
			t.Fatalf("chunks cover %d lines of %d", covered, len(lines))
		}
	})
}
