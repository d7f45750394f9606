// This file answers the drift ledger's question about one revision: which
// edges does a changed file make stale, because their evidence line lies in a
// changed range or one of their endpoints is an affected node. The ledger
// itself lives in internal/store/control.

package graph

import (
	"context"
	"sort"
	"strings"
)

// EdgeHit is an edge a drift entry affects, and why: "evidence" (the evidence
// line changed) or "endpoint" (a changed node is its source or target).
type EdgeHit struct {
	EdgeID string
	Reason string
}

// AffectedEdges returns the edges whose evidence lies in path within ranges,
// or whose source or target is one of nodes, sorted by edge id.
func (s *Store) AffectedEdges(ctx context.Context, path string, ranges [][2]int, nodes []string) ([]EdgeHit, error) {
	seen := map[string]string{}
	for _, r := range ranges {
		rows, err := s.db.QueryContext(ctx, `SELECT id FROM edge WHERE evidence_path = ? AND evidence_line BETWEEN ? AND ?`, path, r[0], r[1])
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			seen[id] = "evidence"
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	// endpoints in batches: SQLite limits the number of host parameters
	for start := 0; start < len(nodes); start += 400 {
		batch := nodes[start:min(start+400, len(nodes))]
		args := make([]any, 0, 2*len(batch))
		for _, id := range batch {
			args = append(args, id)
		}
		args = append(args, args...)
		ph := "?" + strings.Repeat(",?", len(batch)-1)
		rows, err := s.db.QueryContext(ctx, `SELECT id FROM edge WHERE src IN (`+ph+`) UNION SELECT id FROM edge WHERE dst IN (`+ph+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			if _, ok := seen[id]; !ok {
				seen[id] = "endpoint"
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	out := make([]EdgeHit, 0, len(seen))
	for id, why := range seen {
		out = append(out, EdgeHit{EdgeID: id, Reason: why})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].EdgeID < out[j].EdgeID })
	return out, nil
}
