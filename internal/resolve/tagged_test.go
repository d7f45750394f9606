package resolve

import (
	"context"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
)

// TestLanguages_TaggedResolution: a name imported from a project file, declared
// in the same file or (Go) package, or a member of an imported module is
// linked stated; other names are matched by name, derived, within the
// language family only; a module outside the project is external.
func TestLanguages_TaggedResolution(t *testing.T) {
	file := func(p, l string) fact.Node {
		return fact.Node{ID: fact.FileNodeID(p), Kind: fact.File, Name: p, QName: p, Path: p, Lang: l}
	}
	decl := func(id string, k fact.NodeKind, name, p, l, parent string) fact.Node {
		if parent == "" {
			parent = fact.FileNodeID(p)
		}
		return fact.Node{ID: id, Kind: k, Name: name, QName: name, Path: p, Lang: l, Parent: parent}
	}
	nodes := []fact.Node{
		file("web/a.ts", "typescript"), file("web/b.js", "javascript"), file("py/m.py", "python"),
		decl("fmt", fact.Function, "format", "web/b.js", "javascript", ""),
		decl("cls", fact.Class, "Cart", "web/a.ts", "typescript", ""),
		decl("add", fact.Method, "add", "web/a.ts", "typescript", "cls"),
		decl("label", fact.Method, "label", "web/a.ts", "typescript", "cls"),
		decl("pyfmt", fact.Function, "format", "py/m.py", "python", ""),
		file("go/p/p.go", "go"), file("go/main.go", "go"),
		decl("gofn", fact.Function, "Discount", "go/p/p.go", "go", ""),
		decl("gomain", fact.Function, "main", "go/main.go", "go", ""),
	}
	ts := []fact.Ref{
		{Kind: fact.RefImport, From: fact.FileNodeID("web/a.ts"), Path: "web/a.ts", Line: 1, Name: "format", Alt: "format", Qualifier: "./b"},
		{Kind: fact.RefImport, From: fact.FileNodeID("web/a.ts"), Path: "web/a.ts", Line: 2, Name: "React", Alt: "default", Qualifier: "react"},
		{Kind: fact.RefCall, From: "label", Path: "web/a.ts", Line: 5, Name: "format"},
		{Kind: fact.RefMethodCall, From: "label", Path: "web/a.ts", Line: 6, Name: "add", Qualifier: "this"},
		{Kind: fact.RefCall, From: "label", Path: "web/a.ts", Line: 7, Name: "React"},
		{Kind: fact.RefMethodCall, From: "label", Path: "web/a.ts", Line: 8, Name: "label", Qualifier: "other"},
	}
	out, err := Resolve(context.Background(), Input{Lang: "typescript", Nodes: nodes, Refs: ts})
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		kind fact.EdgeKind
		from string
		to   string
		prov fact.Provenance
	}
	got := map[key]bool{}
	for _, e := range out.Edges {
		got[key{e.Kind, e.From, e.To, e.Provenance}] = true
	}
	for _, want := range []key{
		{fact.Imports, fact.FileNodeID("web/a.ts"), fact.FileNodeID("web/b.js"), fact.Stated},
		{fact.Calls, "label", "fmt", fact.Stated},
		{fact.Calls, "label", "add", fact.Stated},
		{fact.CallsHeuristic, "label", "label", fact.Derived},
	} {
		if !got[want] {
			t.Errorf("missing %+v in %+v", want, out.Edges)
		}
	}
	for k := range got {
		if k.to == "pyfmt" {
			t.Errorf("a TypeScript call linked to Python: %+v", k)
		}
	}
	if len(out.Unresolved) != 0 {
		t.Errorf("an import from outside the project is external, not unresolved: %+v", out.Unresolved)
	}
	goRefs := []fact.Ref{
		{Kind: fact.RefImport, From: fact.FileNodeID("go/main.go"), Path: "go/main.go", Line: 3, Name: "p", Alt: "*", Qualifier: "example.com/m/go/p"},
		{Kind: fact.RefMethodCall, From: "gomain", Path: "go/main.go", Line: 6, Name: "Discount", Qualifier: "p"},
		{Kind: fact.RefImport, From: fact.FileNodeID("go/main.go"), Path: "go/main.go", Line: 4, Name: "fmt", Alt: "*", Qualifier: "fmt"},
		{Kind: fact.RefMethodCall, From: "gomain", Path: "go/main.go", Line: 7, Name: "Println", Qualifier: "fmt"},
	}
	out, err = Resolve(context.Background(), Input{Lang: "go", Nodes: nodes, Refs: goRefs})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Edges) != 2 || out.Edges[1].To != "gofn" || out.Edges[1].Provenance != fact.Stated || len(out.Unresolved) != 0 {
		t.Errorf("go: %+v %+v", out.Edges, out.Unresolved)
	}
}
