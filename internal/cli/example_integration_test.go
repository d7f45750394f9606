package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// exampleCopy copies examples/shop (without any index) into a temp dir.
func exampleCopy(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "..", "..", "examples", "shop")
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(root, ".ragraf"))
	return root
}

// TestK5_ExampleEndToEnd runs the release scenario on the example
// application with the real binary: index, edits while answers are asked
// (each answer citing an edited file carries a stale warning), the
// session-start hook, reindex --commit with its archive report, and fresh
// answers without warnings afterwards.
func TestK5_ExampleEndToEnd(t *testing.T) {
	root := exampleCopy(t)
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}

	// an edit inside a method, an extracted helper, a new file, a deleted file
	cart := filepath.Join(root, "src", "Cart", "Cart.php")
	b, err := os.ReadFile(cart)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "final class Cart", "/** Edited while indexed. */\nfinal class Cart", 1)
	if edited == string(b) {
		t.Fatal("example Cart.php changed shape; update the test")
	}
	if err := os.WriteFile(cart, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "Cart", "CartHelper.php"), []byte("<?php\nnamespace Shop\\Cart;\n\nfunction cart_size(Cart $c): int { return count($c); }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "src", "Payment", "PaymentDeclinedException.php")); err != nil {
		t.Fatal(err)
	}

	type envelope struct {
		IndexRev      string `json:"index_rev"`
		NotFound      bool   `json:"not_found"`
		StaleWarnings []struct {
			Path string `json:"path"`
			Kind string `json:"kind"`
		} `json:"stale_warnings"`
	}
	ask := func(op, args string) envelope {
		t.Helper()
		r := run(t, root, "query", op, "--args", args)
		if r.code != 0 {
			t.Fatalf("query %s %s: %d %s %s", op, args, r.code, r.stdout, r.stderr)
		}
		var env envelope
		if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
			t.Fatalf("query %s: %v", op, err)
		}
		return env
	}
	warned := func(env envelope, path string) bool {
		for _, w := range env.StaleWarnings {
			if w.Path == path {
				return true
			}
		}
		return false
	}
	for _, q := range []struct{ op, args string }{
		{"outline", `{"path":"src/Cart/Cart.php"}`},
		{"symbol", `{"qname":"Shop\\Cart\\Cart"}`},
		{"code", `{"path":"src/Cart/Cart.php","start_line":1,"end_line":30}`},
	} {
		if env := ask(q.op, q.args); !warned(env, "src/Cart/Cart.php") {
			t.Errorf("%s %s: no stale warning for the edited src/Cart/Cart.php: %+v", q.op, q.args, env.StaleWarnings)
		}
	}

	r := run(t, root, "hook", "session-start")
	if r.code != 0 || !strings.Contains(r.stdout, "src/Cart/Cart.php") || !strings.Contains(r.stdout, "reindex") {
		t.Fatalf("hook: %d %q", r.code, r.stdout)
	}
	r = run(t, root, "reindex", "--commit")
	if r.code != 0 || !strings.Contains(r.stdout, "rev-0002") {
		t.Fatalf("reindex --commit: %d %q %q", r.code, r.stdout, r.stderr)
	}
	report, err := os.ReadFile(filepath.Join(root, ".ragraf", "archive", "rev-0001..rev-0002.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Changes by file", "src/Cart/Cart.php", "src/Cart/CartHelper.php",
		"src/Payment/PaymentDeclinedException.php", "## What went stale", "## Slice boundaries", "## Schema changes"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("archive report lacks %q:\n%s", want, report)
		}
	}
	env := ask("outline", `{"path":"src/Cart/Cart.php"}`)
	if env.IndexRev != "rev-0002" || len(env.StaleWarnings) != 0 {
		t.Errorf("after reindex: rev %s, warnings %+v", env.IndexRev, env.StaleWarnings)
	}
	if env := ask("symbol", `{"qname":"Shop\\Cart\\cart_size"}`); env.IndexRev != "rev-0002" || env.NotFound {
		t.Errorf("new function not found in rev-0002: %+v", env)
	}
}

// TestFT27_ShortNamesAndPlacesThroughTheBinary: the real binary's code,
// context and impact answer a Class::method short name and path:line with
// the definition they name.
func TestFT27_ShortNamesAndPlacesThroughTheBinary(t *testing.T) {
	root := exampleCopy(t)
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	for _, op := range []string{"code", "context", "impact"} {
		for _, qname := range []string{`Cart::add`, `src/Cart/Cart.php:47`} {
			r := run(t, root, "query", op, "--args", `{"qname":"`+qname+`"}`)
			if r.code != 0 {
				t.Fatalf("query %s %s: %d %s %s", op, qname, r.code, r.stdout, r.stderr)
			}
			var env struct {
				NotFound bool `json:"not_found"`
				Result   struct {
					Symbol  *struct{ QName string }  `json:"symbol"`
					Target  *struct{ QName string }  `json:"target"`
					Targets []struct{ QName string } `json:"targets"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
				t.Fatalf("query %s %s: %v\n%s", op, qname, err, r.stdout)
			}
			got := ""
			switch res := env.Result; {
			case res.Symbol != nil:
				got = res.Symbol.QName
			case res.Target != nil:
				got = res.Target.QName
			case len(res.Targets) > 0:
				got = res.Targets[0].QName
			}
			if env.NotFound || got != `Shop\Cart\Cart::add` {
				t.Errorf("query %s %s: not_found %v, answered %q", op, qname, env.NotFound, got)
			}
		}
	}
}
