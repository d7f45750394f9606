package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ragrafBin is the real binary, built once by TestMain for every process test
// in this package.
var ragrafBin string

// TestMain builds the binary, or takes the one RAGRAF_TEST_BIN names
// (scripts/test.sh builds it once for every package that runs it).
func TestMain(m *testing.M) {
	if bin := os.Getenv("RAGRAF_TEST_BIN"); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			panic("RAGRAF_TEST_BIN: " + err.Error())
		}
		ragrafBin = bin
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "ragraf-bin")
	if err != nil {
		panic(err)
	}
	ragrafBin = filepath.Join(dir, "ragraf")
	build := exec.Command("go", "build", "-o", ragrafBin, "github.com/ragraf/ragraf/cmd/ragraf")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building ragraf: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is one finished ragraf process.
type result struct {
	code           int
	stdout, stderr string
}

// run runs the real binary in dir with args.
func run(t *testing.T, dir string, args ...string) result {
	t.Helper()
	cmd := exec.Command(ragrafBin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running ragraf %v: %v", args, err)
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// writeFiles creates files (slash paths) under a new temp dir and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
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
