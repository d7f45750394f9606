package sqlschema

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ragraf/ragraf/internal/fact"
)

const shopSQL = `-- shop schema
SET NAMES utf8mb4;
/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;

CREATE TABLE customers (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  email VARCHAR(190) NOT NULL UNIQUE,
  name varchar(100) DEFAULT 'anon',
  created_at datetime NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE ` + "`orders`" + ` (
  ` + "`id`" + ` bigint(20) unsigned NOT NULL,
  ` + "`customer_id`" + ` int NOT NULL,
  ` + "`total`" + ` decimal(10,2) NOT NULL DEFAULT '0.00',
  note text,
  PRIMARY KEY (` + "`id`" + `),
  KEY customer_idx (customer_id, total),
  CONSTRAINT fk_cust FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
) ENGINE=InnoDB;

INSERT INTO customers VALUES (1, 'a@b', 'x; y', NOW());
INSERT INTO orders VALUES (1, 1, 2.00, 'semi; colon ''quoted''');

DELIMITER $$
CREATE TRIGGER t BEFORE INSERT ON orders FOR EACH ROW BEGIN SET NEW.total = 1; END$$
DELIMITER ;

ALTER TABLE orders ADD COLUMN status ENUM('new','paid') NOT NULL DEFAULT 'new' AFTER total,
  DROP COLUMN note;
ALTER TABLE customers MODIFY name varchar(200) NOT NULL;
CREATE INDEX status_idx ON orders (status);
CREATE TABLE tmp (x int);
DROP TABLE tmp;
CREATE TABLE broken (id int,, );
`

func strp(s string) *string { return &s }

func TestFT5_ParseSQLFile(t *testing.T) {
	s, probs := Parse("db/shop.sql", []byte(shopSQL), Options{})
	if len(probs) != 1 || probs[0].Line != 35 || probs[0].Path != "db/shop.sql" {
		t.Errorf("problems = %+v, want one at line 35", probs)
	}
	want := Schema{Tables: []Table{
		{Name: "customers", Source: "sql_file", Path: "db/shop.sql", Line: 5, EndLine: 10,
			Columns: []Column{
				{Name: "id", Type: "int", Nullable: false, Key: "PRI", Line: 6},
				{Name: "email", Type: "varchar(190)", Nullable: false, Key: "UNI", Line: 7},
				{Name: "name", Type: "varchar(200)", Nullable: false, Line: 31},
				{Name: "created_at", Type: "datetime", Nullable: true, Default: strp("current_timestamp()"), Line: 9},
			}},
		{Name: "orders", Source: "sql_file", Path: "db/shop.sql", Line: 12, EndLine: 20,
			Columns: []Column{
				{Name: "id", Type: "bigint(20) unsigned", Nullable: false, Key: "PRI", Line: 13},
				{Name: "customer_id", Type: "int", Nullable: false, Key: "MUL", Line: 14},
				{Name: "total", Type: "decimal(10,2)", Nullable: false, Default: strp("0.00"), Line: 15},
				{Name: "status", Type: "enum('new','paid')", Nullable: false, Default: strp("new"), Key: "MUL", Line: 29},
			},
			ForeignKeys: []ForeignKey{{Name: "fk_cust", Columns: []string{"customer_id"}, RefTable: "customers", RefColumns: []string{"id"}, Line: 19}},
		},
	}}
	opts := cmpopts.IgnoreFields(Table{}, "Indexes")
	if diff := cmp.Diff(want, s, opts); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
	if ix := s.Table("orders").Indexes; len(ix) != 3 {
		t.Errorf("orders indexes = %+v, want PRIMARY, customer_idx, status_idx", ix)
	}
}

