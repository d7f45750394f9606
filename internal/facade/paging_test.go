package facade

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

// wideN is how many of each thing the paging corpus holds: more than the
// largest page (maxLimit), so every list has pages beyond the first.
const wideN = 620

// wideProject writes a PHP project with wideN of each list an operation
// answers, indexes it with the real build and returns its root:
//   - routes/web.php: wideN routes, each handled by ItemController::show<i>;
//   - src/Gen/W<i>.php: class App\Gen\W<i> implements App\Widget, with a
//     method handle and a docblock naming "gizmo"; function App\Gen\widget_<i>
//     calls App\hub(), queries table t<i> and updates table orders;
//   - src/Http/ItemController.php: show<i> calls widget_<i>;
//   - src/all.php: App\all_widgets() calls every widget_<i>;
//   - database/schema.sql: tables orders and t<i>;
//   - docs/widgets.md: wideN sections.
func wideProject(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	put := func(p, content string) {
		full := filepath.Join(root, filepath.FromSlash(p))
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.WriteFile(full, []byte(content), 0o644))
	}
	put("composer.json", `{"require": {"laravel/framework": "^11.0"}}`+"\n")
	put("src/hub.php", "<?php\nnamespace App;\n\ninterface Widget\n{\n    public function handle(): int;\n}\n\nfunction hub(int $i): int\n{\n    return $i;\n}\n")
	var routes, ctrl, all, schema, docs strings.Builder
	routes.WriteString("<?php\n\nuse App\\Http\\ItemController;\nuse Illuminate\\Support\\Facades\\Route;\n\n")
	ctrl.WriteString("<?php\nnamespace App\\Http;\n\nuse function App\\Gen\\widget_0;\n\nclass ItemController\n{\n")
	all.WriteString("<?php\nnamespace App;\n\nfunction all_widgets(): void\n{\n")
	schema.WriteString("CREATE TABLE orders (\n  id INT PRIMARY KEY,\n  n INT NOT NULL\n);\n\n")
	docs.WriteString("# Widgets\n\n")
	for i := 0; i < wideN; i++ {
		put(fmt.Sprintf("src/Gen/W%d.php", i), fmt.Sprintf(`<?php
namespace App\Gen;

use App\Widget;

/** Gizmo widget number %[1]d. */
class W%[1]d implements Widget
{
    public function handle(): int
    {
        return %[1]d;
    }
}

function widget_%[1]d($db): int
{
    $db->query("SELECT id, name FROM t%[1]d WHERE id = 1");
    $db->query("UPDATE orders SET n = %[1]d WHERE id = 1");
    return \App\hub(%[1]d);
}
`, i))
		fmt.Fprintf(&routes, "Route::get('/items/%d', [ItemController::class, 'show%d']);\n", i, i)
		fmt.Fprintf(&ctrl, "    public function show%d($db): int\n    {\n        return \\App\\Gen\\widget_%d($db);\n    }\n\n", i, i)
		fmt.Fprintf(&all, "    \\App\\Gen\\widget_%d(null);\n", i)
		fmt.Fprintf(&schema, "CREATE TABLE t%d (\n  id INT PRIMARY KEY,\n  name VARCHAR(20)\n);\n\n", i)
		fmt.Fprintf(&docs, "## Widget %d\n\nThe gizmo widget %d.\n\n", i, i)
	}
	ctrl.WriteString("}\n")
	all.WriteString("}\n")
	put("routes/web.php", routes.String())
	put("src/Http/ItemController.php", ctrl.String())
	put("src/all.php", all.String())
	put("database/schema.sql", schema.String())
	put("docs/widgets.md", docs.String())
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	return root
}

