package docs

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/fact"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden is the reviewable form of a Result: ids replaced by qualified names.
type golden struct {
	Sections []string `json:"sections"` // "qname L start-end parent"
	Chunks   []string `json:"chunks"`   // "owner L start-end"
	Mentions []string `json:"mentions"` // "owner L line kind text"
}

func toGolden(r Result) golden {
	names := map[string]string{}
	for _, n := range r.Nodes {
		names[n.ID] = n.QName
	}
	var g golden
	for _, n := range r.Nodes {
		g.Sections = append(g.Sections, string(n.Kind)+" "+n.QName+" L"+itoa(n.StartLine)+"-"+itoa(n.EndLine)+" parent="+names[n.Parent])
	}
	for _, c := range r.Chunks {
		g.Chunks = append(g.Chunks, names[c.NodeID]+" L"+itoa(c.StartLine)+"-"+itoa(c.EndLine))
	}
	for _, m := range r.Mentions {
		g.Mentions = append(g.Mentions, names[m.SectionID]+" L"+itoa(m.Line)+" "+m.Kind+" "+m.Text)
	}
	return g
}

func TestFT8_ExtractGolden(t *testing.T) {
	inputs, _ := filepath.Glob("testdata/golden/*.*")
	for _, in := range inputs {
		if strings.HasSuffix(in, ".golden") {
			continue
		}
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got := toGolden(ExtractWith(filepath.Base(in), src, Options{ChunkTokens: 512, TablePrefixes: []string{"wp_"}}))
			b, _ := json.MarshalIndent(got, "", "  ")
			path := in + ".golden"
			if *update {
				if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			wantB, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			var want golden
			if err := json.Unmarshal(wantB, &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestFT8_Structure(t *testing.T) {
	src := []byte("# A\ntext\n## B\nb\n### C\nc\n## D\nd\n# E\ne\n")
	r := Extract("x.md", src)
	byName := map[string]fact.Node{}
	for _, n := range r.Nodes {
		byName[n.Name] = n
	}
	tests := []struct {
		name       string
		start, end int
		parent     string
	}{
		{"A", 1, 8, "x.md"}, {"B", 3, 6, "A"}, {"C", 5, 6, "B"}, {"D", 7, 8, "A"}, {"E", 9, 10, "x.md"},
	}
	for _, tt := range tests {
		n := byName[tt.name]
		if n.StartLine != tt.start || n.EndLine != tt.end || byName[tt.parent].ID != n.Parent || n.Kind != fact.DocSection {
			t.Errorf("%s = %d-%d parent %s, want %d-%d parent %s", tt.name, n.StartLine, n.EndLine, n.Parent, tt.start, tt.end, tt.parent)
		}
	}
	if len(r.Edges) != 5 {
		t.Errorf("edges = %d, want 5 contains", len(r.Edges))
	}
	for _, n := range r.Nodes {
		if strings.Contains(n.Name, "text") || len(n.Props) > 1 {
			t.Errorf("node carries body text: %+v", n)
		}
	}
}

func TestFT8_ChunkSplit(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Long\n")
	for range 100 {
		b.WriteString("a line of documentation text that is about sixty chars long\n")
	}
	r := ExtractWith("x.md", []byte(b.String()), Options{ChunkTokens: 100})
	if len(r.Chunks) < 10 {
		t.Fatalf("chunks = %d, want split by the 100-token budget", len(r.Chunks))
	}
	next := 1
	for _, c := range r.Chunks {
		if c.StartLine != next || len(c.Text) > 400 || c.Kind != "doc_section" {
			t.Errorf("chunk %d-%d len %d, want start %d", c.StartLine, c.EndLine, len(c.Text), next)
		}
		next = c.EndLine + 1
	}
	if next != 102 {
		t.Errorf("chunks end at %d, want 101", next-1)
	}
}

func BenchmarkExtract(b *testing.B) {
	src, err := os.ReadFile("testdata/golden/readme.md")
	if err != nil {
		b.Fatal(err)
	}
	big := []byte(strings.Repeat(string(src)+"\n", 50))
	b.SetBytes(int64(len(big)))
	for b.Loop() {
		Extract("README.md", big)
	}
}
