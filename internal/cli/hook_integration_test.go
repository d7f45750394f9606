package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runIn runs the real binary in dir with stdin.
func runIn(t *testing.T, dir, stdin string, args ...string) (result, time.Duration) {
	t.Helper()
	cmd := exec.Command(ragrafBin, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	el := time.Since(start)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running ragraf %v: %v", args, err)
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}, el
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
}

// hookContext decodes a hook's JSON output, refusing any key the agent's
// schema does not have (Codex validates SessionStart output strictly).
func hookContext(t *testing.T, format, event, out string) string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if format == "cursor" {
		var v struct {
			AdditionalContext *string `json:"additional_context"`
		}
		if err := dec.Decode(&v); err != nil || v.AdditionalContext == nil {
			t.Fatalf("cursor output %q: %v", out, err)
		}
		return *v.AdditionalContext
	}
	var v struct {
		HookSpecificOutput *struct {
			HookEventName     string  `json:"hookEventName"`
			AdditionalContext *string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := dec.Decode(&v); err != nil || v.HookSpecificOutput == nil || v.HookSpecificOutput.AdditionalContext == nil ||
		v.HookSpecificOutput.HookEventName != event {
		t.Fatalf("%s output %q: %v", format, out, err)
	}
	return *v.HookSpecificOutput.AdditionalContext
}

const hookCart = "<?php\nnamespace Shop;\n\nclass Cart\n{\n    public function total(array $items): int\n    {\n        return count($items);\n    }\n}\n\nfunction checkout(Cart $c)\n{\n    return $c->total([]);\n}\n"

// TestHookSessionStart runs the session-start hook as each agent does: its
// output has the agent's shape, stays within 2 KB, comes back within a
// second and exits 0, with empty or malformed input too; it names the drift
// and a git HEAD that moved since the index.
func TestHookSessionStart(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/Cart.php": hookCart})
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-qm", "one")
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	input := fmt.Sprintf(`{"session_id":"s1","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, root)
	for _, f := range []string{"claude", "codex", "gemini", "cursor", "text"} {
		r, el := runIn(t, t.TempDir(), input, "hook", "session-start", "--format", f) // found through the input's cwd
		if r.code != 0 || len(r.stdout) > 2048 || el > 2*time.Second {
			t.Fatalf("%s: exit %d, %d bytes, %v: %s %s", f, r.code, len(r.stdout), el, r.stdout, r.stderr)
		}
		text := r.stdout
		if f != "text" {
			text = hookContext(t, f, "SessionStart", r.stdout)
		}
		if !strings.Contains(text, "index rev-0001") || !strings.Contains(text, "matches the working tree") || !strings.Contains(text, "ragraf_search") {
			t.Errorf("%s: %q", f, text)
		}
	}
	for _, in := range []string{"", "not json", `{"cwd": 7}`} {
		if r, _ := runIn(t, root, in, "hook", "session-start", "--format", "claude"); r.code != 0 || !strings.Contains(hookContext(t, "claude", "SessionStart", r.stdout), "rev-0001") {
			t.Errorf("input %q: %d %s", in, r.code, r.stdout)
		}
	}

	// a commit after the index: HEAD moved forward
	if err := os.WriteFile(filepath.Join(root, "src/Cart.php"), []byte(strings.Replace(hookCart, "count($items)", "count($items) * 2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, root, "commit", "-qam", "two")
	r, _ := runIn(t, root, "", "hook", "session-start")
	if !strings.Contains(r.stdout, "git HEAD moved since the index") || !strings.Contains(r.stdout, "1 commits after") ||
		!strings.Contains(r.stdout, "modify src/Cart.php lines 8-8") {
		t.Errorf("after a commit: %s", r.stdout)
	}
	// a branch that does not contain the indexed commit
	gitIn(t, root, "checkout", "-q", "--orphan", "other")
	gitIn(t, root, "commit", "-qm", "elsewhere")
	r, _ = runIn(t, root, "", "hook", "session-start")
	if !strings.Contains(r.stdout, "on other; the indexed") || !strings.Contains(r.stdout, "branch switch or rebase") {
		t.Errorf("after a branch switch: %s", r.stdout)
	}

	// many changed files still fit in 2 KB
	for i := range 80 {
		p := filepath.Join(root, "src", fmt.Sprintf("new_file_with_a_long_name_%02d.php", i))
		if err := os.WriteFile(p, []byte("<?php\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, _ = runIn(t, root, "", "hook", "session-start", "--format", "codex")
	if text := hookContext(t, "codex", "SessionStart", r.stdout); len(r.stdout) > 2048 || !strings.Contains(text, "more (ragraf drift --unacked)") {
		t.Errorf("many entries: %d bytes: %s", len(r.stdout), r.stdout)
	}

	// no index: a hint, in the agent's shape
	r, _ = runIn(t, t.TempDir(), "", "hook", "session-start", "--format", "gemini")
	if r.code != 0 || !strings.Contains(hookContext(t, "gemini", "SessionStart", r.stdout), "run `ragraf index`") {
		t.Errorf("no index: %d %s", r.code, r.stdout)
	}
}

// TestHookPostEdit runs the post-edit hook with Claude's Edit input,
// Codex's apply_patch input, Cursor's afterFileEdit and Gemini's AfterTool: the edit lands in the ledger once, and the
// answer names the changed method and its stated caller within 1 KB.
func TestHookPostEdit(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/Cart.php": hookCart})
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(root, "src/Cart.php"), []byte(strings.Replace(hookCart, "count($items)", "count($items) * 2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	claude := fmt.Sprintf(`{"session_id":"s","cwd":%q,"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":%q,"old_string":"a","new_string":"b"}}`,
		root, filepath.Join(root, "src/Cart.php"))
	codex := fmt.Sprintf(`{"cwd":%q,"tool_name":"apply_patch","tool_input":{"command":["apply_patch","*** Begin Patch\n*** Update File: src/Cart.php\n@@\n-x\n+y\n*** End Patch\n"]}}`, root)
	ledger := func() int {
		r := run(t, root, "drift")
		var env struct {
			Result struct {
				Entries []struct{ Path string } `json:"entries"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
			t.Fatalf("drift: %v %s", err, r.stdout)
		}
		return len(env.Result.Entries)
	}
	cursor := fmt.Sprintf(`{"conversation_id":"c","hook_event_name":"afterFileEdit","workspace_roots":[%q],"file_path":%q,"edits":[]}`,
		root, filepath.Join(root, "src/Cart.php"))
	gemini := fmt.Sprintf(`{"cwd":%q,"hook_event_name":"AfterTool","tool_name":"replace","tool_input":{"file_path":"src/Cart.php"}}`, root)
	for i, c := range []struct{ format, input string }{{"claude", claude}, {"codex", codex}, {"cursor", cursor}, {"gemini", gemini}, {"claude", claude}} {
		r, el := runIn(t, t.TempDir(), c.input, "hook", "post-edit", "--format", c.format)
		if r.code != 0 || el > 2*time.Second {
			t.Fatalf("%s: exit %d in %v: %s %s", c.format, r.code, el, r.stdout, r.stderr)
		}
		event := "PostToolUse"
		if c.format == "gemini" {
			event = "AfterTool"
		}
		text := hookContext(t, c.format, event, r.stdout)
		if len(text) > 1024 || !strings.Contains(text, "src/Cart.php") || !strings.Contains(text, `Shop\Cart::total (src/Cart.php:6)`) ||
			!strings.Contains(text, `Shop\checkout (src/Cart.php:14)`) {
			t.Errorf("%s: %q", c.format, text)
		}
		if n := ledger(); n != 1 {
			t.Errorf("after post-edit %d: %d ledger entries, want 1", i+1, n)
		}
	}
	// a new file is recorded as an add; a deleted one names what went
	if err := os.WriteFile(filepath.Join(root, "src/New.php"), []byte("<?php\nfunction fresh() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _ := runIn(t, root, `{"tool_input":{"file_path":"src/New.php"}}`, "hook", "post-edit")
	if text := hookContext(t, "claude", "PostToolUse", r.stdout); !strings.Contains(text, "src/New.php is not in the index") || ledger() != 2 {
		t.Errorf("new file: %q, %d ledger entries", text, ledger())
	}
	if err := os.Remove(filepath.Join(root, "src/Cart.php")); err != nil {
		t.Fatal(err)
	}
	r, _ = runIn(t, root, `{"tool_input":{"command":"*** Begin Patch\n*** Delete File: src/Cart.php\n*** End Patch"}}`, "hook", "post-edit", "--format", "codex")
	if text := hookContext(t, "codex", "PostToolUse", r.stdout); !strings.Contains(text, "recorded the delete of src/Cart.php") || !strings.Contains(text, `removed method Shop\Cart::total`) {
		t.Errorf("deleted file: %q", text)
	}
	for _, in := range []string{"", "{", `{"tool_input":{"file_path":"/elsewhere/x.php"}}`} {
		if r, _ := runIn(t, root, in, "hook", "post-edit"); r.code != 0 || r.stdout != "" {
			t.Errorf("input %q: %d %q", in, r.code, r.stdout)
		}
	}
}