// walk pages op with args to its end, limit items a page, and returns the
// keys of the items (key reads them from each answer) and every answer's
// limits.total. It fails on an answer that is truncated without a cursor.
func walk(t *testing.T, s *Service, op string, args map[string]any, limit int, key func(*Envelope) []string) ([]string, []int) {
	t.Helper()
	var keys []string
	var totals []int
	cursor := ""
	for pages := 0; ; pages++ {
		a := map[string]any{"limit": limit}
		for k, v := range args {
			a[k] = v
		}
		if cursor != "" {
			a["cursor"] = cursor
		}
		raw, _ := json.Marshal(a)
		env, err := s.Call(context.Background(), op, raw)
		if err != nil {
			t.Fatalf("%s %s: %v", op, raw, err)
		}
		got := key(env)
		if env.Limits.Returned != len(got) {
			t.Fatalf("%s %s: limits.returned %d, %d items", op, raw, env.Limits.Returned, len(got))
		}
		keys = append(keys, got...)
		totals = append(totals, env.Limits.Total)
		if !env.Limits.Truncated {
			if env.Limits.Cursor != "" {
				t.Errorf("%s: a complete answer carries cursor %q", op, env.Limits.Cursor)
			}
			return keys, totals
		}
		if env.Limits.Cursor == "" {
			t.Fatalf("%s %s: truncated without a cursor", op, raw)
		}
		if len(got) == 0 || pages > 10000 {
			t.Fatalf("%s %s: truncated page with %d items", op, raw, len(got))
		}
		cursor = env.Limits.Cursor
	}
}

// checkWalk asserts the pages' union has total items, each once.
func checkWalk(t *testing.T, name string, keys []string, totals []int, atLeast int) {
	t.Helper()
	for _, n := range totals {
		if n != totals[0] {
			t.Errorf("%s: limits.total moved between pages: %v", name, totals)
			break
		}
	}
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			t.Errorf("%s: %q on two pages", name, k)
		}
		seen[k] = true
	}
	if len(keys) != totals[0] {
		t.Errorf("%s: pages hold %d items, limits.total is %d", name, len(keys), totals[0])
	}
	if len(keys) < atLeast {
		t.Errorf("%s: %d items, want at least %d", name, len(keys), atLeast)
	}
}

func entryKeys(env *Envelope) []string {
	var out []string
	for _, e := range env.Result.(EntryPointsResult).EntryPoints {
		out = append(out, e.ID)
	}
	return out
}

func useKeys(env *Envelope) []string {
	var out []string
	for _, u := range env.Result.(TableUsageResult).Uses {
		out = append(out, fmt.Sprintf("%s|%s|%d|%s|%s", u.FromID, u.Path, u.Line, u.Edge, u.Op))
	}
	return out
}

func driftKeys(env *Envelope) []string {
	var out []string
	for _, e := range env.Result.(DriftResult).Entries {
		out = append(out, e.ID)
	}
	return out
}

func symbolKeys(env *Envelope) []string {
	var out []string
	for _, s := range env.Result.(SymbolResult).Symbols {
		out = append(out, s.ID)
	}
	return out
}

func referenceKeys(env *Envelope) []string {
	var out []string
	for _, u := range env.Result.(ReferencesResult).Uses {
		out = append(out, fmt.Sprintf("%s|%d|%s|%s", u.Path, u.Line, u.Kind, u.From.ID))
	}
	return out
}

func implementationKeys(env *Envelope) []string {
	var out []string
	for _, im := range env.Result.(ImplementationsResult).Implementations {
		out = append(out, im.ID)
	}
	return out
}

func callKeys(env *Envelope) []string {
	var out []string
	r := env.Result.(CallsResult)
	for _, c := range append(append([]Call(nil), r.Stated...), r.Derived...) {
		out = append(out, fmt.Sprintf("%s|%s|%d", c.ID, c.SitePath, c.SiteLine))
	}
	return out
}