func TestFT5_ParseStatementPHP(t *testing.T) {
	// As in wp-admin/includes/schema.php: several statements in one PHP string.
	php := "CREATE TABLE $wpdb->termmeta (\n" +
		"  meta_id bigint(20) unsigned NOT NULL auto_increment,\n" +
		"  term_id bigint(20) unsigned NOT NULL default '0',\n" +
		"  meta_key varchar(255) default NULL,\n" +
		"  PRIMARY KEY  (meta_id),\n" +
		"  KEY term_id (term_id),\n" +
		"  KEY meta_key (meta_key($max_index_length))\n" +
		") $charset_collate;\n" +
		"CREATE TABLE {$wpdb->prefix}links (\n" +
		"  link_id bigint(20) unsigned NOT NULL auto_increment,\n" +
		"  PRIMARY KEY  (link_id)\n" +
		") $charset_collate;\n" +
		"CREATE TABLE $other (id int);\n"
	s, probs := ParseStatement("wp-admin/includes/schema.php", 100, php)
	if len(probs) != 1 || probs[0].Line != 112 || !strings.Contains(probs[0].Msg, "$other") {
		t.Errorf("problems = %+v", probs)
	}
	if len(s.Tables) != 2 || s.Tables[0].Name != "links" || s.Tables[1].Name != "termmeta" {
		t.Fatalf("tables = %+v", s.Tables)
	}
	tm := s.Tables[1]
	if tm.Source != "php_string" || tm.Line != 100 || tm.EndLine != 107 {
		t.Errorf("termmeta position = %s %d-%d", tm.Source, tm.Line, tm.EndLine)
	}
	if c := tm.Column("meta_key"); c == nil || c.Line != 103 || c.Key != "MUL" || !c.Nullable || c.Default == nil || *c.Default != "null" {
		t.Errorf("meta_key = %+v", c)
	}
	if c := tm.Column("meta_id"); c == nil || c.Key != "PRI" || c.Nullable {
		t.Errorf("meta_id = %+v", c)
	}
}

func TestFT5_Facts(t *testing.T) {
	s, _ := Parse("db/shop.sql", []byte(shopSQL), Options{})
	nodes, edges := s.Facts()
	var tables, cols, contains, fks int
	for _, n := range nodes {
		switch n.Kind {
		case fact.Table:
			tables++
		case fact.Column:
			cols++
			if n.Parent == "" || n.Props["type"] == "" || n.Props["source"] != "sql_file" || n.StartLine == 0 {
				t.Errorf("column node %+v", n)
			}
		}
	}
	for _, e := range edges {
		if e.Provenance != fact.Stated || e.Confidence != 1 || e.EvidencePath != "db/shop.sql" || e.EvidenceLine == 0 || e.Sources[0] != "sqlschema" {
			t.Errorf("edge %+v", e)
		}
		switch e.Kind {
		case fact.Contains:
			contains++
		case fact.ForeignKey:
			fks++
			if e.To != fact.NodeID(fact.Table, "customers", "db/shop.sql", 0) {
				t.Errorf("fk target %s", e.To)
			}
		}
	}
	if tables != 2 || cols != 8 || contains != 8 || fks != 1 {
		t.Errorf("tables %d cols %d contains %d fks %d", tables, cols, contains, fks)
	}
	// One table from two sources gives two nodes.
	s2, _ := Parse("db/other.sql", []byte("CREATE TABLE customers (id int);"), Options{})
	n2, _ := s2.Facts()
	if n2[0].ID == nodes[0].ID {
		t.Error("same table from two paths shares an id")
	}
}

func TestFT5_Diff(t *testing.T) {
	old, _ := Parse("a.sql", []byte("CREATE TABLE a (x int, y int, n int NULL, d int DEFAULT 1, k int, p int PRIMARY KEY); CREATE TABLE gone (z int);"), Options{})
	new, _ := Parse("a.sql", []byte("CREATE TABLE a (x bigint, w int, n int NOT NULL, d int DEFAULT 2, k int UNIQUE, p int); CREATE TABLE fresh (z int);"), Options{})
	want := []Change{
		{Table: "a", Column: "d", Kind: DefaultChanged, Old: "1", New: "2"},
		{Table: "a", Column: "k", Kind: KeyChanged, Old: "no key", New: "UNI"},
		{Table: "a", Column: "n", Kind: ColumnNullChanged, Old: "NULL", New: "NOT NULL"},
		{Table: "a", Column: "p", Kind: KeyChanged, Old: "PRI", New: "no key"},
		{Table: "a", Column: "p", Kind: ColumnNullChanged, Old: "NOT NULL", New: "NULL"},
		{Table: "a", Column: "w", Kind: ColumnAdded, New: "int"},
		{Table: "a", Column: "x", Kind: ColumnTypeChanged, Old: "int", New: "bigint"},
		{Table: "a", Column: "y", Kind: ColumnRemoved, Old: "int"},
		{Table: "fresh", Kind: TableAdded},
		{Table: "gone", Kind: TableRemoved},
	}
	if diff := cmp.Diff(want, Diff(old, new)); diff != "" {
		t.Errorf("Diff (-want +got):\n%s", diff)
	}
}

