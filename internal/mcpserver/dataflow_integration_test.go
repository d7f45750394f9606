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
    if ($db) {
        run_query($db, $q);
    }
}
`

// TestFT43_DataflowOverMCP drives the real binary: ragraf_flow finds the
// request parameter reaching the query through the call, ragraf_slice
// walks back into the caller (with control: true also to the condition
// the call runs under, and only then), the CLI prints the same answers
// (--control as the flag form), and every step's path:line exists in the
// indexed file (FT-17).
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
	for _, r := range []struct{ op, args, want, lacks string }{
		{"flow", `{"from":"source:http_input","to":"sink:sql"}`, `E_BAD_INPUT`, ""},
		{"flow", `{"from":"api.php:7","to":"sink:sql"}`, `"found":true`, ""},
		{"slice", `{"path":"api.php","line":3,"variable":"$q"}`, `"qname":"handler"`, `"control"`},
		{"slice", `{"path":"api.php","line":3,"variable":"$q","control":true}`, `"kind":"control"`, ""},
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
		if r.lacks != "" && strings.Contains(normal(got), r.lacks) {
			t.Errorf("%s %s: answer has %s: %s", r.op, r.args, r.lacks, got)
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
	flag, code := run(t, root, "query", "slice", "--path", "api.php", "--line", "3", "--control", "--args", `{"variable":"$q"}`)
	withArg, _ := run(t, root, "query", "slice", "--args", `{"path":"api.php","line":3,"variable":"$q","control":true}`)
	if code != 0 || !sameAnswer(string(flag), string(withArg)) || !strings.Contains(normal(string(flag)), `"kind":"control"`) {
		t.Errorf("slice --control (exit %d) differs from control: true\nflag: %s\nargs: %s", code, flag, withArg)
	}
	svc, err := facade.New(root, facade.Options{})
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

const impactDataApp = `<?php
class Cart {
    private $total;
    public function add($price) {
        $line = round_price($price);
        $this->total = $line;
        return $line;
    }
    public function summary() {
        echo $this->total;
    }
}
function round_price($v) {
    return floor($v * 100) / 100;
}
function checkout(Cart $cart) {
    $sum = $cart->add(10);
    echo $sum;
}
`

// TestFT18_ImpactDataOverMCP drives the real binary: ragraf_impact with
// data: true answers, besides the callers, the data block in its concise
// form (the parameter read in the callee, the property read by another
// method, the return value read by the caller), the CLI prints the same
// answer with --data, without it neither has the block, and every place the
// block cites exists in the indexed file (FT-17).
func TestFT18_ImpactDataOverMCP(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "shop.php"), []byte(impactDataApp), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := run(t, root, "index"); code != 0 {
		t.Fatalf("index: %d %s", code, out)
	}
	ctx := context.Background()
	cs := connect(t, ctx, root)
	call := func(args string) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_impact", Arguments: json.RawMessage(args)})
		if err != nil || res.IsError {
			t.Fatalf("impact %s: %v %+v", args, err, res)
		}
		return text(t, res)
	}
	got := call(`{"qname":"Cart::add","data":true}`)
	var env struct {
		Result struct {
			Hard struct {
				Symbols []struct{ Name string } `json:"symbols"`
			} `json:"hard"`
			Data *struct {
				Status  string `json:"status"`
				Changed []struct {
					Name string `json:"name"`
				} `json:"changed"`
				Reads []struct {
					At   string `json:"at"`
					Name string `json:"name"`
					Of   string `json:"of"`
				} `json:"reads"`
				Total int `json:"total"`
			} `json:"data"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(got), &env); err != nil {
		t.Fatal(err)
	}
	d := env.Result.Data
	if d == nil || d.Status != "available" || len(env.Result.Hard.Symbols) == 0 {
		t.Fatalf("answer: %s", got)
	}
	want := map[string]bool{"$price shop.php:13 round_price": false, "Cart::$total shop.php:10 Cart::summary": false, "return shop.php:17 checkout": false, "return shop.php:18 checkout": false}
	for _, r := range d.Reads {
		k := r.Of + " " + r.At + " " + r.Name
		if _, ok := want[k]; ok {
			want[k] = true
		}
	}
	for k, ok := range want {
		if !ok {
			t.Errorf("no read %s in %s", k, got)
		}
	}
	cli, code := run(t, root, "query", "impact", "--qname", "Cart::add", "--data", "--detail", "concise")
	if code != 0 || !sameAnswer(got, string(cli)) {
		t.Errorf("MCP and CLI differ (exit %d)\nMCP: %s\nCLI: %s", code, got, cli)
	}
	off := call(`{"qname":"Cart::add"}`)
	cliOff, _ := run(t, root, "query", "impact", "--args", `{"qname":"Cart::add","detail":"concise"}`)
	if strings.Contains(off, `"data"`) || !sameAnswer(off, string(cliOff)) {
		t.Errorf("without data: MCP %s\nCLI %s", off, cliOff)
	}
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	var raw struct {
		Result any `json:"result"`
	}
	if err := json.Unmarshal([]byte(got), &raw); err != nil {
		t.Fatal(err)
	}
	errs, err := svc.CheckFacts(ctx, facade.CollectFacts(raw.Result))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Error(e)
	}
}
