package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/facade"
)

const dataflowApp = `<?php
function run_query($db, $q) {
    return mysqli_query($db, $q);
}

function handler($db) {
    $q = "DELETE FROM t WHERE id=" . $_REQUEST['id'];
    run_query($db, $q);
}
`

// TestFT43_DataflowOverMCP drives the real binary: ragraf_flow finds the
// request parameter reaching the query through the call, ragraf_slice
// walks back into the caller, the CLI prints the same answers, and every
// step's path:line exists in the indexed file (FT-17).
func TestFT43_DataflowOverMCP(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "api.php"), []byte(dataflowApp), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := run(t, root, "index"); code != 0 {
		t.Fatalf("index: %d %s", code, out)
	}
	ctx := context.Background()
	cs := connect(t, ctx, root)
	var facts []facade.Fact
	for _, r := range []struct{ op, args, want string }{
		{"flow", `{"from":"source:http_input","to":"sink:sql"}`, `E_BAD_INPUT`},
		{"flow", `{"from":"api.php:7","to":"sink:sql"}`, `"found":true`},
		{"slice", `{"path":"api.php","line":3,"variable":"$q"}`, `"qname":"handler"`},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_" + r.op, Arguments: json.RawMessage(r.args)})
		if err != nil {
			t.Fatalf("%s: %v", r.op, err)
		}
		got := text(t, res)
		cli, code := run(t, root, "query", r.op, "--args", r.args)
		if !sameAnswer(got, string(cli)) {
			t.Errorf("%s %s: MCP and CLI differ\nMCP: %s\nCLI: %s", r.op, r.args, got, cli)
		}
		if !strings.Contains(normal(got), r.want) {
			t.Errorf("%s %s: answer lacks %s: %s", r.op, r.args, r.want, got)
		}
		if res.IsError != (code != 0) {
			t.Errorf("%s: isError %v, exit %d", r.op, res.IsError, code)
		}
		if res.IsError {
			continue
		}
		var env struct {
			Capability struct {
				Level    string `json:"level"`
				Dataflow bool   `json:"dataflow"`
			} `json:"capability"`
			Result any `json:"result"`
		}
		if err := json.Unmarshal(cli, &env); err != nil {
			t.Fatal(err)
		}
		if env.Capability.Level != "full" || !env.Capability.Dataflow {
			t.Errorf("capability %+v", env.Capability)
		}
		facts = append(facts, facade.CollectFacts(env.Result)...)
	}
	svc, err := facade.New(root)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if len(facts) < 5 {
		t.Fatalf("only %d facts", len(facts))
	}
	errs, err := svc.CheckFacts(ctx, facts)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Error(e)
	}
}
