package dbschema

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/extract/sqlschema"
)

// scenario is the setup DDL and the migration every database flavour runs.
type scenario struct {
	setup, migrate []string
}

var common = scenario{
	setup: []string{
		`DROP TABLE IF EXISTS rg_orders`,
		`DROP TABLE IF EXISTS rg_customers`,
		`CREATE TABLE rg_customers (id INTEGER NOT NULL PRIMARY KEY, email VARCHAR(190) NOT NULL UNIQUE, name VARCHAR(100) DEFAULT 'anon', note TEXT)`,
		`CREATE TABLE rg_orders (id INTEGER NOT NULL PRIMARY KEY, customer_id INTEGER NOT NULL, total DECIMAL(10,2), FOREIGN KEY (customer_id) REFERENCES rg_customers (id))`,
		`CREATE INDEX rg_orders_customer ON rg_orders (customer_id)`,
	},
	migrate: []string{
		`ALTER TABLE rg_customers ADD COLUMN phone VARCHAR(40)`,
		`ALTER TABLE rg_customers DROP COLUMN note`,
	},
}

func runScenario(t *testing.T, driver, dsn, database string) {
	ctx := context.Background()
	db, err := Open(ctx, driver, dsn, "")
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer db.Close()
	exec := func(stmts []string) {
		for _, s := range stmts {
			if _, err := db.ExecContext(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
	exec(common.setup)
	t.Cleanup(func() {
		db.ExecContext(ctx, `DROP TABLE IF EXISTS rg_orders`)
		db.ExecContext(ctx, `DROP TABLE IF EXISTS rg_customers`)
	})
	before, err := Read(ctx, db, driver, database)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	cust, orders := before.Table("rg_customers"), before.Table("rg_orders")
	if cust == nil || orders == nil {
		t.Fatalf("tables = %+v", before.Tables)
	}
	wantPath := "db:" + driver + "/" + database
	if cust.Path != wantPath || cust.Line != 1 || cust.Source == "" {
		t.Errorf("position = %s:%d source %q", cust.Path, cust.Line, cust.Source)
	}
	checks := []struct {
		col, key string
		nullable bool
		def      string
	}{
		{"id", "PRI", false, ""},
		{"email", "UNI", false, ""},
		{"name", "", true, "anon"},
	}
	for _, c := range checks {
		got := cust.Column(c.col)
		if got == nil {
			t.Errorf("column %s missing", c.col)
			continue
		}
		if got.Key != c.key || got.Nullable != c.nullable {
			t.Errorf("%s = %+v, want key %q nullable %v", c.col, *got, c.key, c.nullable)
		}
		if c.def != "" && (got.Default == nil || !strings.Contains(*got.Default, c.def)) {
			t.Errorf("%s default = %v, want %q", c.col, got.Default, c.def)
		}
	}
	if c := orders.Column("customer_id"); c == nil || c.Key != "MUL" {
		t.Errorf("customer_id = %+v, want MUL", c)
	}
	if len(orders.ForeignKeys) != 1 || orders.ForeignKeys[0].RefTable != "rg_customers" ||
		!cmp.Equal(orders.ForeignKeys[0].Columns, []string{"customer_id"}) || !cmp.Equal(orders.ForeignKeys[0].RefColumns, []string{"id"}) {
		t.Errorf("foreign keys = %+v", orders.ForeignKeys)
	}

	exec(common.migrate)
	after, err := Read(ctx, db, driver, database)
	if err != nil {
		t.Fatalf("Read after migration: %v", err)
	}
	var got []sqlschema.Change
	for _, c := range sqlschema.Diff(before, after) {
		if strings.HasPrefix(c.Table, "rg_") {
			c.Old, c.New = "", ""
			got = append(got, c)
		}
	}
	want := []sqlschema.Change{
		{Table: "rg_customers", Column: "note", Kind: sqlschema.ColumnRemoved},
		{Table: "rg_customers", Column: "phone", Kind: sqlschema.ColumnAdded},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("schema change (-want +got):\n%s", diff)
	}
}

func envDSN(t *testing.T, name string) string {
	dsn := os.Getenv(name)
	if dsn == "" {
		t.Skipf("%s not set; run scripts/testdb.sh start and export the lines of scripts/testdb.sh env", name)
	}
	return dsn
}

func TestFT5_LiveSchema_MariaDB(t *testing.T) {
	runScenario(t, "mysql", envDSN(t, "RAGRAF_TEST_MYSQL_DSN"), "ragraf_test")
}

func TestFT5_LiveSchema_Postgres(t *testing.T) {
	runScenario(t, "postgres", envDSN(t, "RAGRAF_TEST_PG_DSN"), "ragraf_test")
}

func TestFT5_LiveSchema_SQLite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "app.db")
	runScenario(t, "sqlite", "file:"+p+"?_pragma=foreign_keys(1)", "app.db")
}

// TestFT30_SchemaChangeNamesTableAndColumn checks that a type change and a
// dropped table are reported with their names (the ledger needs both).
func TestFT30_SchemaChangeNamesTableAndColumn(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "app.db")
	db, err := Open(ctx, "sqlite", p, "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{`CREATE TABLE a (x INTEGER, y TEXT)`, `CREATE TABLE b (z INTEGER)`} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	before, err := Read(ctx, db, "sqlite", "app.db")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`DROP TABLE b`, `ALTER TABLE a ADD COLUMN w REAL`} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	after, err := Read(ctx, db, "sqlite", "app.db")
	if err != nil {
		t.Fatal(err)
	}
	want := []sqlschema.Change{
		{Table: "a", Column: "w", Kind: sqlschema.ColumnAdded, New: "real"},
		{Table: "b", Kind: sqlschema.TableRemoved},
	}
	if diff := cmp.Diff(want, sqlschema.Diff(before, after)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestFT5_OpenHidesPassword(t *testing.T) {
	ctx := context.Background()
	const secret = "s3cr3t-Pa55"
	tests := []struct{ driver, dsn string }{
		{"mysql", "root@tcp(127.0.0.1:1)/x"},
		{"mysql", "root:" + secret + "@tcp(127.0.0.1:1)/x"},
		{"postgres", "postgres://u@127.0.0.1:1/x?sslmode=disable&connect_timeout=1"},
		{"postgres", "postgres://u:" + secret + "@127.0.0.1:1/x?sslmode=disable&connect_timeout=1"},
		{"postgres", "postgres://u:" + secret + "@bad host/%zz"},
	}
	for _, tt := range tests {
		_, err := Open(ctx, tt.driver, tt.dsn, secret)
		if err == nil {
			t.Errorf("%s: connected to a closed port", tt.driver)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("%s: error echoes the password: %v", tt.driver, err)
		}
	}
	if _, err := Open(ctx, "oracle", "x", ""); err == nil {
		t.Error("unknown driver accepted")
	}
}
