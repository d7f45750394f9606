package mcpserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// rawStdio drives `ragraf mcp` line by line, without an MCP client, so that
// a test can send what no client would.
type rawStdio struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startRaw(t *testing.T, root string) *rawStdio {
	t.Helper()
	cmd := exec.Command(binary, "mcp", "--project", root)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &rawStdio{t: t, cmd: cmd, in: in, lines: make(chan string, 1000)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			r.lines <- sc.Text()
		}
		close(r.lines)
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return r
}

func (r *rawStdio) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatalf("writing %q: %v", short(line), err)
	}
}

// next returns the next message the server wrote, failing after a timeout or
// when the server has exited.
func (r *rawStdio) next() map[string]any {
	r.t.Helper()
	select {
	case l, ok := <-r.lines:
		if !ok {
			r.t.Fatal("the server closed its output (exited)")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			r.t.Fatalf("the server wrote a line that is not a JSON object: %q", short(l))
		}
		return m
	case <-time.After(20 * time.Second):
		r.t.Fatal("no answer within 20 s")
	}
	return nil
}

func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func (r *rawStdio) initialize() {
	r.t.Helper()
	r.send(initLine)
	if m := r.next(); m["result"] == nil {
		r.t.Fatalf("initialize: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// TestMCPStdioSurvivesMalformedLines: every malformed line gets a JSON-RPC
// error with id null (parse error -32700 for text that is not JSON, invalid
// request -32600 for JSON that is not one request), and the server goes on
// answering the next request.
func TestMCPStdioSurvivesMalformedLines(t *testing.T) {
	root := newProject(t)
	r := startRaw(t, root)
	r.initialize()
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	cases := []struct {
		name, line string
		code       float64
	}{
		{"not JSON", `{not json}`, -32700},
		{"invalid UTF-8", "\xff", -32700},
		{"invalid UTF-8 in a string", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"x\":\"\xff\"}", -32700},
		{"truncated", `{"jsonrpc":"2.0","id":3,"method":`, -32700},
		{"two values", `{"jsonrpc":"2.0","id":3,"method":"ping"} {}`, -32700},
		{"empty batch", `[]`, -32600},
		{"batch", `[{"jsonrpc":"2.0","id":3,"method":"ping"}]`, -32600},
		{"number", `42`, -32600},
		{"null", `null`, -32600},
		{"deep array", deep, -32600},
		{"deep params", `{"jsonrpc":"2.0","id":4,"method":"ping","params":` + deep + `}`, -32600},
		{"no version", `{"id":5,"method":"ping"}`, -32600},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, -32600},
		{"neither request nor response", `{"jsonrpc":"2.0"}`, -32600},
	}
	for i, c := range cases {
		r.send(c.line)
		m := r.next()
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != c.code {
			t.Errorf("%s: want error %v, got %v", c.name, c.code, m)
		}
		if id, ok := m["id"]; !ok || id != nil {
			t.Errorf("%s: id %v, want null", c.name, m["id"])
		}
		// the server is still there and answers in order
		r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i))
		if m := r.next(); m["id"] != float64(100+i) || m["result"] == nil {
			t.Fatalf("after %s: ping answered with %v", c.name, m)
		}
	}
	// blank lines are skipped, a CRLF line is one message
	r.send("")
	r.send(`{"jsonrpc":"2.0","id":200,"method":"ping"}` + "\r")
	if m := r.next(); m["id"] != float64(200) {
		t.Errorf("CRLF ping: %v", m)
	}
	// a tool call still works after all that
	r.send(`{"jsonrpc":"2.0","id":201,"method":"tools/call","params":{"name":"ragraf_symbol","arguments":{"name":"Cart"}}}`)
	if m := r.next(); m["id"] != float64(201) || m["result"] == nil {
		t.Errorf("tool call: %v", m)
	}
}

// TestMCPStdioAnswersBeforeExiting: requests written just before stdin
// closes are all answered before the server exits.
func TestMCPStdioAnswersBeforeExiting(t *testing.T) {
	root := newProject(t)
	r := startRaw(t, root)
	r.initialize()
	const n = 30
	var b strings.Builder
	for i := range n {
		op := []string{`"ragraf_repo_map","arguments":{"budget_tokens":500}`, `"ragraf_symbol","arguments":{"name":"Cart"}`, `"ragraf_status","arguments":{}`}[i%3]
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%s}}`+"\n", 10+i, op)
	}
	if _, err := io.WriteString(r.in, b.String()); err != nil {
		t.Fatal(err)
	}
	r.in.Close()
	got := map[float64]bool{}
	for l := range r.lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %q", short(l))
		}
		if m["result"] == nil {
			t.Errorf("id %v: %v", m["id"], short(l))
		}
		got[m["id"].(float64)] = true
	}
	if len(got) != n {
		t.Errorf("%d of %d requests answered before the server exited", len(got), n)
	}
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Error("the server did not exit after stdin closed")
	}
}
