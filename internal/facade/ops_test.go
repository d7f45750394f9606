package facade

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/control"
)

// opCase is one operation with a request that finds something and one that
// finds nothing.
type opCase struct {
	op, valid, empty string
}

var opCases = []opCase{
	{"status", `{}`, ``},
	{"symbol", `{"name":"run"}`, `{"name":"Nope"}`},
	{"outline", `{"path":"src/C1.php"}`, `{"path":"src/none.php"}`},
	{"references", `{"qname":"App\\C1::run"}`, `{"qname":"App\\C1::helper","kinds":["instantiates"]}`},
	{"implementations", `{"qname":"App\\Shipping"}`, `{"qname":"App\\C1"}`},
	{"callers", `{"qname":"App\\C1::run","depth":2}`, `{"qname":"App\\C9::run"}`},
	{"callees", `{"qname":"App\\C2::run"}`, `{"qname":"App\\hot"}`},
	{"impact", `{"qname":"App\\C1::helper"}`, `{"qname":"App\\C9::run"}`},
	{"repo_map", `{"budget_tokens":500}`, `{"focus":["src/none.php"]}`},
	{"search", `{"query":"computeRate"}`, `{"query":"zzzqqq"}`},
	{"similar", `{"qname":"App\\C1::helper"}`, `{"qname":"App\\Nope"}`},
	{"code", `{"qname":"App\\C1::run"}`, `{"path":"src/none.php"}`},
	{"live_read", `{"path":"src/C1.php"}`, `{"path":"src/none.php"}`},
	{"revisions", `{}`, `{"limit":1,"cursor":"` + fixtureCursor("revisions", 10) + `"}`},
	{"entry_points", `{}`, `{"path":"src/none.php"}`},
	{"schema", `{"table":"orders"}`, `{"table":"nope"}`},
	{"table_usage", `{"table":"orders"}`, `{"table":"nope"}`},
	{"docs", `{"path":"README.md"}`, `{"path":"src/C1.php"}`},
	{"context", `{"qname":"App\\C1::run"}`, `{"qname":"App\\Nope::run"}`},
	{"changes", ``, `{}`}, // an unchanged tree; changes_test.go has the valid cases
}

// ownFixture are operations tested on fixtures of their own, since the
// generated files hold no code: slice and flow (slice_test.go, flow_test.go).
var ownFixture = map[string]bool{"slice": true, "flow": true}

// fixtureCursor is the cursor at offset of list on the fixture's revision
// (fixture.publish writes its rev.json).
func fixtureCursor(list string, offset int) string {
	return pager{list: list}.cursor(&snapshot{name: "rev-0001", info: rev.Info{CreatedAt: "2026-01-01T00:00:00Z"}}, offset)
}

func newTestService(t testing.TB) (*Service, string) {
	s, _, root := newFixtureService(t, 10, 5)
	ctl, err := control.Open(context.Background(), rev.Layout{Root: root}.Control())
	must(t, err)
	must(t, ctl.AppendRev(context.Background(), control.Rev{Rev: "rev-0001", Seq: 1, CreatedAt: "2026-01-01T00:00:00Z", Capability: "{}"}))
	ctl.Close()
	return s, root
}

func call(t testing.TB, s *Service, op, args string) *Envelope {
	t.Helper()
	env, err := s.Call(context.Background(), op, []byte(args))
	if err != nil {
		t.Fatalf("%s %s: %v", op, args, err)
	}
	return env
}

func encode(t testing.TB, v any) []byte {
	b, err := EncodeJSON(v)
	must(t, err)
	return b
}

func TestFT14_EveryOperation(t *testing.T) {
	s, _ := newTestService(t)
	if len(opCases)+len(ownFixture) != len(Ops()) {
		t.Fatalf("%d cases for %d operations", len(opCases)+len(ownFixture), len(Ops()))
	}
	for _, c := range opCases {
		t.Run(c.op, func(t *testing.T) {
			env := call(t, s, c.op, c.valid)
			if c.valid != "" && (env.NotFound || env.Op != c.op || env.Limits.Returned == 0) {
				t.Errorf("valid %s: not_found=%v op=%s returned=%d\n%s", c.valid, env.NotFound, env.Op, env.Limits.Returned, encode(t, env))
			}
			if c.empty == "" {
				return
			}
			env = call(t, s, c.op, c.empty)
			if c.op == "revisions" {
				if env.Limits.Returned != 0 {
					t.Errorf("empty page returned %d", env.Limits.Returned)
				}
				return
			}
			if !env.NotFound {
				t.Errorf("empty %s: not_found false\n%s", c.empty, encode(t, env))
			}
		})
	}
}

