package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
)

// TestDriftTools records, lists and acknowledges a ledger entry over an
// in-memory MCP connection.
func TestDriftTools(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.php"), []byte("<?php\nfunction a() { return 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := rev.Build(ctx, rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv := mcp.NewServer(&mcp.Implementation{Name: "ragraf", Version: "test"}, nil)
	if err := AddDriftTools(srv, svc, Options{Format: facade.FormatJSON}); err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "t"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError {
			t.Fatalf("%s: %s", name, text)
		}
		return text
	}
	if err := os.WriteFile(filepath.Join(root, "a.php"), []byte("<?php\nfunction a() { return 2; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var det struct {
		Result facade.DriftDetectResult `json:"result"`
	}
	if err := json.Unmarshal([]byte(call("ragraf_drift_detect", map[string]any{"method": "compare"})), &det); err != nil || len(det.Result.Added) != 1 {
		t.Fatalf("detect: %v %+v", err, det)
	}
	id := det.Result.Added[0].ID
	if out := call("ragraf_drift_ack", map[string]any{"entry_id": id, "note": "ok"}); !strings.Contains(out, `"note":"ok"`) {
		t.Fatalf("ack: %s", out)
	}
	if out := call("ragraf_drift", map[string]any{"unacked": true}); !strings.Contains(out, `"not_found":true`) {
		t.Fatalf("drift: %s", out)
	}
	if out := call("ragraf_drift_record", map[string]any{"path": "a.php", "note": "n"}); !strings.Contains(out, `"added":true`) {
		t.Fatalf("record: %s", out)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_drift_record", Arguments: map[string]any{"path": "a.php", "bogus": 1}})
	if err != nil || !res.IsError {
		t.Fatalf("unknown field accepted: %v %v", err, res)
	}
	for _, tl := range driftTools {
		if !strings.Contains(tl.description, "Example: {") {
			t.Errorf("%s: description without a worked example", tl.op)
		}
	}
}
