package cli

import (
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

// pathological returns PHP files no real code base should be able to break a
// build with: a 200,000-operand expression (a Go stack overflow once), a
// 20,000-operand concatenation (quadratic once), nesting 5,000 levels deep,
// comments that start on one line, old-Mac line endings, and a file
// tree-sitter needs far more memory for than the budget allows.
func pathological() map[string]string {
	plus := "<?php\n$x = " + strings.Repeat("1 + ", 200000) + "1;\nfunction after_plus() {}\n"
	concat := "<?php\n$q = " + strings.Repeat("'a' . $b . ", 10000) + "'z';\nfunction after_concat() {}\n"
	nest := "<?php\n$n = " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + ";\nfunction after_nest() {}\n"
	var arr strings.Builder
	arr.WriteString("<?php\n$big = [")
	for i := range 150000 {
		fmt.Fprintf(&arr, "'k%d' => 'v%d',", i, i)
	}
	arr.WriteString("];\n")
	return map[string]string{
		"plus.php":             plus,
		"concat.php":           concat,
		"nest.php":             nest,
		"comments.php":         "<?php\nfunction f(/* bool */ $a, /* bool */ $b) { list(/* $t */, /* $p */, $n) = explode(',', $s); }\n",
		"mac.php":              "<?php\r/* a */ function mac() {}\r/* b */ /* c */\rfunction mac2() {}\r",
		"array.php":            arr.String(),
		"ok.php":               "<?php\nfunction ok() { return after_plus(); }\n",
		".ragraf/project.yaml": "max_file_size: 67108864\nmax_file_memory_mb: 160\n",
	}
}

// TestNFR8_NoFileFailsTheBuild: every pathological file is indexed in one
// build that publishes; those over a budget are partial with the budget in
// their reason, the rest parsed with their declarations found.
func TestNFR8_NoFileFailsTheBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes generated pathological files")
	}
	root := writeFiles(t, pathological())
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: exit %d: %s", r.code, r.stderr)
	}
	r := run(t, root, "query", "status")
	if r.code != 0 {
		t.Fatalf("status: %d %s", r.code, r.stderr)
	}
	var st struct {
		Result struct {
			Files struct {
				Partial []struct{ Path, Reason string } `json:"partial"`
				Failed  []struct{ Path, Reason string } `json:"failed"`
			} `json:"files"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		t.Fatalf("status: %v\n%s", err, r.stdout)
	}
	reasons := map[string]string{}
	for _, p := range st.Result.Files.Partial {
		reasons[p.Path] = p.Reason
	}
	if len(st.Result.Files.Failed) != 0 {
		t.Errorf("failed files: %+v", st.Result.Files.Failed)
	}
	if !strings.Contains(reasons["nest.php"], "budget: depth") {
		t.Errorf("nest.php reason %q, want a depth budget", reasons["nest.php"])
	}
	if !strings.Contains(reasons["array.php"], "budget: memory") {
		t.Errorf("array.php reason %q, want a memory budget", reasons["array.php"])
	}
	for _, p := range []string{"plus.php", "concat.php", "comments.php", "mac.php", "ok.php"} {
		if reason, partial := reasons[p]; partial {
			t.Errorf("%s partial (%s), want parsed", p, reason)
		}
	}
	for name, path := range map[string]string{"after_plus": "plus.php", "after_concat": "concat.php", "after_nest": "nest.php", "mac2": "mac.php"} {
		r := run(t, root, "query", "symbol", "--name", name)
		if r.code != 0 || !strings.Contains(r.stdout, `"path": "`+path+`"`) {
			t.Errorf("symbol %s: exit %d, not found in %s:\n%.400s", name, r.code, path, r.stdout)
		}
	}
	// line numbers of a CR-only file are those of an editor
	r = run(t, root, "query", "symbol", "--name", "mac2")
	if !strings.Contains(r.stdout, `"line": 4,`) {
		t.Errorf("mac2 should start on line 4:\n%.600s", r.stdout)
	}
}

// TestNFR11_InterruptDuringOneFile: SIGINT while tree-sitter parses one big
// file stops the build promptly (the parse itself is halted, not waited for)
// with exit code 130, and the previous revision stays current.
func TestNFR11_InterruptDuringOneFile(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes a generated file")
	}
	root := writeFiles(t, map[string]string{"seed.php": "<?php function seed() {}\n",
		".ragraf/project.yaml": "max_file_size: 268435456\nmax_file_memory_mb: 65536\nmax_file_ms: 3600000\n"})
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("first index: %d %s", r.code, r.stderr)
	}
	var b strings.Builder
	b.WriteString("<?php\n$big = [")
	for i := range 1500000 {
		fmt.Fprintf(&b, "'k%d' => %d,", i, i)
	}
	b.WriteString("];\n")
	if err := os.WriteFile(filepath.Join(root, "big.php"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// interrupted once the parse of big.php has started
	cmd := exec.Command(ragrafBin, "index")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "RAGRAF_TEST_ANNOUNCE=parsing big.php")
	errb := startAt(t, cmd, "ragraf test: at parsing big.php")
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	latency := time.Since(sent)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 130 {
		t.Fatalf("exit %d, want 130: %s", code, errb.String())
	}
	t.Logf("stopped %v after SIGINT", latency)
	// generous: a parse that is waited for takes tens of seconds here
	if latency > 5*time.Second {
		t.Errorf("stopped %v after SIGINT, want within a few seconds", latency)
	}
	cur, err := os.ReadFile(filepath.Join(root, ".ragraf", "CURRENT"))
	if err != nil || strings.TrimSpace(string(cur)) != "rev-0001" {
		t.Errorf("CURRENT = %q, %v; want rev-0001", cur, err)
	}
}
