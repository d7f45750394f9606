package all

import (
	"context"
	"testing"

	"github.com/ragraf/ragraf/internal/lang"
)

// TestLanguages_DefinitionLineAfterAnnotations: a declaration's line is
// where its modifiers and name are, not the annotation or attribute above
// them (universal-ctags and language servers place it there too), its
// signature starts there, and its doc comment above the annotations stays
// its own.
func TestLanguages_DefinitionLineAfterAnnotations(t *testing.T) {
	cases := []struct {
		lang, file, src, qname, sig, doc string
		line                             int
	}{
		{"java", "A.java", "class A {\n  /** Says A. */\n  @Override\n  @SuppressWarnings(\"x\")\n  public String toString() {\n    return \"\";\n  }\n}\n",
			"A.toString", "public String toString()", "Says A.", 5},
		{"csharp", "A.cs", "class A {\n  /// <summary>Runs.</summary>\n  [Test]\n  [Category(\"x\")]\n  public void Run() {\n  }\n}\n",
			"A.Run", "public void Run()", "<summary>Runs.</summary>", 5},
		{"kotlin", "A.kt", "class A {\n  /** Runs. */\n  @Test\n  fun run() {\n  }\n}\n",
			"A.run", "fun run()", "Runs.", 4},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			p, err := Registry()[c.lang].New(lang.Options{ChunkTokens: 512, MaxFileWork: 20000000})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			f, err := p.File(context.Background(), c.file, []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, n := range f.Nodes {
				if n.QName != c.qname {
					continue
				}
				found = true
				if n.StartLine != c.line || n.Signature != c.sig {
					t.Errorf("%s: line %d signature %q, want %d %q", c.qname, n.StartLine, n.Signature, c.line, c.sig)
				}
			}
			if !found {
				t.Fatalf("%s not found in %v", c.qname, outline(f))
			}
			if got := docs(f)[c.qname]; got != c.doc {
				t.Errorf("doc of %s: %q, want %q", c.qname, got, c.doc)
			}
		})
	}
}
