package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// scenarios are the projects every target installs into.
var scenarios = map[string]map[string]string{
	"empty": {},
	// other tools' servers, hooks and tables, comments and trailing commas
	"existing": {
		".mcp.json":             "{\n  // the team's servers\n  \"mcpServers\": {\n    \"github\": {\"command\": \"gh-mcp\"}, /* keep */\n  },\n}\n",
		".claude/settings.json": "{\n    \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n    \"hooks\": {\n        \"PostToolUse\": [\n            {\"matcher\": \"Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"prettier --write\"}]}\n        ]\n    }\n}\n",
		"CLAUDE.md":             "# Project\n\nBuild with make.\n",
		"AGENTS.md":             "# Agents\n\nRun the tests before committing.",
		".codex/config.toml":    "# user config\nmodel = \"o4\"\n\n[mcp_servers.github]\ncommand = \"gh-mcp\"\nargs = [\n  \"serve\", # multi-line\n  \"--stdio\",\n]\n\n[features]\nweb_search = true\n\n# trailing comment\n[profiles.fast]\nmodel = \"o4-mini\"\n",
		".codex/hooks.json":     "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify\"}]}]}}\n",
		".cursor/mcp.json":      "{\n\t\"mcpServers\": {\n\t\t\"db\": {\n\t\t\t\"command\": \"db-mcp\"\n\t\t}\n\t}\n}\n",
		".gemini/settings.json": "{\n  \"theme\": \"dark\",\n  \"context\": {\"fileName\": \"GEMINI.md\"},\n  \"hooks\": {\"SessionStart\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}]}]}\n}\n",
		".vscode/mcp.json":      "{\n  \"servers\": {\n    \"fetch\": {\"type\": \"stdio\", \"command\": \"uvx\", \"args\": [\"mcp-server-fetch\"]}\n  },\n  \"inputs\": [{\"type\": \"promptString\", \"id\": \"key\"}]\n}\n",
		"opencode.json":         "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"model\": \"anthropic/claude\",\n  \"mcp\": {}\n}\n",
	},
	// Windows line endings stay Windows line endings
	"crlf": {
		".mcp.json":             "{\r\n  \"mcpServers\": {\r\n    \"github\": {\"command\": \"gh-mcp\"}\r\n  }\r\n}\r\n",
		".claude/settings.json": "{\r\n  \"model\": \"opus\"\r\n}\r\n",
		"AGENTS.md":             "# Agents\r\n\r\nBe brief.\r\n",
		"CLAUDE.md":             "See @AGENTS.md\r\n@AGENTS.md\r\n",
		".codex/config.toml":    "model = \"o4\"\r\n\r\n[features]\r\ncodex_hooks = false\r\n",
		".gemini/settings.json": "{\r\n  \"context\": {\"fileName\": [\"CONTEXT.md\"]}\r\n}\r\n",
		"opencode.json":         "{\r\n  \"mcp\": {\r\n    \"other\": {\"type\": \"remote\", \"url\": \"https://x\"}\r\n  }\r\n}\r\n",
	},
}

// snapshot reads every file under root (a symlink as "-> target").
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." {
				out[rel+"/"] = ""
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			to, err := os.Readlink(p)
			out[rel] = "-> " + to
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func seed(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func testOptions(root string, targets ...string) Options {
	return Options{Root: root, Targets: targets, Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }}
}

// golden renders the report and the files it wrote; CR is shown as <CR> so
// the golden files stay LF-only.
func golden(rep *Report) string {
	var b strings.Builder
	for _, a := range rep.Actions {
		fmt.Fprintf(&b, "%s %s\n", a.Op, a.Path)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	for _, a := range rep.Actions {
		if a.Op == "unchanged" {
			continue
		}
		text := strings.ReplaceAll(string(a.After), "\r", "<CR>")
		if string(a.After) == skillText {
			text = "(skillText)\n" // its content is checked by TestAgentTexts
		}
		fmt.Fprintf(&b, "\n-- %s --\n%s", a.Path, text)
	}
	return b.String()
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, d)
	}
}

