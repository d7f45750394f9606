package facade

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/dataflow"
	"github.com/ragraf/ragraf/internal/rev"
)

// dfProject indexes files (name -> PHP source) with the project config yaml
// ("" for none) written where the facade reads it.
func dfProject(t *testing.T, yaml string, files map[string]string) *Service {
	t.Helper()
	root := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := config.Default()
	if yaml != "" {
		l := rev.Layout{Root: root}
		if err := os.MkdirAll(filepath.Dir(l.Config()), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(l.Config(), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		var err error
		if cfg, err = config.Load(l.Config()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: cfg}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// twoFiles: a request value in b.php reaches a query in a function of a.php.
var twoFiles = map[string]string{
	"a.php": "<?php\nfunction run_q($c, $x) {\n\t$q = \"SELECT \" . $x;\n\tmysqli_query($c, $q);\n\t$n = 1;\n\treturn $n;\n}\n",
	"b.php": "<?php\n$id = $_GET['id'];\nrun_q($conn, $id);\n",
}

func cutReasons(cs []DataCut) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Reason)
	}
	return out
}

// TestNFR8_DataflowCacheLRU: the cache of lowered files stays within its
// bound, dropping the least recently used file first; a file larger than the
// bound is answered but not kept.
func TestNFR8_DataflowCacheLRU(t *testing.T) {
	c := newDFCache(config.Default().DataFlow)
	c.max = 1000
	c.put(&dfFile{path: "a", size: 400})
	c.put(&dfFile{path: "b", size: 400})
	if _, ok := c.get("a"); !ok { // a is now the most recent
		t.Fatal("a not cached")
	}
	c.put(&dfFile{path: "c", size: 400})
	if _, ok := c.get("b"); ok {
		t.Error("b kept: the least recently used file should go first")
	}
	for _, p := range []string{"a", "c"} {
		if _, ok := c.get(p); !ok {
			t.Errorf("%s dropped", p)
		}
	}
	if n, size := c.stats(); n != 2 || size != 800 {
		t.Errorf("%d files, %d bytes; want 2, 800", n, size)
	}
	big := &dfFile{path: "big", size: 1001}
	if got := c.put(big); got != big {
		t.Error("put of a file over the bound should return it")
	}
	if _, ok := c.get("big"); ok {
		t.Error("a file over the whole bound is kept")
	}
	if _, size := c.stats(); size > c.max {
		t.Errorf("cache holds %d bytes, bound %d", size, c.max)
	}
}

// TestNFR8_DataflowCacheShared: the second query on a revision lowers
// nothing again: it gets the very functions the first lowered.
func TestNFR8_DataflowCacheShared(t *testing.T) {
	s := dfProject(t, "", twoFiles)
	dfCall(t, s, "flow", map[string]any{"from": "b.php:2", "to": "sink:sql"})
	snap, release, err := s.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	c := s.dfCacheOf(snap)
	first, ok := c.get("a.php")
	if !ok || len(first.funcs) < 2 {
		t.Fatalf("a.php not cached after a flow through it: %+v", first)
	}
	n, _ := c.stats()
	env := dfCall(t, s, "flow", map[string]any{"from": "b.php:2", "to": "sink:sql"})
	if !env.Result.(FlowResult).Found {
		t.Fatal("flow b.php:2 -> sink:sql not found")
	}
	again, _ := c.get("a.php")
	if again.funcs[1] != first.funcs[1] {
		t.Error("a.php lowered again by the second query")
	}
	if m, _ := c.stats(); m != n {
		t.Errorf("cache grew from %d to %d files on a repeated query", n, m)
	}
}

// TestNFR8_DataflowMemoryBudget: a query that would hold more lowered code
// than dataflow.max_memory_mb stops there with a partial answer marked
// truncated and a budget cut point, never an error.
func TestNFR8_DataflowMemoryBudget(t *testing.T) {
	s := dfProject(t, "", twoFiles)
	snap, release, err := s.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s.dfCacheOf(snap).max = 1 // every file is over it: only the query's first is held
	release()
	env := dfCall(t, s, "flow", map[string]any{"from": "b.php:2", "to": "sink:sql"})
	r := env.Result.(FlowResult)
	if r.Found || r.Complete || !r.Truncated {
		t.Errorf("found %v complete %v truncated %v; want a truncated partial answer", r.Found, r.Complete, r.Truncated)
	}
	if !slices.Contains(cutReasons(r.CutPoints), "budget: memory") {
		t.Errorf("cut points %v, want budget: memory", cutReasons(r.CutPoints))
	}
	env = dfCall(t, s, "slice", map[string]any{"path": "b.php", "line": 3, "direction": "forward"})
	sr := env.Result.(SliceResult)
	if !sr.Truncated || sr.Complete {
		t.Errorf("slice truncated %v complete %v; want truncated", sr.Truncated, sr.Complete)
	}
}

// TestNFR8_DataflowTooLargeSkipped: a function longer than
// dataflow.max_function_lines is not lowered; a flow into it says so
// (skipped: too_large) instead of reading the absence as a fact.
func TestNFR8_DataflowTooLargeSkipped(t *testing.T) {
	s := dfProject(t, "dataflow:\n  max_function_lines: 3\n", twoFiles)
	env := dfCall(t, s, "flow", map[string]any{"from": "b.php:2", "to": "sink:sql"})
	r := env.Result.(FlowResult)
	if r.Complete {
		t.Errorf("complete with a skipped function on the way (cuts %v)", cutReasons(r.CutPoints))
	}
	if !slices.Contains(cutReasons(r.CutPoints), "skipped: "+dataflow.TooLarge) {
		t.Errorf("cut points %v, want skipped: too_large", cutReasons(r.CutPoints))
	}
	// the same function under the default limit is followed
	s = dfProject(t, "", twoFiles)
	if r := dfCall(t, s, "flow", map[string]any{"from": "b.php:2", "to": "sink:sql"}).Result.(FlowResult); !r.Found {
		t.Errorf("flow into run_q not found under the default limit (cuts %v)", cutReasons(r.CutPoints))
	}
}

// TestNFR8_DataflowMaxMSDefault: a query that names no max_ms gets
// dataflow.max_ms from the config; one that names it keeps its own.
func TestNFR8_DataflowMaxMSDefault(t *testing.T) {
	d := &dfEnv{cache: &dfCache{cfg: config.DataFlowConfig{MaxMS: 7}}}
	if b := d.withDefaults(dataflow.Budget{}); b.MaxMS != 7 {
		t.Errorf("max_ms %d, want the config's 7", b.MaxMS)
	}
	if b := d.withDefaults(dataflow.Budget{MaxMS: 30}); b.MaxMS != 30 {
		t.Errorf("max_ms %d, want the query's 30", b.MaxMS)
	}
	if _, err := checkBudget(DataBudget{MaxMS: 20000}, 2); err == nil {
		t.Error("max_ms 20000 accepted; the range is 1 to 10000")
	}
}

// TestFT12_DataflowDisabled: dataflow.enabled false gives the revision
// capability degraded with the reason, and slice and flow refuse with
// E_CAPABILITY naming it.
func TestFT12_DataflowDisabled(t *testing.T) {
	s := dfProject(t, "dataflow:\n  enabled: false\n", twoFiles)
	env := dfCall(t, s, "status", map[string]any{})
	if c := env.Capability; c.Level != "degraded" || c.Dataflow || !strings.Contains(c.Reason, "dataflow.enabled: false") {
		t.Errorf("capability %+v, want degraded with the dataflow.enabled reason", c)
	}
	for op, args := range map[string]string{
		"slice": `{"path":"b.php","line":2}`,
		"flow":  `{"from":"b.php:2","to":"sink:sql"}`,
	} {
		_, err := s.Call(context.Background(), op, []byte(args))
		e, ok := err.(*Error)
		if !ok || e.Code != ErrCapability || !strings.Contains(e.Message, "dataflow.enabled: false") {
			t.Errorf("%s: error %v, want E_CAPABILITY with the reason", op, err)
		}
	}
	s = dfProject(t, "", twoFiles)
	if c := dfCall(t, s, "status", map[string]any{}).Capability; c.Level != "full" || !c.Dataflow {
		t.Errorf("capability %+v with the engine enabled, want full", c)
	}
}

// storedIR returns the lowered functions the current revision stores for path.
func storedIR(t *testing.T, s *Service, path string) []byte {
	t.Helper()
	snap, release, err := s.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	b, ok, err := snap.graph.Dataflow(context.Background(), path)
	if err != nil || !ok {
		t.Fatalf("no stored data flow for %s: %v", path, err)
	}
	return b
}

// TestNFR8_DataflowStoredPerFile: the build stores each PHP file lowered,
// so queries decode instead of parsing; a reindex after an edit stores the
// edited file's new lowering (the flow it removed is gone) and keeps the
// other file's bytes.
func TestNFR8_DataflowStoredPerFile(t *testing.T) {
	s := dfProject(t, "", twoFiles)
	a, b := storedIR(t, s, "a.php"), storedIR(t, s, "b.php")
	if fs, err := dataflow.Decode(a); err != nil || len(fs) != 2 || fs[1].Name != "run_q" {
		t.Fatalf("a.php stored as %v (%v), want its top level and run_q", fs, err)
	}
	if r := dfCall(t, s, "flow", map[string]any{"from": "b.php:2", "to": "sink:sql"}).Result.(FlowResult); !r.Found {
		t.Fatal("flow into run_q not found")
	}
	edited := strings.Replace(twoFiles["a.php"], "mysqli_query($c, $q);", "mysqli_query($c, \"SELECT 1\");", 1)
	if err := os.WriteFile(filepath.Join(s.root, "a.php"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := rev.Reindex(context.Background(), rev.Options{Root: s.root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	if got := storedIR(t, s, "a.php"); string(got) == string(a) {
		t.Error("a.php's stored lowering unchanged after its edit")
	}
	if got := storedIR(t, s, "b.php"); string(got) != string(b) {
		t.Error("b.php's stored lowering changed though b.php did not")
	}
	if r := dfCall(t, s, "flow", map[string]any{"from": "b.php:2", "to": "sink:sql"}).Result.(FlowResult); r.Found {
		t.Errorf("flow still found after the edit removed it: %+v", r.Path)
	}
}
