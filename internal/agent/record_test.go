package agent

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// plant writes agents.json into root as given.
func plant(t *testing.T, root string, rec any) {
	t.Helper()
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".ragraf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(recordPath(root), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// v1Entry is a version 1 record entry restoring pwned over a file whose
// current bytes are cur.
func v1Entry(cur, pwned string) map[string]any {
	return map[string]any{"targets": []string{"claude"}, "created": false, "before": base64.StdEncoding.EncodeToString([]byte(pwned)),
		"before_sha256": sum([]byte(pwned)), "after_sha256": sum([]byte(cur)), "installed_at": "2026-01-01T00:00:00Z"}
}

// TestReliability_AgentRecordConfined: a planted agents.json naming paths
// outside the project (../, absolute, through a symlinked directory, a
// directory to remove two levels up) or whose undo does not give the bytes
// its hash names stops uninstall (and install) with nothing written, in or
// out of the project.
func TestReliability_AgentRecordConfined(t *testing.T) {
	const victim = "the victim's bytes\n"
	const mcp = "{\"mcpServers\": {}}\n"
	cases := []struct {
		name  string
		files func(outside string) map[string]any
		want  string
	}{
		{"dotdot", func(string) map[string]any {
			return map[string]any{"../victim.txt": v1Entry(victim, "pwned\n")}
		}, "../victim.txt"},
		{"absolute", func(outside string) map[string]any {
			return map[string]any{filepath.ToSlash(filepath.Join(outside, "victim.txt")): v1Entry(victim, "pwned\n")}
		}, "absolute path"},
		{"dirs", func(string) map[string]any {
			return map[string]any{".mcp.json": map[string]any{"targets": []string{"claude"}, "created": true, "dirs": []string{"../../victimdir"},
				"after_sha256": sum([]byte(mcp)), "installed_at": "x"}}
		}, "victimdir"},
		{"symlinked parent", func(string) map[string]any {
			return map[string]any{".claude/settings.json": v1Entry(victim, "pwned\n")}
		}, "leads outside the project"},
		{"not a target's file", func(string) map[string]any {
			return map[string]any{".git/hooks/pre-commit": v1Entry(victim, "pwned\n")}
		}, "not a file any target writes"},
		{"wrong hash", func(string) map[string]any {
			e := v1Entry(mcp, "pwned\n")
			e["before_sha256"] = sum([]byte("other"))
			return map[string]any{".mcp.json": e}
		}, "before_sha256"},
		{"undo gives other bytes", func(string) map[string]any {
			return map[string]any{".mcp.json": map[string]any{"targets": []string{"claude"}, "before_sha256": sum([]byte("{}\n")), "after_sha256": sum([]byte(mcp)),
				"undo": []map[string]any{{"at": 0, "len": 2, "old": base64.StdEncoding.EncodeToString([]byte("#!"))}}, "installed_at": "x"}}
		}, "does not give the original bytes"},
		{"version", func(string) map[string]any { return map[string]any{} }, "version 7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			outside := filepath.Join(base, "outside")
			root := filepath.Join(base, "a", "project")
			for _, d := range []string{outside, root, filepath.Join(base, "victimdir")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range []string{filepath.Join(base, "a", "victim.txt"), filepath.Join(outside, "victim.txt"), filepath.Join(outside, "settings.json")} {
				if err := os.WriteFile(f, []byte(victim), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(outside, filepath.Join(root, ".claude")); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(mcp), 0o644); err != nil {
				t.Fatal(err)
			}
			version := 1
			if c.name == "version" {
				version = 7
			}
			plant(t, root, map[string]any{"version": version, "files": c.files(outside)})
			before := snapshot(t, base)
			_, err := Uninstall(testOptions(root, "claude"))
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "nothing was written") {
				t.Errorf("uninstall: %v, want an error naming %q and saying nothing was written", err, c.want)
			}
			if d := cmp.Diff(before, snapshot(t, base)); d != "" {
				t.Fatalf("uninstall wrote (-before +after):\n%s", d)
			}
			if _, err := Install(testOptions(root, "claude")); err == nil {
				t.Error("install accepted the record")
			}
			if d := cmp.Diff(before, snapshot(t, base)); d != "" {
				t.Fatalf("install wrote (-before +after):\n%s", d)
			}
		})
	}
}

// TestReliability_AgentRecordHoldsNoSecrets: the record of an install into
// a .mcp.json holding a token holds ragraf's spans, not the token, has mode
// 0600, and uninstall still gives back every byte.
func TestReliability_AgentRecordHoldsNoSecrets(t *testing.T) {
	const token = "ghp_Zx81MtQe5r0aVb2Wk9LcYp4Hn7Ds3Fg6Ju1I"
	mcp := "{\n  \"mcpServers\": {\n    \"github\": {\n      \"command\": \"gh-mcp\",\n      \"env\": {\"GITHUB_TOKEN\": \"" + token + "\"}\n    }\n  }\n}\n"
	settings := "{\n  \"env\": {\"ANTHROPIC_API_KEY\": \"" + token + "\"},\n  \"hooks\": {\"Stop\": []}\n}\n"
	root := seed(t, map[string]string{".mcp.json": mcp, ".claude/settings.json": settings, ".gemini/settings.json": settings})
	orig := snapshot(t, root)
	if _, err := Install(testOptions(root, "claude", "gemini")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(recordPath(root))
	if err != nil {
		t.Fatal(err)
	}
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	var old []byte
	for _, e := range rec.Files {
		for _, s := range e.Undo {
			old = append(old, s.Old...)
		}
		if e.Before != nil {
			t.Error("the record holds original bytes")
		}
	}
	for _, leak := range [][]byte{b, old} {
		if bytes.Contains(leak, []byte(token)) || bytes.Contains(leak, []byte(token[:12])) {
			t.Fatalf("the record holds the token:\n%s", b)
		}
	}
	if len(old) > 0 {
		t.Errorf("an install that only inserts stored original bytes %q", old)
	}
	if st, _ := os.Stat(recordPath(root)); st.Mode().Perm() != 0o600 {
		t.Errorf("agents.json mode %v", st.Mode().Perm())
	}
	if _, err := Uninstall(testOptions(root, "claude", "gemini")); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(orig, snapshot(t, root)); d != "" {
		t.Errorf("uninstall did not restore (-orig +now):\n%s", d)
	}
}

// TestAgentRecordVersion1Migrates: a version 1 record (original bytes) is
// still uninstalled byte for byte, and any save writes it as version 2
// without the original bytes.
func TestAgentRecordVersion1Migrates(t *testing.T) {
	for _, op := range []string{"uninstall", "install"} {
		t.Run(op, func(t *testing.T) {
			root := seed(t, scenarios["existing"])
			orig := snapshot(t, root)
			if _, err := Install(testOptions(root, "claude")); err != nil {
				t.Fatal(err)
			}
			// rewrite the record as version 1 held it
			rec, err := loadRecord(root)
			if err != nil {
				t.Fatal(err)
			}
			v1 := map[string]any{}
			for p, e := range rec.Files {
				m := map[string]any{"targets": e.Targets, "created": e.Created, "dirs": e.Dirs, "after_sha256": e.AfterSHA, "installed_at": e.InstalledAt}
				if !e.Created {
					cur, _ := os.ReadFile(filepath.Join(root, p))
					before, err := e.original(cur)
					if err != nil {
						t.Fatal(err)
					}
					m["before"], m["before_sha256"] = before, e.BeforeSHA
				}
				v1[p] = m
			}
			plant(t, root, map[string]any{"version": 1, "files": v1})
			if op == "install" {
				if _, err := Install(testOptions(root, "claude", "codex")); err != nil {
					t.Fatal(err)
				}
				b, _ := os.ReadFile(recordPath(root))
				if !strings.Contains(string(b), `"version": 2`) || strings.Contains(string(b), `"before"`) {
					t.Fatalf("record after install:\n%s", b)
				}
			}
			if _, err := Uninstall(testOptions(root, "claude", "codex")); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(orig, snapshot(t, root)); d != "" {
				t.Errorf("uninstall did not restore (-orig +now):\n%s", d)
			}
		})
	}
}

// TestAgentSymlinkedConfigs: a CLAUDE.md or .mcp.json that is a symlink to
// a file inside the project is edited where it points and stays a symlink;
// CLAUDE.md linked to AGENTS.md gets AGENTS.md's block once (no import of
// itself); a symlink out of the project is refused with nothing written.
func TestAgentSymlinkedConfigs(t *testing.T) {
	link := func(t *testing.T, root, target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	isLink := func(t *testing.T, p string) {
		t.Helper()
		if st, err := os.Lstat(p); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symlink", p)
		}
	}
	t.Run("inside", func(t *testing.T) {
		root := seed(t, map[string]string{"docs/CLAUDE.md": "# Docs\n", "conf/mcp.json": "{\"mcpServers\": {}}\n"})
		link(t, root, "docs/CLAUDE.md", "CLAUDE.md")
		link(t, root, "conf/mcp.json", ".mcp.json")
		orig := snapshot(t, root)
		if _, err := Install(testOptions(root, "claude")); err != nil {
			t.Fatal(err)
		}
		isLink(t, filepath.Join(root, "CLAUDE.md"))
		isLink(t, filepath.Join(root, ".mcp.json"))
		if b, _ := os.ReadFile(filepath.Join(root, "conf/mcp.json")); !strings.Contains(string(b), "ragraf") {
			t.Errorf("the link's target was not edited: %s", b)
		}
		if again, err := Install(testOptions(root, "claude")); err != nil || again.Changed() != 0 {
			t.Errorf("second install: %v", err)
		}
		if _, err := Uninstall(testOptions(root, "claude")); err != nil {
			t.Fatal(err)
		}
		isLink(t, filepath.Join(root, "CLAUDE.md"))
		isLink(t, filepath.Join(root, ".mcp.json"))
		if d := cmp.Diff(orig, snapshot(t, root)); d != "" {
			t.Errorf("uninstall did not restore (-orig +now):\n%s", d)
		}
	})
	for _, dir := range []string{"CLAUDE.md -> AGENTS.md", "AGENTS.md -> CLAUDE.md"} {
		t.Run(dir, func(t *testing.T) {
			from, to, _ := strings.Cut(dir, " -> ")
			root := seed(t, map[string]string{to: "# Rules\n"})
			link(t, root, to, from)
			orig := snapshot(t, root)
			if _, err := Install(testOptions(root, "claude")); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(filepath.Join(root, to))
			if strings.Count(string(b), blockBegin) != 1 || strings.Contains(string(b), "@AGENTS.md") || !strings.Contains(string(b), "Code index: ragraf") {
				t.Errorf("%s:\n%s", to, b)
			}
			if again, err := Install(testOptions(root, "claude")); err != nil || again.Changed() != 0 {
				t.Errorf("second install: %v, %v", err, again)
			}
			if _, err := Uninstall(testOptions(root, "claude")); err != nil {
				t.Fatal(err)
			}
			isLink(t, filepath.Join(root, from))
			if d := cmp.Diff(orig, snapshot(t, root)); d != "" {
				t.Errorf("uninstall did not restore (-orig +now):\n%s", d)
			}
		})
	}
	t.Run("outside", func(t *testing.T) {
		outside := seed(t, map[string]string{"mcp.json": "{}\n"})
		root := seed(t, map[string]string{})
		link(t, root, filepath.Join(outside, "mcp.json"), ".mcp.json")
		orig, origOut := snapshot(t, root), snapshot(t, outside)
		_, err := Install(testOptions(root, "claude"))
		if err == nil || !strings.Contains(err.Error(), ".mcp.json: a symlink leads outside the project") {
			t.Fatalf("install: %v", err)
		}
		if d := cmp.Diff(orig, snapshot(t, root)) + cmp.Diff(origOut, snapshot(t, outside)); d != "" {
			t.Errorf("a refused install wrote:\n%s", d)
		}
	})
}

// TestAgentUninstallKeepsEditedRecord: a file skipped because it was edited
// stays in the record, so a later install still owns its ragraf entry and
// a later uninstall, once the edit is undone, restores the original.
func TestAgentUninstallKeepsEditedRecord(t *testing.T) {
	root := seed(t, scenarios["existing"])
	orig := snapshot(t, root)
	if _, err := Install(testOptions(root, "claude")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, ".mcp.json")
	installed, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(bytes.Clone(installed), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(testOptions(root, "claude")); err != nil {
		t.Fatal(err)
	}
	rec, err := loadRecord(root)
	if err != nil || rec.Files[".mcp.json"] == nil || len(rec.Files) != 1 {
		t.Fatalf("record after the skip: %v %v", rec, err)
	}
	if err := os.WriteFile(p, installed, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(testOptions(root, "claude")); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(orig, snapshot(t, root)); d != "" {
		t.Errorf("the second uninstall did not restore (-orig +now):\n%s", d)
	}
}

// FuzzAgentRecord: whatever agents.json holds, parsing either refuses it or
// yields entries whose paths are clean, relative and a target's; and an
// uninstall driven by it never writes or removes anything outside the
// project.
func FuzzAgentRecord(f *testing.F) {
	f.Add(`{"version":1,"files":{"../victim.txt":{"targets":["claude"],"before":"cHduZWQK","before_sha256":"x","after_sha256":"y"}}}`)
	f.Add(`{"version":2,"files":{".mcp.json":{"targets":["claude"],"created":true,"dirs":["../../victimdir"],"after_sha256":"` + sum([]byte("{}\n")) + `"}}}`)
	f.Add(`{"version":2,"files":{".claude/settings.json":{"targets":["claude"],"created":true,"dirs":[".claude"],"after_sha256":"` + sum([]byte("{}\n")) + `"}}}`)
	f.Add(`{"version":2,"files":{".mcp.json":{"targets":["claude"],"before_sha256":"` + sum([]byte("{}")) + `","after_sha256":"` + sum([]byte("{}\n")) + `","undo":[{"at":2,"len":1}]}}}`)
	f.Add(`{"version":2,"files":{"/etc/passwd":{"targets":["claude"]}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		r, err := parseRecord([]byte(s))
		if err != nil {
			return
		}
		known := knownPaths()
		for p, e := range r.Files {
			if cleanRel(p) != nil || !known[p] {
				t.Fatalf("accepted path %q", p)
			}
			for _, d := range e.Dirs {
				if !strings.HasPrefix(p, d+"/") || cleanRel(d) != nil {
					t.Fatalf("accepted dir %q of %q", d, p)
				}
			}
		}
		base := t.TempDir()
		root := filepath.Join(base, "a", "project")
		for p, c := range map[string]string{"a/victim.txt": "v\n", "victimdir/.keep": "", "a/project/.mcp.json": "{}\n", "a/project/.claude/settings.json": "{}\n"} {
			abs := filepath.Join(base, filepath.FromSlash(p))
			_ = os.MkdirAll(filepath.Dir(abs), 0o755)
			if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_ = os.MkdirAll(filepath.Join(root, ".ragraf"), 0o755)
		if err := os.WriteFile(recordPath(root), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		outside := func() map[string]string {
			all := snapshot(t, base)
			for k := range all {
				if strings.HasPrefix(k, "a/project/") {
					delete(all, k)
				}
			}
			return all
		}
		before := outside()
		_, _ = Uninstall(testOptions(root, Targets...))
		if d := cmp.Diff(before, outside()); d != "" {
			t.Fatalf("uninstall wrote outside the project:\n%s", d)
		}
	})
}