// codexServerKeys are the keys Codex accepts in an mcp_servers entry (its
// config deserialiser denies unknown fields).
var codexServerKeys = []string{"command", "args", "env", "env_vars", "cwd", "startup_timeout_sec", "startup_timeout_ms",
	"tool_timeout_sec", "enabled", "enabled_tools", "disabled_tools", "url", "bearer_token_env_var", "http_headers", "env_http_headers"}

// validate parses every file ragraf wrote the way its agent would.
func validate(t *testing.T, root string, rep *Report) {
	t.Helper()
	for _, a := range rep.Actions {
		if a.After == nil {
			continue
		}
		switch {
		case strings.HasSuffix(a.Path, ".json"):
			d, err := parseJSONC(a.After)
			if err != nil {
				t.Errorf("%s does not parse: %v", a.Path, err)
				continue
			}
			if !json.Valid(d.plainJSON(d.root)) {
				t.Errorf("%s: stripped text is not JSON", a.Path)
			}
			if !bytes.Contains(a.Before, []byte("//")) && !bytes.Contains(a.Before, []byte("/*")) && !bytes.Contains(a.Before, []byte(",\n  }")) && !json.Valid(a.After) {
				t.Errorf("%s was strict JSON and is no longer", a.Path)
			}
		case strings.HasSuffix(a.Path, ".toml"):
			var cfg map[string]any
			if _, err := toml.Decode(string(a.After), &cfg); err != nil {
				t.Errorf("%s does not parse as TOML: %v", a.Path, err)
				continue
			}
			servers, _ := cfg["mcp_servers"].(map[string]any)
			for name, s := range servers {
				for k := range s.(map[string]any) {
					if !slices.Contains(codexServerKeys, k) {
						t.Errorf("%s: mcp_servers.%s has key %q, which Codex rejects", a.Path, name, k)
					}
				}
			}
			if r, _ := servers["ragraf"].(map[string]any); r["command"] != "ragraf" {
				t.Errorf("%s: mcp_servers.ragraf = %v", a.Path, r)
			}
		case strings.HasSuffix(a.Path, "SKILL.md"):
			checkSkill(t, a.Path, a.After)
		}
	}
}

// checkSkill checks the Agent Skills frontmatter: name and description only,
// name equal to the directory, description at most 1,024 characters.
func checkSkill(t *testing.T, path string, b []byte) {
	t.Helper()
	s := string(b)
	if !strings.HasPrefix(s, "---\n") {
		t.Fatalf("%s has no frontmatter", path)
	}
	fm := s[4 : 4+strings.Index(s[4:], "\n---\n")]
	keys := map[string]string{}
	for _, l := range strings.Split(fm, "\n") {
		k, v, ok := strings.Cut(l, ": ")
		if !ok {
			t.Errorf("%s: frontmatter line %q", path, l)
		}
		keys[k] = v
	}
	if len(keys) != 2 || keys["name"] != filepath.Base(filepath.Dir(path)) || keys["description"] == "" || len(keys["description"]) > 1024 {
		t.Errorf("%s: frontmatter %v", path, keys)
	}
}

// TestAgentInstall covers every target in every scenario: the golden
// result, valid files, a second install that changes nothing, a dry run that
// writes nothing, and an uninstall that restores the original bytes.
func TestAgentInstall(t *testing.T) {
	for _, target := range Targets {
		for _, sc := range slices.Sorted(func(yield func(string) bool) {
			for k := range scenarios {
				if !yield(k) {
					return
				}
			}
		}) {
			t.Run(target+"/"+sc, func(t *testing.T) {
				root := seed(t, scenarios[sc])
				orig := snapshot(t, root)

				dry := testOptions(root, target)
				dry.DryRun = true
				plan, err := Install(dry)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(orig, snapshot(t, root)); d != "" {
					t.Fatalf("dry run wrote files:\n%s", d)
				}

				rep, err := Install(testOptions(root, target))
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(golden(plan), golden(rep)); d != "" {
					t.Errorf("dry run plan differs from the install:\n%s", d)
				}
				checkGolden(t, target+"-"+sc, golden(rep))
				validate(t, root, rep)

				installed := snapshot(t, root)
				again, err := Install(testOptions(root, target))
				if err != nil {
					t.Fatal(err)
				}
				if again.Changed() != 0 {
					t.Errorf("second install changed %d files: %s", again.Changed(), golden(again))
				}
				if d := cmp.Diff(installed, snapshot(t, root)); d != "" {
					t.Errorf("second install changed bytes:\n%s", d)
				}

				if _, err := Uninstall(testOptions(root, target)); err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(orig, snapshot(t, root)); d != "" {
					t.Errorf("uninstall did not restore the project (-orig +now):\n%s", d)
				}
			})
		}
	}
}

