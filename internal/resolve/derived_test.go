package resolve

import (
	"context"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
)

// TestTablesFromApplicationCode_DerivedTable: a table that queries name and
// no schema declares becomes one derived table node, named after the
// literal's first place, and every query of it links there; a templated
// fragment stays unresolved, and a declared table gets no derived twin.
func TestTablesFromApplicationCode_DerivedTable(t *testing.T) {
	decl := fact.Node{ID: "t1", Kind: fact.Table, Name: "orders", QName: "orders", Path: "schema.sql", StartLine: 1, Props: map[string]string{"source": "sql_file"}}
	refs := []fact.Ref{
		{Kind: fact.RefSQLTable, From: "f2", Path: "src/b.php", Line: 9, Name: "audit_log", Props: map[string]string{"op": "insert"}},
		{Kind: fact.RefSQLTable, From: "f1", Path: "src/a.php", Line: 4, Name: "Audit_Log", Props: map[string]string{"op": "select"}},
		{Kind: fact.RefTableUse, From: "f3", Path: "src/c.php", Line: 2, Name: "audit_log", Props: map[string]string{"via": "DB::table"}},
		{Kind: fact.RefSQLTable, From: "f1", Path: "src/a.php", Line: 5, Name: "orders", Props: map[string]string{"op": "select"}},
		{Kind: fact.RefSQLTable, From: "f1", Path: "src/a.php", Line: 6, Name: "log_{$x}", Props: map[string]string{"op": "select"}},
	}
	out, err := Domain(context.Background(), DomainInput{Nodes: []fact.Node{decl}, Refs: refs})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Nodes) != 1 {
		t.Fatalf("derived nodes %+v, want one (audit_log)", out.Nodes)
	}
	n := out.Nodes[0]
	if n.Name != "audit_log" || n.Path != "src/a.php" || n.StartLine != 4 || n.Props[PropProvenance] != "derived" ||
		n.Props[PropEvidence] != "src/a.php:4" || n.Props[PropUses] != "3" || n.Props["source"] != SourceQuery {
		t.Errorf("derived node %+v", n)
	}
	to := map[string]int{}
	for _, e := range out.Edges {
		to[e.To]++
	}
	if to[n.ID] != 3 || to["t1"] != 1 {
		t.Errorf("edges to the derived table %d (want 3), to orders %d (want 1)", to[n.ID], to["t1"])
	}
	if len(out.Unresolved) != 1 || out.Unresolved[0].Name != "log_{$x}" {
		t.Errorf("unresolved %+v, want the templated name only", out.Unresolved)
	}
}
