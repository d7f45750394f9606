package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/facade"
)

var binary string

// TestMain builds ragraf once for the tests that run it as a process, or
// takes the binary RAGRAF_TEST_BIN names (scripts/test.sh builds it once for
// every package that runs it).
func TestMain(m *testing.M) {
	// a fuzzing worker runs only the fuzz target, which needs no binary
	flag.Parse()
	if f := flag.Lookup("test.fuzzworker"); f != nil && f.Value.String() == "true" {
		os.Exit(m.Run())
	}
	if bin := os.Getenv("RAGRAF_TEST_BIN"); bin != "" {
		if _, err := os.Stat(bin); err != nil {
			fmt.Fprintf(os.Stderr, "RAGRAF_TEST_BIN: %v\n", err)
			os.Exit(1)
		}
		binary = bin
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "ragraf-bin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "ragraf")
	out, err := exec.Command("go", "build", "-o", binary, "github.com/ragraf/ragraf/cmd/ragraf").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building ragraf: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var exampleApp = map[string]string{
	"src/Cart.php": `<?php
namespace App;

/**
 * A shopping cart that holds items.
 */
class Cart extends Base implements \Countable
{
    private array $items = [];

    /** Adds an item to the cart. */
    public function addItem(Item $item): void
    {
        $this->items[] = $item;
        log_event('add');
    }

    public function count(): int
    {
        return count($this->items);
    }
}
`,
	"src/Base.php": `<?php
namespace App;

abstract class Base
{
    // shared behaviour
    protected function touch(): void {}
}

function log_event(string $name): void
{
    echo $name;
}
`,
	"src/Item.php": `<?php
namespace App;

final class Item
{
    public function __construct(public string $sku, public int $price) {}
}
`,
	"src/Checkout.php": `<?php
namespace App;

class Checkout
{
    public function run(Cart $cart): int
    {
        $cart->addItem(new Item('x', 1));
        return $cart->count();
    }
}
`,
}

func run(t *testing.T, dir string, args ...string) ([]byte, int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), code
}

func newProject(t *testing.T) string {
	root := t.TempDir()
	for p, c := range exampleApp {
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

// connect starts `ragraf mcp` answering JSON unless a call asks otherwise, as
// a program would run it (the tests that read the envelope); connectText
// starts it as a model's client does.
func connect(t *testing.T, ctx context.Context, root string) *mcp.ClientSession {
	return connectArgs(t, ctx, "mcp", "--project", root, "--format", "json")
}

func connectText(t *testing.T, ctx context.Context, root string) *mcp.ClientSession {
	return connectArgs(t, ctx, "mcp", "--project", root)
}

func connectArgs(t *testing.T, ctx context.Context, args ...string) *mcp.ClientSession {
	cmd := exec.Command(binary, args...)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// requests are one call per operation on the example app.
var requests = []struct{ op, args string }{
	{"status", `{}`},
	{"symbol", `{"name":"addItem"}`},
	{"symbol", `{"name":"Nope"}`},
	{"outline", `{"path":"src/Cart.php"}`},
	{"references", `{"qname":"App\\Cart"}`},
	{"implementations", `{"qname":"App\\Base"}`},
	{"callers", `{"qname":"App\\Cart::addItem"}`},
	{"callees", `{"qname":"App\\Checkout::run"}`},
	{"impact", `{"qname":"App\\Cart::addItem","depth":2}`},
	{"impact", `{"path":"src/Base.php"}`},
	{"repo_map", `{"budget_tokens":200}`},
	{"search", `{"query":"add item cart"}`},
	{"code", `{"qname":"App\\Cart::addItem"}`},
	{"live_read", `{"path":"src/Cart.php","start_line":1,"end_line":10}`},
	{"revisions", `{}`},
	{"symbol", `{"name":"MATCH (n) RETURN n"}`},
	{"outline", `{"path":"../outside.php"}`},
	{"symbol", `{"name":"Cart","unknown":true}`},
}

// withFormat adds "detail" to a JSON object of arguments.
func withFormat(args, detail string) string {
	if args == "{}" {
		return `{"detail":"` + detail + `"}`
	}
	return strings.TrimSuffix(args, "}") + `,"detail":"` + detail + `"}`
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	if len(res.Content) != 1 {
		t.Fatalf("%d content items", len(res.Content))
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// checkedAt is when the drift ledger was last checked: it moves between two
// calls, so comparisons of two answers blank it.
var checkedAt = regexp.MustCompile(`"ledger_checked_at": ?"[^"]*"`)

// sameAnswer says whether two JSON answers decode to the same value, the
// ledger's check time aside. MCP sends compact JSON, the CLI indents it.
func sameAnswer(a, b string) bool {
	return normal(a) == normal(b)
}

func normal(s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return "invalid JSON: " + err.Error() + ": " + s
	}
	b, _ := json.Marshal(v)
	return checkedAt.ReplaceAllString(string(b), `"ledger_checked_at":""`)
}

func TestFT22_CLIMatchesMCP(t *testing.T) {
	root := newProject(t)
	ctx := context.Background()
	cs := connect(t, ctx, root)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(facade.Ops()) + len(facade.DriftOps()); len(tools.Tools) != want {
		t.Errorf("%d tools for %d operations", len(tools.Tools), want)
	}
	for _, tl := range tools.Tools {
		if !strings.HasPrefix(tl.Name, "ragraf_") || !strings.Contains(tl.Description, "Example:") {
			t.Errorf("tool %s: name or example missing", tl.Name)
		}
	}
	var facts []facade.Fact
	for _, r := range requests {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_" + r.op, Arguments: json.RawMessage(r.args)})
		if err != nil {
			t.Fatalf("%s: %v", r.op, err)
		}
		// MCP answers concise unless asked; the CLI detailed unless asked
		cli, code := run(t, root, "query", r.op, "--args", r.args, "--detail", "concise")
		if got := text(t, res); !sameAnswer(got, string(cli)) {
			t.Errorf("%s %s: MCP and CLI differ\nMCP: %s\nCLI: %s", r.op, r.args, got, cli)
		}
		if res.IsError != (code != 0) {
			t.Errorf("%s %s: isError %v, exit code %d", r.op, r.args, res.IsError, code)
		}
		if res.IsError {
			if !strings.Contains(string(cli), `"code": "E_`) || code != 2 {
				t.Errorf("%s %s: error answer %s exit %d", r.op, r.args, cli, code)
			}
			continue
		}
		sc, _ := json.Marshal(res.StructuredContent)
		if !sameAnswer(string(sc), string(cli)) {
			t.Errorf("%s: structured content differs from the CLI answer", r.op)
		}
		detailed, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_" + r.op, Arguments: json.RawMessage(withFormat(r.args, "detailed"))})
		if err != nil {
			t.Fatal(err)
		}
		if cli, _ := run(t, root, "query", r.op, "--args", r.args); !sameAnswer(text(t, detailed), string(cli)) {
			t.Errorf("%s %s: MCP detailed and the CLI's default answer differ", r.op, r.args)
		}
		if r.op != "live_read" {
			for _, b := range []string{text(t, res), text(t, detailed)} {
				var env struct{ Result any }
				json.Unmarshal([]byte(b), &env)
				facts = append(facts, facade.CollectFacts(env.Result)...)
			}
		}
	}
	// FT-17 on the real index: every cited line exists in the indexed file
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if len(facts) < 20 {
		t.Fatalf("only %d facts", len(facts))
	}
	errs, err := svc.CheckFacts(ctx, facts)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Error(e)
	}
	// text output is a table
	out, code := run(t, root, "query", "outline", "--path", "src/Cart.php", "--format", "text")
	if code != 0 || !strings.Contains(string(out), "src/Cart.php:12") {
		t.Errorf("text format: %d %s", code, out)
	}
}

func TestMCPConcurrentCallsAndNewRevision(t *testing.T) {
	root := newProject(t)
	ctx := context.Background()
	cs := connect(t, ctx, root)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := requests[i%len(requests)]
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_" + r.op, Arguments: json.RawMessage(r.args)})
			if err != nil {
				errs <- err
			} else if len(res.Content) != 1 {
				errs <- fmt.Errorf("%s: no content", r.op)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// a new revision is used once warm, without restarting the server
	if err := os.WriteFile(filepath.Join(root, "src", "Coupon.php"), []byte("<?php\nnamespace App;\nclass Coupon {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := run(t, root, "index"); code != 0 {
		t.Fatalf("index: %s", out)
	}
	waitServing(t, ctx, cs, "rev-0002") // served once warm
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_symbol", Arguments: map[string]any{"name": "Coupon"}})
	if err != nil {
		t.Fatal(err)
	}
	var env facade.Envelope
	if err := json.Unmarshal([]byte(text(t, res)), &env); err != nil {
		t.Fatal(err)
	}
	if env.IndexRev != "rev-0002" || env.NotFound {
		t.Errorf("after reindex: %s not_found=%v", env.IndexRev, env.NotFound)
	}
}

func TestMCPStreamableHTTP(t *testing.T) {
	root := newProject(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "mcp", "--project", root, "--http", "127.0.0.1:0", "--format", "json")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stderr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("no address in %q", line)
	}
	url := strings.TrimSpace(line[i:])
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_symbol", Arguments: map[string]any{"name": "Cart"}})
	if err != nil {
		t.Fatal(err)
	}
	cli, _ := run(t, root, "query", "symbol", "--name", "Cart", "--detail", "concise")
	if !sameAnswer(text(t, res), string(cli)) {
		t.Errorf("HTTP answer differs from the CLI:\n%s\n%s", text(t, res), cli)
	}
}
