package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFT39_LiveReadRefusesExcludedFiles runs index and query as real
// processes: live_read and code refuse every file the index excludes with
// E_EXCLUDED, name the rule, and never print the file's content; an indexed
// file's secrets are redacted in both answers as in the index.
func TestFT39_LiveReadRefusesExcludedFiles(t *testing.T) {
	root := writeFiles(t, map[string]string{
		".env":            "DB_PASSWORD=x1-env-canary\n",
		".git/config":     "[remote \"origin\"]\n\turl = https://bob:gitcred-canary@example.com/r.git\n",
		"debug.log":       "log-canary-line\n",
		"build/out.php":   "<?php // gitignored-canary\n",
		".gitignore":      "build/\n",
		"src/Cart.php":    "<?php\nclass Cart {}\n",
		"wp-config.php":   "<?php\ndefine( 'DB_PASSWORD', 'wp-db-canary-77' );\ndefine( 'AUTH_KEY', 'wp-auth-canary-88' );\n$table_prefix = 'wp_';\n",
		"keys/server.pem": "-----BEGIN PRIVATE KEY-----\npem-canary\n-----END PRIVATE KEY-----\n",
	})
	if err := os.Symlink(".env", filepath.Join(root, "env-link.php")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git", filepath.Join(root, "gitdir")); err != nil {
		t.Fatal(err)
	}
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	canaries := []string{"x1-env-canary", "gitcred-canary", "log-canary-line", "gitignored-canary", "pem-canary",
		"wp-db-canary-77", "wp-auth-canary-88", "SQLite format"}
	noCanary := func(what, out string) {
		t.Helper()
		for _, c := range canaries {
			if strings.Contains(out, c) {
				t.Errorf("%s prints %q:\n%s", what, c, out)
			}
		}
	}
	for _, tc := range []struct{ path, rule string }{
		{".env", `secrets_exclude ".env"`},
		{"./.env", `secrets_exclude ".env"`},
		{".git/config", `mandatory exclude ".git/"`},
		{"gitdir/config", `mandatory exclude ".git/"`},
		{"debug.log", `mandatory exclude "*.log"`},
		{".ragraf/control.sqlite", `mandatory exclude ".ragraf/"`},
		{"env-link.php", `secrets_exclude ".env"`},
		{"build/out.php", `.gitignore`},
		{"keys/server.pem", `secrets_exclude "*.pem"`},
	} {
		for _, op := range []string{"live_read", "code"} {
			r := run(t, root, "query", op, "--args", `{"path":"`+tc.path+`"}`)
			var body struct {
				Error struct{ Code, Message string } `json:"error"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &body); err != nil {
				t.Fatalf("%s %s: %v %q", op, tc.path, err, r.stdout)
			}
			if r.code == 0 || body.Error.Code != "E_EXCLUDED" || !strings.Contains(body.Error.Message, tc.rule) {
				t.Errorf("%s %s: exit %d, error %+v; want E_EXCLUDED naming %s", op, tc.path, r.code, body.Error, tc.rule)
			}
			noCanary(op+" "+tc.path, r.stdout+r.stderr)
		}
	}
	for _, op := range []string{"live_read", "code"} {
		r := run(t, root, "query", op, "--args", `{"path":"wp-config.php"}`)
		if r.code != 0 || !strings.Contains(r.stdout, "DB_PASSWORD") || !strings.Contains(r.stdout, "[REDACTED]") {
			t.Errorf("%s wp-config.php: %d %s", op, r.code, r.stdout)
		}
		noCanary(op+" wp-config.php", r.stdout+r.stderr)
	}
	// redaction alone is no change: the live file matches its snapshot
	r := run(t, root, "query", "live_read", "--args", `{"path":"wp-config.php"}`)
	if !strings.Contains(r.stdout, `"file_state": "unchanged"`) {
		t.Errorf("live_read of an unchanged file with secrets: %s", r.stdout)
	}
}
