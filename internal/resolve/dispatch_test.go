package resolve

import (
	"context"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
)

// TestFrontEnd_ResolveDispatchesByLanguage: PHP references are linked by the
// PHP resolver; a language without a resolver keeps its references as
// unresolved rows that say so, never dropped.
func TestFrontEnd_ResolveDispatchesByLanguage(t *testing.T) {
	nodes := []fact.Node{{ID: "n1", Kind: fact.Function, Name: "f", QName: "f", Path: "a.php", StartLine: 1, EndLine: 1, Lang: "php"}}
	ref := fact.Ref{Kind: fact.RefCall, From: "nf", Path: "b.x", Line: 3, Name: "f"}
	out, err := Resolve(context.Background(), Input{Lang: "php", Nodes: nodes, Refs: []fact.Ref{ref}})
	if err != nil || len(out.Edges) != 1 || out.Edges[0].To != "n1" {
		t.Fatalf("php: %v %+v", err, out.Edges)
	}
	out, err = Resolve(context.Background(), Input{Lang: "cobol", Nodes: nodes, Refs: []fact.Ref{ref}})
	if err != nil || len(out.Edges) != 0 || len(out.Unresolved) != 1 || out.Unresolved[0].Reason != "no resolver for language cobol" {
		t.Fatalf("cobol: %v %+v %+v", err, out.Edges, out.Unresolved)
	}
	m, err := Merge(out, out)
	if err != nil || len(m.Unresolved) != 2 {
		t.Fatalf("merge: %v %+v", err, m)
	}
}
