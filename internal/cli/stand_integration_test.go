package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestStandRunsAndStopsOnInterrupt drives `ragraf stand` as a process: a
// plain directory (no history) gives a complete report whose history
// metrics say why they are null; an interrupt during the tasks exits 130
// and writes only stand.partial.json; the project is never written.
func TestStandRunsAndStopsOnInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the stand")
	}
	for _, b := range []string{"php", "grep"} {
		if _, err := exec.LookPath(b); err != nil {
			t.Skipf("%s not installed", b)
		}
	}
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("src/C%d.php", i)] = fmt.Sprintf("<?php\nnamespace App;\n\nclass C%d\n{\n    public function m%d(): int\n    {\n        return (new C%d())->m%d();\n    }\n}\n", i, i, (i+1)%300, (i+1)%300)
	}
	root := writeFiles(t, files)
	out := filepath.Join(t.TempDir(), "out")

	if r := run(t, root, "stand", "--project", root); r.code != 2 {
		t.Fatalf("without --out: exit %d, want 2: %s", r.code, r.stderr)
	}
	r := run(t, root, "stand", "--project", root, "--out", out, "--per-kind", "3")
	if r.code != 0 {
		t.Fatalf("stand: exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"stand [1/7]", "stand [3/7] M1, M3", "stand [6/7] history"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("progress lacks %q:\n%s", want, r.stderr)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "stand.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"M1": {`, `"M7": {`, `"recall": null`, `"reason": "not a git working tree: no history to replay"`, `"complete": true`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("stand.json lacks %s", want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".ragraf")); !os.IsNotExist(err) {
		t.Errorf("the stand wrote .ragraf into the project: %v", err)
	}

	out2 := filepath.Join(t.TempDir(), "out")
	// the stand waits as its third step starts until it is interrupted
	cmd := exec.Command(ragrafBin, "stand", "--project", root, "--out", out2, "--per-kind", "50")
	cmd.Env = append(os.Environ(), "RAGRAF_TEST_PAUSE_AT=stand 3")
	seen := startAt(t, cmd, "ragraf test: paused at stand 3")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 130 {
		t.Fatalf("interrupted: exit %d, want 130:\n%s", code, seen.String())
	}
	if _, err := os.Stat(filepath.Join(out2, "stand.json")); !os.IsNotExist(err) {
		t.Errorf("an interrupted stand wrote stand.json: %v", err)
	}
	p, err := os.ReadFile(filepath.Join(out2, "stand.partial.json"))
	if err != nil || !strings.Contains(string(p), `"complete": false`) {
		t.Errorf("stand.partial.json: %v %s", err, p)
	}
}
