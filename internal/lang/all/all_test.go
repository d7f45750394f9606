package all

import (
	"context"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
)

// TestFrontEnd_RegistryReadsEachLanguage: every registered front end reads a
// file of its language through the interface alone, declarations with their
// ranges, and answers under its own name.
func TestFrontEnd_RegistryReadsEachLanguage(t *testing.T) {
	files := map[string]struct {
		path, src  string
		kind       fact.NodeKind
		start, end int
	}{
		"php":        {"a.php", "<?php\nclass A {\n  function m() {}\n}\n", fact.Class, 2, 4},
		"markdown":   {"a.md", "# Title\n\nText.\n", fact.Doc, 1, 3},
		"sql":        {"a.sql", "CREATE TABLE t (id INT);\n", fact.Table, 1, 1},
		"javascript": {"a.js", "class A {\n  m() {}\n}\n", fact.Class, 1, 3},
		"typescript": {"a.ts", "interface I {\n  m(): void;\n}\n", fact.Interface, 1, 3},
		"python":     {"a.py", "class A:\n    def m(self):\n        pass\n", fact.Class, 1, 3},
		"go":         {"a.go", "package a\n\nfunc F() {\n}\n", fact.Function, 3, 4},
		"twig":       {"a.html.twig", "{% extends 'b.html.twig' %}\n{% block body %}\nx\n{% endblock %}\n", fact.Block, 2, 4},
		"blade":      {"a.blade.php", "@extends('b')\n@section('body')\nx\n@endsection\n", fact.Block, 2, 4},
		"java":       {"A.java", "class A {\n  void m() {}\n}\n", fact.Class, 1, 3},
		"csharp":     {"A.cs", "class A {\n  void M() {}\n}\n", fact.Class, 1, 3},
		"ruby":       {"a.rb", "class A\n  def m; end\nend\n", fact.Class, 1, 3},
		"rust":       {"a.rs", "fn f() {\n}\n", fact.Function, 1, 2},
		"c":          {"a.c", "int f(void) {\n  return 0;\n}\n", fact.Function, 1, 3},
		"cpp":        {"a.cpp", "class A {\n  int x;\n};\n", fact.Class, 1, 3},
		"bash":       {"a.sh", "f() {\n  true\n}\n", fact.Function, 1, 3},
		"kotlin":     {"A.kt", "class A {\n  fun m() {}\n}\n", fact.Class, 1, 3},
		"scala":      {"A.scala", "class A {\n  def m(): Unit = {}\n}\n", fact.Class, 1, 3},
		"lua":        {"a.lua", "function f()\nend\n", fact.Function, 1, 2},
	}
	reg := Registry()
	if len(reg) != len(files) {
		t.Fatalf("registry has %d front ends, the test knows %d", len(reg), len(files))
	}
	for name, fe := range reg {
		if fe.Name() != name {
			t.Errorf("front end under %q calls itself %q", name, fe.Name())
		}
		f, ok := files[name]
		if !ok {
			t.Errorf("no test file for %q", name)
			continue
		}
		p, err := fe.New(lang.Options{ChunkTokens: 512})
		if err != nil {
			t.Fatal(err)
		}
		facts, err := p.File(context.Background(), f.path, []byte(f.src))
		p.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		found := false
		for _, n := range facts.Nodes {
			found = found || n.Kind == f.kind && n.StartLine == f.start && n.EndLine == f.end
		}
		if !found || facts.Partial {
			t.Errorf("%s: no %s node with its range in %+v (partial %v %s)", name, f.kind, facts.Nodes, facts.Partial, facts.Reason)
		}
	}
}