// impactKeys reads one of impact's lists, hard block then soft.
func impactKeys(list string) func(*Envelope) []string {
	return func(env *Envelope) []string {
		r := env.Result.(ImpactResult)
		var out []string
		for _, b := range []ImpactBlock{r.Hard, r.Soft} {
			switch list {
			case "symbols", "entry_points", "tables":
				items := map[string][]ImpactItem{"symbols": b.Symbols, "entry_points": b.EntryPoints, "tables": b.Tables}[list]
				for _, it := range items {
					out = append(out, it.ID)
				}
			case "files":
				for _, f := range b.Files {
					out = append(out, f.Path)
				}
			}
		}
		return out
	}
}

func hitKeys(env *Envelope) []string {
	var out []string
	for _, h := range env.Result.(SearchResult).Hits {
		out = append(out, h.ID)
	}
	return out
}

func tableKeys(env *Envelope) []string {
	var out []string
	for _, t := range env.Result.(SchemaResult).Tables {
		out = append(out, t.ID)
	}
	return out
}

func sectionKeys(env *Envelope) []string {
	var out []string
	for _, d := range env.Result.(DocsResult).Sections {
		out = append(out, d.ID+"|"+d.About)
	}
	return out
}

func revisionKeys(env *Envelope) []string {
	var out []string
	for _, r := range env.Result.(RevisionsResult).Revisions {
		out = append(out, r.Rev.Rev)
	}
	return out
}

// listCase is one list operation walked on the wide project.
type listCase struct {
	name    string
	op      string
	args    map[string]any
	limit   int
	key     func(*Envelope) []string
	atLeast int
}

// wideLists are the list operations and the lists each walks on
// wideProject, with how many items each holds at least.
var wideLists = []listCase{
	{"symbol", "symbol", map[string]any{"name": "handle"}, 97, symbolKeys, wideN},
	{"symbol/fuzzy", "symbol", map[string]any{"name": "widget_", "fuzzy": true}, 101, symbolKeys, wideN},
	{"references", "references", map[string]any{"qname": `App\hub`, "include_declaration": true}, 99, referenceKeys, wideN + 1},
	{"implementations", "implementations", map[string]any{"qname": `App\Widget`}, 103, implementationKeys, wideN},
	{"callers", "callers", map[string]any{"qname": `App\hub`, "depth": 2}, 107, callKeys, 2 * wideN},
	{"callees", "callees", map[string]any{"qname": `App\all_widgets`}, 109, callKeys, wideN},
	{"impact/symbols", "impact", map[string]any{"qname": `App\hub`, "depth": 3}, 127, impactKeys("symbols"), 2 * wideN},
	{"impact/files", "impact", map[string]any{"qname": `App\hub`, "depth": 3, "list": "files"}, 131, impactKeys("files"), wideN},
	{"impact/entry_points", "impact", map[string]any{"qname": `App\hub`, "depth": 3, "list": "entry_points"}, 137, impactKeys("entry_points"), wideN},
	{"impact/tables", "impact", map[string]any{"qname": `App\hub`, "depth": 3, "list": "tables"}, 139, impactKeys("tables"), wideN},
	{"search", "search", map[string]any{"query": "gizmo"}, 149, hitKeys, candidates},
	{"entry_points", "entry_points", nil, 97, entryKeys, wideN},
	{"entry_points/max", "entry_points", nil, 1000, entryKeys, wideN},
	{"schema", "schema", nil, 151, tableKeys, wideN},
	{"table_usage", "table_usage", map[string]any{"table": "orders"}, 113, useKeys, wideN},
	{"docs", "docs", map[string]any{"path": "docs/widgets.md"}, 157, sectionKeys, wideN},
	{"drift", "drift", nil, 89, driftKeys, wideN},
	{"revisions", "revisions", nil, 1, revisionKeys, 1},
}

