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

// TestLanguages_LuaFunctionsInTablesAndFields: functions bound to a table
// field (M.f = function ... end, { f = function ... end }) are definitions,
// as Lua modules and metatables write their methods.
func TestLanguages_LuaFunctionsInTablesAndFields(t *testing.T) {
	src := "local M = {}\nM.build = function(x)\n  return x\nend\nlocal mt = {\n  __index = function(self, k)\n    return nil\n  end,\n  size = 3,\n}\nreturn M\n"
	p, err := Registry()["lua"].New(lang.Options{ChunkTokens: 512, MaxFileWork: 20000000})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.File(context.Background(), "m.lua", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	mustHave(t, "outline", outline(f), "method M.build 2-4 <>", "function __index 6-8 <>")
	for _, n := range f.Nodes {
		if n.Name == "size" {
			t.Errorf("a field holding a number is no function: %v", outline(f))
		}
	}
}
