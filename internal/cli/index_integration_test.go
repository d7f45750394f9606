package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var project = map[string]string{
	"src/Cart.php": "<?php\nnamespace Shop;\n\nclass Cart {\n    public function add(): void {}\n}\n",
	"src/Dup.php":  "<?php\nnamespace Shop;\n\nclass Cart {}\n",
	"copy.php":     "<?php\nnamespace Shop;\n\nclass Cart {}\n",
	"bad.php":      "<?php\nfunction f( {\n",
	"data.bin":     "\x00\x01\x02",
}

// TestFT1_CLIIndexStatusDrop drives init, index, status, drop and index again
// through the real binary.
func TestFT1_CLIIndexStatusDrop(t *testing.T) {
	root := writeFiles(t, project)
	r := run(t, root, "init")
	if r.code != 0 || !strings.Contains(r.stdout, ".ragraf/") {
		t.Fatalf("init: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := run(t, root, "init"); r.code == 0 {
		t.Errorf("second init overwrote project.yaml")
	}
	r = run(t, root, "index", "--json")
	if r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	var info struct {
		Rev        string         `json:"rev"`
		FilesTotal int            `json:"files_total"`
		Files      map[string]int `json:"files"`
		Nodes      int            `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &info); err != nil {
		t.Fatalf("index --json: %v\n%s", err, r.stdout)
	}
	if info.Rev != "rev-0001" || info.FilesTotal != 5 || info.Files["partial"] != 1 || info.Files["skipped"] != 1 {
		t.Errorf("index summary: %+v", info)
	}

	r = run(t, root, "status", "--json")
	if r.code != 0 {
		t.Fatalf("status: %d %s", r.code, r.stderr)
	}
	var env struct {
		Op       string `json:"op"`
		IndexRev string `json:"index_rev"`
		Result   struct {
			Files struct {
				Total    int            `json:"total"`
				ByStatus map[string]int `json:"by_status"`
			} `json:"files"`
			Conflicts struct {
				Total int `json:"total"`
				Items []struct {
					QName string   `json:"qname"`
					Sites []string `json:"sites"`
				} `json:"items"`
			} `json:"conflicts"`
			Duplicates struct {
				Groups [][]string `json:"groups"`
			} `json:"duplicates"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
		t.Fatalf("status --json: %v\n%s", err, r.stdout)
	}
	res := env.Result
	if env.Op != "status" || env.IndexRev != "rev-0001" || res.Files.Total != 5 {
		t.Errorf("status envelope: %+v", env)
	}
	if res.Conflicts.Total != 1 || res.Conflicts.Items[0].QName != `Shop\Cart` || len(res.Conflicts.Items[0].Sites) != 3 {
		t.Errorf("conflicts: %+v", res.Conflicts)
	}
	if len(res.Duplicates.Groups) != 1 || strings.Join(res.Duplicates.Groups[0], ",") != "copy.php,src/Dup.php" {
		t.Errorf("duplicates: %+v", res.Duplicates)
	}
	if r := run(t, root, "status"); r.code != 0 || !strings.Contains(r.stdout, "partial bad.php") {
		t.Errorf("status text: %d\n%s", r.code, r.stdout)
	}

	if r := run(t, root, "drop", "--yes"); r.code != 0 {
		t.Fatalf("drop: %d %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(root, ".ragraf", "project.yaml")); err != nil {
		t.Errorf("drop removed project.yaml: %v", err)
	}
	r = run(t, root, "status")
	if r.code != 3 || !strings.Contains(r.stdout, "E_NOT_INDEXED") {
		t.Errorf("status after drop: code %d, %q", r.code, r.stdout)
	}
	if r := run(t, root, "index"); r.code != 0 || !strings.HasPrefix(r.stdout, "rev-0001:") {
		t.Errorf("index after drop: %d %q", r.code, r.stdout)
	}
}

// TestFT37_ConfigErrorsNameTheLine: a bad project.yaml is refused with
// file:line and a suggestion, and nothing is indexed.
func TestFT37_ConfigErrorsNameTheLine(t *testing.T) {
	root := writeFiles(t, map[string]string{
		"a.php":                "<?php\n",
		".ragraf/project.yaml": "languages: [php]\nlangauges: [php]\nretain_revs: many\n",
	})
	r := run(t, root, "index")
	if r.code != 1 {
		t.Fatalf("index with bad config: code %d", r.code)
	}
	for _, want := range []string{"project.yaml:2", `"languages"`, "project.yaml:3"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".ragraf", "CURRENT")); err == nil {
		t.Errorf("a revision was published despite the bad config")
	}
}

// TestFT40_LogHoldsNoValues: the log never holds config values or file contents.
func TestFT40_LogHoldsNoValues(t *testing.T) {
	root := writeFiles(t, map[string]string{
		"a.php":                "<?php\n$password = 'log-canary-secret-31337';\nfunction visible_function_name() {}\n",
		".ragraf/project.yaml": "exclude: ['config-canary-dir/**']\n",
	})
	if r := run(t, root, "index", "-v"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	b, err := os.ReadFile(filepath.Join(root, ".ragraf", "logs", "ragraf.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 {
		t.Fatal("empty log")
	}
	for _, s := range []string{"log-canary-secret-31337", "config-canary-dir", "visible_function_name"} {
		if strings.Contains(string(b), s) {
			t.Errorf("log contains %q:\n%s", s, b)
		}
	}
}

// TestNFR7_Version lists every pinned component with a version.
func TestNFR7_Version(t *testing.T) {
	r := run(t, t.TempDir(), "version", "--json")
	if r.code != 0 {
		t.Fatalf("version: %d %s", r.code, r.stderr)
	}
	var v struct {
		Ragraf     string `json:"ragraf"`
		Components []struct{ Name, Version string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range v.Components {
		got[c.Name] = c.Version
	}
	for _, name := range []string{"go", "sqlite", "sqlite (C library, graph writes)", "tree-sitter (go bindings)", "tree-sitter-php grammar"} {
		if got[name] == "" || got[name] == "(devel)" {
			t.Errorf("component %q has version %q", name, got[name])
		}
	}
	if v.Ragraf == "" {
		t.Error("no ragraf version")
	}
}

// TestExitCodes: usage errors exit 2, a missing index exits 3.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"no-such-command"}, 2},
		{[]string{"index", "--no-such-flag"}, 2},
		{[]string{"status"}, 3},
		{[]string{"status", "--project", filepath.Join(dir, "missing")}, 2},
		{[]string{"eval", "lsp", "--server", "true", "--corpus", dir, "--family", "bogus"}, 2},
	} {
		if r := run(t, dir, c.args...); r.code != c.code {
			t.Errorf("ragraf %v: exit %d, want %d (%s)", c.args, r.code, c.code, r.stderr)
		}
	}
}
