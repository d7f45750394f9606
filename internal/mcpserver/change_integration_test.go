package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/facade"
)

// TestContextAndChangesThroughTheBinary calls ragraf_context and
// ragraf_changes over MCP stdio and `ragraf query` on the real binary: the
// same answers, the context within its budget as each transport renders it,
// and the changes of a working-tree edit and of a commit range.
func TestContextAndChangesThroughTheBinary(t *testing.T) {
	root := newProject(t)
	ctx := context.Background()
	cs := connect(t, ctx, root)
	for _, budget := range []string{"600", "1500"} {
		args := `{"qname":"App\\Cart::addItem","budget_tokens":` + budget + `}`
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_context", Arguments: json.RawMessage(args)})
		if err != nil || res.IsError {
			t.Fatalf("context %s: %v %v", args, err, res)
		}
		cli, code := run(t, root, "query", "context", "--qname", `App\Cart::addItem`, "--budget-tokens", budget)
		if code != 0 || !sameAnswer(text(t, res), string(cli)) {
			t.Fatalf("context %s: exit %d, MCP and CLI differ\nMCP: %s\nCLI: %s", budget, code, text(t, res), cli)
		}
		for _, rendered := range []string{text(t, res), string(cli)} {
			n, err := facade.CountTokens(rendered)
			if limit, _ := strconv.Atoi(budget); err != nil || n > limit {
				t.Errorf("budget %s: an answer of %d tokens (%v)", budget, n, err)
			}
		}
		if !strings.Contains(string(cli), `"qname": "App\\Cart::addItem"`) {
			t.Errorf("context %s: %s", budget, cli)
		}
	}
	cli, code := run(t, root, "query", "context", "--path", "src/Cart.php", "--line", "14", "--budget-tokens", "3000")
	var env struct {
		Result facade.ContextResult `json:"result"`
	}
	if code != 0 || json.Unmarshal(cli, &env) != nil || env.Result.Target.QName != `App\Cart::addItem` ||
		len(env.Result.Callers) == 0 || env.Result.Callers[0].QName != `App\Checkout::run` || env.Result.Code == nil {
		t.Errorf("context by path and line: exit %d %s", code, cli)
	}

	// a commit of the indexed tree, then an edit of addItem
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "indexed"}} {
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	p := filepath.Join(root, "src", "Cart.php")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "log_event('add');", "log_event('add-item');", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{}`, `{"base":"HEAD"}`} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_changes", Arguments: json.RawMessage(args)})
		if err != nil || res.IsError {
			t.Fatalf("changes %s: %v %v", args, err, res)
		}
		cliArgs := []string{"query", "changes"}
		if args != `{}` {
			cliArgs = append(cliArgs, "--base", "HEAD")
		}
		cli, code := run(t, root, cliArgs...)
		if code != 0 || !sameAnswer(text(t, res), string(cli)) {
			t.Errorf("changes %s: exit %d, MCP and CLI differ\nMCP: %s\nCLI: %s", args, code, text(t, res), cli)
		}
		var env struct {
			StaleWarnings []facade.StaleWarning `json:"stale_warnings"`
			Result        facade.ChangesResult  `json:"result"`
		}
		if err := json.Unmarshal(cli, &env); err != nil {
			t.Fatal(err)
		}
		r := env.Result
		if len(r.Symbols) != 1 || r.Symbols[0].QName != `App\Cart::addItem` || r.Symbols[0].Change != "changed" ||
			r.Symbols[0].ID == "" || r.Symbols[0].Line != 12 || r.Symbols[0].Impact == nil || r.Symbols[0].Impact.Stated == 0 {
			t.Errorf("changes %s: %+v", args, r.Symbols)
		}
		if len(env.StaleWarnings) == 0 || r.Symbols[0].Stale == nil {
			t.Errorf("changes %s: no stale mark on the edited file", args)
		}
	}
	if out, code := run(t, root, "query", "changes", "--args", `{"base":"--output=x"}`); code != 2 || !strings.Contains(string(out), "E_BAD_INPUT") {
		t.Errorf("an option as base: exit %d %s", code, out)
	}
}
