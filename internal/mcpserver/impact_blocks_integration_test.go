package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFT27_ImpactBlocksOverMCP: ragraf_impact with blocks ["tests"] answers
// the target and the tests block alone, in fewer bytes than the whole
// answer; an unknown block is an error naming the valid ones.
func TestFT27_ImpactBlocksOverMCP(t *testing.T) {
	root := t.TempDir()
	for p, c := range map[string]string{
		"src/Cart.php":           "<?php\nnamespace App;\nclass Cart {\n    public function add(int $n): void {}\n}\n",
		"src/Checkout.php":       "<?php\nnamespace App;\nclass Checkout {\n    public function run(Cart $c): void { $c->add(1); }\n}\n",
		"tests/CartTest.php":     "<?php\nnamespace Tests;\nuse App\\Cart;\nclass CartTest {\n    public function testAdd(): void { $c = new Cart(); $c->add(2); }\n}\n",
		"tests/CheckoutTest.php": "<?php\nnamespace Tests;\nuse App\\Checkout;\nclass CheckoutTest {\n    public function testRun(): void { (new Checkout())->run(new \\App\\Cart()); }\n}\n",
	} {
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
	ctx := context.Background()
	cs := connectText(t, ctx, root)
	call := func(args map[string]any) (string, bool) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_impact", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return text(t, res), res.IsError
	}
	whole, _ := call(map[string]any{"qname": `App\Cart::add`, "depth": 1})
	tests, isErr := call(map[string]any{"qname": `App\Cart::add`, "depth": 1, "blocks": []string{"tests"}})
	if isErr || !strings.Contains(tests, `Tests\CartTest::testAdd`) || strings.Contains(tests, "symbols") || strings.Contains(tests, `App\Checkout::run`) {
		t.Errorf("blocks [tests]:\n%s", tests)
	}
	if !strings.Contains(whole, `App\Checkout::run`) || len(tests) >= len(whole) {
		t.Errorf("whole answer (%d bytes) vs tests block (%d bytes):\n%s", len(whole), len(tests), whole)
	}
	bad, isErr := call(map[string]any{"qname": `App\Cart::add`, "blocks": []string{"tests", "callers"}})
	if !isErr || !strings.Contains(bad, `callers`) || !strings.Contains(bad, "co_changed") {
		t.Errorf("unknown block: error %v:\n%s", isErr, bad)
	}
	cli, code := run(t, root, "query", "impact", "--args", `{"qname":"App\\Cart::add","depth":1,"blocks":["tests"]}`, "--format", "text")
	if code != 0 || string(cli) != tests {
		t.Errorf("CLI text differs from MCP:\n%s\n%s", cli, tests)
	}
}
