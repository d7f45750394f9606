// This file is ragraf's side of M1 and M3: each task asked through the
// facade as an agent asks it over MCP (concise answers where an operation
// has them), answers counted in cl100k tokens of the text MCP sends (and of
// the compact JSON envelope, the count before text answers).

package stand

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/ragraf/ragraf/internal/facade"
)

// ragrafBudget is ragraf's call budget per task (pages included), the
// baseline's; firstPage is the page size it asks for, the baseline's grep
// output cut, so both sides see as many items in one call.
const (
	ragrafBudget = baselineBudget
	firstPage    = baselineMaxHits
)

// cited is one place an answer cites, with its stale mark.
type cited struct {
	Place
	Marked bool
	Op     string // the "op" field of the object, when it has one (table uses)
}

// citedPlaces walks a decoded answer result: every object with path and
// line (or site_path and site_line, or at "path:line"), in key order.
func citedPlaces(v any) []cited { return walkCited(v, false) }

// answerPlaces is citedPlaces without the places an answer repeats from
// the question (target, targets: the definition asked about), which are
// not part of what it answers.
func answerPlaces(v any) []cited { return walkCited(v, true) }

// echoKeys hold what an answer repeats from the question, and the
// evidence chains of its items (provenance, not answers).
var echoKeys = map[string]bool{"target": true, "targets": true, "chain": true}

