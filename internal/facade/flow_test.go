package facade

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

// dataflowCases is a file of hand-annotated cases: testdata/dataflow/cases.yaml
// over testdata/dataflow/src, shop.yaml over examples/shop.
type dataflowCases struct {
	Flows  []flowCase  `yaml:"flows"`
	Slices []sliceCase `yaml:"slices"`
}

// A flowCase is the truth about one flow, read from the code. Miss names why
// the engine does not find it yet: the case then only checks that the answer
// does not claim absence (complete must be false), and is counted.
type flowCase struct {
	Name       string         `yaml:"name"`
	Args       map[string]any `yaml:"args"`
	Found      bool           `yaml:"found"`
	Complete   *bool          `yaml:"complete"`
	Lines      []string       `yaml:"lines"`
	Sanitizers []string       `yaml:"sanitizers"`
	Edges      []string       `yaml:"edges"`
	Via        []string       `yaml:"via"`
	Cuts       []string       `yaml:"cuts"`
	Miss       string         `yaml:"miss"`
}

// A sliceCase is the truth about one slice. MissLines are lines of the truth
// the engine does not reach yet, for the reason Miss: they are logged, not
// required.
type sliceCase struct {
	Name      string         `yaml:"name"`
	Args      map[string]any `yaml:"args"`
	Lines     []string       `yaml:"lines"`
	NotLines  []string       `yaml:"not_lines"`
	Functions []string       `yaml:"functions"`
	Edges     []string       `yaml:"edges"`
	NotFound  bool           `yaml:"not_found"`
	MissLines []string       `yaml:"miss_lines"`
	Miss      string         `yaml:"miss"`
}

