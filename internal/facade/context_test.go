package facade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func contextOf(t *testing.T, s *Service, args string) (*Envelope, ContextResult) {
	t.Helper()
	env := call(t, s, "context", args)
	return env, env.Result.(ContextResult)
}

func TestFT14_ContextOnExample(t *testing.T) {
	s := shop(t)
	env, r := contextOf(t, s, `{"qname":"Shop\\Cart\\Cart::add","budget_tokens":50000}`)
	if env.NotFound || env.Limits.Truncated || len(r.Omitted) != 0 {
		t.Fatalf("not_found=%v limits=%+v omitted=%v", env.NotFound, env.Limits, r.Omitted)
	}
	if r.Target.QName != `Shop\Cart\Cart::add` || !strings.HasPrefix(r.Target.Signature, "public function add(") {
		t.Errorf("target %+v", r.Target)
	}
	if r.Doc == nil || !strings.Contains(r.Doc.Text, "merging with an existing line") || r.Doc.Line != 40 {
		t.Errorf("doc %+v", r.Doc)
	}
	if r.Container == nil || r.Container.QName != `Shop\Cart\Cart` {
		t.Errorf("container %+v", r.Container)
	}
	has := func(calls []ContextCall, qname string) *ContextCall {
		for i := range calls {
			if calls[i].QName == qname {
				return &calls[i]
			}
		}
		return nil
	}
	if c := has(r.Callers, `Shop\Http\Controller\CartController::add`); c == nil || c.SitePath != "src/Http/Controller/CartController.php" || c.SiteLine != 39 || c.Provenance != "stated" {
		t.Errorf("caller CartController::add: %+v", c)
	}
	if c := has(r.Callees, `Shop\Catalog\Product::hasStock`); c == nil || c.SiteLine != 50 {
		t.Errorf("callee Product::hasStock: %+v", c)
	}
	for i := 1; i < len(r.Callees); i++ {
		if a, b := r.Callees[i-1], r.Callees[i]; a.Provenance == b.Provenance && a.Rank < b.Rank {
			t.Errorf("callees not ordered by rank: %s %v before %s %v", a.QName, a.Rank, b.QName, b.Rank)
		}
	}
	if r.Impact == nil || r.Impact.Hard == 0 || len(r.Impact.EntryPoints) == 0 {
		t.Fatalf("impact %+v", r.Impact)
	}
	tests := map[string]bool{}
	for _, f := range r.Impact.Tests {
		tests[f.Path] = true
	}
	if !tests["tests/Cart/CartTest.php"] {
		t.Errorf("tests reached: %+v", r.Impact.Tests)
	}
	if r.Dataflow == nil || r.Dataflow.Status != "available" || r.Dataflow.Reason != "" { // a PHP revision has slice and flow
		t.Errorf("dataflow %+v", r.Dataflow)
	}
	if r.Code == nil || r.Code.Line != 45 || r.Code.EndLine != 61 || !strings.HasPrefix(strings.TrimSpace(r.Code.Text), "public function add(") {
		t.Errorf("code %+v", r.Code)
	}
	// every fact cites a place that holds in the revision (FT-17)
	snap, release, err := s.acquire(context.Background())
	must(t, err)
	defer release()
	facts := CollectFacts(r)
	if len(facts) < 15 {
		t.Errorf("only %d facts", len(facts))
	}
	for _, f := range facts {
		if strings.HasPrefix(f.Path, "db:") {
			continue
		}
		if err := checkFact(context.Background(), snap, f); err != nil {
			t.Error(err)
		}
	}
	// the same symbol by a line of its body, and a class with its members
	if _, r := contextOf(t, s, `{"path":"src/Cart/Cart.php","line":50}`); r.Target.QName != `Shop\Cart\Cart::add` {
		t.Errorf("path and line 50: %s", r.Target.QName)
	}
	if _, r := contextOf(t, s, `{"qname":"Shop\\Money\\Money","budget_tokens":50000}`); len(r.Members) < 10 || r.Impact == nil || len(r.Impact.Tests) == 0 {
		t.Errorf("class Money: %d members, impact %+v", len(r.Members), r.Impact)
	}
}

func TestFT14_ContextNotFound(t *testing.T) {
	s, _ := newTestService(t)
	for _, args := range []string{`{"qname":"App\\Nope"}`, `{"path":"src/none.php","line":3}`} {
		env, _ := contextOf(t, s, args)
		if !env.NotFound || len(env.Suggest) == 0 {
			t.Errorf("%s: not_found=%v suggest=%v", args, env.NotFound, env.Suggest)
		}
	}
	for _, args := range []string{`{}`, `{"qname":"App\\C1","id":"n00000000000000000000000000000000"}`, `{"path":"src/C1.php"}`,
		`{"qname":"App\\C1","line":3}`, `{"qname":"App\\C1","budget_tokens":100}`, `{"path":"../x.php","line":1}`} {
		if _, err := s.Call(context.Background(), "context", []byte(args)); err == nil {
			t.Errorf("%s: no error", args)
		}
	}
}

