package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/facade"
)

// routesProject writes a Laravel route file with n routes and indexes it
// with the binary.
func routesProject(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	var b strings.Builder
	b.WriteString("<?php\nuse App\\Http\\ItemController;\nuse Illuminate\\Support\\Facades\\Route;\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "Route::get('/items/%d', [ItemController::class, 'show']);\n", i)
	}
	files := map[string]string{
		"composer.json":               `{"require": {"laravel/framework": "^11.0"}}` + "\n",
		"routes/web.php":              b.String(),
		"src/Http/ItemController.php": "<?php\nnamespace App\\Http;\n\nclass ItemController\n{\n    public function show(): string\n    {\n        return 'item';\n    }\n}\n",
	}
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, code := run(t, root, "index"); code != 0 {
		t.Fatalf("index: %d %s", code, out)
	}
	return root
}

// callEnvelope calls a tool and decodes its structured answer.
func callEnvelope(t *testing.T, ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	var env map[string]any
	if err := json.Unmarshal([]byte(text(t, res)), &env); err != nil {
		t.Fatal(err)
	}
	return res, env
}

// TestMCPEntryPointsPageToTheEnd drives the real binary over MCP: 650 routes
// are reached page by page through limits.cursor (none twice, as many as
// limits.total), every list tool declares cursor in its input schema, and a
// cursor cut before a new index is refused with E_STALE_CURSOR over MCP and
// by `ragraf query` (exit code 1).
func TestMCPEntryPointsPageToTheEnd(t *testing.T) {
	const n = 650
	root := routesProject(t, n)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs := connect(t, ctx, root)

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	lists := map[string]bool{"symbol": true, "references": true, "implementations": true, "callers": true, "callees": true,
		"impact": true, "search": true, "revisions": true, "entry_points": true, "schema": true, "table_usage": true, "docs": true, "drift": true}
	for _, tl := range tools.Tools {
		op := strings.TrimPrefix(tl.Name, "ragraf_")
		if !lists[op] {
			continue
		}
		delete(lists, op)
		b, _ := json.Marshal(tl.InputSchema)
		var schema struct {
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		if schema.Properties["cursor"] == nil || schema.Properties["limit"] == nil {
			t.Errorf("%s: input schema has no limit and cursor: %s", tl.Name, b)
		}
	}
	if len(lists) > 0 {
		t.Errorf("list tools missing from tools/list: %v", lists)
	}

	seen := map[string]bool{}
	cursor, first, total := "", "", -1
	for pages := 0; ; pages++ {
		args := map[string]any{"kind": "web_route", "limit": 200}
		if cursor != "" {
			args["cursor"] = cursor
		}
		res, env := callEnvelope(t, ctx, cs, "ragraf_entry_points", args)
		if res.IsError {
			t.Fatalf("page %d: %s", pages, text(t, res))
		}
		limits := env["limits"].(map[string]any)
		if total == -1 {
			total = int(limits["total"].(float64))
		}
		for _, e := range env["result"].(map[string]any)["entry_points"].([]any) {
			id := e.(map[string]any)["id"].(string)
			if seen[id] {
				t.Errorf("entry point %s on two pages", id)
			}
			seen[id] = true
		}
		if limits["truncated"] != true {
			break
		}
		cursor, _ = limits["cursor"].(string)
		if cursor == "" || pages > 10 {
			t.Fatalf("page %d truncated without a cursor: %v", pages, limits)
		}
		if first == "" {
			first = cursor
		}
	}
	if len(seen) != total || total != n {
		t.Errorf("pages hold %d entry points, limits.total %d, routes %d", len(seen), total, n)
	}

	// a new revision: the old cursor is refused, not answered at shifted offsets
	if err := os.WriteFile(filepath.Join(root, "routes", "api.php"), []byte("<?php\nuse Illuminate\\Support\\Facades\\Route;\nRoute::get('/a', fn () => 1);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := run(t, root, "index"); code != 0 {
		t.Fatalf("second index: %d %s", code, out)
	}
	waitServing(t, ctx, cs, "rev-0002") // served once warm
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_entry_points", Arguments: map[string]any{"kind": "web_route", "limit": 200, "cursor": first}})
	if res == nil || !res.IsError || !strings.Contains(text(t, res), `"code":"`+facade.ErrStaleCursor+`"`) {
		t.Errorf("stale cursor over MCP: %+v", res)
	}
	out, code := run(t, root, "query", "entry_points", "--args", `{"kind":"web_route","limit":200,"cursor":"`+first+`"}`)
	if code != 1 || !strings.Contains(string(out), facade.ErrStaleCursor) {
		t.Errorf("stale cursor from the CLI: exit %d, %s", code, out)
	}
}
