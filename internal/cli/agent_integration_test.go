package cli

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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

	// the binary on PATH: the configs call a bare ragraf
	t.Setenv("PATH", filepath.Dir(ragrafBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
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

// TestReliability_AgentUninstallStaysInProject: a planted .ragraf/agents.json
// (the format earlier versions wrote, with original bytes) that names
// ../victim.txt, a directory two levels up, or a file under a symlinked
// directory leading out of the project makes `agent uninstall` exit 1 with
// nothing written, in the project or outside it.
func TestReliability_AgentUninstallStaysInProject(t *testing.T) {
	const victim = "the victim's bytes\n"
	const mcp = "{\"mcpServers\": {}}\n"
	sha := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return hex.EncodeToString(h[:])
	}
	restore := func(cur string) string {
		return `{"targets": ["claude"], "created": false, "before": "` + base64.StdEncoding.EncodeToString([]byte("pwned\n")) +
			`", "before_sha256": "` + sha("pwned\n") + `", "after_sha256": "` + sha(cur) + `", "installed_at": "2026-01-01T00:00:00Z"}`
	}
	cases := map[string]string{
		"dotdot": `{"../victim.txt": ` + restore(victim) + `}`,
		"dirs": `{".mcp.json": {"targets": ["claude"], "created": true, "dirs": ["../../victimdir"], "after_sha256": "` + sha(mcp) +
			`", "installed_at": "2026-01-01T00:00:00Z"}}`,
		"symlinked parent": `{".claude/settings.json": ` + restore(victim) + `}`,
	}
	for name, files := range cases {
		t.Run(name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "a", "project")
			for p, c := range map[string]string{"a/victim.txt": victim, "outside/settings.json": victim, "a/project/.mcp.json": mcp,
				"a/project/.ragraf/agents.json": `{"version": 1, "files": ` + files + `}`} {
				abs := filepath.Join(base, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Mkdir(filepath.Join(base, "victimdir"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, ".claude")); err != nil {
				t.Fatal(err)
			}
			r := run(t, root, "agent", "uninstall", "--target", "claude")
			if r.code != 1 || !strings.Contains(r.stderr, "nothing was written") {
				t.Errorf("uninstall: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			for p, want := range map[string]string{"a/victim.txt": victim, "outside/settings.json": victim, "a/project/.mcp.json": mcp} {
				if b, err := os.ReadFile(filepath.Join(base, filepath.FromSlash(p))); err != nil || string(b) != want {
					t.Errorf("%s: %q, %v", p, b, err)
				}
			}
			if _, err := os.Stat(filepath.Join(base, "victimdir")); err != nil {
				t.Errorf("victimdir: %v", err)
			}
		})
	}
}

// TestReliability_AgentRecordHoldsNoToken: installing into a project whose
// .mcp.json holds a GITHUB_TOKEN writes a record without it (mode 0600), and
// neither the install nor its dry run prints it.
func TestReliability_AgentRecordHoldsNoToken(t *testing.T) {
	const token = "ghp_Zx81MtQe5r0aVb2Wk9LcYp4Hn7Ds3Fg6Ju1I"
	mcp := "{\n  \"mcpServers\": {\n    \"github\": {\"command\": \"gh-mcp\", \"env\": {\"GITHUB_TOKEN\": \"" + token + "\"}}\n  }\n}\n"
	dir := writeFiles(t, map[string]string{".mcp.json": mcp})
	dry := run(t, dir, "agent", "install", "--target", "claude", "--dry-run")
	r := run(t, dir, "agent", "install", "--target", "claude")
	if r.code != 0 || dry.code != 0 {
		t.Fatalf("install: %d %d\n%s%s", dry.code, r.code, r.stdout, r.stderr)
	}
	for _, out := range []string{dry.stdout, dry.stderr, r.stdout, r.stderr} {
		if strings.Contains(out, token[:12]) {
			t.Errorf("the output holds the token:\n%s", out)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, ".ragraf", "agents.json"))
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.StdEncoding.EncodeToString([]byte(mcp))
	if strings.Contains(string(b), token[:12]) || strings.Contains(string(b), enc[:40]) || strings.Contains(string(b), `"before"`) {
		t.Errorf("agents.json holds the original bytes:\n%s", b)
	}
	if st, _ := os.Stat(filepath.Join(dir, ".ragraf", "agents.json")); st.Mode().Perm() != 0o600 {
		t.Errorf("agents.json has mode %v", st.Mode().Perm())
	}
	if r := run(t, dir, "agent", "uninstall", "--target", "claude"); r.code != 0 {
		t.Fatalf("uninstall: %d %s", r.code, r.stderr)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, ".mcp.json")); string(got) != mcp {
		t.Errorf("uninstall did not restore .mcp.json:\n%s", got)
	}
}

// TestAgentInstallCommandOffPath: with no ragraf on PATH (the README's
// `make build` writes bin/ragraf) the configs run the binary's absolute
// path and the install says so; --command overrides; the install prints each
// client's next step; the Gemini-read text has no @word import.
func TestAgentInstallCommandOffPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	dir := writeFiles(t, map[string]string{})
	r := run(t, dir, "agent", "install", "--target", "claude,codex,gemini")
	if r.code != 0 {
		t.Fatalf("install: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "`ragraf` is not on PATH: the configs run "+ragrafBin) {
		t.Errorf("no note about the command:\n%s", r.stdout)
	}
	for _, want := range []string{"approve the project MCP server", "trusted project", "trust this folder when `gemini` asks"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no next step %q:\n%s", want, r.stdout)
		}
	}
	for _, p := range []string{".mcp.json", ".claude/settings.json", ".codex/config.toml", ".codex/hooks.json", ".gemini/settings.json"} {
		b, _ := os.ReadFile(filepath.Join(dir, p))
		if !strings.Contains(string(b), ragrafBin) {
			t.Errorf("%s does not run %s:\n%s", p, ragrafBin, b)
		}
	}
	other := writeFiles(t, map[string]string{})
	if r := run(t, other, "agent", "install", "--target", "claude", "--command", "/opt/rg/ragraf"); r.code != 0 || strings.Contains(r.stdout, "not on PATH") {
		t.Fatalf("--command: %d\n%s", r.code, r.stdout)
	}
	if b, _ := os.ReadFile(filepath.Join(other, ".mcp.json")); !strings.Contains(string(b), `"/opt/rg/ragraf"`) {
		t.Errorf(".mcp.json with --command:\n%s", b)
	}
}