// TestAgentInstallAll installs every target into one project, shares
// AGENTS.md and the skill between them, and takes them out one at a time.
func TestAgentInstallAll(t *testing.T) {
	root := seed(t, scenarios["existing"])
	orig := snapshot(t, root)
	all, err := ExpandTargets([]string{"all"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Install(testOptions(root, all...)); err != nil {
		t.Fatal(err)
	}
	installed := snapshot(t, root)
	if _, err := Uninstall(testOptions(root, "claude")); err != nil {
		t.Fatal(err)
	}
	now := snapshot(t, root)
	if now["AGENTS.md"] != installed["AGENTS.md"] || now[".agents/skills/ragraf/SKILL.md"] == "" {
		t.Error("uninstalling claude took the shared files other targets still use")
	}
	if now[".mcp.json"] != orig[".mcp.json"] || now[".claude/skills/ragraf/SKILL.md"] != "" {
		t.Error("uninstalling claude left claude's files")
	}
	if _, err := Uninstall(testOptions(root, all...)); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(orig, snapshot(t, root)); d != "" {
		t.Errorf("uninstall did not restore the project (-orig +now):\n%s", d)
	}
}

// TestAgentInstallRefuses: a ragraf entry ragraf did not write, or a file
// that does not parse, stops the install with nothing written; --force
// overrides, and uninstall still restores the original bytes.
func TestAgentInstallRefuses(t *testing.T) {
	cases := []struct {
		name, target string
		files        map[string]string
		want         string
	}{
		{"foreign server", "claude", map[string]string{".mcp.json": `{"mcpServers":{"ragraf":{"command":"/opt/other/ragraf","args":["serve"]}}}`}, "mcpServers.ragraf exists"},
		{"foreign table", "codex", map[string]string{".codex/config.toml": "[mcp_servers.ragraf]\ncommand = \"old\"\n"}, "[mcp_servers.ragraf] exists"},
		{"bad json", "cursor", map[string]string{".cursor/mcp.json": "{\"mcpServers\": {\n"}, "does not parse"},
		{"bad toml", "codex", map[string]string{".codex/config.toml": "model = \"o4\n"}, "unterminated"},
		{"foreign skill", "gemini", map[string]string{".agents/skills/ragraf/SKILL.md": "mine\n"}, "the file exists"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := seed(t, c.files)
			orig := snapshot(t, root)
			_, err := Install(testOptions(root, c.target))
			var ce *ConflictError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("install: %v, want a conflict naming %q", err, c.want)
			}
			if d := cmp.Diff(orig, snapshot(t, root)); d != "" {
				t.Fatalf("a refused install wrote files:\n%s", d)
			}
			force := testOptions(root, c.target)
			force.Force = true
			rep, err := Install(force)
			if err != nil {
				t.Fatalf("forced install: %v", err)
			}
			validate(t, root, rep)
			if _, err := Uninstall(testOptions(root, c.target)); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(orig, snapshot(t, root)); d != "" {
				t.Errorf("uninstall after a forced install did not restore (-orig +now):\n%s", d)
			}
		})
	}
}

