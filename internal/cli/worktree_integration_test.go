//go:build unix

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runLimited runs the real binary in dir like runIn, but kills it after a
// minute and fails the test: a read that blocks must fail, not hang the run.
func runLimited(t *testing.T, dir, stdin string, cred *syscall.Credential, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, ragrafBin, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("ragraf %v did not finish within a minute: it blocks\n%s%s", args, out.String(), errb.String())
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running ragraf %v: %v", args, err)
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

const wtCart = "<?php\nnamespace Shop;\n\nclass Cart\n{\n    public function total(): int\n    {\n        return 1;\n    }\n}\n"

// TestReliability_FIFOWhereAFileWas: a FIFO put where an indexed file was
// (no writer ever opens it) hangs no answer: outline, symbol, live_read,
// code, changes, drift detect and both hooks finish and say the file is not
// a regular file where they report on it.
func TestReliability_FIFOWhereAFileWas(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/Cart.php": wtCart, "src/Other.php": "<?php\nfunction other() {}\n"})
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-qm", "init")
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	cart := filepath.Join(root, "src", "Cart.php")
	os.Remove(cart)
	if err := syscall.Mkfifo(cart, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	edit := fmt.Sprintf(`{"cwd":%q,"tool_name":"Write","tool_input":{"file_path":%q}}`, root, cart)
	for _, c := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"query", "outline", "--path", "src/Cart.php"}, "", `"kind": "modify"`},
		{[]string{"query", "symbol", "--name", "Cart"}, "", "src/Cart.php"},
		{[]string{"query", "live_read", "--args", `{"path":"src/Cart.php"}`}, "", "not a regular file"},
		{[]string{"query", "code", "--args", `{"path":"src/Cart.php"}`}, "", ""},
		{[]string{"query", "changes"}, "", ""},
		{[]string{"query", "drift_detect", "--args", `{"method":"compare"}`}, "", `"src/Cart.php"`},
		{[]string{"query", "drift_detect", "--args", `{"method":"git-diff"}`}, "", ""},
		{[]string{"hook", "post-edit", "--format", "text"}, edit, "src/Cart.php"},
		{[]string{"hook", "session-start", "--format", "text"}, "", "modify src/Cart.php"},
		{[]string{"query", "drift"}, "", "not a regular file"},
	} {
		r := runLimited(t, root, c.stdin, nil, nil, c.args...)
		if strings.Contains(r.stdout, "E_INTERNAL") || !strings.Contains(r.stdout, c.want) {
			t.Errorf("%v: exit %d, want %q in\n%s%s", c.args, r.code, c.want, r.stdout, r.stderr)
		}
	}
}

