package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentInstallCLI drives `ragraf agent` as a process: a dry run writes
// nothing, install merges, a second install changes nothing, a foreign
// entry fails with exit 1 and names the file, and uninstall restores the
// original bytes.
func TestAgentInstallCLI(t *testing.T) {
	mcpJSON := "{\n  // shared servers\n  \"mcpServers\": {\"github\": {\"command\": \"gh-mcp\"}}\n}\n"
	dir := writeFiles(t, map[string]string{".mcp.json": mcpJSON, "AGENTS.md": "# Rules\n"})
	read := func(p string) string {
		b, _ := os.ReadFile(filepath.Join(dir, p))
		return string(b)
	}

	r := run(t, dir, "agent", "install", "--target", "claude", "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, `"ragraf": {"type": "stdio", "command": "ragraf"`) || !strings.Contains(r.stdout, "nothing was written") {
		t.Fatalf("dry run: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if read(".mcp.json") != mcpJSON || read("CLAUDE.md") != "" {
		t.Fatal("dry run wrote files")
	}

	r = run(t, dir, "agent", "install", "--target", "claude,codex")
	if r.code != 0 || !strings.Contains(r.stdout, "modify    .mcp.json") || !strings.Contains(r.stdout, "create    .codex/config.toml") {
		t.Fatalf("install: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := read(".mcp.json"); !strings.Contains(got, "// shared servers") || !strings.Contains(got, `"github"`) || !strings.Contains(got, `"ragraf"`) {
		t.Errorf(".mcp.json after install:\n%s", got)
	}
	r = run(t, dir, "agent", "install", "-t", "claude", "-t", "codex")
	if r.code != 0 || !strings.Contains(r.stdout, "nothing to do") {
		t.Errorf("second install: %d\n%s", r.code, r.stdout)
	}

	other := writeFiles(t, map[string]string{".cursor/mcp.json": `{"mcpServers":{"ragraf":{"command":"elsewhere"}}}`})
	r = run(t, other, "agent", "install", "--target", "cursor")
	if r.code != 1 || !strings.Contains(r.stderr, ".cursor/mcp.json: mcpServers.ragraf exists") {
		t.Errorf("foreign entry: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = run(t, other, "agent", "install", "--target", "nope")
	if r.code != 2 {
		t.Errorf("unknown target: exit %d", r.code)
	}

	r = run(t, dir, "agent", "uninstall", "--target", "all")
	if r.code != 0 {
		t.Fatalf("uninstall: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if read(".mcp.json") != mcpJSON || read("AGENTS.md") != "# Rules\n" {
		t.Errorf("uninstall did not restore:\n%s\n%s", read(".mcp.json"), read("AGENTS.md"))
	}
	for _, gone := range []string{"CLAUDE.md", ".claude", ".codex", ".agents", ".ragraf"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); err == nil {
			t.Errorf("%s left after uninstall", gone)
		}
	}
}