func TestFT21_NotFound(t *testing.T) {
	s, _ := newTestService(t)
	for _, c := range opCases {
		if c.empty == "" || c.op == "revisions" {
			continue
		}
		env := call(t, s, c.op, c.empty)
		ok := false
		for _, sg := range env.Suggest {
			if sg.Op == "live_read" || sg.Op == "search" || sg.Op == "symbol" || sg.Op == "code" || sg.Op == "drift" {
				ok = true
			}
		}
		if !env.NotFound || !ok {
			t.Errorf("%s %s: not_found=%v suggest=%v", c.op, c.empty, env.NotFound, env.Suggest)
		}
		for _, w := range []string{"previously", "probably", "great", "unfortunately", "as established"} {
			if bytes.Contains(bytes.ToLower(encode(t, env)), []byte(w)) {
				t.Errorf("%s: answer is not neutral: %q", c.op, w)
			}
		}
	}
}

func TestFT16_Envelope(t *testing.T) {
	s, _ := newTestService(t)
	for _, c := range opCases {
		var m map[string]json.RawMessage
		must(t, json.Unmarshal(encode(t, call(t, s, c.op, c.valid)), &m))
		for _, k := range []string{"op", "index_rev", "capability", "drift", "provenance", "limits", "stale_warnings", "not_found", "suggest", "result"} {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: envelope lacks %q", c.op, k)
			}
		}
		if string(m["stale_warnings"]) == "null" || string(m["suggest"]) == "null" {
			t.Errorf("%s: lists must be arrays", c.op)
		}
	}
}

func TestFT15_QueryLanguageRefused(t *testing.T) {
	s, _ := newTestService(t)
	texts := []string{
		"MATCH (n:Class) RETURN n", "MATCH (c)-[:CALLS]->(m) WHERE m.name = 'run' RETURN c",
		"g.V().has('name','Cart').in('calls')", "SELECT * FROM node WHERE name = 'Cart'",
		`cpg.method.name("addItem").caller.l`,
	}
	for _, q := range texts {
		for _, c := range []struct{ op, field string }{{"symbol", "name"}, {"symbol", "qname"}, {"references", "qname"}, {"callers", "qname"}, {"impact", "qname"}, {"search", "query"}} {
			args, _ := json.Marshal(map[string]string{c.field: q})
			_, err := s.Call(context.Background(), c.op, args)
			if fe := AsError(errOr(err)); fe.Code != ErrQueryLanguage {
				t.Errorf("%s %s=%q: got %v, want %s", c.op, c.field, q, err, ErrQueryLanguage)
			}
		}
	}
	for _, name := range []string{`App\Match`, "selectFrom", "Select", "returnMatches", "getV", "fromSelect"} {
		args, _ := json.Marshal(map[string]string{"name": name})
		if _, err := s.Call(context.Background(), "symbol", args); err != nil {
			t.Errorf("name %q refused: %v", name, err)
		}
	}
}

func errOr(err error) error {
	if err == nil {
		return &Error{Code: "none"}
	}
	return err
}

