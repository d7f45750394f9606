package cli

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// startAt starts cmd and returns once its stderr has printed the line
// marker (a stage of teststage.go); the rest of stderr is read into the
// returned buffer until the process ends.
func startAt(t *testing.T, cmd *exec.Cmd, marker string) *syncBuffer {
	t.Helper()
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out := &syncBuffer{}
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if sc.Text() == marker {
			go func() {
				for sc.Scan() {
					out.WriteString(sc.Text() + "\n")
				}
			}()
			return out
		}
	}
	_ = cmd.Wait()
	t.Fatalf("%s ended without printing %q:\n%s", cmd, marker, out.String())
	return nil
}

// syncBuffer is a bytes.Buffer one goroutine writes while another reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) WriteString(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b.WriteString(s)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

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
	if err := os.WriteFile(filepath.Join(root, "more.php"), []byte("<?php function more() { seed(); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// the build waits at the end of extraction until it is interrupted
	cmd := exec.Command(ragrafBin, "index")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "RAGRAF_TEST_PAUSE_AT=extracted")
	errb := startAt(t, cmd, "ragraf test: paused at extracted")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
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
