// This file holds read queries over resolved edges used by the semantic
// evaluation (internal/eval/lsp): the use sites of a declaration.

package graph

import (
	"context"
	"encoding/json"
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
	Receiver   string // how the receiver was typed when it was not local ("global $x"), or ""
	Via        string // "@mixin" when the method was found only through a class's @mixin tag
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
		u.Receiver = propValue(props, "receiver")
		u.Via = propValue(props, "via")
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
				switch rest[j] {
				case '"':
					return rest[:j]
				case '\\':
					// an escaped value (`>` is written \u003e): decode properly
					var m map[string]string
					if json.Unmarshal([]byte(props), &m) == nil {
						return m[key]
					}
					return ""
				}
			}
		}
	}
	return ""
}

// Overrides returns the methods id overrides (up) and those that override it
// (down), one step each way.
func (s *Store) Overrides(ctx context.Context, id string) (up, down []string, err error) {
	for _, q := range []struct {
		sql string
		out *[]string
	}{
		{`SELECT dst FROM edge WHERE src = ? AND kind = 'overrides' ORDER BY dst`, &up},
		{`SELECT src FROM edge WHERE dst = ? AND kind = 'overrides' ORDER BY src`, &down},
	} {
		rows, err := s.db.QueryContext(ctx, q.sql, id)
		if err != nil {
			return nil, nil, fmt.Errorf("querying overrides of %s: %w", id, err)
		}
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				rows.Close()
				return nil, nil, err
			}
			*q.out = append(*q.out, n)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
	}
	return up, down, nil
}
