package facade

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// conciseRequests are the operations whose concise answers must be small,
// asked on examples/shop.
var conciseRequests = []struct{ op, args string }{
	{"references", `{"qname":"Shop\\Cart\\Cart::add"}`},
	{"callers", `{"qname":"Shop\\Order\\OrderRepository::updateStatus","depth":2}`},
	{"callees", `{"qname":"Shop\\Order\\OrderService::place"}`},
	{"impact", `{"qname":"Shop\\Order\\OrderRepository::updateStatus","depth":3}`},
	{"search", `{"query":"cart"}`},
	{"entry_points", `{}`},
	{"symbol", `{"name":"Cart"}`},
	{"outline", `{"path":"src/Cart/Cart.php"}`},
	{"implementations", `{"qname":"Shop\\Payment\\PaymentGateway"}`},
}

// withFormat adds "format" to a JSON object of arguments.
func withFormat(args, format string) string {
	if args == "{}" || args == "" {
		return `{"format":"` + format + `"}`
	}
	return strings.TrimSuffix(args, "}") + `,"format":"` + format + `"}`
}

// Every operation takes format; anything but concise or detailed is bad
// input; detailed is the facade's default.
func TestFT14_EveryOperationTakesFormat(t *testing.T) {
	for _, o := range append(Ops(), DriftOps()...) {
		if !o.Formats {
			t.Errorf("%s: its arguments do not embed Output (format)", o.Name)
		}
	}
	s, _ := newTestService(t)
	ctx := context.Background()
	for _, c := range opCases {
		if _, err := s.Call(ctx, c.op, []byte(withFormat(c.valid, "short"))); AsError(err).Code != ErrBadInput {
			t.Errorf("%s with format short: %v, want %s", c.op, err, ErrBadInput)
		}
		plain, det := call(t, s, c.op, c.valid), call(t, s, c.op, withFormat(c.valid, FormatDetailed))
		plain.Drift.LedgerCheckedAt, det.Drift.LedgerCheckedAt = "", ""
		if a, b := encode(t, plain), encode(t, det); !bytes.Equal(a, b) {
			t.Errorf("%s: detailed differs from the default\n%s\n%s", c.op, a, b)
		}
		call(t, s, c.op, withFormat(c.valid, FormatConcise))
	}
}

// Concise answers cite only places that hold in the revision (FT-17), name
// one item per detailed item with an id, a path:line and a kind, keep the
// envelope, and are smaller than the detailed answer.
func TestFT17_ConciseAnswersCiteValidPlaces(t *testing.T) {
	s := shop(t)
	ctx := context.Background()
	for _, r := range conciseRequests {
		det := call(t, s, r.op, r.args)
		con := call(t, s, r.op, withFormat(r.args, FormatConcise))
		if det.Limits.Returned != con.Limits.Returned || det.Limits.Total != con.Limits.Total || det.NotFound != con.NotFound ||
			len(det.StaleWarnings) != len(con.StaleWarnings) || det.IndexRev != con.IndexRev {
			t.Errorf("%s: the concise envelope differs: %+v vs %+v", r.op, con.Limits, det.Limits)
		}
		facts := CollectFacts(con.Result)
		if len(facts) == 0 {
			t.Errorf("%s: the concise answer cites nothing", r.op)
		}
		cited := map[[2]any]bool{}
		for _, f := range CollectFacts(det.Result) {
			cited[[2]any{f.Path, f.Line}] = true
		}
		var files []Fact // entry points declared outside source files (a crontab) are not snapshots
		for _, f := range facts {
			if !cited[[2]any{f.Path, f.Line}] {
				t.Errorf("%s: concise cites %s:%d, which the detailed answer does not", r.op, f.Path, f.Line)
			}
			if strings.Contains(f.Path, ".") {
				files = append(files, f)
			}
		}
		errs, err := s.CheckFacts(ctx, files)
		must(t, err)
		for _, e := range errs {
			t.Errorf("%s concise: %v", r.op, e)
		}
		db, cb := mustCompact(t, det), mustCompact(t, con)
		if len(cb)*10 > len(db)*6 {
			t.Errorf("%s: concise %d bytes, detailed %d: over 60%%", r.op, len(cb), len(db))
		}
		var generic map[string]any
		must(t, json.Unmarshal(cb, &generic))
		for _, it := range conciseItems(generic["result"]) {
			// a definition lookup keeps its signature, the fact it is asked for
			if (it["id"] != nil && it["kind"] == nil) || it["from"] != nil || it["chain"] != nil || (it["signature"] != nil && r.op != "symbol") {
				t.Errorf("%s: concise item %v", r.op, it)
			}
		}
	}
}

func mustCompact(t *testing.T, env *Envelope) []byte {
	t.Helper()
	b, err := EncodeCompactJSON(env)
	must(t, err)
	return b
}