func TestBadInput(t *testing.T) {
	s, root := newTestService(t)
	outside := t.TempDir()
	must(t, os.WriteFile(filepath.Join(outside, "secret.php"), []byte("<?php // outside\n"), 0o644))
	must(t, os.Symlink(outside, filepath.Join(root, "link")))
	cases := []struct{ op, args, code string }{
		{"symbol", `{"name":"run","bogus":1}`, ErrBadInput},
		{"symbol", `{"name":7}`, ErrBadInput},
		{"symbol", `[1]`, ErrBadInput},
		{"symbol", `{"name":"a"} {}`, ErrBadInput},
		{"symbol", `{}`, ErrBadInput},
		{"callers", `{"qname":"App\\C1::run","depth":9}`, ErrBadInput},
		{"impact", `{"qname":"App\\C1::run","depth":0.5}`, ErrBadInput},
		{"impact", `{"qname":"App\\C1::run","mode":"soft"}`, ErrBadInput},
		{"references", `{"qname":"App\\C1::run","limit":501}`, ErrBadInput},
		{"references", `{"qname":"App\\C1::run","cursor":"xyz"}`, ErrBadInput},
		{"references", `{"qname":"App\\C1::run","cursor":"` + fixtureCursor("callers", 5) + `"}`, ErrBadInput},
		{"impact", `{"qname":"App\\C1::run","list":"nope"}`, ErrBadInput},
		{"impact", `{"qname":"App\\C1::run","list":"tables","cursor":"` + fixtureCursor("impact.files", 5) + `"}`, ErrBadInput},
		{"schema", `{"limit":501}`, ErrBadInput},
		{"entry_points", `{"limit":1001}`, ErrBadInput},
		{"references", `{"qname":"App\\C1::run","kinds":["contains"]}`, ErrBadInput},
		{"references", `{"id":"n00000000000000000000000000000000"}`, ErrUnknownID},
		{"references", `{"id":"12"}`, ErrBadInput},
		{"repo_map", `{"budget_tokens":5}`, ErrBadInput},
		{"search", `{"query":"x","path_glob":"[a"}`, ErrBadInput},
		{"outline", `{"path":"../etc/passwd"}`, ErrPathOutside},
		{"outline", `{"path":"/etc/passwd"}`, ErrPathOutside},
		{"code", `{"path":"src/../../x.php"}`, ErrPathOutside},
		{"live_read", `{"path":"link/secret.php"}`, ErrPathOutside},
		{"live_read", `{"path":"` + filepath.ToSlash(filepath.Join(outside, "secret.php")) + `"}`, ErrPathOutside},
		{"repo_map", `{"focus":["../x"]}`, ErrPathOutside},
		{"nope", `{}`, ErrUnknownOp},
	}
	for _, c := range cases {
		_, err := s.Call(context.Background(), c.op, []byte(c.args))
		if fe := AsError(errOr(err)); fe.Code != c.code {
			t.Errorf("%s %s: got %v, want %s", c.op, c.args, err, c.code)
		}
	}
	// an absolute path inside the project is accepted
	abs, _ := json.Marshal(map[string]string{"path": filepath.ToSlash(filepath.Join(root, "src/C1.php"))})
	if env, err := s.Call(context.Background(), "outline", abs); err != nil || env.NotFound {
		t.Errorf("absolute path inside the project: %v", err)
	}
}

func TestNFR12_Deterministic(t *testing.T) {
	s, root := newTestService(t)
	s2, err := New(root, Options{})
	must(t, err)
	defer s2.Close()
	for _, c := range opCases {
		for _, args := range []string{c.valid, c.empty} {
			if args == "" {
				continue
			}
			a := encode(t, call(t, s, c.op, args))
			b := encode(t, call(t, s2, c.op, args))
			// the ledger check time moves between calls; the facts must not
			a = checkedAt.ReplaceAll(a, nil)
			b = checkedAt.ReplaceAll(b, nil)
			if !bytes.Equal(a, b) {
				t.Errorf("%s %s: answers differ", c.op, args)
			}
		}
	}
}

var checkedAt = regexp.MustCompile(`"ledger_checked_at": "[^"]*"`)

func hashDir(t testing.TB, dir string) map[string]string {
	out := map[string]string{}
	ents, err := os.ReadDir(dir)
	must(t, err)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		must(t, err)
		sum := sha256.Sum256(b)
		out[e.Name()] = hex.EncodeToString(sum[:])
	}
	return out
}

func TestFT24_ReadsLeaveStoresUnchanged(t *testing.T) {
	s, root := newTestService(t)
	dir := rev.Layout{Root: root}.Rev("rev-0001")
	before := hashDir(t, dir)
	for i := 0; i < 1000; i++ {
		c := opCases[i%len(opCases)]
		call(t, s, c.op, c.valid)
	}
	s.Close()
	after := hashDir(t, dir)
	if len(before) != len(after) {
		t.Fatalf("files changed: %v -> %v", before, after)
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed after 1000 reads", k)
		}
	}
}