// TestReliability_UnreadableFileDetectedOnceReadable: a file the index
// could not open (the walk records it skipped, "unreadable: permission
// denied") is a change once it can be read, though neither its size nor its
// mtime changed. As root the index runs as nobody, who cannot read the
// root-owned file (root reads every file).
func TestReliability_UnreadableFileDetectedOnceReadable(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/Cart.php": wtCart, "src/Secret.php": "<?php\nfunction hidden() { return 1; }\n"})
	secret := filepath.Join(root, "src", "Secret.php")
	var cred *syscall.Credential
	var env []string
	if os.Geteuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		// nobody must reach the binary and the project, and own the project
		// except the file it must not read
		for _, d := range []string{filepath.Dir(ragrafBin), filepath.Dir(root), root} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
			if err != nil || p == secret {
				return err
			}
			return os.Chown(p, 65534, 65534)
		}); err != nil {
			t.Skipf("cannot give the project to nobody: %v", err)
		}
		home := filepath.Join(root, "home")
		if err := os.Mkdir(home, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(home, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		env = []string{"HOME=" + home, "XDG_CACHE_HOME=" + home}
		if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("home/\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(secret, 0o600); err != nil {
		t.Fatal(err)
	}
	if cred == nil {
		if err := os.Chmod(secret, 0o000); err != nil {
			t.Fatal(err)
		}
		if f, err := os.Open(secret); err == nil {
			f.Close()
			t.Skip("this user reads a file of mode 000 (and is not root, so cannot drop privileges)")
		}
	}
	if r := runLimited(t, root, "", cred, env, "index"); r.code != 0 {
		if cred != nil && strings.Contains(r.stderr, "operation not permitted") {
			t.Skipf("cannot run as nobody here: %s", r.stderr)
		}
		t.Fatalf("index: %s", r.stderr)
	}
	r := runLimited(t, root, "", cred, env, "query", "status")
	if !strings.Contains(r.stdout, "skipped") {
		t.Fatalf("the unreadable file is not skipped:\n%s", r.stdout)
	}
	st, _ := os.Stat(secret)
	if err := os.Chmod(secret, 0o644); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(secret); !after.ModTime().Equal(st.ModTime()) || after.Size() != st.Size() {
		t.Fatal("chmod changed the size or mtime")
	}
	r = runLimited(t, root, "", cred, env, "query", "drift_detect", "--args", `{"method":"compare"}`)
	if !strings.Contains(r.stdout, "readable now") {
		t.Errorf("compare does not report the file readable now:\n%s%s", r.stdout, r.stderr)
	}
	r = runLimited(t, root, "", cred, env, "query", "outline", "--path", "src/Secret.php")
	if !strings.Contains(r.stdout, `"stale_warnings"`) || !strings.Contains(r.stdout, `"path": "src/Secret.php"`) {
		t.Errorf("outline has no stale warning for the file readable now:\n%s%s", r.stdout, r.stderr)
	}
}

// TestReliability_PostEditSaysWhenNothingIsRecorded: on a read-only
// project the post-edit hook names the change and says it is not recorded,
// instead of claiming it was.
func TestReliability_PostEditSaysWhenNothingIsRecorded(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/Cart.php": wtCart})
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	if err := os.WriteFile(filepath.Join(root, "src/Cart.php"), []byte(strings.Replace(wtCart, "return 1;", "return 2;", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	view := readOnlyView(t, root)
	in := fmt.Sprintf(`{"cwd":%q,"tool_name":"Edit","tool_input":{"file_path":%q}}`, view, filepath.Join(view, "src/Cart.php"))
	r := runLimited(t, view, in, nil, nil, "hook", "post-edit", "--format", "text")
	if r.code != 0 || strings.Contains(r.stdout, "recorded the") || !strings.Contains(r.stdout, "NOT recorded") ||
		!strings.Contains(r.stdout, "modify of src/Cart.php") {
		t.Errorf("post-edit on a read-only project: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestReliability_HookTellsExcludedFromNew: the post-edit hook says a new
// file will be indexed, and an excluded one (or one of a language the
// project does not index) that it will not, with the reason.
func TestReliability_HookTellsExcludedFromNew(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/Cart.php": wtCart})
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	for p, want := range map[string]string{
		"src/New.php": "`ragraf reindex --commit` adds it",
		".env":        `a reindex will not add it: it is excluded from the index by secrets_exclude ".env"`,
		"debug.log":   `a reindex will not add it: it is excluded from the index by mandatory exclude "*.log"`,
		"notes.xyz":   "a reindex will not add it: the project does not index its language",
	} {
		if err := os.WriteFile(filepath.Join(root, p), []byte("<?php\nfunction fresh() {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		in := fmt.Sprintf(`{"cwd":%q,"tool_name":"Write","tool_input":{"file_path":%q}}`, root, filepath.Join(root, p))
		r := runLimited(t, root, in, nil, nil, "hook", "post-edit", "--format", "text")
		if !strings.Contains(r.stdout, want) {
			t.Errorf("%s: want %q in\n%s%s", p, want, r.stdout, r.stderr)
		}
	}
}

// TestReliability_SessionStartAfterSwitchingBack: entries recorded on
// another branch no longer apply once the indexed branch is checked out
// again; session-start does not list them.
func TestReliability_SessionStartAfterSwitchingBack(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/Cart.php": wtCart, ".gitignore": ".ragraf/\n"})
	gitIn(t, root, "init", "-q", "-b", "main")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-qm", "init")
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	gitIn(t, root, "checkout", "-q", "-b", "feature")
	if err := os.WriteFile(filepath.Join(root, "src/Cart.php"), []byte(strings.Replace(wtCart, "return 1;", "return 2;", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, root, "commit", "-qam", "feature")
	r := runLimited(t, root, "", nil, nil, "hook", "session-start", "--format", "text")
	if !strings.Contains(r.stdout, "modify src/Cart.php") {
		t.Fatalf("on the feature branch: no modify listed\n%s", r.stdout)
	}
	gitIn(t, root, "checkout", "-q", "main")
	r = runLimited(t, root, "", nil, nil, "hook", "session-start", "--format", "text")
	if strings.Contains(r.stdout, "modify src/Cart.php") || !strings.Contains(r.stdout, "no longer apply") ||
		!strings.Contains(r.stdout, "matches the working tree") {
		t.Errorf("back on the indexed branch:\n%s", r.stdout)
	}
	var env struct {
		Result struct {
			Entries []json.RawMessage `json:"entries"`
		} `json:"result"`
	}
	r = runLimited(t, root, "", nil, nil, "query", "drift")
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || len(env.Result.Entries) != 1 {
		t.Errorf("the ledger keeps the entry (%v):\n%s", err, r.stdout)
	}
}
