package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// mountOrSkip runs mount with args, skipping the test when this process may
// not mount (not root, or no CAP_SYS_ADMIN in a container).
func mountOrSkip(t *testing.T, args ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting needs root")
	}
	if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
		t.Skipf("mount %v: %v %s", args, err, out)
	}
}

func unmount(t *testing.T, dir string) {
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
}

// readOnlyView returns a read-only view of the project at root: a read-only
// bind mount when running as root (root ignores permission bits), else the
// project's .ragraf made read-only with chmod.
func readOnlyView(t *testing.T, root string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		ix := filepath.Join(root, ".ragraf")
		_ = filepath.Walk(ix, func(p string, fi os.FileInfo, err error) error {
			if err == nil {
				_ = os.Chmod(p, fi.Mode().Perm()&^0o222)
			}
			return nil
		})
		t.Cleanup(func() {
			_ = filepath.Walk(ix, func(p string, fi os.FileInfo, err error) error {
				if err == nil {
					_ = os.Chmod(p, fi.Mode().Perm()|0o200)
				}
				return nil
			})
		})
		return root
	}
	view := t.TempDir()
	mountOrSkip(t, "--bind", root, view)
	unmount(t, view)
	if out, err := exec.Command("mount", "-o", "remount,bind,ro", view).CombinedOutput(); err != nil {
		t.Fatalf("remount read-only: %v %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(view, "probe"), nil, 0o644); !errors.Is(err, syscall.EROFS) {
		t.Fatalf("the view is writable: %v", err)
	}
	return view
}

const roCart = "<?php\nnamespace Shop;\n\nclass Cart\n{\n    public function total(): int\n    {\n        return 1;\n    }\n}\n"

// checkReadsWork runs read operations and the session-start hook on a
// project whose ledger cannot be written, with a drifted file, and the
// ledger writers, which must say why they cannot write.
func checkReadsWork(t *testing.T, dir, why string) {
	t.Helper()
	for _, args := range [][]string{
		{"query", "status"},
		{"query", "symbol", "--name", "Cart"},
		{"query", "outline", "--path", "src/Cart.php"},
		{"query", "repo_map", "--args", `{"budget_tokens":200}`},
		{"query", "search", "--args", `{"query":"total"}`},
		{"query", "drift"},
		{"status"},
		{"hook", "session-start"},
	} {
		r := run(t, dir, args...)
		if r.code != 0 || strings.Contains(r.stdout, `"error"`) {
			t.Errorf("%s: %v: exit %d\n%s%s", why, args, r.code, r.stdout, r.stderr)
		}
		if args[0] == "hook" && !strings.Contains(r.stdout, "not recorded") {
			t.Errorf("%s: the hook does not say the changes are not recorded:\n%s", why, r.stdout)
		}
		if len(args) > 1 && args[1] == "outline" && !strings.Contains(r.stdout, `"path": "src/Cart.php"`) {
			t.Errorf("%s: outline has no stale warning for the drifted file:\n%s", why, r.stdout)
		}
	}
	for _, args := range [][]string{
		{"query", "drift_record", "--args", `{"path":"src/Cart.php","note":"x"}`},
		{"query", "drift_ack", "--args", `{"entry_id":"d-0123456789abcdef"}`},
		{"query", "drift_detect", "--args", `{"method":"compare"}`},
	} {
		r := run(t, dir, args...)
		if r.code == 0 || !strings.Contains(r.stdout, `"E_READ_ONLY"`) {
			t.Errorf("%s: %v: exit %d, want E_READ_ONLY\n%s%s", why, args, r.code, r.stdout, r.stderr)
		}
	}
}

// TestNFR10_ReadOnlyProject: with the project on a read-only file system,
// every read operation answers (the ledger is read without being written)
// and the ledger writers fail with E_READ_ONLY.
func TestNFR10_ReadOnlyProject(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/Cart.php": roCart})
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	if err := os.WriteFile(filepath.Join(root, "src/Cart.php"), []byte(strings.Replace(roCart, "return 1;", "return 2;", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	checkReadsWork(t, readOnlyView(t, root), "read-only")
}

// TestNFR10_FullDisk: with no space left on the project's file system,
// every read operation answers and the ledger writers fail with
// E_READ_ONLY.
func TestNFR10_FullDisk(t *testing.T) {
	root := t.TempDir()
	mountOrSkip(t, "-t", "tmpfs", "-o", "size=4m", "tmpfs", root)
	unmount(t, root)
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src/Cart.php"), []byte(roCart), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	if err := os.WriteFile(filepath.Join(root, "src/Cart.php"), []byte(strings.Replace(roCart, "return 1;", "return 2;", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	fill, err := os.Create(filepath.Join(root, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	block := bytes.Repeat([]byte{'x'}, 4096)
	for {
		if _, err := fill.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	fill.Close()
	checkReadsWork(t, root, "full disk")
}
