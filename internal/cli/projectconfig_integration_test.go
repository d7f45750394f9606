package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProjectConfig_ReindexAppliesNamedConfig: `reindex --project other.yaml`
// detects drift with the config it builds with. A file that other.yaml
// excludes is not a change of the project; .ragraf/project.yaml (the
// defaults here) would count it.
func TestProjectConfig_ReindexAppliesNamedConfig(t *testing.T) {
	root := writeFiles(t, map[string]string{
		"other.yaml": "exclude: ['gen/**']\n",
		"src/a.php":  "<?php\nfunction a() {}\n",
	})
	cfg := filepath.Join(root, "other.yaml")
	if r := run(t, root, "--project", cfg, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	if err := os.MkdirAll(filepath.Join(root, "gen"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "gen", "g.php"), []byte("<?php\nfunction g() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, root, "--project", cfg, "reindex")
	if r.code != 0 || !strings.Contains(r.stdout, "0 changed paths") || strings.Contains(r.stdout, "gen/g.php") {
		t.Errorf("reindex with other.yaml counts a file it excludes: %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = run(t, root, "--project", cfg, "status", "--json")
	if r.code != 0 || strings.Contains(r.stdout, `"unacked": 1`) {
		t.Errorf("status with other.yaml counts a file it excludes: %d %s", r.code, r.stdout)
	}
}
