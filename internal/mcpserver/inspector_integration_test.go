package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// inspectorArgs are valid arguments for every tool over the example app;
// a tool missing here fails the test, so a new tool gets its case.
var inspectorArgs = map[string]string{
	"status":          `{}`,
	"symbol":          `{"name":"addItem"}`,
	"outline":         `{"path":"src/Cart.php"}`,
	"references":      `{"qname":"App\\Cart"}`,
	"implementations": `{"qname":"App\\Base"}`,
	"callers":         `{"qname":"App\\Cart::addItem"}`,
	"callees":         `{"qname":"App\\Checkout::run"}`,
	"impact":          `{"qname":"App\\Cart::addItem","depth":2}`,
	"repo_map":        `{"budget_tokens":200}`,
	"search":          `{"query":"add item cart"}`,
	"similar":         `{"qname":"App\\Cart::addItem"}`,
	"code":            `{"qname":"App\\Cart::addItem"}`,
	"live_read":       `{"path":"src/Cart.php","start_line":1,"end_line":10}`,
	"revisions":       `{}`,
	"entry_points":    `{}`,
	"schema":          `{}`,
	"table_usage":     `{"table":"orders"}`,
	"docs":            `{"path":"src/Cart.php"}`,
	"context":         `{"qname":"App\\Cart::addItem","budget_tokens":600}`,
	"changes":         `{}`,
	"slice":           `{"path":"src/Cart.php","line":56}`,
	"flow":            `{"from":"src/Cart.php:56","to":"src/Base.php:77"}`,
	"drift":           `{}`,
	"drift_detect":    `{"method":"compare"}`,
	"drift_record":    `{"path":"src/Cart.php","kind":"note","note":"checked by the inspector"}`,
	"drift_ack":       "", // the id of drift_record's entry
}

// inspectorBin returns the MCP Inspector's CLI (npm @modelcontextprotocol/inspector,
// installed by scripts/test.sh into ~/.cache/ragraf-inspector, or named by
// RAGRAF_INSPECTOR), or skips.
func inspectorBin(t *testing.T) string {
	t.Helper()
	p := os.Getenv("RAGRAF_INSPECTOR")
	if p == "" {
		home, _ := os.UserHomeDir()
		p = filepath.Join(home, ".cache", "ragraf-inspector", "node_modules", ".bin", "mcp-inspector")
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("MCP Inspector not installed at %s (scripts/test.sh installs it with npm)", p)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed")
	}
	return p
}

// inspect runs one Inspector CLI call in dir and returns its JSON output.
func inspect(t *testing.T, bin, dir string, target []string, args ...string) (map[string]any, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(append(append([]string{"--cli"}, target...), args...), "--format", "json")...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running the inspector: %v", err)
	}
	var v map[string]any
	_ = json.Unmarshal(out.Bytes(), &v)
	return v, out.String() + errb.String(), code
}

var entryID = regexp.MustCompile(`(?:"id":\s*\\?"|entry\.id: )(d-[0-9a-f]+)`) // the JSON envelope or the text answer

// TestMCPInspectorConformance: the official MCP Inspector CLI lists the tools
// under --strict with no schema finding and calls every tool, over stdio and
// streamable HTTP, with no error.
func TestMCPInspectorConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node")
	}
	bin := inspectorBin(t)
	root := newProject(t)
	// HTTP: a server of its own on a free loopback port
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	srv := exec.Command(binary, "mcp", "--http", addr)
	srv.Dir = root
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	for deadline := time.Now().Add(20 * time.Second); ; {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the HTTP server did not listen on %s", addr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	targets := map[string][]string{
		"stdio": {binary, "mcp"},
		"http":  {"http://" + addr + "/mcp", "--transport", "http"},
	}
	for name, target := range targets {
		t.Run(name, func(t *testing.T) {
			v, out, code := inspect(t, bin, root, target, "--method", "tools/list", "--strict")
			if code != 0 || v == nil {
				t.Fatalf("tools/list: exit %d\n%.2000s", code, out)
			}
			if f, ok := v["schemaFindings"]; ok && f != nil {
				if arr, _ := f.([]any); len(arr) > 0 {
					t.Errorf("schema findings under --strict: %v", f)
				}
			}
			res, _ := v["result"].(map[string]any)
			tools, _ := res["tools"].([]any)
			if len(tools) == 0 {
				t.Fatalf("no tools listed:\n%.1000s", out)
			}
			var names []string
			for _, tl := range tools {
				m, _ := tl.(map[string]any)
				n, _ := m["name"].(string)
				names = append(names, strings.TrimPrefix(n, "ragraf_"))
			}
			// drift_record before drift_ack, whose argument is its entry
			var ackID string
			order := append([]string{}, names...)
			for i, n := range order {
				if n == "drift_ack" {
					order = append(append(order[:i:i], order[i+1:]...), "drift_ack")
					break
				}
			}
			for _, n := range order {
				args, ok := inspectorArgs[n]
				if !ok {
					t.Errorf("tool %s has no arguments in inspectorArgs", n)
					continue
				}
				if n == "drift_ack" {
					if ackID == "" {
						t.Errorf("drift_ack: no entry id from drift_record")
						continue
					}
					args = fmt.Sprintf(`{"entry_id":%q,"note":"seen"}`, ackID)
				}
				v, out, code := inspect(t, bin, root, target, "--method", "tools/call", "--tool-name", "ragraf_"+n, "--tool-args-json", args)
				if code != 0 || v == nil {
					t.Errorf("tools/call %s %s: exit %d\n%.1500s", n, args, code, out)
					continue
				}
				if r, _ := v["result"].(map[string]any); r["isError"] == true {
					t.Errorf("tools/call %s %s: isError\n%.1500s", n, args, out)
				}
				if n == "drift_record" {
					if m := entryID.FindStringSubmatch(out); m != nil {
						ackID = m[1]
					}
				}
			}
		})
	}
}
