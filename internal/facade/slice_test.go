package facade

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFT14_SliceAndFlowValidAndEmpty: a criterion with values answers with
// nodes and limits; a line without any answers not_found with a suggestion
// of code around it (FT-21); a flow without a path is found: false.
func TestFT14_SliceAndFlowValidAndEmpty(t *testing.T) {
	s := dataflowProject(t)
	env := dfCall(t, s, "slice", map[string]any{"path": "sqli.php", "line": 5})
	r := env.Result.(SliceResult)
	if env.NotFound || len(r.Nodes) == 0 || env.Limits.Returned != len(r.Nodes) || env.Limits.Total < len(r.Nodes) {
		t.Fatalf("valid slice: not_found=%v nodes=%d limits=%+v", env.NotFound, len(r.Nodes), env.Limits)
	}
	env = dfCall(t, s, "slice", map[string]any{"path": "sqli.php", "line": 5, "variable": "$nothing"})
	if !env.NotFound || len(env.Result.(SliceResult).Nodes) != 0 || len(env.Suggest) == 0 || env.Suggest[0].Op != "code" {
		t.Fatalf("empty slice: not_found=%v suggest=%v", env.NotFound, env.Suggest)
	}
	env = dfCall(t, s, "flow", map[string]any{"from": "sqli.php:3", "to": "sink:sql"})
	if fr := env.Result.(FlowResult); !fr.Found || env.NotFound || env.Limits.Returned != len(fr.Path) {
		t.Fatalf("valid flow: %+v", fr)
	}
	env = dfCall(t, s, "flow", map[string]any{"from": "sqli.php:7", "to": "sink:sql"})
	if !env.NotFound {
		t.Fatalf("flow from a blank line: not_found false")
	}
}

// TestFT19_SliceHasNoSourceText: no field of a slice or flow answer holds a
// line of the source, only places and locations.
func TestFT19_SliceHasNoSourceText(t *testing.T) {
	s := dataflowProject(t)
	for _, req := range []struct {
		op   string
		args map[string]any
	}{
		{"slice", map[string]any{"path": "inter.php", "line": 3, "direction": "backward"}},
		{"flow", map[string]any{"from": "source:http_input", "to": "inter.php:3"}},
	} {
		env := dfCall(t, s, req.op, req.args)
		b, err := json.Marshal(env.Result)
		if err != nil {
			t.Fatal(err)
		}
		for _, frag := range []string{"DELETE FROM", "mysqli_query($db", "return mysqli_query"} {
			if strings.Contains(string(b), frag) {
				t.Errorf("%s answer holds source text %q: %s", req.op, frag, b)
			}
		}
	}
}

// TestNFR8_DataflowBudget: a query over its state budget is a partial
// answer marked truncated with a budget cut point, never an error.
func TestNFR8_DataflowBudget(t *testing.T) {
	s := dataflowProject(t)
	env := dfCall(t, s, "slice", map[string]any{"path": "inter.php", "line": 3, "max_states": 1})
	r := env.Result.(SliceResult)
	if !r.Truncated || r.Complete {
		t.Fatalf("slice over budget: truncated=%v complete=%v", r.Truncated, r.Complete)
	}
	env = dfCall(t, s, "flow", map[string]any{"from": "source:http_input", "to": "inter.php:3", "max_states": 1})
	fr := env.Result.(FlowResult)
	if fr.Found || fr.Complete || !fr.Truncated {
		t.Fatalf("flow over budget: %+v", fr)
	}
	found := false
	for _, c := range fr.CutPoints {
		found = found || c.Reason == "budget"
	}
	if !found {
		t.Errorf("no budget cut point: %+v", fr.CutPoints)
	}
}

// TestFT12_DataflowCapability: a revision whose capability has no data
// flow refuses slice and flow with E_CAPABILITY; a revision with PHP files
// says level full, dataflow true.
func TestFT12_DataflowCapability(t *testing.T) {
	s, _ := newTestService(t) // rev.json written by hand: degraded
	for _, op := range []string{"slice", "flow"} {
		args := `{"path":"src/C1.php","line":5}`
		if op == "flow" {
			args = `{"from":"src/C1.php:5","to":"sink:sql"}`
		}
		_, err := s.Call(context.Background(), op, []byte(args))
		if e := AsError(err); err == nil || e.Code != ErrCapability {
			t.Errorf("%s on a revision without data flow: %v", op, err)
		}
	}
	d := dataflowProject(t)
	env := dfCall(t, d, "status", map[string]any{})
	if c := env.Capability; c.Level != "full" || !c.Dataflow || !c.Vectors || c.VectorModel != "static:project" {
		t.Errorf("capability %+v, want level full, dataflow true, vectors from the default static model", c)
	}
}

// TestFT28_SliceStepStale: a step on a line that changed since the
// revision carries a stale mark, and the answer a stale warning.
func TestFT28_SliceStepStale(t *testing.T) {
	s := dataflowProject(t)
	p := filepath.Join(s.Root(), "sqli.php")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// change line 4 in place
	lines := splitLines(string(b))
	lines[3] = "    $sql = \"SELECT * FROM accounts WHERE id = \" . $id;\n"
	out := ""
	for _, l := range lines {
		out += l
	}
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	env := dfCall(t, s, "slice", map[string]any{"path": "sqli.php", "line": 5, "variable": "sql"})
	r := env.Result.(SliceResult)
	var stale, fresh int
	for _, n := range r.Nodes {
		switch {
		case n.Line == 4 && n.Stale != nil:
			stale++
		case n.Line != 4 && n.Stale == nil:
			fresh++
		}
	}
	if stale == 0 || fresh == 0 || len(env.StaleWarnings) == 0 {
		t.Fatalf("stale steps %d, fresh %d, warnings %v", stale, fresh, env.StaleWarnings)
	}
}

// TestSliceBadInput: criteria and ranges are checked before any work.
func TestSliceBadInput(t *testing.T) {
	s := dataflowProject(t)
	for _, c := range []struct{ op, args string }{
		{"slice", `{}`},
		{"slice", `{"path":"sqli.php"}`},
		{"slice", `{"path":"sqli.php","line":3,"direction":"sideways"}`},
		{"slice", `{"path":"sqli.php","line":3,"depth":9}`},
		{"slice", `{"path":"../x.php","line":3}`},
		{"flow", `{"from":"source:http_input","to":"sink:sql"}`},
		{"flow", `{"from":"sink:sql","to":"sqli.php:5"}`},
		{"flow", `{"from":"source:nope","to":"sqli.php:5"}`},
		{"flow", `{"from":"sqli.php:3"}`},
	} {
		if _, err := s.Call(context.Background(), c.op, []byte(c.args)); err == nil {
			t.Errorf("%s %s: accepted", c.op, c.args)
		}
	}
}
