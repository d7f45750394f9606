package facade

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/drift"
	"github.com/ragraf/ragraf/internal/extract/dbschema"
	"github.com/ragraf/ragraf/internal/rev"
)

// liveProject creates tables in a fresh database on the test server of
// driver, writes a project whose project.yaml names that database (the
// password in an environment variable), indexes it with rev.Build and
// returns the database and the Service.
func liveProject(t *testing.T, driver string) (*dbschema.TestDB, *Service) {
	t.Helper()
	db := dbschema.NewTestDB(t, driver)
	db.Exec(
		`CREATE TABLE lp_customers (id INTEGER NOT NULL PRIMARY KEY, email VARCHAR(190) NOT NULL, note TEXT)`,
		`CREATE TABLE lp_orders (id INTEGER NOT NULL PRIMARY KEY, customer_id INTEGER NOT NULL, total INTEGER,
			FOREIGN KEY (customer_id) REFERENCES lp_customers (id))`,
	)
	env := "RG_TEST_DB_PASSWORD_" + strings.ToUpper(driver)
	t.Setenv(env, db.Password)
	root := t.TempDir()
	writeFile(t, root, "src/Orders.php", `<?php
function orders_total($db, $id)
{
    return $db->query("SELECT total FROM lp_orders WHERE id = " . (int) $id);
}
`)
	yaml := fmt.Sprintf("database:\n  sources:\n    - name: main\n      driver: %s\n      dsn: %q\n      password_env: %s\n", driver, db.DSN, env)
	writeFile(t, root, filepath.Join(rev.Dir, "project.yaml"), yaml)
	cfg, err := config.Load(rev.Layout{Root: root}.Config())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: cfg}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return db, s
}

func liveIndexReadsSchema(t *testing.T, driver string) {
	_, s := liveProject(t, driver)
	env, err := s.Schema(context.Background(), SchemaArgs{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tb := range env.Result.(SchemaResult).Tables {
		if tb.Source != "information_schema" || !strings.HasPrefix(tb.Path, "db:"+driver+"/") {
			t.Errorf("table %s: source %q path %q, want information_schema from db:%s/", tb.Name, tb.Source, tb.Path, driver)
		}
		for _, c := range tb.Columns {
			got = append(got, tb.Name+"."+c.Name)
		}
		if tb.Name == "lp_orders" && (len(tb.ForeignKeys) != 1 || tb.ForeignKeys[0].Table != "lp_customers") {
			t.Errorf("lp_orders foreign keys = %+v", tb.ForeignKeys)
		}
	}
	sort.Strings(got)
	want := []string{"lp_customers.email", "lp_customers.id", "lp_customers.note", "lp_orders.customer_id", "lp_orders.id", "lp_orders.total"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	// the SQL string in PHP links to the live table
	use, err := s.TableUsage(context.Background(), TableUsageArgs{Table: "lp_orders"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fmt.Sprint(use.Result), "orders_total") {
		t.Errorf("table_usage lp_orders does not name orders_total: %+v", use.Result)
	}
}

func TestFT5_IndexReadsLiveSchema_MariaDB(t *testing.T)  { liveIndexReadsSchema(t, "mysql") }
func TestFT5_IndexReadsLiveSchema_Postgres(t *testing.T) { liveIndexReadsSchema(t, "postgres") }

// dbSchemaDiff applies a migration to the live database and checks that
// db-schema-diff names table and column, with type, nullability, default and
// key changes, once (FT-30, FT-27).
func dbSchemaDiff(t *testing.T, driver, addedType string) {
	ctx := context.Background()
	db, s := liveProject(t, driver)
	db.Exec(`ALTER TABLE lp_orders ADD COLUMN status VARCHAR(20)`, `ALTER TABLE lp_customers DROP COLUMN note`,
		`CREATE TABLE lp_coupons (code VARCHAR(32) NOT NULL PRIMARY KEY)`,
		`CREATE UNIQUE INDEX lp_customers_email ON lp_customers (email)`)
	if driver == "postgres" {
		db.Exec(`ALTER TABLE lp_orders ALTER COLUMN total SET DEFAULT 0`, `ALTER TABLE lp_orders ALTER COLUMN total SET NOT NULL`)
	} else {
		db.Exec(`ALTER TABLE lp_orders MODIFY total INTEGER NOT NULL DEFAULT 0`)
	}
	env, err := s.DriftDetect(ctx, DriftDetectArgs{Method: drift.MethodDBSchemaDiff})
	if err != nil {
		t.Fatal(err)
	}
	res := env.Result.(DriftDetectResult)
	var got []string
	for _, e := range res.Added {
		if e.Kind != drift.KindSchemaChange || e.Method != drift.MethodDBSchemaDiff || !strings.HasPrefix(e.Path, "db:"+driver+"/") {
			t.Errorf("entry %+v: want a db-schema-diff schema_change on db:%s/", e, driver)
		}
		got = append(got, e.Note)
	}
	want := []string{
		"column lp_customers.email changed key (no key -> UNI)",
		"column lp_customers.note removed (text)",
		"column lp_orders.status added (" + addedType + ")",
		"column lp_orders.total changed default (no default -> 0)",
		"column lp_orders.total changed nullability (NULL -> NOT NULL)",
		"table lp_coupons added",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	env, err = s.DriftDetect(ctx, DriftDetectArgs{Method: drift.MethodDBSchemaDiff})
	if err != nil {
		t.Fatal(err)
	}
	if again := env.Result.(DriftDetectResult); len(again.Added) != 0 || again.Found != len(want) {
		t.Errorf("second run: found %d, added %+v; want %d found and nothing added", again.Found, again.Added, len(want))
	}
	list, err := s.Drift(ctx, DriftArgs{Kind: drift.KindSchemaChange})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(list.Result.(DriftResult).Entries); n != len(want) {
		t.Errorf("ledger holds %d schema_change entries, want %d", n, len(want))
	}
}

func TestFT30_DBSchemaDiff_MariaDB(t *testing.T) { dbSchemaDiff(t, "mysql", "varchar(20)") }
func TestFT30_DBSchemaDiff_Postgres(t *testing.T) {
	dbSchemaDiff(t, "postgres", "character varying(20)")
}

// Without database.sources, db-schema-diff is a bad input, not an internal error.
func TestFT30_DBSchemaDiffNeedsSources(t *testing.T) {
	_, s := driftProject(t)
	_, err := s.DriftDetect(context.Background(), DriftDetectArgs{Method: drift.MethodDBSchemaDiff})
	if err == nil || AsError(err).Code != ErrBadInput {
		t.Fatalf("err = %v, want %s", err, ErrBadInput)
	}
}
