package mcpserver_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/facade"
)

// maxToolsList is the budget of the tools/list answer (ARCHITECTURE.md §10):
// every byte of it sits in the context of every agent session.
const maxToolsList = 24 * 1024

// TestMCPToolsListBudget drives the real binary over stdio: the tools/list
// answer fits in 24 KB, the instructions in 2 KB (clients cut them there),
// and every tool has a title, a worked example and every annotation set,
// read-only tools as read-only, idempotent and closed-world.
func TestMCPToolsListBudget(t *testing.T) {
	root := newProject(t)
	r := startRaw(t, root)
	r.send(initLine)
	var init struct {
		Result struct {
			Instructions string `json:"instructions"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(r.raw()), &init); err != nil {
		t.Fatal(err)
	}
	if n := len(init.Result.Instructions); n == 0 || n > 2048 {
		t.Errorf("instructions are %d bytes, want 1..2048", n)
	}
	for _, want := range []string{"ragraf_search", "ragraf_symbol", "ragraf_impact", "stale: path lines", "ragraf_live_read", "reindex"} {
		if !strings.Contains(init.Result.Instructions, want) {
			t.Errorf("instructions do not mention %s", want)
		}
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	line := r.raw()
	t.Logf("tools/list: %d bytes", len(line))
	if len(line) > maxToolsList {
		t.Errorf("tools/list is %d bytes, over %d", len(line), maxToolsList)
	}
	var list struct {
		Result struct {
			Tools []*mcp.Tool `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &list); err != nil {
		t.Fatal(err)
	}
	writers := map[string]bool{}
	for _, o := range facade.DriftOps() {
		writers[o.Name] = o.Name != "drift"
	}
	if want := len(facade.Ops()) + len(facade.DriftOps()); len(list.Result.Tools) != want {
		t.Errorf("%d tools for %d operations", len(list.Result.Tools), want)
	}
	raw := map[string]map[string]any{}
	var rawList struct {
		Result struct {
			Tools []map[string]any `json:"tools"`
		} `json:"result"`
	}
	_ = json.Unmarshal([]byte(line), &rawList)
	for _, tl := range rawList.Result.Tools {
		ann, _ := tl["annotations"].(map[string]any)
		raw[tl["name"].(string)] = ann
	}
	for _, tl := range list.Result.Tools {
		op := strings.TrimPrefix(tl.Name, "ragraf_")
		if tl.Title == "" || !strings.Contains(tl.Description, "Example: {") {
			t.Errorf("%s: title or worked example missing", tl.Name)
		}
		hints := []string{"readOnlyHint", "idempotentHint", "openWorldHint"}
		if writers[op] {
			hints = append(hints, "destructiveHint")
		}
		for _, hint := range hints {
			if _, ok := raw[tl.Name][hint]; !ok {
				t.Errorf("%s: annotation %s not set", tl.Name, hint)
			}
		}
		a := tl.Annotations
		if a == nil {
			continue
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint || (a.DestructiveHint != nil && *a.DestructiveHint) || (writers[op] && a.DestructiveHint == nil) {
			t.Errorf("%s: open world or destructive", tl.Name)
		}
		if writers[op] {
			if a.ReadOnlyHint {
				t.Errorf("%s writes the ledger but is annotated read-only", tl.Name)
			}
		} else if !a.ReadOnlyHint || !a.IdempotentHint {
			t.Errorf("%s: not annotated read-only and idempotent", tl.Name)
		}
	}
}

// raw returns the next line the server wrote, undecoded.
func (r *rawStdio) raw() string {
	r.t.Helper()
	select {
	case l, ok := <-r.lines:
		if !ok {
			r.t.Fatal("the server closed its output (exited)")
		}
		return l
	case <-time.After(20 * time.Second):
		r.t.Fatal("no answer within 20 s")
	}
	return ""
}
