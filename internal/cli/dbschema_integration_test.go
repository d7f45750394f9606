package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/extract/dbschema"
)

// TestFT30_CLIDriftDetectDBSchemaDiff indexes a project whose project.yaml
// names a live MariaDB database, migrates the database and runs
// `ragraf drift detect --method db-schema-diff` twice as real processes.
func TestFT30_CLIDriftDetectDBSchemaDiff(t *testing.T) {
	db := dbschema.NewTestDB(t, "mysql")
	db.Exec(`CREATE TABLE cli_orders (id INTEGER NOT NULL PRIMARY KEY, total INTEGER)`)
	t.Setenv("RG_CLI_DB_PASSWORD", db.Password)
	root := writeFiles(t, map[string]string{
		"src/util.php":         "<?php\nfunction util_twice($x)\n{\n    return $x * 2;\n}\n",
		".ragraf/project.yaml": fmt.Sprintf("database:\n  sources:\n    - name: main\n      driver: mysql\n      dsn: %q\n      password_env: RG_CLI_DB_PASSWORD\n", db.DSN),
	})
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	db.Exec(`ALTER TABLE cli_orders ADD COLUMN status VARCHAR(20)`, `ALTER TABLE cli_orders DROP COLUMN total`)
	type detected struct {
		Result struct {
			Found int `json:"found"`
			Added []struct {
				Kind, Method, Path, Note string
			} `json:"added"`
		} `json:"result"`
	}
	detect := func() detected {
		t.Helper()
		r := run(t, root, "drift", "detect", "--method", "db-schema-diff")
		var d detected
		if err := json.Unmarshal([]byte(r.stdout), &d); err != nil || r.code != 0 {
			t.Fatalf("drift detect: %d %v %q %q", r.code, err, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, db.Password) {
			t.Errorf("output shows the database password")
		}
		return d
	}
	d := detect()
	var notes []string
	for _, e := range d.Result.Added {
		if e.Kind != "schema_change" || e.Method != "db-schema-diff" || e.Path != "db:mysql/"+db.Database {
			t.Errorf("entry %+v", e)
		}
		notes = append(notes, e.Note)
	}
	if got, want := strings.Join(notes, "; "), "column cli_orders.status added (varchar(20)); column cli_orders.total removed (int(11))"; got != want {
		t.Errorf("notes = %q, want %q", got, want)
	}
	if again := detect(); again.Result.Found != 2 || len(again.Result.Added) != 0 {
		t.Errorf("second run: %+v, want 2 found and none added", again.Result)
	}
}