func walkCited(v any, skipEcho bool) []cited {
	var out []cited
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			marked := false
			switch s := t["stale"].(type) {
			case bool:
				marked = s
			case map[string]any:
				marked = true
			}
			op, _ := t["op"].(string)
			for _, pre := range []string{"", "site_"} {
				p, ok1 := t[pre+"path"].(string)
				l, ok2 := t[pre+"line"].(float64)
				if ok1 && ok2 && p != "" {
					c := cited{Place: Place{Path: p, Line: int(l)}, Marked: marked, Op: op}
					if e, ok := t[pre+"end_line"].(float64); ok {
						c.End = int(e)
					}
					out = append(out, c)
				}
			}
			if a, ok := t["at"].(string); ok {
				if i := strings.LastIndexByte(a, ':'); i > 0 {
					var n int
					for _, r := range a[i+1:] {
						if r < '0' || r > '9' {
							n = -1
							break
						}
						n = n*10 + int(r-'0')
					}
					if n > 0 {
						out = append(out, cited{Place: Place{Path: a[:i], Line: n}, Marked: marked, Op: op})
					}
				}
			}
			for _, k := range slices.Sorted(maps.Keys(t)) {
				if skipEcho && echoKeys[k] {
					continue
				}
				walk(t[k])
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// answer is one facade call as the stand records it.
type answer struct {
	Op     string
	Env    *facade.Envelope
	Result any // the result decoded from JSON
	Tokens int // of the text MCP sends by default
	// TokensJSON are the tokens of the compact JSON envelope (format json)
	TokensJSON int
}

// asker calls the facade and keeps every answer's cited places for M6.
type asker struct {
	svc   *facade.Service
	facts []cited
}

// call asks op as the MCP server does: concise unless args name a format.
func (a *asker) call(ctx context.Context, op string, args map[string]any) (answer, error) {
	if _, ok := args["format"]; !ok {
		args["format"] = facade.FormatConcise
	}
	raw, _ := json.Marshal(args)
	env, err := a.svc.Call(ctx, op, raw)
	if err != nil {
		return answer{Op: op}, err
	}
	b, err := facade.EncodeCompactJSON(env)
	if err != nil {
		return answer{}, err
	}
	// what the model receives over MCP by default is the text form; the
	// compact JSON envelope (the count before text answers) is kept beside it
	n, err := tokens(facade.RenderText(env))
	if err != nil {
		return answer{}, err
	}
	nj, err := tokens(string(b))
	if err != nil {
		return answer{}, err
	}
	var body struct {
		Result any `json:"result"`
	}
	_ = json.Unmarshal(b, &body)
	cs := citedPlaces(body.Result)
	a.facts = append(a.facts, cs...)
	return answer{Op: op, Env: env, Result: body.Result, Tokens: n, TokensJSON: nj}, nil
}

// places are an answer's cited places for a task of kind: a table task
// counts the uses the answer says write.
func places(kind string, v any) []Place {
	var out []Place
	switch kind {
	case KindTests, KindCoChange:
		// impact: the definitions it names as changing with X (the calls
		// blocks, tests, co_changed; the stand asks the co_changed block
		// alone) or, for tests, the tests block alone; files, entry points
		// and tables summarise those
		res, _ := v.(map[string]any)
		var lists []any
		for _, b := range []string{"hard", "soft"} {
			bm, _ := res[b].(map[string]any)
			if kind == KindCoChange {
				lists = append(lists, bm["symbols"])
			}
			lists = append(lists, bm["tests"])
		}
		if kind == KindCoChange {
			cm, _ := res["co_changed"].(map[string]any)
			lists = append(lists, cm["symbols"])
		}
		for _, c := range citedPlaces(lists) {
			out = append(out, c.Place)
		}
		return out
	}
	for _, c := range answerPlaces(v) {
		if kind == KindTableWrites && c.Op != "" && !isWrite(c.Op) {
			continue
		}
		out = append(out, c.Place)
	}
	return out
}

func isWrite(op string) bool {
	switch strings.ToLower(op) {
	case "insert", "update", "delete", "replace", "upsert", "write":
		return true
	}
	return false
}

// firstID is the id of the first definition in a symbol answer, preferring
// one in path.
func firstID(v any, path string) string {
	m, _ := v.(map[string]any)
	syms, _ := m["symbols"].([]any)
	id := ""
	for _, s := range syms {
		sm, _ := s.(map[string]any)
		sid, _ := sm["id"].(string)
		if id == "" {
			id = sid
		}
		p, _ := sm["path"].(string)
		if a, ok := sm["at"].(string); ok && p == "" { // a concise answer: at is path:line
			if i := strings.LastIndexByte(a, ':'); i > 0 {
				p = a[:i]
			}
		}
		if path != "" && p == path && sid != "" {
			return sid
		}
	}
	return id
}

// runRagraf answers t: the operation an agent would call, after a symbol
// lookup where the operation needs an id, then further pages while the
// answer does not yet hold the truth.
func (a *asker) run(ctx context.Context, t Task) (SideRun, error) {
	var r SideRun
	var op string
	var args map[string]any
	lookup := func(kind string) (string, error) {
		sa := map[string]any{"name": t.Name}
		if kind != "" {
			sa["kind"] = kind
		}
		ans, err := a.call(ctx, "symbol", sa)
		if err != nil {
			return "", err
		}
		r.Calls++
		r.Tokens += ans.Tokens
		r.TokensJSON += ans.TokensJSON
		return firstID(ans.Result, t.Path), nil
	}
	switch t.Kind {
	case KindDefinition:
		op, args = "symbol", map[string]any{"name": t.Name}
	case KindCallers, KindImplementations:
		kind := t.Sub
		if t.Kind == KindImplementations {
			kind = "interface"
		}
		id, err := lookup(kind)
		if err != nil {
			return r, err
		}
		if id == "" {
			r.First = judge(t.Truth, nil)
			return r, nil
		}
		op = "callers"
		if t.Kind == KindImplementations {
			op = "implementations"
		}
		args = map[string]any{"id": id, "limit": firstPage}
	case KindTableWrites:
		op, args = "table_usage", map[string]any{"table": t.Name, "limit": firstPage}
	case KindFileDeclares:
		op, args = "outline", map[string]any{"path": t.Path}
	case KindCoChange:
		// impact's co_changed block alone: what the tool offers for "what
		// else must change", mined from the history
		op, args = "impact", map[string]any{"qname": t.Target, "limit": firstPage, "blocks": []string{"co_changed"}}
	case KindTests:
		// impact's tests block alone: tests reaching X through calls,
		// @covers, #[CoversClass] and naming; depth 1, the tests that call X
		op, args = "impact", map[string]any{"qname": t.Target, "depth": 1, "limit": firstPage, "blocks": []string{"tests"}}
	default:
		return r, nil
	}
	var got []Place
	for page := 0; ; page++ {
		ans, err := a.call(ctx, op, args)
		if err != nil {
			if fe := facade.AsError(err); fe.Code != facade.ErrInternal {
				// a refusal is an answer that cites nothing
				r.Calls++
				if page == 0 {
					r.First = judge(t.Truth, nil)
				}
				break
			}
			return r, err
		}
		r.Calls++
		r.Tokens += ans.Tokens
		r.TokensJSON += ans.TokensJSON
		got = append(got, places(t.Kind, ans.Result)...)
		if page == 0 {
			r.First = judge(t.Truth, got)
		}
		j := judge(t.Truth, got)
		if j.Covered == j.Truth || !ans.Env.Limits.Truncated || ans.Env.Limits.Cursor == "" || r.Calls >= ragrafBudget ||
			t.Kind == KindTests { // the tests block comes with the first page only
			r.Covered = j.Covered == j.Truth
			break
		}
		args["cursor"] = ans.Env.Limits.Cursor
	}
	return r, nil
}
