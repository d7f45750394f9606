package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"regexp"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/agent"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/mcpserver"
)

// TestAgentTexts keeps AGENTS.md's block, the skill and the Cursor rule
// true: every tool they name is one the MCP server lists, and every example
// argument object decodes, unknown fields refused, into that tool's
// arguments.
func TestAgentTexts(t *testing.T) {
	ctx := context.Background()
	svc, err := facade.New(t.TempDir(), facade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv, err := mcpserver.New(svc, mcpserver.Options{Version: "test"})
	if err != nil {
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
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, tl := range tools.Tools {
		listed[tl.Name] = true
	}
	args := map[string]reflect.Type{}
	for _, o := range append(facade.Ops(), facade.DriftOps()...) {
		args[mcpserver.Prefix+o.Name] = o.Args
	}
	mention := regexp.MustCompile("`(ragraf_[a-z_]+)`(?: \\| [^|]*\\| |,? ?)(?:`(\\{[^`]*\\})`)?")
	checked := 0
	for name, text := range agent.Texts() {
		n := 0
		for _, m := range mention.FindAllStringSubmatch(text, -1) {
			n++
			if !listed[m[1]] {
				t.Errorf("%s names %s, which the MCP server does not list", name, m[1])
				continue
			}
			if m[2] == "" {
				continue
			}
			checked++
			dec := json.NewDecoder(bytes.NewReader([]byte(m[2])))
			dec.DisallowUnknownFields()
			if err := dec.Decode(reflect.New(args[m[1]]).Interface()); err != nil {
				t.Errorf("%s: %s %s: %v", name, m[1], m[2], err)
			}
		}
		if n < 8 {
			t.Errorf("%s names %d tools; the pattern no longer finds them", name, n)
		}
	}
	if checked < 20 {
		t.Errorf("only %d example arguments checked", checked)
	}
	if tx := agent.Texts(); len(tx["skill"]) > 8000 || len(tx["AGENTS.md block"]) > 3000 {
		t.Errorf("texts too long: skill %d bytes, block %d", len(tx["skill"]), len(tx["AGENTS.md block"]))
	}
}
