// This file defines the table_usage operation: the code that queries or
// references a table (queries and references_table edges, linked in
// resolve/domain.go), with the operation, the columns and path:line.

package facade

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// TableUsageArgs names the table and optionally a column.
type TableUsageArgs struct {
	Table  string `json:"table" jsonschema:"table name, with or without its prefix, e.g. wp_posts or posts"`
	Column string `json:"column,omitempty" jsonschema:"only uses that name this column explicitly"`
	Limit  int    `json:"limit,omitempty" jsonschema:"page size (default 200, max 1000)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"limits.cursor of the last answer"`
	Output
}

// TableUse is one place that touches the table.
type TableUse struct {
	FromID     string   `json:"from_id"`
	FromKind   string   `json:"from_kind"`
	FromQName  string   `json:"from_qname"`
	Path       string   `json:"path"`
	Line       int      `json:"line"`
	Edge       string   `json:"edge"` // queries | references_table
	Table      string   `json:"table"`
	Op         string   `json:"op,omitempty"`
	Columns    []string `json:"columns"`
	Via        string   `json:"via,omitempty"`
	Provenance string   `json:"provenance"`
	Confidence float64  `json:"confidence"`
}

// TableUsageResult lists one page of the uses in path and line order; every
// page names all the table nodes the name matched.
type TableUsageResult struct {
	Tables []string   `json:"tables"` // the table node ids the name matched
	Uses   []TableUse `json:"uses"`
}

// TableUsage lists the code that touches a table.
func (s *Service) TableUsage(ctx context.Context, args TableUsageArgs) (*Envelope, error) {
	const op = "table_usage"
	if strings.TrimSpace(args.Table) == "" {
		return nil, badInput("table is required")
	}
	for f, v := range map[string]string{"table": args.Table, "column": args.Column} {
		if err := checkQueryLanguage(f, v); err != nil {
			return nil, err
		}
	}
	pg, err := paging(op, args.Limit, args.Cursor, 200, 1000, args)
	if err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, op, pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	env := c.env
	tables, err := snap.graph.AllNodes(ctx, fact.Table)
	if err != nil {
		return nil, storeError(err)
	}
	res := TableUsageResult{Tables: []string{}, Uses: []TableUse{}}
	names := map[string]string{}
	for _, t := range tables {
		if tableMatches(t.Name, args.Table) {
			res.Tables = append(res.Tables, t.ID)
			names[t.ID] = t.Name
		}
	}
	sort.Strings(res.Tables)
	var es []fact.Edge
	if len(res.Tables) > 0 {
		es, err = snap.graph.EdgesToAny(ctx, res.Tables, []fact.EdgeKind{fact.Queries, fact.ReferencesTable})
		if err != nil {
			return nil, storeError(err)
		}
	}
	// one use per site: the same statement linked to the table of two sources counts once
	seen := map[string]bool{}
	var from []string
	for _, e := range es {
		cols := []string{}
		if c := e.Props["columns"]; c != "" {
			cols = strings.Split(c, ",")
		}
		if args.Column != "" && !slices.ContainsFunc(cols, func(c string) bool { return strings.EqualFold(c, args.Column) }) {
			continue
		}
		k := e.From + "\x00" + string(e.Kind) + "\x00" + e.EvidencePath + "\x00" + e.Props["op"] + "\x00" + strconv.Itoa(e.EvidenceLine)
		if seen[k] {
			continue
		}
		seen[k] = true
		table := e.Props["table"]
		if table == "" {
			table = names[e.To]
		}
		res.Uses = append(res.Uses, TableUse{FromID: e.From, Path: e.EvidencePath, Line: e.EvidenceLine, Edge: string(e.Kind),
			Table: table, Op: e.Props["op"], Columns: cols, Via: e.Props["via"], Provenance: string(e.Provenance), Confidence: e.Confidence})
		from = append(from, e.From)
	}
	byID, err := snap.graph.NodesByID(ctx, from)
	if err != nil {
		return nil, storeError(err)
	}
	for i := range res.Uses {
		n := byID[res.Uses[i].FromID]
		res.Uses[i].FromKind, res.Uses[i].FromQName = string(n.Kind), n.QName
	}
	// a total order: (path, line, edge, op, from) is the key uses were
	// deduplicated by, so pages cut from it are stable
	sort.Slice(res.Uses, func(i, j int) bool {
		a, b := res.Uses[i], res.Uses[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Edge != b.Edge {
			return a.Edge < b.Edge
		}
		if a.Op != b.Op {
			return a.Op < b.Op
		}
		return a.FromID < b.FromID
	})
	total := len(res.Uses)
	res.Uses = pageOf(pg, res.Uses)
	env.Result = res
	env.Limits = pg.limits(snap, len(res.Uses), total)
	paths := make([]string, 0, len(res.Uses))
	for _, u := range res.Uses {
		paths = append(paths, u.Path)
	}
	if total == 0 {
		notFound(env, args.Table)
	}
	c.cite(paths...)
	return c.done(env.Result)
}