func corpus(t testing.TB, rel string) string {
	home, _ := os.UserHomeDir()
	p := filepath.Join(home, ".cache", "ragraf-corpora", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus file %s absent", p)
	}
	return p
}

func TestFT5_PhpMyAdminCreateTables(t *testing.T) {
	p := corpus(t, "phpmyadmin/sql/create_tables.sql")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s, probs := Parse("sql/create_tables.sql", src, Options{})
	for _, pr := range probs {
		t.Errorf("problem: %+v", pr)
	}
	want := strings.Count(strings.ToUpper(string(src)), "CREATE TABLE IF NOT EXISTS")
	if len(s.Tables) != want || want == 0 {
		t.Errorf("tables = %d, want %d", len(s.Tables), want)
	}
	for _, tb := range s.Tables {
		if len(tb.Columns) == 0 || tb.Line == 0 {
			t.Errorf("table %s: %d columns, line %d", tb.Name, len(tb.Columns), tb.Line)
		}
	}
}

// phpString finds double-quoted PHP strings that hold CREATE TABLE.
var phpString = regexp.MustCompile(`(?s)"(CREATE TABLE [^"]*)"`)

func TestFT5_WordPressSchemaPHP(t *testing.T) {
	p := corpus(t, "wordpress/wp-admin/includes/schema.php")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var all []Table
	for _, m := range phpString.FindAllSubmatchIndex(src, -1) {
		line := 1 + strings.Count(string(src[:m[2]]), "\n")
		s, probs := ParseStatement("wp-admin/includes/schema.php", line, string(src[m[2]:m[3]]))
		for _, pr := range probs {
			t.Errorf("problem: %+v", pr)
		}
		all = append(all, s.Tables...)
	}
	names := map[string]int{}
	for _, tb := range all {
		names[tb.Name] = len(tb.Columns)
	}
	for _, n := range []string{"posts", "postmeta", "options", "users", "usermeta", "terms", "term_taxonomy",
		"term_relationships", "termmeta", "comments", "commentmeta", "links", "blogs", "site", "sitemeta",
		"signups", "registration_log", "blogmeta"} {
		if names[n] == 0 {
			t.Errorf("table %s missing or without columns", n)
		}
	}
	if names["posts"] != 23 {
		t.Errorf("posts has %d columns, want 23", names["posts"])
	}
	t.Logf("%d tables from schema.php", len(all))
}

// A migration altering a table created in another file records its changes
// as a partial table instead of a problem.
func TestFT5_ParsePartialAlter(t *testing.T) {
	const src = `-- orders get a status
ALTER TABLE orders
    ADD COLUMN status VARCHAR(20) NOT NULL DEFAULT 'pending' AFTER currency;

ALTER TABLE orders DROP COLUMN coupon_code;
CREATE INDEX orders_status_index ON orders (status);
`
	s, probs := Parse("db/m1.sql", []byte(src), Options{})
	if len(probs) != 0 {
		t.Errorf("problems = %+v, want none", probs)
	}
	want := Schema{Tables: []Table{{
		Name: "orders", Source: "sql_file", Path: "db/m1.sql", Line: 2, EndLine: 6, Partial: true,
		Columns: []Column{{Name: "status", Type: "varchar(20)", Nullable: false, Default: strp("pending"), Key: "MUL", Line: 3}},
		Dropped: []Dropped{{Column: "coupon_code", Line: 5}},
	}}}
	if diff := cmp.Diff(want, s, cmpopts.IgnoreFields(Table{}, "Indexes")); diff != "" {
		t.Errorf("schema (-want +got):\n%s", diff)
	}
	nodes, _ := s.Facts()
	if got := nodes[0].Props; got[PropPartial] != "true" || got[PropDropped] != "coupon_code:5" {
		t.Errorf("table props = %v", got)
	}
	if got := ParseDropped(nodes[0].Props[PropDropped]); !cmp.Equal(got, want.Tables[0].Dropped) {
		t.Errorf("ParseDropped = %+v", got)
	}
}