// TestPagingWalksEveryListToItsEnd pages every list operation to its end on
// a generated project with more than 500 items in each list (ARCHITECTURE.md
// §6): the pages' union is limits.total, with no item twice, and every
// truncated answer carries the cursor of the next page. Then a cursor cut
// from each list is refused on the next revision with E_STALE_CURSOR.
func TestPagingWalksEveryListToItsEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a project of 1,200 files")
	}
	root := wideProject(t)
	s, err := New(root, Options{})
	must(t, err)
	defer s.Close()
	ctx := context.Background()
	// every widget file changes: the ledger gets wideN entries
	for i := 0; i < wideN; i++ {
		p := filepath.Join(root, "src", "Gen", fmt.Sprintf("W%d.php", i))
		b, err := os.ReadFile(p)
		must(t, err)
		must(t, os.WriteFile(p, append(b, "// changed\n"...), 0o644))
	}
	if _, err := s.Call(ctx, "drift_detect", []byte(`{"method":"compare"}`)); err != nil {
		t.Fatal(err)
	}
	for _, c := range wideLists {
		t.Run(c.name, func(t *testing.T) {
			keys, totals := walk(t, s, c.op, c.args, c.limit, c.key)
			checkWalk(t, c.name, keys, totals, c.atLeast)
			t.Logf("%s: %d items in %d pages", c.name, len(keys), len(totals))
		})
	}
	t.Run("outline", func(t *testing.T) {
		// outline answers a file's whole tree: never truncated
		env := call(t, s, "outline", `{"path":"src/Http/ItemController.php"}`)
		n := countItems(env.Result.(OutlineResult).Symbols)
		if env.Limits.Truncated || n != env.Limits.Total || n != wideN+1 {
			t.Errorf("outline: %d items, limits %+v, want %d", n, env.Limits, wideN+1)
		}
	})
	t.Run("impact/cursors", func(t *testing.T) {
		// an answer paging symbols holds the first page of each other list
		// and the cursor of its next page
		env := call(t, s, "impact", `{"qname":"App\\hub","depth":3,"limit":50}`)
		r := env.Result.(ImpactResult)
		for _, list := range []string{"files", "entry_points", "tables"} {
			first := impactKeys(list)(env)
			cur := r.Cursors[list]
			if len(first) != 50 || cur == "" {
				t.Fatalf("%s: first page %d items, cursor %q", list, len(first), cur)
			}
			rest, totals := walk(t, s, "impact", map[string]any{"qname": `App\hub`, "depth": 3, "cursor": cur}, 50, impactKeys(list))
			checkWalk(t, "impact/"+list, append(first, rest...), append([]int{totals[0]}, totals...), wideN)
		}
	})
	// a cursor of every list, cut on rev-0001, is stale on rev-0002
	cursors := map[string]string{}
	for _, c := range wideLists {
		a := map[string]any{"limit": 1}
		for k, v := range c.args {
			a[k] = v
		}
		raw, _ := json.Marshal(a)
		env, err := s.Call(ctx, c.op, raw)
		must(t, err)
		if c.op == "revisions" {
			// one revision: cut the cursor by hand at offset 0
			snap, release, err := s.acquire(ctx)
			must(t, err)
			env.Limits.Cursor = pager{list: "revisions"}.cursor(snap, 0)
			release()
		}
		if env.Limits.Cursor == "" {
			t.Fatalf("%s %s: no cursor", c.op, raw)
		}
		cursors[c.name] = env.Limits.Cursor
	}
	if _, err := rev.Build(ctx, rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	for _, c := range wideLists {
		a := map[string]any{"limit": 1, "cursor": cursors[c.name]}
		for k, v := range c.args {
			a[k] = v
		}
		raw, _ := json.Marshal(a)
		_, err := s.Call(ctx, c.op, raw)
		if fe := AsError(errOr(err)); fe.Code != ErrStaleCursor || !strings.Contains(fe.Message, "rev-0001") {
			t.Errorf("%s: cursor of rev-0001 on rev-0002: %v, want %s", c.name, err, ErrStaleCursor)
		}
	}
}