// TestAgentInstallIsNotDrift: the files `agent install` writes into an
// indexed project (AGENTS.md's block, CLAUDE.md, the skills) are not
// recorded as the project's changes by the next drift detection or hook;
// an edit of the project's code still is, and so is a user's later edit of
// AGENTS.md.
func TestAgentInstallIsNotDrift(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"src/Cart.php": "<?php\nnamespace App;\nclass Cart {\n    public function add(int $n): int { return $n; }\n}\n",
		"AGENTS.md":    "# Rules\n\nRun the tests.\n",
		"docs/x.md":    "# Docs\n",
	})
	if r := run(t, dir, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	if r := run(t, dir, "agent", "install", "--target", "claude,codex", "--command", "ragraf"); r.code != 0 {
		t.Fatalf("install: %d %s", r.code, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "src/Cart.php"), []byte("<?php\nnamespace App;\nclass Cart {\n    public function add(int $n): int { return $n + 1; }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, _ := runIn(t, dir, "{}", "hook", "session-start"); r.code != 0 {
		t.Fatalf("hook: %d %s", r.code, r.stderr)
	}
	if r := run(t, dir, "query", "drift_detect", "--args", `{}`); r.code != 0 {
		t.Fatalf("drift_detect: %d %s", r.code, r.stderr)
	}
	paths := func() []string {
		r := run(t, dir, "query", "drift", "--args", `{"unacked":true}`)
		var env struct {
			Result struct {
				Entries []struct {
					Path string `json:"path"`
				} `json:"entries"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
			t.Fatalf("drift: %v\n%s%s", err, r.stdout, r.stderr)
		}
		var out []string
		for _, e := range env.Result.Entries {
			out = append(out, e.Path)
		}
		return out
	}
	got := paths()
	if !slices.Contains(got, "src/Cart.php") {
		t.Errorf("the code edit is not in the ledger: %v", got)
	}
	for _, p := range got {
		if p != "src/Cart.php" {
			t.Errorf("ragraf's own file %s recorded as drift", p)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("# Rules, edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, dir, "query", "drift_detect", "--args", `{}`); r.code != 0 {
		t.Fatalf("drift_detect: %d %s", r.code, r.stderr)
	}
	if got := paths(); !slices.Contains(got, "AGENTS.md") {
		t.Errorf("a user's edit of AGENTS.md is not recorded: %v", got)
	}
}
