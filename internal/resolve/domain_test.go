package resolve

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/extract/sqlschema"
	"github.com/ragraf/ragraf/internal/fact"
)

// A migration altering a table that another SQL file creates is applied onto
// it in path order: every column it adds or changes hangs below the created
// table by a via=alter contains edge at its own line, every column it drops
// or redefines gets an op=drop edge at that line, and conflicts compare the
// merged table.
// TestFT5_DropTableAcrossFiles: a migration that drops a table created in
// another SQL file marks that table dropped there.
func TestFT5_DropTableAcrossFiles(t *testing.T) {
	var nodes []fact.Node
	for _, f := range []struct{ path, src string }{
		{"database/schema.sql", "CREATE TABLE coupons (\n  code VARCHAR(32) NOT NULL\n);\nCREATE TABLE orders (id INT);\n"},
		{"database/migrations/2024_05_01_drop.sql", "-- coupons are gone\nDROP TABLE coupons;\n"},
	} {
		s, probs := sqlschema.Parse(f.path, []byte(f.src), sqlschema.Options{})
		if len(probs) != 0 {
			t.Fatalf("%s: %+v", f.path, probs)
		}
		n, _ := s.Facts()
		nodes = append(nodes, n...)
	}
	out, err := Domain(context.Background(), DomainInput{Nodes: nodes})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, n := range nodes {
		names[n.ID] = n.QName + "@" + n.Path
	}
	var got []string
	for _, e := range out.Edges {
		if e.Props["op"] == "drop_table" {
			got = append(got, names[e.From]+" dropped at "+e.EvidencePath+":"+strconv.Itoa(e.EvidenceLine))
		}
	}
	want := []string{"coupons@database/schema.sql dropped at database/migrations/2024_05_01_drop.sql:2"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("drops:\n got %q\nwant %q", got, want)
	}
}

func TestFT5_AlterationsApplyAcrossFiles(t *testing.T) {
	files := []struct{ path, src string }{
		{"database/schema.sql", "CREATE TABLE orders (\n  id INT NOT NULL,\n  total INT NOT NULL,\n  coupon_code VARCHAR(32)\n);\n"},
		{"database/migrations/2024_01_02_status.sql", "-- status\nALTER TABLE orders\n  ADD COLUMN status VARCHAR(20) NOT NULL;\n"},
		{"database/migrations/2024_03_01_total.sql", "ALTER TABLE orders MODIFY total BIGINT NOT NULL;\nALTER TABLE orders DROP COLUMN coupon_code;\n"},
	}
	// the live database agrees with the migrated schema
	live := sqlschema.Schema{Tables: []sqlschema.Table{{Name: "orders", Source: "information_schema", Path: "db:mysql/shop", Line: 1,
		Columns: []sqlschema.Column{{Name: "id", Type: "int"}, {Name: "total", Type: "bigint"}, {Name: "status", Type: "varchar(20)"}}}}}
	nodes := sqlFacts(t, files, live)
	out, err := Domain(context.Background(), DomainInput{Nodes: nodes})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, n := range nodes {
		names[n.ID] = n.QName
	}
	var got []string
	for _, e := range out.Edges {
		if e.Kind != fact.Contains || e.Props["via"] != "alter" {
			continue
		}
		op := "add"
		if e.Props["op"] == "drop" {
			op = "drop"
		}
		got = append(got, names[e.From]+" "+op+" "+names[e.To]+" "+e.EvidencePath+":"+strconv.Itoa(e.EvidenceLine))
	}
	sort.Strings(got)
	want := []string{
		"orders add orders.status database/migrations/2024_01_02_status.sql:3",
		"orders add orders.total database/migrations/2024_03_01_total.sql:1",
		"orders drop orders.coupon_code database/migrations/2024_03_01_total.sql:2",
		"orders drop orders.total database/migrations/2024_03_01_total.sql:1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("alter edges (-want +got):\n%s", diff)
	}
	for _, e := range out.Edges {
		if e.Props["via"] == "alter" && e.From != fact.NodeID(fact.Table, "orders", "database/schema.sql", 0) {
			t.Errorf("alter edge from %s, want the table schema.sql creates", e.From)
		}
	}
	if c := out.Meta[MetaSchemaConflicts]; c != "[]" {
		t.Errorf("conflicts = %s, want none once the migrations are applied", c)
	}
}

// TestFT5_RenameColumnAcrossFiles: RENAME COLUMN and CHANGE COLUMN of a
// column another file creates end the old column with op=rename (naming the
// new one) and add the new one, which keeps the old definition when the
// statement gives none; a live database that ran the migrations agrees.
func TestFT5_RenameColumnAcrossFiles(t *testing.T) {
	files := []struct{ path, src string }{
		{"database/schema.sql", "CREATE TABLE orders (\n  id INT NOT NULL,\n  total INT NOT NULL,\n  coupon VARCHAR(32)\n);\n"},
		{"database/migrations/2024_02_01_rename.sql", "-- clearer name\nALTER TABLE orders RENAME COLUMN coupon TO coupon_code;\n"},
		{"database/migrations/2024_03_01_change.sql", "ALTER TABLE orders CHANGE total amount BIGINT NOT NULL;\n"},
	}
	live := sqlschema.Schema{Tables: []sqlschema.Table{{Name: "orders", Source: "information_schema", Path: "db:mysql/shop", Line: 1,
		Columns: []sqlschema.Column{{Name: "id", Type: "int"}, {Name: "amount", Type: "bigint"}, {Name: "coupon_code", Type: "varchar(32)"}}}}}
	nodes := sqlFacts(t, files, live)
	out, err := Domain(context.Background(), DomainInput{Nodes: nodes})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, n := range nodes {
		names[n.ID] = n.QName
	}
	var got []string
	for _, e := range out.Edges {
		if e.Kind != fact.Contains || e.Props["via"] != "alter" {
			continue
		}
		op := "add"
		if o := e.Props["op"]; o != "" {
			op = o + e.Props["to"]
		}
		got = append(got, op+" "+names[e.To]+" "+e.EvidencePath+":"+strconv.Itoa(e.EvidenceLine))
	}
	sort.Strings(got)
	want := []string{
		"add orders.amount database/migrations/2024_03_01_change.sql:1",
		"add orders.coupon_code database/migrations/2024_02_01_rename.sql:2",
		"renameamount orders.total database/migrations/2024_03_01_change.sql:1",
		"renamecoupon_code orders.coupon database/migrations/2024_02_01_rename.sql:2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("alter edges (-want +got):\n%s", diff)
	}
	if c := out.Meta[MetaSchemaConflicts]; c != "[]" {
		t.Errorf("conflicts = %s, want none: the renamed column keeps its varchar(32)", c)
	}
}

// sqlFacts parses SQL files as the index does and returns their nodes, with
// the nodes of extra schemas (a live database) after them.
func sqlFacts(t *testing.T, files []struct{ path, src string }, extra ...sqlschema.Schema) []fact.Node {
	t.Helper()
	var nodes []fact.Node
	for _, f := range files {
		s, probs := sqlschema.Parse(f.path, []byte(f.src), sqlschema.Options{})
		if len(probs) != 0 {
			t.Fatalf("%s: %+v", f.path, probs)
		}
		n, _ := s.Facts()
		nodes = append(nodes, n...)
	}
	for _, s := range extra {
		n, _ := s.Facts()
		nodes = append(nodes, n...)
	}
	return nodes
}
