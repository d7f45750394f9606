package sqltext

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// tpl builds a template from alternating parts: strings starting with "$" or
// "{$" are holes, everything else is literal.
func tpl(parts ...string) Template {
	t := Template{Path: "x.php", Line: 7}
	for _, p := range parts {
		if strings.HasPrefix(p, "$") || strings.HasPrefix(p, "{$") {
			t.Parts = append(t.Parts, Part{Hole: p})
		} else {
			t.Parts = append(t.Parts, Part{Lit: p})
		}
	}
	return t
}

func TestFT6_Analyze(t *testing.T) {
	wp := Options{TablePrefixes: []string{"wp_"}}
	tests := []struct {
		name    string
		in      Template
		op      string
		tables  []TableUse
		dynamic []string
		wantErr bool
	}{
		{name: "wp posts hole braces", in: tpl("SELECT ID, post_title FROM ", "{$wpdb->posts}", " WHERE post_status = 'publish'"),
			op: "select", tables: []TableUse{{Table: "posts", Op: "select", Columns: []string{"ID", "post_status", "post_title"}, Inferred: true}}},
		{name: "wp select star", in: tpl("SELECT * FROM ", "$wpdb->posts", " WHERE ID = %d LIMIT 1"),
			op: "select", tables: []TableUse{{Table: "posts", Op: "select", Columns: []string{"ID"}, Inferred: true}}},
		{name: "wp select star no where", in: tpl("SELECT * FROM ", "$wpdb->users"),
			op: "select", tables: []TableUse{{Table: "users", Op: "select", Inferred: true}}},
		{name: "wp prefix hole + literal", in: tpl("$wpdb->prefix", "options WHERE autoload = 'yes'"),
			wantErr: true},
		{name: "wp prefix concat", in: tpl("SELECT option_value FROM ", "$wpdb->prefix", "options WHERE option_name = %s"),
			op: "select", tables: []TableUse{{Table: "options", Op: "select", Columns: []string{"option_name", "option_value"}, Inferred: true}}},
		{name: "wp join postmeta", in: tpl("SELECT p.ID, pm.meta_value FROM ", "$wpdb->posts", " p INNER JOIN ", "$wpdb->postmeta", " pm ON p.ID = pm.post_id WHERE pm.meta_key = %s"),
			op: "select", tables: []TableUse{
				{Table: "postmeta", Op: "select", Columns: []string{"meta_key", "meta_value", "post_id"}, Inferred: true},
				{Table: "posts", Op: "select", Columns: []string{"ID"}, Inferred: true}}},
		{name: "wp term join unqualified dropped", in: tpl("SELECT t.*, tt.* FROM ", "$wpdb->terms", " AS t INNER JOIN ", "$wpdb->term_taxonomy", " AS tt ON t.term_id = tt.term_id WHERE taxonomy = %s"),
			op: "select", tables: []TableUse{
				{Table: "term_taxonomy", Op: "select", Columns: []string{"term_id"}, Inferred: true},
				{Table: "terms", Op: "select", Columns: []string{"term_id"}, Inferred: true}}},
		{name: "wp subquery", in: tpl("SELECT post_id FROM ", "$wpdb->postmeta", " WHERE meta_key = '_thumbnail_id' AND post_id IN (SELECT ID FROM ", "$wpdb->posts", " WHERE post_type = %s)"),
			op: "select", tables: []TableUse{
				{Table: "postmeta", Op: "select", Columns: []string{"meta_key", "post_id"}, Inferred: true},
				{Table: "posts", Op: "select", Columns: []string{"ID", "post_type"}, Inferred: true}}},
		{name: "wp delete", in: tpl("DELETE FROM ", "$wpdb->options", " WHERE option_name LIKE %s"),
			op: "delete", tables: []TableUse{{Table: "options", Op: "delete", Columns: []string{"option_name"}, Inferred: true}}},
		{name: "wp multi delete", in: tpl("DELETE a, b FROM ", "$wpdb->options", " a, ", "$wpdb->options", " b WHERE a.option_name LIKE %s AND b.option_name = CONCAT('_transient_timeout_', SUBSTRING(a.option_name, 12))"),
			op: "delete", tables: []TableUse{{Table: "options", Op: "delete", Columns: []string{"option_name"}, Inferred: true}}},
		{name: "wp update with value holes", in: tpl("UPDATE ", "$wpdb->posts", " SET post_status = 'draft' WHERE ID = ", "$post_id"),
			op: "update", tables: []TableUse{{Table: "posts", Op: "update", Columns: []string{"ID", "post_status"}, Inferred: true}}},
		{name: "wp insert on duplicate", in: tpl("INSERT INTO `", "$wpdb->options", "` (`option_name`, `option_value`, `autoload`) VALUES (%s, %s, %s) ON DUPLICATE KEY UPDATE `option_name` = VALUES(`option_name`), `option_value` = VALUES(`option_value`)"),
			op: "insert", tables: []TableUse{{Table: "options", Op: "insert", Columns: []string{"autoload", "option_name", "option_value"}, Inferred: true}}},
		{name: "wp count group by alias", in: tpl("SELECT post_status, COUNT( * ) AS num_posts FROM ", "{$wpdb->posts}", " WHERE post_type = %s GROUP BY post_status ORDER BY num_posts"),
			op: "select", tables: []TableUse{{Table: "posts", Op: "select", Columns: []string{"post_status", "post_type"}, Inferred: true}}},
		{name: "wp value in quotes", in: tpl("SELECT COUNT(*) FROM ", "$wpdb->comments", " WHERE comment_approved = '", "$status", "'"),
			op: "select", tables: []TableUse{{Table: "comments", Op: "select", Columns: []string{"comment_approved"}, Inferred: true}}},
		{name: "wp identifier placeholder", in: tpl("SELECT %i FROM %i WHERE id = %d"),
			op: "select", dynamic: []string{"%i"}},
		{name: "dynamic table hole", in: tpl("SELECT meta_value FROM ", "$table", " WHERE meta_key = %s"),
			op: "select", dynamic: []string{"$table"}},
		{name: "dynamic table glued", in: tpl("SELECT * FROM wp_", "$suffix", " WHERE a = 1"),
			op: "select", dynamic: []string{"$suffix"}},
		{name: "literal wp_ prefix stripped", in: tpl("SELECT user_login FROM wp_users WHERE ID = 1"),
			op: "select", tables: []TableUse{{Table: "users", Op: "select", Columns: []string{"ID", "user_login"}}}},
		{name: "wp found rows", in: tpl("SELECT FOUND_ROWS()"), op: "select"},
		{name: "wp ddl create", in: tpl("CREATE TABLE ", "$wpdb->termmeta", " (\n meta_id bigint(20) unsigned NOT NULL auto_increment,\n term_id bigint(20) unsigned NOT NULL default '0',\n PRIMARY KEY  (meta_id),\n KEY term_id (term_id)\n) ", "$charset_collate", ";"),
			op: "ddl", tables: []TableUse{{Table: "termmeta", Op: "ddl", Columns: []string{"meta_id", "term_id"}, Inferred: true}}},
		{name: "wp ddl create without collate", in: tpl("CREATE TABLE ", "$wpdb->termmeta", " (\n meta_id bigint(20) unsigned NOT NULL auto_increment,\n term_id bigint(20) unsigned NOT NULL default '0',\n PRIMARY KEY  (meta_id),\n KEY term_id (term_id)\n)"),
			op: "ddl", tables: []TableUse{{Table: "termmeta", Op: "ddl", Columns: []string{"meta_id", "term_id"}, Inferred: true}}},
		{name: "alter add column", in: tpl("ALTER TABLE ", "$wpdb->users", " ADD COLUMN spam tinyint(2) NOT NULL default 0 AFTER user_status"),
			op: "ddl", tables: []TableUse{{Table: "users", Op: "ddl", Columns: []string{"spam"}, Inferred: true}}},
		{name: "drop table", in: tpl("DROP TABLE IF EXISTS ", "$wpdb->links"),
			op: "ddl", tables: []TableUse{{Table: "links", Op: "ddl", Inferred: true}}},
		{name: "truncate", in: tpl("TRUNCATE TABLE wp_actionscheduler_logs"),
			op: "ddl", tables: []TableUse{{Table: "actionscheduler_logs", Op: "ddl"}}},
		{name: "laravel select", in: tpl("select * from users where active = ?"),
			op: "select", tables: []TableUse{{Table: "users", Op: "select", Columns: []string{"active"}}}},
		{name: "laravel named bindings", in: tpl("select id, email from users where id = :id and status = :status"),
			op: "select", tables: []TableUse{{Table: "users", Op: "select", Columns: []string{"email", "id", "status"}}}},
		{name: "laravel insert", in: tpl("insert into users (id, name) values (?, ?)"),
			op: "insert", tables: []TableUse{{Table: "users", Op: "insert", Columns: []string{"id", "name"}}}},
		{name: "laravel update alias join", in: tpl("update orders o join customers c on c.id = o.customer_id set o.status = 'vip' where c.tier = ?"),
			op: "update", tables: []TableUse{
				{Table: "customers", Op: "select", Columns: []string{"id", "tier"}},
				{Table: "orders", Op: "update", Columns: []string{"customer_id", "status"}}}},
		{name: "laravel delete", in: tpl("delete from sessions where last_activity <= ?"),
			op: "delete", tables: []TableUse{{Table: "sessions", Op: "delete", Columns: []string{"last_activity"}}}},
		{name: "postgres dollar params", in: tpl("SELECT name FROM accounts WHERE id = $1 AND org = $2"),
			op: "select", tables: []TableUse{{Table: "accounts", Op: "select", Columns: []string{"id", "name", "org"}}}},
		{name: "insert select", in: tpl("INSERT INTO archive (id, title) SELECT id, title FROM posts WHERE created < ?"),
			op: "insert", tables: []TableUse{
				{Table: "archive", Op: "insert", Columns: []string{"id", "title"}},
				{Table: "posts", Op: "select", Columns: []string{"created", "id", "title"}}}},
		{name: "replace into", in: tpl("REPLACE INTO cache (k, v) VALUES (?, ?)"),
			op: "replace", tables: []TableUse{{Table: "cache", Op: "replace", Columns: []string{"k", "v"}}}},
		{name: "derived table", in: tpl("SELECT x.n FROM (SELECT COUNT(*) AS n, author FROM posts GROUP BY author) x WHERE x.n > 3"),
			op: "select", tables: []TableUse{{Table: "posts", Op: "select", Columns: []string{"author"}}}},
		{name: "union", in: tpl("SELECT id FROM a UNION ALL SELECT id FROM b"),
			op: "select", tables: []TableUse{{Table: "a", Op: "select", Columns: []string{"id"}}, {Table: "b", Op: "select", Columns: []string{"id"}}}},
		{name: "cte", in: tpl("WITH recent AS (SELECT id FROM posts WHERE d > ?) SELECT r.id FROM recent r"),
			op: "select", tables: []TableUse{{Table: "posts", Op: "select", Columns: []string{"d", "id"}}}},
		{name: "correlated exists", in: tpl("SELECT u.id FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.id)"),
			op: "select", tables: []TableUse{{Table: "orders", Op: "select", Columns: []string{"user_id"}}, {Table: "users", Op: "select", Columns: []string{"id"}}}},
		{name: "pma backticked db qualified", in: tpl("SELECT `tables` FROM `phpmyadmin`.`pma__recent` WHERE `username` = ?"),
			op: "select", tables: []TableUse{{Table: "pma__recent", Op: "select", Columns: []string{"tables", "username"}}}},
		{name: "pma backtick hole", in: tpl("SELECT `db_name` FROM ", "$this->relation", ".`", "$table", "` WHERE `username` = ?"),
			op: "select", dynamic: []string{"$table"}},
		{name: "pma show", in: tpl("SHOW TABLES FROM `db`"), wantErr: true},
		{name: "broken sql", in: tpl("SELECT FROM WHERE"), wantErr: true},
		{name: "unknown hole clause", in: tpl("SELECT * FROM t WHERE a = 1 ", "$extra", " ", "$more"), wantErr: true},
		{name: "clause holes dropped", in: tpl("SELECT ID FROM ", "$wpdb->posts", " ", "$join", " WHERE 1=1 ", "$where", " ORDER BY post_date ", "$order"),
			op: "select", tables: []TableUse{{Table: "posts", Op: "select", Columns: []string{"ID", "post_date"}, Inferred: true}}},
		{name: "using join", in: tpl("SELECT a.x FROM a JOIN b USING (id)"),
			op: "select", tables: []TableUse{{Table: "a", Op: "select", Columns: []string{"id", "x"}}, {Table: "b", Op: "select", Columns: []string{"id"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := Analyze(tt.in, wp)
			if tt.wantErr {
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("want ParseError, got %v (query %+v)", err, q)
				}
				if pe.Path != "x.php" || pe.Line != 7 || pe.Reason == "" {
					t.Errorf("error lacks position or reason: %+v", pe)
				}
				return
			}
			if err != nil {
				t.Fatalf("Analyze: %v\n%s", err, q.Text)
			}
			if q.Op != tt.op {
				t.Errorf("op = %q, want %q", q.Op, tt.op)
			}
			if diff := cmp.Diff(tt.tables, q.Tables, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("tables (-want +got):\n%s\nSQL: %s", diff, q.Text)
			}
			if diff := cmp.Diff(tt.dynamic, q.DynamicTables, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("dynamic (-want +got):\n%s", diff)
			}
			if q.Path != "x.php" || q.Line != 7 {
				t.Errorf("position = %s:%d", q.Path, q.Line)
			}
		})
	}
}

func TestFT6_LooksLikeSQL(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"SELECT * FROM ", true},
		{"  (SELECT ID FROM ", true},
		{"select id, email from users", true},
		{"SELECT FOUND_ROWS()", true},
		{"SELECT COUNT(*) FROM ", true},
		{"INSERT INTO ", true},
		{"INSERT IGNORE INTO ", true},
		{"REPLACE INTO t", true},
		{"UPDATE ", false}, // SET not yet seen: a pre-filter on the whole literal
		{"UPDATE wp_posts SET a = 1", true},
		{"DELETE FROM ", true},
		{"CREATE TABLE ", true},
		{"CREATE UNIQUE INDEX i ON t (a)", true},
		{"ALTER TABLE ", true},
		{"DROP TABLE IF EXISTS x", true},
		{"TRUNCATE TABLE x", true},
		{"WITH r AS (SELECT 1) SELECT * FROM r", true},
		{"Select an option from the list", false},
		{"select an option from the list", false},
		{"Update your profile and set a password", false},
		{"update the settings and set them", false},
		{"Delete from trash", false},
		{"Create table of contents", false},
		{"Insert into the editor", false},
		{"drop a line", false},
		{"selected", false},
		{"SELECT", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := LooksLikeSQL(tt.in); got != tt.want {
			t.Errorf("LooksLikeSQL(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestFT6_AnalyzeSQL(t *testing.T) {
	q, err := AnalyzeSQL("SELECT a FROM wp_t", Options{TablePrefixes: []string{"wp_"}})
	if err != nil || q.Op != "select" || len(q.Tables) != 1 || q.Tables[0].Table != "t" || q.Tables[0].Inferred {
		t.Fatalf("AnalyzeSQL = %+v, %v", q, err)
	}
}

func BenchmarkAnalyze(b *testing.B) {
	in := tpl("SELECT p.ID, pm.meta_value FROM ", "$wpdb->posts", " p INNER JOIN ", "$wpdb->postmeta", " pm ON p.ID = pm.post_id WHERE pm.meta_key = %s AND p.post_status IN ('publish', 'private') ORDER BY p.post_date DESC LIMIT %d")
	opts := Options{TablePrefixes: []string{"wp_"}}
	for b.Loop() {
		if _, err := Analyze(in, opts); err != nil {
			b.Fatal(err)
		}
	}
}
