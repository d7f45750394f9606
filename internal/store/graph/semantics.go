// This file holds read queries over resolved edges used by the semantic
// evaluation (internal/eval/lsp): the use sites of a declaration.

package graph

import (
	"context"
	"fmt"
)

// Use is one edge into a declaration, at its evidence site.
type Use struct {
	Kind       string
	Src        string
	Provenance string
	Path       string
	Line       int
	Use        string // the reference kind that produced it ("" for older edges)
}

// UsesOf returns the edges of the given kinds that point at id, ordered by
// place. kinds must not be empty.
func (s *Store) UsesOf(ctx context.Context, id string, kinds ...string) ([]Use, error) {
	q := `SELECT kind, src, provenance, evidence_path, evidence_line, props FROM edge WHERE dst = ? AND kind IN (?` +
		repeat(",?", len(kinds)-1) + `) ORDER BY evidence_path, evidence_line, kind`
	args := []any{id}
	for _, k := range kinds {
		args = append(args, k)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("querying uses of %s: %w", id, err)
	}
	defer rows.Close()
	var out []Use
	for rows.Next() {
		var u Use
		var props string
		if err := rows.Scan(&u.Kind, &u.Src, &u.Provenance, &u.Path, &u.Line, &props); err != nil {
			return nil, err
		}
		u.Use = propValue(props, "use")
		out = append(out, u)
	}
	return out, rows.Err()
}

func repeat(s string, n int) string {
	out := ""
	for i := 0; i < n; i++ {
		out += s
	}
	return out
}

// propValue reads one string value from a props JSON object written by
// PropsJSON without decoding the whole object.
func propValue(props, key string) string {
	k := `"` + key + `":"`
	for i := 0; i+len(k) <= len(props); i++ {
		if props[i:i+len(k)] == k {
			rest := props[i+len(k):]
			for j := 0; j < len(rest); j++ {
				if rest[j] == '"' {
					return rest[:j]
				}
			}
		}
	}
	return ""
}

// OverrideFamily returns id with the methods it overrides and the methods
// that override it, transitively (not siblings): the methods a polymorphic
// call on id, or a call id may answer, can reach.
func (s *Store) OverrideFamily(ctx context.Context, id string) ([]string, error) {
	seen := map[string]bool{id: true}
	for _, q := range []string{
		`SELECT dst FROM edge WHERE src = ? AND kind = 'overrides'`, // up
		`SELECT src FROM edge WHERE dst = ? AND kind = 'overrides'`, // down
	} {
		queue := []string{id}
		for len(queue) > 0 {
			cur := queue[0]
			queue = queue[1:]
			rows, err := s.db.QueryContext(ctx, q, cur)
			if err != nil {
				return nil, fmt.Errorf("querying overrides of %s: %w", cur, err)
			}
			for rows.Next() {
				var n string
				if err := rows.Scan(&n); err != nil {
					rows.Close()
					return nil, err
				}
				if !seen[n] {
					seen[n] = true
					queue = append(queue, n)
				}
			}
			rows.Close()
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	return out, nil
}
