package facade

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

// secretsProject indexes a project with excluded files and a PHP file with
// secrets (CRLF line ends and a BOM, as Windows editors save them).
func secretsProject(t *testing.T) (string, *Service) {
	t.Helper()
	root := t.TempDir()
	writeFile(t, root, ".env", "DB_PASSWORD=env-canary-1\n")
	writeFile(t, root, "debug.log", "log-canary-2\n")
	writeFile(t, root, ".git/config", "url = https://u:git-canary-3@example.com/x\n")
	writeFile(t, root, "src/creds.php", "<?php\nfunction creds() { return 1; }\n")
	writeFile(t, root, "wp-config.php", "\xef\xbb\xbf<?php\r\ndefine( 'DB_PASSWORD', 'wp-canary-4' );\r\ndefine( 'AUTH_KEY', 'wp-canary-5' );\r\n$table_prefix = 'wp_';\r\n")
	if err := os.Symlink(".env", filepath.Join(root, "envlink.php")); err != nil {
		t.Skipf("symlinks unsupported: %v", err)
	}
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return root, s
}

var canaries = []string{"env-canary-1", "log-canary-2", "git-canary-3", "wp-canary-4", "wp-canary-5", "SQLite format"}

func TestFT39_ContentOpsRefuseExcludedPaths(t *testing.T) {
	root, s := secretsProject(t)
	check := func(op, args, rule string) {
		t.Helper()
		env, err := s.Call(context.Background(), op, []byte(args))
		fe := AsError(errOr(err))
		if fe.Code != ErrExcluded || !strings.Contains(fe.Message, rule) {
			t.Errorf("%s %s: %v %+v; want %s naming %s", op, args, err, env, ErrExcluded, rule)
		}
		for _, c := range canaries {
			if strings.Contains(fe.Message, c) {
				t.Errorf("%s %s: message holds %q", op, args, c)
			}
		}
	}
	for _, op := range []string{"live_read", "code"} {
		check(op, `{"path":".env"}`, `secrets_exclude ".env"`)
		check(op, `{"path":"envlink.php"}`, `leads to ".env"`)
		check(op, `{"path":"debug.log"}`, `mandatory exclude "*.log"`)
		check(op, `{"path":".git/config"}`, `mandatory exclude ".git/"`)
		check(op, `{"path":".ragraf/control.sqlite"}`, `mandatory exclude ".ragraf/"`)
		check(op, `{"path":".ragraf/revs/rev-0001/graph.sqlite"}`, `mandatory exclude ".ragraf/"`)
	}
	// a file indexed before the config excluded it is refused by both, by id too
	env := call(t, s, "symbol", `{"name":"creds"}`)
	id := env.Result.(SymbolResult).Symbols[0].ID
	writeFile(t, root, ".ragraf/project.yaml", "secrets_exclude: ['src/creds.php']\n")
	check("code", `{"path":"src/creds.php"}`, `secrets_exclude "src/creds.php"`)
	check("code", `{"id":"`+id+`"}`, `secrets_exclude "src/creds.php"`)
	check("live_read", `{"path":"src/creds.php"}`, `secrets_exclude "src/creds.php"`)
	// a config that does not load serves nothing rather than guess the rules
	writeFile(t, root, ".ragraf/project.yaml", "secrets_exclude: [\n")
	check("live_read", `{"path":"wp-config.php"}`, "config")
}

func TestFT39_ContentOpsRedactAsIndexed(t *testing.T) {
	_, s := secretsProject(t)
	lr := call(t, s, "live_read", `{"path":"wp-config.php"}`).Result.(LiveReadResult)
	cr := call(t, s, "code", `{"path":"wp-config.php"}`).Result.(CodeResult)
	for _, text := range []string{lr.Text, cr.Text} {
		for _, c := range canaries {
			if strings.Contains(text, c) {
				t.Errorf("served text holds %q:\n%s", c, text)
			}
		}
		if strings.Count(text, "[REDACTED]") != 2 || strings.Count(text, "\n") != 4 {
			t.Errorf("served text:\n%q", text)
		}
	}
	// neither the BOM, the CRLF line ends nor the redaction are a change
	if lr.FileState != "unchanged" || lr.Changed || len(lr.Hunks) != 0 || lr.Lines != 4 {
		t.Errorf("live_read: %+v", lr)
	}
	if lr.Text != cr.Text {
		t.Errorf("live_read %q != code %q", lr.Text, cr.Text)
	}
}
