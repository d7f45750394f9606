package agent

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// FuzzJSONCAgreesWithJSON: on strict JSON the JSONC parser accepts what
// encoding/json accepts and decodes the same value; and setting a member
// into any object it parses keeps every other member and parses again.
func FuzzJSONCAgreesWithJSON(f *testing.F) {
	for _, files := range scenarios {
		for p, c := range files {
			if strings.HasSuffix(p, ".json") {
				f.Add(c)
			}
		}
	}
	f.Add(`{"a": [1, 2, {"b": null}], "c": "\u00e9"}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseJSONC([]byte(s))
		if json.Valid([]byte(s)) {
			if err != nil {
				t.Fatalf("valid JSON refused: %v", err)
			}
			var want any
			_ = json.Unmarshal([]byte(s), &want)
			if d.root != nil && !reflect.DeepEqual(d.decode(d.root), want) {
				t.Fatalf("decoded %v, want %v", d.decode(d.root), want)
			}
		}
		if err != nil || d.root == nil || d.root.kind != kindObject {
			return
		}
		before := d.decode(d.root).(map[string]any)
		out, err := setJSON([]byte(s), []string{"mcpServers", "ragraf"}, obj{{"command", "ragraf"}})
		if err != nil {
			return // mcpServers is not an object
		}
		d2, err := parseJSONC(out)
		if err != nil {
			t.Fatalf("output does not parse: %v\n%s", err, out)
		}
		after := d2.decode(d2.root).(map[string]any)
		for k, v := range before {
			if k != "mcpServers" && !reflect.DeepEqual(after[k], v) {
				t.Fatalf("member %q changed: %v -> %v", k, v, after[k])
			}
		}
		srv, _ := after["mcpServers"].(map[string]any)
		if r, _ := srv["ragraf"].(map[string]any); r["command"] != "ragraf" {
			t.Fatalf("ragraf entry missing:\n%s", out)
		}
	})
}

// FuzzTOMLTable: whenever a TOML parser accepts the input and the editor
// does too, the output parses, holds ragraf's table, and keeps every other
// top-level table's value.
func FuzzTOMLTable(f *testing.F) {
	for _, files := range scenarios {
		if c, ok := files[".codex/config.toml"]; ok {
			f.Add(c)
		}
	}
	f.Add("[mcp_servers.ragraf]\ncommand = \"x\"\n[mcp_servers.ragraf.env]\nA = \"1\"\n[other]\nk = '''\n[not a table]\n'''\n")
	f.Fuzz(func(t *testing.T, s string) {
		var before map[string]any
		if _, err := toml.Decode(s, &before); err != nil {
			return
		}
		out, _, err := setTOMLTable([]byte(s), codexTable, codexBody(editCtx{command: "ragraf"}))
		if err != nil {
			return
		}
		var after map[string]any
		if _, err := toml.Decode(string(out), &after); err != nil {
			t.Fatalf("output does not parse: %v\n%s", err, out)
		}
		srv, _ := after["mcp_servers"].(map[string]any)
		if r, _ := srv["ragraf"].(map[string]any); r["command"] != "ragraf" || len(r) != 4 {
			t.Fatalf("ragraf table %v in\n%s", r, out)
		}
		for k, v := range before {
			if k != "mcp_servers" && !reflect.DeepEqual(after[k], v) {
				t.Fatalf("%q changed: %v -> %v", k, v, after[k])
			}
		}
	})
}

// FuzzInstallRoundTrip: whatever a project's config files hold, an install
// either refuses and writes nothing, or succeeds, is idempotent, and its
// uninstall restores every byte.
func FuzzInstallRoundTrip(f *testing.F) {
	for _, files := range scenarios {
		f.Add(files[".mcp.json"], files[".claude/settings.json"], files[".codex/config.toml"], files["AGENTS.md"])
	}
	f.Fuzz(func(t *testing.T, mcp, settings, config, agents string) {
		files := map[string]string{}
		for p, c := range map[string]string{".mcp.json": mcp, ".claude/settings.json": settings, ".codex/config.toml": config, "AGENTS.md": agents} {
			if c != "" {
				files[p] = c
			}
		}
		root := seed(t, files)
		orig := snapshot(t, root)
		if _, err := Install(testOptions(root, "claude", "codex")); err != nil {
			if !reflect.DeepEqual(orig, snapshot(t, root)) {
				t.Fatalf("a failed install (%v) wrote files", err)
			}
			return
		}
		installed := snapshot(t, root)
		again, err := Install(testOptions(root, "claude", "codex"))
		if err != nil || again.Changed() != 0 || !reflect.DeepEqual(installed, snapshot(t, root)) {
			t.Fatalf("second install: %v, %d changed", err, again.Changed())
		}
		if _, err := Uninstall(testOptions(root, "claude", "codex")); err != nil {
			t.Fatal(err)
		}
		if now := snapshot(t, root); !reflect.DeepEqual(orig, now) {
			t.Fatalf("uninstall did not restore:\nwas %q\nnow %q", orig, now)
		}
	})
}
