package facade

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

// impactDataProject indexes a copy of testdata/impactdata under cfg. Its
// shop.php is read by hand below: Cart::add($price, $qty) passes $price to
// Cart::scale, which passes it to round_price (two calls down); add writes
// Cart::$total, which Cart::summary echoes; add's return value is assigned
// and echoed by checkout.
func impactDataProject(t *testing.T, cfg config.Config) *Service {
	t.Helper()
	root := t.TempDir()
	b, err := os.ReadFile(filepath.Join("testdata", "impactdata", "shop.php"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "shop.php"), b, 0o644); err != nil {
		t.Fatal(err)
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

func impactData(t *testing.T, s *Service, args map[string]any) (*Envelope, *ImpactData) {
	t.Helper()
	a := map[string]any{"data": true}
	for k, v := range args {
		a[k] = v
	}
	env := dfCall(t, s, "impact", untimed(a))
	return env, env.Result.(ImpactResult).Data
}

// readAt finds the read of change at path:line.
func readAt(d *ImpactData, change, place string) *DataRead {
	for i := range d.Reads {
		r := &d.Reads[i]
		if r.Changed == change && at(r.Path, r.Line) == place {
			return r
		}
	}
	return nil
}

func changeNames(d *ImpactData) []string {
	var out []string
	for _, c := range d.Changed {
		out = append(out, c.Kind+" "+c.Name+" "+at(c.Path, c.Line))
	}
	return out
}

// TestFT18_ImpactDataReads: impact on a method lists, besides its callers,
// what reads its parameters (down two calls), the property it writes (in
// another method, derived) and its return value (in the caller), nearest
// first; mode hard keeps only the stated reads; depth bounds the calls
// crossed and says so with a cut point.
func TestFT18_ImpactDataReads(t *testing.T) {
	s := impactDataProject(t, config.Default())
	env, d := impactData(t, s, map[string]any{"qname": "Cart::add", "limit": 100})
	if d == nil || d.Status != DataAvailable {
		t.Fatalf("data block %+v", d)
	}
	want := []string{"parameter $price shop.php:6", "parameter $qty shop.php:6", "property Cart::$total shop.php:8", "return return shop.php:9"}
	if got := changeNames(d); !slices.Equal(got, want) {
		t.Errorf("changed %v, want %v", got, want)
	}
	if env.Result.(ImpactResult).Hard.SymbolsTotal == 0 {
		t.Errorf("the call-graph part is gone: %+v", env.Result.(ImpactResult).Hard)
	}
	for _, c := range []struct {
		change, at, fn, edge, prov string
		depth, calls               int
	}{
		{"$price", "shop.php:7", "Cart::add", "assign", "stated", 1, 0},
		{"$price", "shop.php:12", "Cart::scale", "arg", "stated", 2, 1},
		{"$price", "shop.php:21", "round_price", "arg", "stated", 4, 2},
		{"$price", "shop.php:22", "round_price", "assign", "stated", 5, 2},
		{"Cart::$total", "shop.php:17", "Cart::summary", "load", "derived", 1, 0},
		{"return", "shop.php:26", "checkout", "ret", "stated", 1, 1},
		{"return", "shop.php:27", "checkout", "assign", "stated", 3, 1},
	} {
		r := readAt(d, c.change, c.at)
		if r == nil {
			t.Errorf("no read of %s at %s in %v", c.change, c.at, d.Reads)
			continue
		}
		if r.FunctionName != c.fn || r.Edge != c.edge || r.Provenance != c.prov || r.Depth != c.depth || r.Calls != c.calls || len(r.Edges) != r.Depth {
			t.Errorf("read of %s at %s: %s edge %s %s depth %d calls %d edges %v, want %s %s %s %d %d",
				c.change, c.at, r.FunctionName, r.Edge, r.Provenance, r.Depth, r.Calls, r.Edges, c.fn, c.edge, c.prov, c.depth, c.calls)
		}
	}
	if r := readAt(d, "return", "shop.php:26"); r != nil && (r.Via == nil || r.Via.CallSite != "shop.php:26" || r.Via.CalleeName != "Cart::add") {
		t.Errorf("return read via %+v", r.Via)
	}
	if r := readAt(d, "Cart::$total", "shop.php:17"); r != nil && r.Confidence != 0.9 {
		t.Errorf("property read confidence %v, want 0.9", r.Confidence)
	}
	for i := 1; i < len(d.Reads); i++ {
		if d.Reads[i].Depth < d.Reads[i-1].Depth {
			t.Fatalf("reads not nearest first: %d after %d", d.Reads[i].Depth, d.Reads[i-1].Depth)
		}
	}
	if !d.Complete || d.Truncated || d.Total != len(d.Reads) || len(d.CutPoints) != 0 {
		t.Errorf("complete %v truncated %v total %d of %d cuts %v", d.Complete, d.Truncated, d.Total, len(d.Reads), d.CutPoints)
	}
	sum := 0
	for _, c := range d.Changed {
		sum += c.Reads
	}
	if sum != d.Total {
		t.Errorf("changes count %d reads, total %d", sum, d.Total)
	}

	_, hard := impactData(t, s, map[string]any{"qname": "Cart::add", "limit": 100, "mode": "hard"})
	for _, r := range hard.Reads {
		if r.Provenance != "stated" {
			t.Errorf("mode hard lists a derived read: %+v", r)
		}
	}
	if readAt(hard, "return", "shop.php:26") == nil {
		t.Errorf("mode hard lost the stated read of the return value")
	}

	_, shallow := impactData(t, s, map[string]any{"qname": "Cart::add", "limit": 100, "depth": 1})
	for _, r := range shallow.Reads {
		if r.FunctionName == "round_price" {
			t.Errorf("depth 1 crossed two calls: %+v", r)
		}
	}
	if shallow.Complete || !slices.ContainsFunc(shallow.CutPoints, func(c DataCut) bool { return c.Reason == "depth" }) {
		t.Errorf("depth 1: complete %v cuts %v, want a depth cut point", shallow.Complete, shallow.CutPoints)
	}
}

// TestFT18_ImpactDataTargets: a changed line starts from what the line
// defines; a property from its loads; a parameter is read by the methods
// called on it; a class has no values to follow; without data: true there
// is no block, nor on a page of another list.
func TestFT18_ImpactDataTargets(t *testing.T) {
	s := impactDataProject(t, config.Default())
	env, d := impactData(t, s, map[string]any{"path": "shop.php", "line": 8})
	res := env.Result.(ImpactResult)
	if len(res.Targets) != 1 || res.Targets[0].QName != "Cart::add" {
		t.Fatalf("path:line target %+v, want Cart::add", res.Targets)
	}
	if got := changeNames(d); !slices.Equal(got, []string{"property Cart::$total shop.php:8"}) {
		t.Errorf("line 8 changes %v", got)
	}
	if len(d.Reads) != 1 || at(d.Reads[0].Path, d.Reads[0].Line) != "shop.php:17" {
		t.Errorf("line 8 reads %+v", d.Reads)
	}

	_, d = impactData(t, s, map[string]any{"path": "shop.php", "line": 26})
	if got := changeNames(d); !slices.Equal(got, []string{"value $sum shop.php:26"}) {
		t.Errorf("line 26 changes %v", got)
	}
	if readAt(d, "$sum", "shop.php:27") == nil {
		t.Errorf("line 26: no read at 27: %+v", d.Reads)
	}

	sym := dfCall(t, s, "symbol", map[string]any{"qname": "Cart::$total"}).Result.(SymbolResult)
	if len(sym.Symbols) != 1 {
		t.Fatalf("symbol Cart::$total: %+v", sym)
	}
	_, d = impactData(t, s, map[string]any{"id": sym.Symbols[0].ID})
	r := readAt(d, "Cart::$total", "shop.php:17")
	if r == nil || r.Depth != 1 || r.Edge != "load" || r.Provenance != "stated" {
		t.Errorf("property reads %+v", d.Reads)
	}

	// a method called on a parameter reads it: the call's value is
	// followed as a whole (the engine enters the callee by its arguments)
	_, d = impactData(t, s, map[string]any{"qname": "checkout"})
	if r := readAt(d, "$cart", "shop.php:26"); r == nil || r.Kind != "call" || r.Edge != "call" || r.Depth != 1 {
		t.Errorf("receiver read %+v in %+v", r, d.Reads)
	}
	if readAt(d, "$cart", "shop.php:27") == nil {
		t.Errorf("the walk stops at the receiver's call: %+v", d.Reads)
	}

	_, d = impactData(t, s, map[string]any{"qname": "Cart"})
	if d == nil || d.Status != DataNotApplicable || d.Reason == "" {
		t.Errorf("class target: %+v", d)
	}
	if d := dfCall(t, s, "impact", map[string]any{"qname": "Cart::add"}).Result.(ImpactResult).Data; d != nil {
		t.Errorf("data not asked for: %+v", d)
	}
	if _, d = impactData(t, s, map[string]any{"qname": "Cart::add", "list": "files"}); d != nil {
		t.Errorf("a page of files carries the data block: %+v", d)
	}
	if _, err := s.Call(context.Background(), "impact", []byte(`{"qname":"Cart::add","line":3}`)); err == nil {
		t.Errorf("line without path accepted")
	}
}

// TestFT12_ImpactDataUnavailable: on a revision built without data flow,
// impact still answers its call-graph part, and the data block says it is
// unavailable and why instead of listing nothing.
func TestFT12_ImpactDataUnavailable(t *testing.T) {
	cfg := config.Default()
	cfg.DataFlow.Enabled = false
	s := impactDataProject(t, cfg)
	env, d := impactData(t, s, map[string]any{"qname": "Cart::add"})
	if res := env.Result.(ImpactResult); res.Hard.SymbolsTotal == 0 {
		t.Errorf("no callers: %+v", res.Hard)
	}
	if d == nil || d.Status != DataUnavailable || !strings.Contains(d.Reason, "dataflow.enabled") || len(d.Reads) != 0 {
		t.Fatalf("data block %+v", d)
	}
	b, err := json.Marshal(dfCall(t, s, "impact", map[string]any{"qname": "Cart::add", "data": true, "format": "concise"}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"data":{"status":"unavailable","reason":"data-flow engine disabled`) {
		t.Errorf("concise answer: %s", b)
	}
}

// TestNFR8_ImpactDataTruncated: the cap cuts the list (truncated, the total
// still counted, slice suggested to see the rest); a state budget stops the
// walk (truncated, a budget cut point, not complete).
func TestNFR8_ImpactDataTruncated(t *testing.T) {
	s := impactDataProject(t, config.Default())
	env, d := impactData(t, s, map[string]any{"qname": "Cart::add", "limit": 2})
	if len(d.Reads) != 2 || d.Total <= 2 || !d.Truncated || !d.Complete {
		t.Errorf("capped: %d reads of %d, truncated %v, complete %v", len(d.Reads), d.Total, d.Truncated, d.Complete)
	}
	i := slices.IndexFunc(env.Suggest, func(s Suggestion) bool { return s.Op == "slice" })
	if i < 0 {
		t.Fatalf("no slice suggested: %+v", env.Suggest)
	}
	sl := dfCall(t, s, "slice", untimed(env.Suggest[i].Args))
	if sl.NotFound || len(sl.Result.(SliceResult).Nodes) <= 2 {
		t.Errorf("the suggested slice %v finds nothing more: %+v", env.Suggest[i].Args, sl.Result)
	}
	_, d = impactData(t, s, map[string]any{"qname": "Cart::add", "max_states": 1})
	if !d.Truncated || d.Complete || !slices.ContainsFunc(d.CutPoints, func(c DataCut) bool { return c.Reason == "budget" }) {
		t.Errorf("over budget: truncated %v complete %v cuts %v", d.Truncated, d.Complete, d.CutPoints)
	}
}

// TestFT17_ImpactDataConcise: the concise block keeps each read's place,
// function and change, cites only valid places, and drops the edge lists;
// a read on a line changed since the revision is marked stale (FT-28).
func TestFT17_ImpactDataConcise(t *testing.T) {
	s := impactDataProject(t, config.Default())
	env := dfCall(t, s, "impact", untimed(map[string]any{"qname": "Cart::add", "data": true, "format": "concise", "limit": 100}))
	c, ok := env.Result.(ImpactConcise)
	if !ok || c.Data == nil || len(c.Data.Reads) == 0 || len(c.Data.Changed) != 4 {
		t.Fatalf("concise result %#v", env.Result)
	}
	found := false
	for _, r := range c.Data.Reads {
		found = found || (r.Of == "return" && r.At == "shop.php:26" && r.Name == "checkout" && r.Kind == "call" && !r.Derived)
	}
	if !found {
		t.Errorf("concise reads lack the return read at shop.php:26: %+v", c.Data.Reads)
	}
	b, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"edges"`) || strings.Contains(string(b), `"location"`) {
		t.Errorf("concise block holds detailed fields: %s", b)
	}
	errs, err := s.CheckFacts(context.Background(), CollectFacts(c))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Error(e)
	}

	p := filepath.Join(s.Root(), "shop.php")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "echo $this->total;", "echo $this->total . 'x';", 1)
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	env, d := impactData(t, s, map[string]any{"qname": "Cart::add", "limit": 100})
	r := readAt(d, "Cart::$total", "shop.php:17")
	if r == nil || r.Stale == nil || len(env.StaleWarnings) == 0 {
		t.Fatalf("read on the edited line: %+v, warnings %v", r, env.StaleWarnings)
	}
	if r := readAt(d, "return", "shop.php:26"); r == nil || r.Stale != nil {
		t.Errorf("read on an unchanged line: %+v", r)
	}
}