// dataflowProject indexes a copy of testdata/dataflow/src.
func dataflowProject(t *testing.T) *Service {
	t.Helper()
	root := t.TempDir()
	src := filepath.Join("testdata", "dataflow", "src")
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func loadCases(t *testing.T, file ...string) dataflowCases {
	t.Helper()
	name := "cases.yaml"
	if len(file) > 0 {
		name = file[0]
	}
	b, err := os.ReadFile(filepath.Join("testdata", "dataflow", name))
	if err != nil {
		t.Fatal(err)
	}
	var c dataflowCases
	if err := yaml.UnmarshalWithOptions(b, &c, yaml.Strict()); err != nil {
		t.Fatal(err)
	}
	return c
}

func dfCall(t *testing.T, s *Service, op string, args map[string]any) *Envelope {
	t.Helper()
	raw, _ := json.Marshal(args)
	env, err := s.Call(context.Background(), op, raw)
	if err != nil {
		t.Fatalf("%s %s: %v", op, raw, err)
	}
	return env
}

// untimed gives a fixture's query the largest time budget: on a loaded host
// the default (dataflow.max_ms) can stop a long query, and an answer cut by
// the clock says nothing about the engine. The state budget still holds.
func untimed(args map[string]any) map[string]any {
	out := map[string]any{"max_ms": 10000}
	for k, v := range args {
		out[k] = v
	}
	return out
}

// subsequence reports whether want appears in got in order.
func subsequence(got, want []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

func placeOf(p string, l int) string { return fmt.Sprintf("%s:%d", p, l) }

// TestFT43_FlowFixtures checks the hand-annotated flows: the path's places in
// order, its edge kinds and sanitizers, and for no path whether the answer
// may be read as absence (complete) with the cut points that say why not.
func TestFT43_FlowFixtures(t *testing.T) {
	checkFlows(t, dataflowProject(t), loadCases(t).Flows, 10)
}

// TestFT43_FlowFixturesOnShop checks the flows annotated on examples/shop,
// across its controllers, repositories and the database connection.
func TestFT43_FlowFixturesOnShop(t *testing.T) {
	checkFlows(t, shop(t), loadCases(t, "shop.yaml").Flows, 10)
}

func checkFlows(t *testing.T, s *Service, flows []flowCase, least int) {
	t.Helper()
	if len(flows) < least {
		t.Fatalf("%d flow fixtures, want at least %d", len(flows), least)
	}
	missed := 0
	for _, c := range flows {
		t.Run(c.Name, func(t *testing.T) {
			env := dfCall(t, s, "flow", untimed(c.Args))
			r := env.Result.(FlowResult)
			var lines, edges, via []string
			for _, st := range r.Path {
				if pl := placeOf(st.Path, st.Line); len(lines) == 0 || lines[len(lines)-1] != pl {
					lines = append(lines, pl)
				}
				if st.Edge != "" {
					edges = append(edges, st.Edge)
				}
				if st.Via != nil {
					via = append(via, st.Via.CallSite)
				}
			}
			var cuts []string
			for _, cp := range r.CutPoints {
				cuts = append(cuts, cp.Reason)
			}
			if c.Miss != "" && !r.Found {
				// A known miss must still not read as absence.
				missed++
				if r.Complete {
					t.Errorf("misses a flow (%s) and claims complete: true", c.Miss)
				}
				t.Logf("known miss: %s (cuts %v)", c.Miss, cuts)
				return
			}
			if c.Miss != "" {
				t.Logf("found now, the miss is fixed: %s", c.Miss)
			}
			if r.Found != c.Found {
				t.Fatalf("found = %v, want %v (path %v, cuts %v)", r.Found, c.Found, lines, cuts)
			}
			if c.Complete != nil && r.Complete != *c.Complete {
				t.Errorf("complete = %v, want %v (cuts %v)", r.Complete, *c.Complete, cuts)
			}
			if !subsequence(lines, c.Lines) {
				t.Errorf("path %v, want %v in order", lines, c.Lines)
			}
			if c.Sanitizers != nil && !slices.Equal(r.Sanitizers, c.Sanitizers) {
				t.Errorf("sanitizers %v, want %v", r.Sanitizers, c.Sanitizers)
			}
			for _, e := range c.Edges {
				if !slices.Contains(edges, e) {
					t.Errorf("edges %v, want %s among them", edges, e)
				}
			}
			for _, v := range c.Via {
				if !slices.Contains(via, v) {
					t.Errorf("call sites %v, want %s", via, v)
				}
			}
			for _, cu := range c.Cuts {
				if !slices.Contains(cuts, cu) {
					t.Errorf("cut points %v, want %q", cuts, cu)
				}
			}
			if r.Found {
				for _, st := range r.Path {
					if st.Line < 1 || st.Path == "" || st.Location == "" {
						t.Errorf("step without a place: %+v", st)
					}
				}
			}
		})
	}
	t.Logf("%d flows, %d known misses", len(flows), missed)
}

// TestFT41_SliceFixtures checks the hand-annotated slices: the statements a
// value depends on (or reaches) and those it does not.
func TestFT41_SliceFixtures(t *testing.T) {
	checkSlices(t, dataflowProject(t), loadCases(t).Slices, 10)
}

// TestFT41_SliceFixturesOnShop checks the slices annotated on examples/shop.
func TestFT41_SliceFixturesOnShop(t *testing.T) {
	checkSlices(t, shop(t), loadCases(t, "shop.yaml").Slices, 10)
}

func checkSlices(t *testing.T, s *Service, cases []sliceCase, least int) {
	t.Helper()
	if len(cases) < least {
		t.Fatalf("%d slice fixtures, want at least %d", len(cases), least)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			args := c.Args
			if q, ok := args["qname"]; ok {
				env := dfCall(t, s, "symbol", map[string]any{"qname": q})
				syms := env.Result.(SymbolResult).Symbols
				if len(syms) != 1 {
					t.Fatalf("symbol %v: %d matches", q, len(syms))
				}
				args = map[string]any{"id": syms[0].ID}
			}
			args["limit"] = 500
			env := dfCall(t, s, "slice", untimed(args))
			r := env.Result.(SliceResult)
			if env.NotFound != c.NotFound {
				t.Fatalf("not_found = %v, want %v", env.NotFound, c.NotFound)
			}
			got := map[string]bool{}
			for _, n := range r.Nodes {
				got[placeOf(n.Path, n.Line)] = true
			}
			for _, l := range c.Lines {
				if !got[l] {
					t.Errorf("slice lacks %s; has %v", l, keysOf(got))
				}
			}
			for _, l := range c.MissLines {
				if got[l] {
					t.Logf("reaches %s now, the miss is fixed: %s", l, c.Miss)
				} else {
					t.Logf("known miss %s: %s", l, c.Miss)
				}
			}
			for _, l := range c.NotLines {
				if got[l] {
					t.Errorf("slice has %s, which the value does not depend on", l)
				}
			}
			var fns []string
			for _, f := range r.Functions {
				fns = append(fns, f.QName)
			}
			for _, f := range c.Functions {
				if !slices.Contains(fns, f) {
					t.Errorf("functions %v, want %s", fns, f)
				}
			}
			var kinds []string
			for _, e := range r.Edges {
				kinds = append(kinds, e.Kind)
			}
			for _, k := range c.Edges {
				if !slices.Contains(kinds, k) {
					t.Errorf("edge kinds %v, want %s", kinds, k)
				}
			}
			// edges use the nodes' indexes in the whole slice, which may
			// span pages; an edge comes with the page of its target
			onPage := map[int]bool{}
			for _, n := range r.Nodes {
				onPage[n.Index] = true
			}
			for _, e := range r.Edges {
				if e.From < 0 || e.From >= env.Limits.Total || !onPage[e.To] {
					t.Errorf("edge %+v refers past the %d nodes or off its page", e, env.Limits.Total)
				}
			}
		})
	}
}