// TestPagingStaleCursorRefused cuts a cursor on one revision and passes it to
// the next, and to a new build of the same revision name: the answer is
// E_STALE_CURSOR, not a page at shifted offsets. A cursor that does not
// decode, that another operation issued, or that was cut for other arguments
// is E_BAD_INPUT.
func TestPagingStaleCursorRefused(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "composer.json", `{"require": {"laravel/framework": "^11.0"}}`+"\n")
	var routes strings.Builder
	routes.WriteString("<?php\nuse Illuminate\\Support\\Facades\\Route;\n\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&routes, "Route::get('/r/%d', fn () => %d);\n", i, i)
	}
	writeFile(t, root, "routes/web.php", routes.String())
	writeFile(t, root, "src/a.php", "<?php\nfunction a() { return 1; }\n")
	writeFile(t, root, "schema.sql", "CREATE TABLE orders (id INT);\n")
	ctx := context.Background()
	if _, err := rev.Build(ctx, rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	must(t, err)
	defer s.Close()
	env := call(t, s, "entry_points", `{"limit":10}`)
	if !env.Limits.Truncated || env.Limits.Cursor == "" {
		t.Fatalf("first page: %+v", env.Limits)
	}
	staleEP := env.Limits.Cursor
	// the cursor works on its revision, with another page size too
	all := entryKeys(call(t, s, "entry_points", `{"limit":30}`))
	next := call(t, s, "entry_points", `{"limit":7,"cursor":"`+staleEP+`"}`)
	if got := entryKeys(next); len(got) != 7 || got[0] != all[10] || next.Limits.Limit != 7 {
		t.Fatalf("page after the cursor: %v, want 7 from %v", got, all[10])
	}
	writeFile(t, root, "src/a.php", "<?php\nfunction a() { return 2; }\n")
	if _, err := rev.Build(ctx, rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Call(ctx, "entry_points", []byte(`{"limit":10,"cursor":"`+staleEP+`"}`))
	if fe := AsError(errOr(err)); fe.Code != ErrStaleCursor || !strings.Contains(fe.Message, "rev-0001") {
		t.Errorf("cursor of rev-0001 on rev-0002: %v, want %s naming rev-0001", err, ErrStaleCursor)
	}
	// the history of two revisions, one a page
	keys, totals := walk(t, s, "revisions", nil, 1, revisionKeys)
	checkWalk(t, "revisions", keys, totals, 2)
	// a revision name reused after the index was dropped is another build
	must(t, os.RemoveAll(filepath.Join(root, ".ragraf")))
	if _, err := rev.Build(ctx, rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	// the running Service notices the new build, as a new one would
	s2, err := New(root, Options{})
	must(t, err)
	defer s2.Close()
	for _, svc := range []*Service{s, s2} {
		_, err = svc.Call(ctx, "entry_points", []byte(`{"limit":10,"cursor":"`+staleEP+`"}`))
		if fe := AsError(errOr(err)); fe.Code != ErrStaleCursor || !strings.Contains(fe.Message, "earlier build of rev-0001") {
			t.Errorf("cursor of the dropped rev-0001 on the new rev-0001: %v, want %s", err, ErrStaleCursor)
		}
	}
	// malformed cursors, cursors of another op or of other arguments are
	// bad input
	env = call(t, s2, "entry_points", `{"limit":10}`)
	for _, c := range []struct{ op, args string }{
		{"entry_points", `{"cursor":"xyz"}`},
		{"entry_points", `{"cursor":"` + fixtureCursor("entry_points", 5)[:10] + `"}`},
		{"table_usage", `{"table":"orders","cursor":"` + env.Limits.Cursor + `"}`},
		{"drift", `{"cursor":"` + env.Limits.Cursor + `"}`},
		// a cursor belongs to the arguments it was cut for; only limit may change
		{"entry_points", `{"kind":"web_route","cursor":"` + env.Limits.Cursor + `"}`},
	} {
		_, err := s2.Call(ctx, c.op, []byte(c.args))
		if fe := AsError(errOr(err)); fe.Code != ErrBadInput {
			t.Errorf("%s %s: %v, want %s", c.op, c.args, err, ErrBadInput)
		}
	}
}
