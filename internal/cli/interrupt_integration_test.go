package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestIndexInterrupt: Ctrl-C (SIGINT) during a build stops it with exit code
// 130, publishes nothing and leaves the previous revision current.
func TestIndexInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes a generated project")
	}
	files := map[string]string{"seed.php": "<?php function seed() {}\n"}
	root := writeFiles(t, files)
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("first index: %d %s", r.code, r.stderr)
	}
	// a project big enough that the second build is still running when interrupted
	var body strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&body, "    public function m%d(int $a): int { return $this->m%d($a) + strlen('x'); }\n", i, (i+1)%400)
	}
	for i := 0; i < 3000; i++ {
		p := filepath.Join(root, "gen", fmt.Sprintf("C%d.php", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(fmt.Sprintf("<?php\nnamespace Gen;\nclass C%d {\n%s}\n", i, body.String())), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(ragrafBin, "index")
	cmd.Dir = root
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code == 0 {
		t.Skip("the build finished before the interrupt arrived; nothing to check on this machine")
	}
	if code != 130 {
		t.Fatalf("exit %d, want 130: %s", code, errb.String())
	}
	cur, err := os.ReadFile(filepath.Join(root, ".ragraf", "CURRENT"))
	if err != nil || strings.TrimSpace(string(cur)) != "rev-0001" {
		t.Errorf("CURRENT = %q, %v; want rev-0001", cur, err)
	}
	if ents, _ := os.ReadDir(filepath.Join(root, ".ragraf", "tmp")); len(ents) != 0 {
		t.Errorf("interrupted build left %d entries in tmp", len(ents))
	}
	if _, err := os.Stat(filepath.Join(root, ".ragraf", "revs", "rev-0002")); err == nil {
		t.Errorf("interrupted build published rev-0002")
	}
}
