package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// id32 is a node id, which the text form never shows.
var id32 = regexp.MustCompile(`\b[0-9a-f]{32}\b`)

// TestFT27_TextAnswersForTheModel: a tool answers compact text and no
// structured content by default (the clients that see structuredContent
// hand the model its JSON instead of the text), the same bytes `ragraf query
// --format text` prints (one renderer); "format":"json" returns the
// envelope, as text and as structured content.
func TestFT27_TextAnswersForTheModel(t *testing.T) {
	root := newProject(t)
	ctx := context.Background()
	cs := connectText(t, ctx, root)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.OutputSchema != nil {
			t.Errorf("%s declares an output schema", tl.Name)
		}
	}
	init := cs.InitializeResult()
	if !strings.Contains(init.Instructions, "no header line means") {
		t.Errorf("the instructions do not say how an absent header reads:\n%s", init.Instructions)
	}
	for _, r := range requests {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_" + r.op, Arguments: json.RawMessage(r.args)})
		if err != nil {
			t.Fatalf("%s: %v", r.op, err)
		}
		if res.IsError {
			continue
		}
		if res.StructuredContent != nil {
			t.Errorf("%s %s: structured content in a text answer", r.op, r.args)
		}
		got := text(t, res)
		if strings.HasPrefix(got, "{") {
			t.Errorf("%s %s: JSON where text was due: %.80s", r.op, r.args, got)
		}
		if r.op != "status" && r.op != "revisions" && id32.MatchString(got) {
			t.Errorf("%s %s: a 32-digit id in the text:\n%s", r.op, r.args, got)
		}
		cli, code := run(t, root, "query", r.op, "--args", r.args, "--format", "text")
		if code != 0 || string(cli) != got {
			t.Errorf("%s %s: MCP text and `query --format text` differ\nMCP: %s\nCLI: %s", r.op, r.args, got, cli)
		}
	}
	call := func(name string, args any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", name, err, res)
		}
		return text(t, res)
	}
	// a definition: place with its range, qualified name (the container is
	// in it), kind and signature, on one line, nothing else
	sym := call("ragraf_symbol", map[string]any{"name": "addItem"})
	if want := "src/Cart.php:12-16  App\\Cart::addItem  method  public function addItem(Item $item): void\n"; sym != want {
		t.Errorf("symbol:\n got %q\nwant %q", sym, want)
	}
	// callers: the target, then one line per call site
	callers := call("ragraf_callers", map[string]any{"qname": "App\\Cart::addItem"})
	if !strings.Contains(callers, "\nsrc/Checkout.php:8  App\\Checkout::run  calls\n") {
		t.Errorf("callers:\n%s", callers)
	}
	// not found: a header with the calls to try
	nf := call("ragraf_symbol", map[string]any{"name": "Nope"})
	if !strings.HasPrefix(nf, "not found\ntry: search ") {
		t.Errorf("not found:\n%s", nf)
	}
	// truncation: a header with the cursor, which pages on
	page := call("ragraf_search", map[string]any{"query": "cart item", "limit": 1})
	m := regexp.MustCompile(`(?m)^truncated: 1 of \d+; next page: cursor "([^"]+)"$`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("truncated answer without its header:\n%s", page)
	}
	if next := call("ragraf_search", map[string]any{"query": "cart item", "limit": 1, "cursor": m[1]}); next == page {
		t.Errorf("the cursor did not page on")
	}
	// nothing at its default is written: a full, current, clean answer has
	// no header
	if strings.Contains(sym+callers, "capability") || strings.Contains(sym+callers, "drift") {
		t.Errorf("default header lines written:\n%s%s", sym, callers)
	}
	// format json: the envelope (FT-16), also as structured content
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_symbol", Arguments: map[string]any{"name": "addItem", "format": "json"}})
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Op       string `json:"op"`
		IndexRev string `json:"index_rev"`
		Result   struct {
			Symbols []struct{ ID, At string }
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(text(t, res)), &env); err != nil || env.Op != "symbol" || env.IndexRev == "" || len(env.Result.Symbols) != 1 || env.Result.Symbols[0].ID == "" {
		t.Errorf("format json: %v %s", err, text(t, res))
	}
	if res.StructuredContent == nil {
		t.Errorf("format json without structured content")
	}
}

// TestFT27_StaleHeaderInText: an edited file cited by an answer is a header
// line with the changed lines, and its facts are marked.
func TestFT27_StaleHeaderInText(t *testing.T) {
	root := newProject(t)
	ctx := context.Background()
	cs := connectText(t, ctx, root)
	edit(t, root, "src/Cart.php", "$this->items[] = $item;", "$this->items[] = $item; // changed")
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_outline", Arguments: map[string]any{"path": "src/Cart.php"}})
	if err != nil {
		t.Fatal(err)
	}
	got := text(t, res)
	if !regexp.MustCompile(`(?m)^stale: src/Cart.php modify lines 14\b`).MatchString(got) {
		t.Errorf("no stale header with the changed line:\n%s", got)
	}
	if !regexp.MustCompile(`(?m)^  src/Cart.php:12  addItem  method  stale`).MatchString(got) {
		t.Errorf("the changed method is not marked:\n%s", got)
	}
}

// edit replaces old by new in the project file rel.
func edit(t *testing.T, root, rel, old, new string) {
	t.Helper()
	p := filepath.Join(root, rel)
	b, err := os.ReadFile(p)
	if err != nil || !strings.Contains(string(b), old) {
		t.Fatalf("%s: %v or no %q", rel, err, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}
