package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// polyglotCopy copies testdata/polyglot (JavaScript, TypeScript, Python and
// Go) into a temp dir.
func polyglotCopy(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join(filepath.Dir(file), "testdata", "polyglot"))); err != nil {
		t.Fatal(err)
	}
	// the default languages are PHP's project's: this one names its own
	if err := os.MkdirAll(filepath.Join(root, ".ragraf"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "App.swift"), []byte("func main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := "languages: [javascript, typescript, python, go, markdown]\n"
	if err := os.WriteFile(filepath.Join(root, ".ragraf", "project.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestLanguages_PolyglotThroughTheBinary indexes a small repository in four
// languages with the real binary and asks symbol, references and callers for
// a declaration of each: the stated callers are the ones the imports (or the
// Go package) prove; status counts the files by language; slice on a file
// without a data-flow lowering answers E_CAPABILITY naming the language; a
// Swift file is skipped with the reason its grammar is unavailable, which
// `ragraf version` lists too.
func TestLanguages_PolyglotThroughTheBinary(t *testing.T) {
	root := polyglotCopy(t)
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	type item struct {
		At   string `json:"at"`
		Kind string `json:"kind"`
		Name string `json:"name"`
	}
	ask := func(op, args string, into any) {
		t.Helper()
		r := run(t, root, "query", op, "--args", args, "--format", "concise")
		if r.code != 0 {
			t.Fatalf("query %s %s: %d %s %s", op, args, r.code, r.stdout, r.stderr)
		}
		var env struct {
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(env.Result, into); err != nil {
			t.Fatalf("%s: %v in %s", op, err, env.Result)
		}
	}
	names := func(items []item) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.Name+" "+it.At)
		}
		slices.Sort(out)
		return out
	}
	cases := []struct {
		lang, target, at string
		stated           []string // callers proven by the imports or the package
		uses             []string // references (any edge kind), a subset
	}{
		{"javascript", "formatPrice", "web/src/format.js:4",
			[]string{"Cart.label web/src/cart.ts:22", "Formatter.format web/src/format.js:10"}, nil},
		{"typescript", "Cart.add", "web/src/cart.ts:12", nil, []string{"testCartLabel web/test/cart.spec.ts:5"}},
		{"python", "with_tax", "py/shop/tax.py:4",
			[]string{"Invoice.total py/shop/tax.py:16", "order_total py/shop/orders.py:5"}, nil},
		{"go", "Discount", "goapp/internal/price/price.go:5",
			[]string{"Quote.Net goapp/internal/price/price.go:14", "TestDiscount goapp/internal/price/price_test.go:6",
				"main goapp/main.go:11"}, nil},
	}
	for _, c := range cases {
		var sym struct {
			Symbols []item `json:"symbols"`
		}
		ask("symbol", `{"qname":"`+c.target+`"}`, &sym)
		if len(sym.Symbols) != 1 || sym.Symbols[0].At != c.at {
			t.Errorf("%s: symbol %s: %+v, want at %s", c.lang, c.target, sym.Symbols, c.at)
		}
		var callers struct {
			Stated  []item `json:"stated"`
			Derived []item `json:"derived"`
		}
		ask("callers", `{"qname":"`+c.target+`"}`, &callers)
		if c.stated != nil && !slices.Equal(names(callers.Stated), c.stated) {
			t.Errorf("%s: stated callers of %s: %v, want %v", c.lang, c.target, names(callers.Stated), c.stated)
		}
		var refs struct {
			Uses []item `json:"uses"`
		}
		ask("references", `{"qname":"`+c.target+`"}`, &refs)
		got := names(refs.Uses)
		for _, w := range append(c.uses, c.stated...) {
			if !slices.Contains(got, w) {
				t.Errorf("%s: references of %s: %v lacks %s", c.lang, c.target, got, w)
			}
		}
	}
	var impl struct {
		Implementations []item `json:"implementations"`
	}
	ask("implementations", `{"qname":"Priced"}`, &impl)
	if len(impl.Implementations) != 1 || impl.Implementations[0].Name != "Cart" {
		t.Errorf("implementations of Priced: %+v", impl.Implementations)
	}
	st := run(t, root, "status")
	for _, l := range []string{"go", "javascript", "python", "typescript"} {
		if !strings.Contains(st.stdout, "\n  "+l+" ") {
			t.Errorf("status lacks a %s row:\n%s", l, st.stdout)
		}
	}
	if !strings.Contains(st.stdout, "language unavailable 1") {
		t.Errorf("status does not say why the Swift file is skipped:\n%s", st.stdout)
	}
	if v := run(t, root, "version"); !strings.Contains(v.stdout, "swift grammar") || !strings.Contains(v.stdout, "unavailable: no grammar builds here") {
		t.Errorf("version does not report Swift unavailable:\n%s", v.stdout)
	}
	r := run(t, root, "query", "slice", "--path", "web/src/cart.ts", "--line", "22")
	if !strings.Contains(r.stdout, "E_CAPABILITY") || !strings.Contains(r.stdout, "typescript") {
		t.Errorf("slice on TypeScript: %d %s", r.code, r.stdout)
	}
}
