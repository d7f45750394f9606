package facade

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenRequests are answered on the example application and compared with
// testdata/golden/example/<name>.json.
var goldenRequests = []struct{ name, op, args string }{
	{"symbol-cart", "symbol", `{"name":"Cart","kind":"class"}`},
	{"outline-cart", "outline", `{"path":"src/Cart/Cart.php"}`},
	{"references-cart-add", "references", `{"qname":"Shop\\Cart\\Cart::add"}`},
	{"implementations-entity", "implementations", `{"qname":"Shop\\Contracts\\Entity"}`},
	{"callers-update-status", "callers", `{"qname":"Shop\\Order\\OrderRepository::updateStatus","depth":2}`},
	{"callees-place", "callees", `{"qname":"Shop\\Order\\OrderService::place"}`},
	{"impact-update-status", "impact", `{"qname":"Shop\\Order\\OrderRepository::updateStatus","depth":3}`},
	{"repo-map-500", "repo_map", `{"budget_tokens":500}`},
	{"search-prune-carts", "search", `{"query":"prune old carts","limit":5}`},
	{"code-money", "code", `{"path":"src/Money/Money.php","start_line":1,"end_line":20}`},
	{"entry-points", "entry_points", `{}`},
	{"schema-orders", "schema", `{"table":"orders"}`},
	{"table-usage-orders", "table_usage", `{"table":"orders"}`},
	{"docs-readme", "docs", `{"path":"README.md"}`},
	{"not-found", "symbol", `{"name":"NoSuchThing"}`},
	// concise answers (the MCP default)
	{"concise-references-cart-add", "references", `{"qname":"Shop\\Cart\\Cart::add","format":"concise"}`},
	{"concise-callers-update-status", "callers", `{"qname":"Shop\\Order\\OrderRepository::updateStatus","depth":2,"format":"concise"}`},
	{"concise-callees-place", "callees", `{"qname":"Shop\\Order\\OrderService::place","format":"concise"}`},
	{"concise-impact-update-status", "impact", `{"qname":"Shop\\Order\\OrderRepository::updateStatus","depth":3,"format":"concise"}`},
	{"concise-impact-data-update-status", "impact", `{"qname":"Shop\\Order\\OrderRepository::updateStatus","depth":3,"data":true,"format":"concise"}`},
	{"concise-search-prune-carts", "search", `{"query":"prune old carts","limit":5,"format":"concise"}`},
	{"concise-entry-points", "entry_points", `{"format":"concise"}`},
}

// checkedAt is the time of the drift check, the one field that moves between
// two identical calls.
var goldenCheckedAt = regexp.MustCompile(`"ledger_checked_at": "[^"]*"`)

// goldenCursor is a cursor, which names the build of the revision it was cut
// from (its creation time): it differs between two builds of the example.
var goldenCursor = regexp.MustCompile(`"cursor": "[^"]*"`)

// TestFT14_GoldenAnswersOnExample compares the answers to a fixed set of
// requests on examples/shop with committed golden JSON (regenerate with
// -update).
func TestFT14_GoldenAnswersOnExample(t *testing.T) {
	s := shop(t)
	ctx := context.Background()
	for _, r := range goldenRequests {
		t.Run(r.name, func(t *testing.T) {
			env, err := s.Call(ctx, r.op, []byte(r.args))
			var got []byte
			if err != nil {
				got, _ = EncodeJSON(ErrorBody{Error: AsError(err)})
			} else if got, err = EncodeJSON(env); err != nil {
				t.Fatal(err)
			}
			got = goldenCheckedAt.ReplaceAll(got, []byte(`"ledger_checked_at": ""`))
			got = goldenCursor.ReplaceAll(got, []byte(`"cursor": "…"`))
			path := filepath.Join("testdata", "golden", "example", r.name+".json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if d := cmp.Diff(string(want), string(got)); d != "" {
				t.Errorf("%s %s (-want +got):\n%s", r.op, r.args, d)
			}
		})
	}
}