// TestContextBudget checks that the whole answer, counted as the CLI and MCP
// render it, never exceeds the budget, that a larger budget only adds parts,
// and that the facts about the symbol itself come before its code.
func TestContextBudget(t *testing.T) {
	s := shop(t)
	req := func(b int) string { return fmt.Sprintf(`{"qname":"Shop\\Money\\Money","budget_tokens":%d}`, b) }
	if _, err := s.Call(context.Background(), "context", []byte(req(300))); AsError(errOr(err)).Code != ErrBadInput || !strings.Contains(err.Error(), "pass at least") {
		t.Errorf("budget below the smallest answer: %v", err)
	}
	// the parts in the order the budget takes them
	snap, release, err := s.acquire(context.Background())
	must(t, err)
	defer release()
	cands, err := s.candidates(context.Background(), snap, Target{QName: `Shop\Money\Money`})
	must(t, err)
	if len(cands) == 0 {
		t.Fatal(`Shop\Money\Money not found`)
	}
	target := cands[0]
	all, total, err := s.contextParts(context.Background(), snap, target)
	must(t, err)
	seq := contextOrder(all, total)
	prev := -1
	var prevR ContextResult
	for _, budget := range []int{500, 700, 1000, 1500, 2500, 4000, 8000} {
		env, r := contextOf(t, s, req(budget))
		n := 0
		for _, enc := range []func(any) ([]byte, error){EncodeJSON, EncodeCompactJSON} {
			b, err := enc(env)
			must(t, err)
			c, err := CountTokens(string(b))
			must(t, err)
			n = max(n, c)
		}
		if n > budget || r.Tokens != cliTokens(t, env) {
			t.Errorf("budget %d: answer has %d tokens, says %d", budget, n, r.Tokens)
		}
		if env.Limits.Returned < prev {
			t.Errorf("budget %d returned %d parts, a smaller budget %d", budget, env.Limits.Returned, prev)
		}
		if prev >= 0 && (len(r.Members) < len(prevR.Members) || codeLines(r) < codeLines(prevR) || len(r.Callers) < len(prevR.Callers)) {
			t.Errorf("budget %d dropped parts a smaller budget kept", budget)
		}
		if r.Code != nil && (r.Doc == nil || r.Container == nil || r.Impact == nil || r.Dataflow == nil) {
			t.Errorf("budget %d: code before the facts about the symbol", budget)
		}
		if k := env.Limits.Returned - 1; k < len(seq) {
			// the next part would not have fitted
			next := *env
			nr := all.cut(seq[:k+1], total)
			nr.BudgetTokens, nr.Tokens = budget, r.Tokens
			next.Result = nr
			next.Limits.Returned++
			if cliTokens(t, &next) <= budget {
				t.Errorf("budget %d: %d parts kept, %d would fit", budget, k, k+1)
			}
		}
		if env.Limits.Truncated != (len(r.Omitted) > 0) {
			t.Errorf("budget %d: truncated=%v omitted=%v", budget, env.Limits.Truncated, r.Omitted)
		}
		t.Logf("budget %5d: %5d tokens, %2d parts, omitted %v", budget, n, env.Limits.Returned, r.Omitted)
		prev, prevR = env.Limits.Returned, r
	}
	if prevR.Omitted != nil || prevR.Code == nil || codeLines(prevR) != 95 {
		t.Errorf("8000 tokens: omitted %v, %d code lines", prevR.Omitted, codeLines(prevR))
	}
}

func codeLines(r ContextResult) int {
	if r.Code == nil {
		return 0
	}
	return r.Code.EndLine - r.Code.Line + 1
}

// TestContextStale checks the stale marks and warnings of an edited file,
// within the budget.
func TestContextStale(t *testing.T) {
	s, _, root := newFixtureService(t, 10, 5)
	p := filepath.Join(root, "src", "C1.php")
	b, err := os.ReadFile(p)
	must(t, err)
	must(t, os.WriteFile(p, []byte(strings.Replace(string(b), "line 6\n", "line 6 edited\n", 1)), 0o644))
	env, r := contextOf(t, s, `{"qname":"App\\C1::run","budget_tokens":1500}`)
	if r.Target.Stale == nil || len(env.StaleWarnings) == 0 || env.StaleWarnings[0].Path != "src/C1.php" {
		t.Errorf("target stale %+v, warnings %+v", r.Target.Stale, env.StaleWarnings)
	}
	if r.Code == nil || r.Code.Stale == nil {
		t.Errorf("code stale: %+v", r.Code)
	}
	if n, err := countAnswer(env); err != nil || n > 1500 {
		t.Errorf("%d tokens (%v)", n, err)
	}
}

// cliTokens counts the answer as the CLI prints it.
func cliTokens(t *testing.T, env *Envelope) int {
	b, err := EncodeJSON(env)
	must(t, err)
	n, err := CountTokens(string(b))
	must(t, err)
	return n
}
