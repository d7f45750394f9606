package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ragraf/ragraf/internal/agent"
)

func TestHookFitBytes(t *testing.T) {
	long := strings.Repeat("line of text é\n", 200)
	got := fitBytes(long, 500)
	if len(got) > 500 || !strings.HasSuffix(got, "\n…") || !utf8.ValidString(got) {
		t.Errorf("fitBytes: %d bytes, %q", len(got), got[len(got)-20:])
	}
	if got := fitBytes(strings.Repeat("é", 400), 101); len(got) > 101 || !utf8.ValidString(got) {
		t.Errorf("one long line: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
	if got := fitBytes("short\n", 100); got != "short" {
		t.Errorf("short: %q", got)
	}
}

// TestHookRootAsMCP: the hooks find the project by the rules `ragraf mcp`
// uses: --project, then RAGRAF_PROJECT, then CLAUDE_PROJECT_DIR, then the
// nearest directory above the hook's cwd holding .ragraf/, then the cwd.
func TestHookRootAsMCP(t *testing.T) {
	proj, other, bare := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(proj, ".ragraf"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(proj, "src", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	root := func(project string, in agent.HookInput) string {
		t.Helper()
		r, err := hookRoot(&globalOptions{Project: project}, in)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Setenv("RAGRAF_PROJECT", "")
	t.Setenv("CLAUDE_PROJECT_DIR", "")
	if got := root("", agent.HookInput{Cwd: sub}); got != proj {
		t.Errorf("from a subdirectory: %s, want %s", got, proj)
	}
	if got := root("", agent.HookInput{Cwd: bare}); got != bare {
		t.Errorf("no .ragraf/ above: %s, want the cwd %s", got, bare)
	}
	t.Setenv("CLAUDE_PROJECT_DIR", other)
	if got := root("", agent.HookInput{Cwd: sub}); got != other {
		t.Errorf("CLAUDE_PROJECT_DIR: %s, want %s", got, other)
	}
	t.Setenv("RAGRAF_PROJECT", bare)
	if got := root("", agent.HookInput{Cwd: sub}); got != bare {
		t.Errorf("RAGRAF_PROJECT before CLAUDE_PROJECT_DIR: %s, want %s", got, bare)
	}
	if got := root(proj, agent.HookInput{Cwd: sub}); got != proj {
		t.Errorf("--project before the environment: %s, want %s", got, proj)
	}
	for _, dir := range []string{proj, bare, sub} {
		if got, want := root("", agent.HookInput{Cwd: dir}), mcpProject(os.Getenv, dir); got != want {
			t.Errorf("cwd %s: hook %s, mcp %s", dir, got, want)
		}
	}
}
