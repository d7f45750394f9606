package rev

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/dataflow"
)

// summaryOf returns the stored summary of the function or method name in
// revision rev.
func summaryOf(t *testing.T, root, rev, name string) *dataflow.Summary {
	t.Helper()
	g := openGraph(t, root, rev)
	defer g.Close()
	ns, err := g.NodesByName(context.Background(), name)
	if err != nil || len(ns) != 1 {
		t.Fatalf("%s: %d nodes, %v", name, len(ns), err)
	}
	b, ok, err := g.Summary(context.Background(), ns[0].Path)
	if err != nil || !ok {
		t.Fatalf("%s: no summaries stored for %s (%v)", name, ns[0].Path, err)
	}
	_, sums, err := dataflow.DecodeSummaries(b)
	if err != nil {
		t.Fatal(err)
	}
	s := sums[ns[0].ID]
	if s == nil {
		t.Fatalf("%s: no summary", name)
	}
	return s
}

// TestNFR3_ReindexRecomputesOnlyChangedSummaries: a reindex walks the
// functions of the changed file and the ones whose callees' summaries
// changed (their caller in another file), and keeps every other summary;
// mutual recursion settles at its fixpoint; a function nothing calls has
// no summary.
func TestNFR3_ReindexRecomputesOnlyChangedSummaries(t *testing.T) {
	root := writeProject(t, map[string]string{
		"a.php": "<?php\nfunction inner($x) { return trim($x); }\n",
		"b.php": "<?php\nfunction outer($y) { return inner($y); }\n",
		"c.php": "<?php\nfunction ping($n, $v) { if ($n > 0) { return pong($n - 1, $v); } return 0; }\n" +
			"function pong($n, $v) { if ($n > 0) { return ping($n - 1, $v); } return $v; }\n" +
			"function keep($z) { $GLOBALS['kept'] = $z; return 1; }\n",
		"d.php": "<?php\necho outer($_GET['a']), ping(3, $_GET['b']), keep($_GET['c']);\n",
	})
	first := build(t, root, config.Default(), 0)
	if first.Summaries == nil || first.Summaries.Functions == 0 || first.Summaries.Reused != 0 {
		t.Fatalf("first build's summaries: %+v", first.Summaries)
	}
	if first.Summaries.Components != 1 || first.Summaries.Capped != 0 {
		t.Errorf("ping/pong: %d recursive components, %d capped; want 1 and 0", first.Summaries.Components, first.Summaries.Capped)
	}
	if s := summaryOf(t, root, first.Rev, "outer"); !s.Params[0].Return || s.Params[0].Open {
		t.Errorf("outer's parameter: %+v, want it to reach the return and nothing else", s.Params[0])
	}
	for _, fn := range []string{"ping", "pong"} {
		s := summaryOf(t, root, first.Rev, fn)
		if !s.Params[1].Return || s.Params[0].Return {
			t.Errorf("%s: %+v, want $v (not $n) to reach the return through the recursion", fn, s.Params)
		}
	}
	if s := summaryOf(t, root, first.Rev, "keep"); !s.Params[0].Open || s.Params[0].Return {
		t.Errorf("keep's parameter: %+v, want it open (a global) and not returned", s.Params[0])
	}

	if err := os.WriteFile(filepath.Join(root, "a.php"), []byte("<?php\nfunction inner($x) { return 42; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	second := build(t, root, config.Default(), 0)
	if second.Summaries == nil {
		t.Fatal("no summaries")
	}
	// walked again: inner (changed) and outer (its callee's summary
	// changed); kept: the rest (top levels and functions nothing calls
	// have no summary)
	if got, want := second.Summaries.Functions-second.Summaries.Reused, 2; got != want {
		t.Errorf("%d summaries computed again (of %d), want %d", got, second.Summaries.Functions, want)
	}
	if s := summaryOf(t, root, second.Rev, "outer"); s.Params[0].Return {
		t.Errorf("outer's parameter still reaches its return after inner stopped returning it: %+v", s.Params[0])
	}
	if first.Summaries.Functions != 5 || second.Summaries.Functions != 5 {
		t.Errorf("functions %d then %d, want the 5 called ones (inner, outer, ping, pong, keep)", first.Summaries.Functions, second.Summaries.Functions)
	}
}

// TestFT43_LateStaticCallLeavesSummaryOpen: a summary does not claim what a
// `static::` call does, since a query also follows the overrides late static
// binding may run, which the build's links do not hold.
func TestFT43_LateStaticCallLeavesSummaryOpen(t *testing.T) {
	root := writeProject(t, map[string]string{
		"a.php": "<?php\nclass A {\n  static function run($v) { return static::make($v); }\n  static function make($v) { return 1; }\n}\n" +
			"class B extends A {\n  static function make($v) { return $v; }\n}\necho B::run($_GET['x']);\n",
	})
	info := build(t, root, config.Default(), 0)
	s := summaryOf(t, root, info.Rev, "run")
	if !s.Params[0].Open || !s.Ret.Open {
		t.Errorf("run's summary %+v: want its parameter and return open past the static:: call", *s)
	}
}