// TestAgentUninstallSkipsEdited: a file the user changed after the install
// is left alone and named; the others are restored.
func TestAgentUninstallSkipsEdited(t *testing.T) {
	root := seed(t, scenarios["existing"])
	if _, err := Install(testOptions(root, "claude")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, ".mcp.json")
	b, _ := os.ReadFile(p)
	edited := append(b, []byte("\n")...)
	if err := os.WriteFile(p, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Uninstall(testOptions(root, "claude"))
	if err != nil {
		t.Fatal(err)
	}
	var skipped []string
	for _, a := range rep.Actions {
		if a.Op == "skip" {
			skipped = append(skipped, a.Path+": "+a.Reason)
		}
	}
	if len(skipped) != 1 || !strings.HasPrefix(skipped[0], ".mcp.json: ") {
		t.Errorf("skipped %v, want .mcp.json alone", skipped)
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, edited) {
		t.Error("uninstall changed the edited file")
	}
	if got, _ := os.ReadFile(filepath.Join(root, "CLAUDE.md")); string(got) != scenarios["existing"]["CLAUDE.md"] {
		t.Errorf("CLAUDE.md not restored: %q", got)
	}
}

func TestExpandTargets(t *testing.T) {
	got, err := ExpandTargets([]string{"codex,claude", "claude"})
	if err != nil || !slices.Equal(got, []string{"claude", "codex"}) {
		t.Errorf("got %v, %v", got, err)
	}
	if got, _ := ExpandTargets([]string{"all"}); !slices.Equal(got, Targets) {
		t.Errorf("all = %v", got)
	}
	if _, err := ExpandTargets([]string{"emacs"}); !errors.Is(err, ErrUnknownTarget) {
		t.Errorf("emacs: %v", err)
	}
}

// TestAgentInstallOtherCommand: installing again with another executable
// path updates ragraf's entries and hooks in place instead of adding
// second ones.
func TestAgentInstallOtherCommand(t *testing.T) {
	root := seed(t, scenarios["existing"])
	orig := snapshot(t, root)
	if _, err := Install(testOptions(root, "claude", "cursor", "gemini")); err != nil {
		t.Fatal(err)
	}
	o := testOptions(root, "claude", "cursor", "gemini")
	o.Command = "/opt/ragraf/bin/ragraf"
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	now := snapshot(t, root)
	for _, p := range []string{".claude/settings.json", ".cursor/hooks.json", ".gemini/settings.json"} {
		if n := strings.Count(now[p], "hook session-start"); n != 1 || !strings.Contains(now[p], "/opt/ragraf/bin/ragraf hook session-start") {
			t.Errorf("%s: %d session-start hooks:\n%s", p, n, now[p])
		}
	}
	if !strings.Contains(now[".mcp.json"], `"command": "/opt/ragraf/bin/ragraf"`) {
		t.Errorf(".mcp.json:\n%s", now[".mcp.json"])
	}
	if _, err := Uninstall(testOptions(root, "claude", "cursor", "gemini")); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(orig, snapshot(t, root)); d != "" {
		t.Errorf("uninstall did not restore (-orig +now):\n%s", d)
	}
}

// TestAgentGeminiTextHasNoImports: Gemini CLI reads `@path` in its context
// files (AGENTS.md, GEMINI.md) as a file import and fails on one that is not
// a file; ragraf's text in every file Gemini reads holds no `@` before a
// word.
func TestAgentGeminiTextHasNoImports(t *testing.T) {
	at := regexp.MustCompile(`@\S`)
	for sc, files := range scenarios {
		root := seed(t, files)
		if _, err := Install(testOptions(root, "gemini", "claude")); err != nil {
			t.Fatal(err)
		}
		settings, _ := os.ReadFile(filepath.Join(root, ".gemini/settings.json"))
		d, err := parseJSONC(settings)
		if err != nil {
			t.Fatal(err)
		}
		ctxFiles := d.decode(d.root).(map[string]any)["context"].(map[string]any)["fileName"]
		for _, f := range ctxFiles.([]any) {
			b, _ := os.ReadFile(filepath.Join(root, f.(string)))
			s := string(b)
			i, j := strings.Index(s, blockBegin), strings.Index(s, blockEnd)
			if i < 0 {
				continue
			}
			if m := at.FindString(s[i:j]); m != "" {
				t.Errorf("%s: %s holds %q in ragraf's block, which Gemini reads as an import", sc, f, m)
			}
		}
	}
	for name, text := range Texts() {
		if m := at.FindString(text); m != "" {
			t.Errorf("%s holds %q", name, m)
		}
	}
}