func TestFT18_ImpactHardSoft(t *testing.T) {
	s, _ := newTestService(t)
	env := call(t, s, "impact", `{"qname":"App\\C0::run","depth":1}`)
	res := env.Result.(ImpactResult)
	names := func(items []ImpactItem) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.QName)
		}
		return out
	}
	if got := strings.Join(names(res.Hard.Symbols), ","); got != `App\C1::run` {
		t.Errorf("hard = %s", got)
	}
	if got := strings.Join(names(res.Soft.Symbols), ","); got != `App\C2::run` {
		t.Errorf("soft = %s", got)
	}
	env = call(t, s, "impact", `{"qname":"App\\C0::run","depth":3}`)
	res = env.Result.(ImpactResult)
	for _, it := range res.Hard.Symbols {
		for _, st := range it.Chain {
			if st.Provenance != "stated" {
				t.Errorf("hard item %s has a %s step", it.QName, st.Provenance)
			}
		}
		if len(it.Chain) != it.Depth || it.Chain[len(it.Chain)-1].To != res.Targets[0].ID && !isDescendantStep(it.Chain) {
			t.Errorf("chain of %s does not end at the target", it.QName)
		}
	}
	for _, it := range res.Soft.Symbols {
		derived := false
		for _, st := range it.Chain {
			derived = derived || st.Provenance == "derived"
		}
		if !derived {
			t.Errorf("soft item %s has only stated steps", it.QName)
		}
	}
	if len(res.Hard.Files) == 0 || res.Hard.EntryPoints == nil || res.Hard.Tables == nil || res.Hard.Tests == nil {
		t.Errorf("hard block incomplete: %+v", res.Hard)
	}
	env = call(t, s, "impact", `{"qname":"App\\C0::run","depth":3,"mode":"hard"}`)
	if r := env.Result.(ImpactResult); len(r.Soft.Symbols) != 0 {
		t.Errorf("mode hard returned soft items")
	}
	// a file: its definitions' users
	env = call(t, s, "impact", `{"path":"src/Base.php","depth":1}`)
	if r := env.Result.(ImpactResult); len(r.Hard.Symbols) < 10 {
		t.Errorf("impact of src/Base.php: %d hard symbols", len(r.Hard.Symbols))
	}
}

func isDescendantStep([]Step) bool { return false }

