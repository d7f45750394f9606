// This file checks answers against the revision they came from (FT-17):
// CollectFacts finds every path:line an answer cites and CheckFacts verifies
// each against the indexed snapshot of that file.

package facade

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Fact is one place an answer cites.
type Fact struct {
	Path    string
	Line    int
	EndLine int // 0 when the fact is a single line
}

// CollectFacts returns every place in v (an answer's result, or any JSON
// value) that an object names with path and line (or site_path and
// site_line), and end_line when present, or with at ("path:line", concise
// answers), in document order.
func CollectFacts(v any) []Fact {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var x any
	if json.Unmarshal(b, &x) != nil {
		return nil
	}
	var out []Fact
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			for _, pre := range []string{"", "site_"} {
				p, ok1 := t[pre+"path"].(string)
				l, ok2 := t[pre+"line"].(float64)
				if ok1 && ok2 && p != "" {
					f := Fact{Path: p, Line: int(l)}
					if e, ok := t[pre+"end_line"].(float64); ok {
						f.EndLine = int(e)
					}
					out = append(out, f)
				}
			}
			if a, ok := t["at"].(string); ok { // a concise item
				if p, l, ok := parseAt(a); ok {
					out = append(out, Fact{Path: p, Line: l})
				}
			}
			for _, k := range slices.Sorted(maps.Keys(t)) {
				walk(t[k])
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(x)
	return out
}

// CheckFacts checks each fact against the current revision's snapshots and
// returns one error per fact that does not hold.
func (s *Service) CheckFacts(ctx context.Context, facts []Fact) ([]error, error) {
	snap, release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	var errs []error
	for _, f := range facts {
		if err := checkFact(ctx, snap, f); err != nil {
			errs = append(errs, err)
		}
	}
	return errs, nil
}

// checkFact checks one fact against snap.
func checkFact(ctx context.Context, snap *snapshot, f Fact) error {
	b, ok, err := snap.graph.Snapshot(ctx, f.Path)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s:%d: no such file in %s", f.Path, f.Line, snap.name)
	}
	n := strings.Count(string(b), "\n")
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	if f.Line < 1 || f.Line > n {
		return fmt.Errorf("%s:%d: line outside 1..%d", f.Path, f.Line, n)
	}
	if f.EndLine != 0 && (f.EndLine < f.Line || f.EndLine > n) {
		return fmt.Errorf("%s:%d-%d: end line outside %d..%d", f.Path, f.Line, f.EndLine, f.Line, n)
	}
	return nil
}
