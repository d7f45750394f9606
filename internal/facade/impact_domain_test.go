package facade

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/rev"
)

// shop indexes a copy of examples/shop.
func shop(t *testing.T) *Service {
	t.Helper()
	src := filepath.Join("..", "..", "examples", "shop")
	if _, err := os.Stat(src); err != nil {
		t.Skip("examples/shop not present")
	}
	root := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			if d.Name() == rev.Dir {
				return filepath.SkipDir
			}
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// names lists an impact group as "kind qname path:line", sorted.
func names(items []ImpactItem) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, fmt.Sprintf("%s %s %s:%d", it.Kind, it.QName, it.Path, it.Line))
	}
	sort.Strings(out)
	return out
}

// Impact reaches the entry points whose handler is in the closure (whatever
// its depth: a cron job through the command it runs) and the tables the
// changed and impacted code queries, each with its chain; a table's impact
// lists the code that queries it, its callers and their entry points.
func TestImpactReachesEntryPointsAndTables(t *testing.T) {
	s := shop(t)
	ctx := context.Background()
	tests := []struct {
		qname               string
		hardEntries, tables []string // tables: soft (the shop's SQL names tables through $this->prefix)
	}{
		{`Shop\Order\OrderRepository::updateStatus`,
			[]string{
				"web_route POST /account/orders/{reference}/cancel src/Http/Controller/OrderController.php:81",
				"web_route POST /checkout src/Http/Controller/OrderController.php:27",
			},
			[]string{
				"table orders database/migrations/2024_01_02_add_status_to_orders.sql:2",
				"table orders database/schema.sql:26",
			}},
		{`Shop\Cart\CartRepository::pruneOlderThan`,
			[]string{
				"cli_command shop:prune-carts src/Console/PruneCartsCommand.php:16",
				"cron_job shop:prune-carts bin/console.php:20",
				"cron_job shop:prune-carts bin/console.php:21",
				"cron_job shop:prune-carts crontab:4",
			},
			[]string{"table carts database/schema.sql:54"}},
	}
	for _, tc := range tests {
		env, err := s.Impact(ctx, ImpactArgs{QName: tc.qname})
		if err != nil {
			t.Fatal(err)
		}
		r := env.Result.(ImpactResult)
		if diff := cmp.Diff(tc.hardEntries, names(r.Hard.EntryPoints)); diff != "" {
			t.Errorf("%s: hard entry points (-want +got):\n%s", tc.qname, diff)
		}
		if diff := cmp.Diff(tc.tables, names(r.Soft.Tables)); diff != "" {
			t.Errorf("%s: soft tables (-want +got):\n%s", tc.qname, diff)
		}
		for _, it := range append(append([]ImpactItem(nil), r.Hard.EntryPoints...), r.Soft.Tables...) {
			first, last, target := it.Chain[0], it.Chain[len(it.Chain)-1], r.Targets[0].ID
			if first.From != it.ID && first.To != it.ID || last.To != target && last.From != target {
				t.Errorf("%s: %s chain does not lead from it to the target: %+v", tc.qname, it.QName, it.Chain)
			}
		}
		for _, it := range r.Hard.EntryPoints {
			if it.Chain[0].Kind != string(fact.Handles) {
				t.Errorf("%s: entry point %s reached by %s", tc.qname, it.QName, it.Chain[0].Kind)
			}
		}
		for _, it := range r.Soft.Tables {
			if k := it.Chain[0].Kind; k != string(fact.Queries) || it.Chain[0].Provenance != string(fact.Derived) {
				t.Errorf("%s: table %s reached by %s %s, want derived queries", tc.qname, it.QName, it.Chain[0].Provenance, k)
			}
		}
	}

	// from the table: the code that queries it, callers, entry points
	sch, err := s.Schema(ctx, SchemaArgs{Table: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	var id string
	for _, tb := range sch.Result.(SchemaResult).Tables {
		if tb.Path == "database/schema.sql" {
			id = tb.ID
		}
	}
	env, err := s.Impact(ctx, ImpactArgs{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	r := env.Result.(ImpactResult)
	got := map[string]bool{}
	for _, n := range append(names(r.Soft.Symbols), names(r.Soft.EntryPoints)...) {
		got[n] = true
	}
	for _, w := range []string{
		"method Shop\\Order\\OrderRepository::updateStatus src/Order/OrderRepository.php:40",
		"method Shop\\Order\\OrderService::place src/Order/OrderService.php:56",
		"web_route GET /account/orders routes/web.php:36",
		"web_route POST /checkout src/Http/Controller/OrderController.php:27",
	} {
		if !got[w] {
			t.Errorf("impact of table orders lacks %s; has %v", w, names(append(r.Soft.Symbols, r.Soft.EntryPoints...)))
		}
	}
	if len(r.Hard.Tables)+len(r.Soft.Tables) != 0 {
		t.Errorf("impact of a table lists tables: %v %v", names(r.Hard.Tables), names(r.Soft.Tables))
	}
}

// The schema of a table altered by a migration holds the migration's columns
// with their own file and line, and the migration file parses without a
// problem (it used to be partial).
func TestFT5_SchemaMergesMigrations(t *testing.T) {
	s := shop(t)
	ctx := context.Background()
	env, err := s.Schema(ctx, SchemaArgs{Table: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tb := range env.Result.(SchemaResult).Tables {
		if tb.Path != "database/schema.sql" {
			continue
		}
		for _, c := range tb.Columns {
			if c.Path != "" {
				got = append(got, fmt.Sprintf("%s %s %s:%d key=%s", c.Name, c.Type, c.Path, c.Line, c.Key))
			}
		}
	}
	want := []string{
		"status varchar(20) database/migrations/2024_01_02_add_status_to_orders.sql:3 key=MUL",
		"payment_reference varchar(64) database/migrations/2024_01_02_add_status_to_orders.sql:6 key=",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("columns from migrations (-want +got):\n%s", diff)
	}
	st, err := s.Status(ctx, StatusArgs{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range st.Result.(StatusResult).Files.Partial {
		if strings.HasSuffix(f.Path, ".sql") {
			t.Errorf("%s is partial: %s", f.Path, f.Reason)
		}
	}
}

// TestFT5_SchemaShowsRenamedColumns: a column another SQL file renames is
// shown ended there (dropped_at, renamed_to), and the new name is listed from
// that file with the old definition when the rename gave none.
func TestFT5_SchemaShowsRenamedColumns(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "database/schema.sql", "CREATE TABLE orders (\n  id INT NOT NULL PRIMARY KEY,\n  coupon VARCHAR(32) NOT NULL\n);\n")
	writeFile(t, root, "database/migrations/2024_02_01_rename.sql", "ALTER TABLE orders RENAME COLUMN coupon TO coupon_code;\n")
	cfg := config.Default()
	cfg.Languages = append(cfg.Languages, "sql")
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: cfg}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	env, err := s.Schema(context.Background(), SchemaArgs{Table: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tb := range env.Result.(SchemaResult).Tables {
		if tb.Path != "database/schema.sql" {
			continue
		}
		for _, c := range tb.Columns {
			got = append(got, fmt.Sprintf("%s %s null=%v dropped_at=%s renamed_to=%s renamed_from=%s at %s:%d",
				c.Name, c.Type, c.Nullable, c.DroppedAt, c.RenamedTo, c.RenamedFrom, c.Path, c.Line))
		}
	}
	want := []string{
		"id int null=false dropped_at= renamed_to= renamed_from= at :2",
		"coupon varchar(32) null=false dropped_at=database/migrations/2024_02_01_rename.sql:1 renamed_to=coupon_code renamed_from= at :3",
		"coupon_code varchar(32) null=false dropped_at= renamed_to= renamed_from=coupon at database/migrations/2024_02_01_rename.sql:1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
}
