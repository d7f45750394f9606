package mcpserver_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startHTTP runs `ragraf mcp --http 127.0.0.1:0` with extra flags and
// returns its URL.
func startHTTP(t *testing.T, root string, extra ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp", "--project", root, "--http", "127.0.0.1:0", "--format", "json"}, extra...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("no address in %q", line)
	}
	return strings.TrimSpace(line[i:])
}

// TestMCPHTTPSessionsExpire: an HTTP session that sends no request for the
// idle time (--session-idle) is closed and its memory freed; one that keeps
// sending requests stays.
func TestMCPHTTPSessionsExpire(t *testing.T) {
	root := newProject(t)
	url := startHTTP(t, root, "--session-idle", "1s")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dial := func() *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	idle, busy := dial(), dial()
	for _, cs := range []*mcp.ClientSession{idle, busy} {
		if _, err := callEnv(t, ctx, cs, "status", map[string]any{}); err != nil {
			t.Fatal(err)
		}
	}
	for range 8 {
		time.Sleep(300 * time.Millisecond)
		if _, err := callEnv(t, ctx, busy, "status", map[string]any{}); err != nil {
			t.Fatalf("a session in use expired: %v", err)
		}
	}
	if _, err := callEnv(t, ctx, idle, "status", map[string]any{}); err == nil {
		t.Error("a session idle for 2.4 s with --session-idle 1s still answers")
	}
}

// TestReliability_ForeignOriginRefused: the HTTP server refuses a request
// whose Origin is not a loopback origin (a page of another site in the
// user's browser, or one reached through a DNS name rebound to 127.0.0.1),
// as it refuses a Host that is not loopback; a client that sends no Origin,
// or a loopback one, is served.
func TestReliability_ForeignOriginRefused(t *testing.T) {
	root := newProject(t)
	endpoint := startHTTP(t, root)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	post := func(origin, host string) int {
		t.Helper()
		req, err := http.NewRequest("POST", endpoint, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []string{"", "http://localhost", "http://localhost:3000", "https://127.0.0.1:" + u.Port(), "http://[::1]:8080", "http://127.8.9.10"} {
		if code := post(o, ""); code != http.StatusOK {
			t.Errorf("Origin %q: status %d, want 200", o, code)
		}
	}
	for _, o := range []string{"http://evil.example", "https://attacker.test:443", "null", "http://127.0.0.1.evil.example",
		"http://localhost.evil.example", "file://", "chrome-extension://abcdef", "http://10.0.0.1", "http://0.0.0.0:8080", "not a url"} {
		if code := post(o, ""); code != http.StatusForbidden {
			t.Errorf("Origin %q: status %d, want 403", o, code)
		}
	}
	if code := post("", "rebound.example:"+u.Port()); code != http.StatusForbidden {
		t.Errorf("Host rebound.example: status %d, want 403", code)
	}
}