// conciseItems returns every object in v that has an "at" or is a list
// element of objects.
func conciseItems(v any) []map[string]any {
	var out []map[string]any
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t["at"]; ok {
			out = append(out, t)
		}
		for _, x := range t {
			out = append(out, conciseItems(x)...)
		}
	case []any:
		for _, x := range t {
			out = append(out, conciseItems(x)...)
		}
	}
	return out
}

func TestParseAt(t *testing.T) {
	for _, c := range []struct {
		in   string
		path string
		line int
		ok   bool
	}{
		{"src/a.php:12", "src/a.php", 12, true},
		{"c:/x/a.php:3", "c:/x/a.php", 3, true},
		{"src/a.php", "", 0, false},
		{":3", "", 0, false},
		{"a.php:x", "", 0, false},
	} {
		p, l, ok := parseAt(c.in)
		if p != c.path || l != c.line || ok != c.ok {
			t.Errorf("parseAt(%q) = %q, %d, %v", c.in, p, l, ok)
		}
	}
}

// A concise envelope leaves out the fields at their default, and never what
// an agent must not miss: stale warnings, drift, not_found and a truncated
// answer's cursor are written whenever they hold (FT-16, FT-22).
func TestFT16_ConciseEnvelopeKeepsWhatMatters(t *testing.T) {
	s := shop(t)
	raw := func(op, args string) map[string]json.RawMessage {
		t.Helper()
		b, err := EncodeCompactJSON(call(t, s, op, withFormat(args, FormatConcise)))
		must(t, err)
		var m map[string]json.RawMessage
		must(t, json.Unmarshal(b, &m))
		return m
	}
	clean := raw("references", `{"qname":"Shop\\Cart\\Cart::add"}`)
	for _, k := range []string{"drift", "provenance", "stale_warnings", "not_found", "suggest"} {
		if _, ok := clean[k]; ok {
			t.Errorf("clean concise answer writes %s at its default: %s", k, clean[k])
		}
	}
	for _, k := range []string{"op", "index_rev", "capability", "limits", "result"} {
		if _, ok := clean[k]; !ok {
			t.Errorf("concise answer lacks %s", k)
		}
	}
	if m := raw("references", `{"qname":"Shop\\Nowhere::gone"}`); string(m["not_found"]) != "true" || len(m["suggest"]) < 3 {
		t.Errorf("not found concise answer: not_found %s, suggest %s", m["not_found"], m["suggest"])
	}
	if m := raw("search", `{"query":"cart","limit":2}`); !strings.Contains(string(m["limits"]), `"truncated":true`) || !strings.Contains(string(m["limits"]), `"cursor":"`) {
		t.Errorf("truncated concise answer: limits %s", m["limits"])
	}

	p := filepath.Join(s.Root(), "src", "Cart", "Cart.php")
	b, err := os.ReadFile(p)
	must(t, err)
	must(t, os.WriteFile(p, append([]byte("<?php // edited\n"), bytes.TrimPrefix(b, []byte("<?php"))...), 0o644))
	call(t, s, "drift_detect", `{"method":"compare"}`)
	m := raw("references", `{"qname":"Shop\\Cart\\Cart::add"}`)
	if len(m["stale_warnings"]) < 3 || !strings.Contains(string(m["stale_warnings"]), "src/Cart/Cart.php") {
		t.Errorf("drifted concise answer: stale_warnings %s", m["stale_warnings"])
	}
	if !strings.Contains(string(m["drift"]), `"entries":`) {
		t.Errorf("drifted concise answer: drift %s", m["drift"])
	}
	if !strings.Contains(string(m["result"]), `"stale":true`) {
		t.Errorf("drifted concise answer marks no item stale: %s", m["result"])
	}
}

// A text hit is named by its first line that says something: a docblock's
// opening "/**" or a bare " *" names nothing.
func TestBriefTextSkipsCommentPunctuation(t *testing.T) {
	for in, want := range map[string]string{
		"/**\n * Adds an item to the cart.\n */": "Adds an item to the cart.",
		"  // remove expired carts":              "remove expired carts",
		"# Shop\n\nThe example":                  "Shop",
		"/* */\n\n$total = $a + $b;":             "$total = $a + $b;",
		"***":                                    "",
		strings.Repeat("é", 70):                  strings.Repeat("é", 60) + "…",
	} {
		if got := briefText(in); got != want {
			t.Errorf("briefText(%q) = %q, want %q", in, got, want)
		}
	}
}

// A not-found answer's concise target is null: no empty place is cited
// (FT-17, FT-21).
func TestFT21_ConciseNotFoundCitesNoEmptyPlace(t *testing.T) {
	s := shop(t)
	for _, op := range []string{"references", "callers", "callees", "implementations"} {
		env := call(t, s, op, withFormat(`{"qname":"Nope\\Nothing"}`, FormatConcise))
		b := mustCompact(t, env)
		if !env.NotFound || strings.Contains(string(b), `":0"`) || !strings.Contains(string(b), `"target":null`) {
			t.Errorf("%s not found, concise: %s", op, b)
		}
	}
}
