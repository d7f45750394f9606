package mcpserver_test

import (
	"bufio"
	"context"
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
	cmd := exec.Command(binary, append([]string{"mcp", "--project", root, "--http", "127.0.0.1:0"}, extra...)...)
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