func TestFT20_RepoMapBudget(t *testing.T) {
	s, _, _ := newFixtureService(t, 400, 0)
	for _, budget := range []int{500, 1000, 2000, 8000} {
		env := call(t, s, "repo_map", `{"budget_tokens":`+itoa(budget)+`}`)
		r := env.Result.(RepoMapResult)
		n, err := CountTokens(r.Text)
		must(t, err)
		if n != r.Tokens {
			t.Errorf("budget %d: reported %d tokens, text has %d", budget, r.Tokens, n)
		}
		if n > budget || n < budget*9/10 {
			t.Errorf("budget %d: map has %d tokens", budget, n)
		}
		if strings.Contains(r.Text, "line 6") { // generated bodies say "// path line N"
			t.Errorf("map shows bodies")
		}
	}
	// focus moves the focused file to the top
	env := call(t, s, "repo_map", `{"budget_tokens":500,"focus":["src/C123.php"]}`)
	if r := env.Result.(RepoMapResult); len(r.Files) == 0 || r.Files[0].Path != "src/C123.php" {
		t.Errorf("focus: first file %v", r.Files)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestReferencesPagingLargeFanIn(t *testing.T) {
	s, _, _ := newFixtureService(t, 3, 10000)
	start := time.Now()
	env := call(t, s, "references", `{"qname":"App\\hot"}`)
	el := time.Since(start)
	if env.Limits.Total != 10000 || env.Limits.Returned != defaultLimit || !env.Limits.Truncated {
		t.Fatalf("limits %+v", env.Limits)
	}
	if el > 2*time.Second {
		t.Errorf("first page took %v", el)
	}
	seen := map[int]bool{}
	cursor := ""
	for page := 0; page < 3; page++ {
		args, _ := json.Marshal(map[string]any{"qname": `App\hot`, "limit": 100, "cursor": cursor})
		env = call(t, s, "references", string(args))
		for _, u := range env.Result.(ReferencesResult).Uses {
			if seen[u.Line] {
				t.Fatalf("line %d on two pages", u.Line)
			}
			seen[u.Line] = true
		}
		cursor = env.Limits.Cursor
	}
	if len(seen) != 300 {
		t.Errorf("3 pages gave %d uses", len(seen))
	}
}

// TestCallersPagingLargeFanIn: callers of a function with thousands of
// callers are ordered by depth and place before a page is cut, so pages are
// disjoint, in order, and two half pages equal one whole page.
func TestCallersPagingLargeFanIn(t *testing.T) {
	// 300 functions in two files, each calling App\hot
	f := genFixture(3, 0)
	var hot string
	for _, n := range f.nodes {
		if n.QName == `App\hot` {
			hot = n.ID
		}
	}
	for i := 299; i >= 0; i-- {
		path := fmt.Sprintf("src/callers%d.php", i%2)
		if f.files[path] == "" {
			f.files[path] = "<?php\n" + strings.Repeat("// caller\n", 400)
		}
		fn := f.node(fact.Function, fmt.Sprintf(`App\caller%d`, i), fmt.Sprintf("caller%d", i), path, 2+i, 2+i, "", "function caller()")
		prov := fact.Stated
		if i%3 == 0 {
			prov = fact.Derived
		}
		f.edge(fact.Calls, fn, hot, path, 400-i, prov) // call sites in the reverse order of the callers
	}
	root := t.TempDir()
	f.publish(t, root, "rev-0001")
	s, err := New(root, Options{})
	must(t, err)
	t.Cleanup(func() { s.Close() })
	page := func(limit int, cursor string) ([]Call, Limits) {
		args, _ := json.Marshal(map[string]any{"qname": `App\hot`, "limit": limit, "cursor": cursor})
		env := call(t, s, "callers", string(args))
		r := env.Result.(CallsResult)
		return append(r.Stated, r.Derived...), env.Limits
	}
	whole, lim := page(250, "") // 200 stated, then 50 of the 100 derived
	if lim.Total != 300 || len(whole) != 250 {
		t.Fatalf("first page: %d calls of %d", len(whole), lim.Total)
	}
	first, lim := page(125, "")
	second, _ := page(125, lim.Cursor)
	halves := append(first, second...)
	for i := range whole {
		if whole[i].ID != halves[i].ID || whole[i].SiteLine != halves[i].SiteLine {
			t.Fatalf("call %d: whole page %s:%d, halves %s:%d", i, whole[i].ID, whole[i].SiteLine, halves[i].ID, halves[i].SiteLine)
		}
	}
	for i := 1; i < len(whole); i++ {
		a, b := whole[i-1], whole[i]
		if a.Provenance != b.Provenance {
			continue
		}
		if a.Depth > b.Depth || a.Depth == b.Depth && (a.Path > b.Path || a.Path == b.Path && (a.Line > b.Line || a.Line == b.Line && a.ID >= b.ID)) {
			t.Fatalf("calls %d and %d out of order: %+v then %+v", i-1, i, a.Symbol, b.Symbol)
		}
	}
}

func TestNewRevisionWithoutRestart(t *testing.T) {
	s, _ := newTestService(t)
	if env := call(t, s, "symbol", `{"name":"C5"}`); env.IndexRev != "rev-0001" || env.NotFound {
		t.Fatalf("before: %s not_found=%v", env.IndexRev, env.NotFound)
	}
	genFixture(3, 0).publish(t, s.Root(), "rev-0002")
	env := call(t, s, "symbol", `{"name":"C5"}`)
	if env.IndexRev != "rev-0002" || !env.NotFound {
		t.Errorf("after: %s not_found=%v", env.IndexRev, env.NotFound)
	}
}

// TestFT17_FactsHaveValidLines checks that every path and line in the
// answers lies inside the indexed file.
func TestFT17_FactsHaveValidLines(t *testing.T) {
	s, _ := newTestService(t)
	var facts []Fact
	for _, c := range opCases {
		if c.op == "live_read" {
			continue // current lines, not indexed ones
		}
		facts = append(facts, CollectFacts(call(t, s, c.op, c.valid).Result)...)
	}
	if len(facts) < 50 {
		t.Fatalf("only %d facts", len(facts))
	}
	snap, release, err := s.acquire(context.Background())
	must(t, err)
	defer release()
	for _, f := range facts {
		if err := checkFact(context.Background(), snap, f); err != nil {
			t.Error(err)
		}
	}
}

func TestCodeStaleAndLiveRead(t *testing.T) {
	s, root := newTestService(t)
	env := call(t, s, "code", `{"qname":"App\\C1::run"}`)
	r := env.Result.(CodeResult)
	if r.Stale || r.Line != 5 || r.EndLine != 10 || !strings.HasPrefix(r.Text, "// src/C1.php line 5\n") {
		t.Fatalf("code: %+v", r)
	}
	p := filepath.Join(root, "src", "C1.php")
	b, _ := os.ReadFile(p)
	lines := strings.SplitAfter(string(b), "\n")
	lines[6] = "changed\nadded\n"
	must(t, os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644))
	if r := call(t, s, "code", `{"qname":"App\\C1::run"}`).Result.(CodeResult); !r.Stale || r.FileState != "modified" {
		t.Errorf("code after edit: stale=%v state=%s", r.Stale, r.FileState)
	}
	env = call(t, s, "live_read", `{"path":"src/C1.php"}`)
	lr := env.Result.(LiveReadResult)
	if env.Provenance != "mixed" || !lr.Changed || len(lr.Hunks) != 1 {
		t.Fatalf("live_read: %s %+v", env.Provenance, lr)
	}
	if h := lr.Hunks[0]; h != (Hunk{Line: 7, EndLine: 8, IndexedLine: 7, IndexedEndLine: 7}) {
		t.Errorf("hunk %+v", h)
	}
}

func TestSearchScoresAndFilters(t *testing.T) {
	s, _ := newTestService(t)
	env := call(t, s, "search", `{"query":"helper","kind":"method","path_glob":"src/C1*.php"}`)
	hits := env.Result.(SearchResult).Hits
	if len(hits) != 1 || hits[0].QName != `App\C1::helper` || hits[0].Score.ExactBoost != 2 || hits[0].Score.Total <= 0 {
		t.Fatalf("hits %+v", hits)
	}
	root := t.TempDir()
	f := genFixture(3, 0)
	f.noVectors = true
	f.publish(t, root, "rev-0001")
	old, err := New(root, Options{})
	must(t, err)
	defer old.Close()
	env = call(t, old, "search", `{"query":"shipping rates","mode":"semantic"}`)
	r := env.Result.(SearchResult)
	if r.Mode != "lexical" || !strings.Contains(r.Fallback, "vectors") || len(r.Hits) == 0 || env.Capability.Vectors {
		t.Errorf("semantic fallback: %+v", r)
	}
}

// TestImpactListsAreBounded: impact pages its symbols and lists at most the
// page's limit of files (most impacted first) with the total, so a function
// used everywhere gives a small answer.
func TestImpactListsAreBounded(t *testing.T) {
	f := genFixture(3, 0)
	var hot string
	for _, n := range f.nodes {
		if n.QName == `App\hot` {
			hot = n.ID
		}
	}
	// 60 files; file i holds i%3+1 callers of App\hot
	for i := range 60 {
		path := fmt.Sprintf("src/use%02d.php", i)
		f.files[path] = "<?php\n" + strings.Repeat("// use\n", 10)
		for j := range i%3 + 1 {
			fn := f.node(fact.Function, fmt.Sprintf(`App\use%d_%d`, i, j), fmt.Sprintf("use%d_%d", i, j), path, 2+2*j, 3+2*j, "", "function u()")
			f.edge(fact.Calls, fn, hot, path, 2+2*j, fact.Stated)
		}
	}
	root := t.TempDir()
	f.publish(t, root, "rev-0001")
	s, err := New(root, Options{})
	must(t, err)
	t.Cleanup(func() { s.Close() })
	env := call(t, s, "impact", `{"qname":"App\\hot","depth":1,"limit":10}`)
	r := env.Result.(ImpactResult)
	if env.Limits.Total != 120 || len(r.Hard.Symbols) != 10 || !env.Limits.Truncated {
		t.Fatalf("symbols: %d shown of %d (%+v)", len(r.Hard.Symbols), env.Limits.Total, env.Limits)
	}
	if r.Hard.FilesTotal != 60 || len(r.Hard.Files) != 10 {
		t.Fatalf("files: %d shown, total %d", len(r.Hard.Files), r.Hard.FilesTotal)
	}
	for _, fl := range r.Hard.Files {
		if fl.Symbols != 3 {
			t.Errorf("file %s with %d impacted definitions shown before those with 3", fl.Path, fl.Symbols)
		}
	}
}