// TestFT43_DataflowFixturesOnCorpora checks the flows and slices annotated
// on the Debian corpora (testdata/dataflow/corpora.yaml: at least 10 of
// each in all), on a copy of each corpus indexed here. It skips a corpus
// that is absent (../shared/corpora/get.sh fetches them) and in -short.
func TestFT43_DataflowFixturesOnCorpora(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the corpora")
	}
	b, err := os.ReadFile(filepath.Join("testdata", "dataflow", "corpora.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]dataflowCases
	if err := yaml.UnmarshalWithOptions(b, &all, yaml.Strict()); err != nil {
		t.Fatal(err)
	}
	flows, slices := 0, 0
	for _, c := range all {
		flows, slices = flows+len(c.Flows), slices+len(c.Slices)
	}
	if flows < 10 || slices < 10 {
		t.Fatalf("%d flows and %d slices annotated on the corpora, want at least 10 of each", flows, slices)
	}
	home, _ := os.UserHomeDir()
	for _, name := range []string{"wordpress", "phpmyadmin", "laravel"} {
		t.Run(name, func(t *testing.T) {
			src := filepath.Join(home, ".cache", "ragraf-corpora", name)
			if _, err := os.Stat(src); err != nil {
				t.Skipf("corpus %s absent: %v", name, err)
			}
			root := filepath.Join(t.TempDir(), name)
			if err := os.CopyFS(root, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(filepath.Join(root, rev.Dir)); err != nil {
				t.Fatal(err)
			}
			if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
				t.Fatal(err)
			}
			s, err := New(root, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			t.Run("flows", func(t *testing.T) { checkFlows(t, s, all[name].Flows, 1) })
			t.Run("slices", func(t *testing.T) { checkSlices(t, s, all[name].Slices, 1) })
		})
	}
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// BenchmarkDataflowWordPress times slice (backward from a function's
// returns) and flow (from its parameters to sink:sql) on the WordPress
// corpus, over the functions CorpusRequests asks about; p95 is the budget's
// figure (ARCHITECTURE.md §10: 200 ms). RAGRAF_BENCH_WORDPRESS names an
// indexed copy of the corpus elsewhere.
func BenchmarkDataflowWordPress(b *testing.B) {
	home, _ := os.UserHomeDir()
	root := filepath.Join(home, ".cache", "ragraf-corpora", "wordpress")
	if r := os.Getenv("RAGRAF_BENCH_WORDPRESS"); r != "" {
		root = r
	}
	if _, err := os.Stat(rev.Layout{Root: root}.Current()); err != nil {
		b.Skip("no indexed wordpress corpus")
	}
	ctx := context.Background()
	s, err := New(root, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	reqs, err := CorpusRequests(ctx, s)
	if err != nil {
		b.Skip(err)
	}
	var ids []string
	for _, r := range reqs["references"] {
		var a struct{ ID string }
		if json.Unmarshal([]byte(r), &a) == nil && !slices.Contains(ids, a.ID) {
			ids = append(ids, a.ID)
		}
	}
	for _, op := range []string{"slice", "flow", "slice-warm"} {
		b.Run(op, func(b *testing.B) {
			op := strings.TrimSuffix(op, "-warm")
			percentiles(b, func(i int) {
				id := ids[i%len(ids)]
				args := fmt.Sprintf(`{"id":%q}`, id)
				if op == "flow" {
					args = fmt.Sprintf(`{"from":%q,"to":"sink:sql"}`, id)
				}
				if _, err := s.Call(ctx, op, []byte(args)); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}
