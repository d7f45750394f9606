// This file defines the schema operation: tables, columns, keys and foreign
// keys from every source (SQL files, PHP migrations and strings, live
// databases), each with its source; conflicts between sources come from
// the revision's schema_conflicts meta (resolve/domain.go).

package facade

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// SchemaArgs optionally names one table.
type SchemaArgs struct {
	Table string `json:"table,omitempty" jsonschema:"table name, with or without prefix; empty for all"`
	Page
	Output
}

// SchemaTable is one table as one source defines it.
type SchemaTable struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	Source      string         `json:"source"`
	Path        string         `json:"path"`
	Line        int            `json:"line"`
	EndLine     int            `json:"end_line"`
	Partial     bool           `json:"partial,omitempty"`    // an ALTER-style definition (Schema::table)
	DroppedAt   string         `json:"dropped_at,omitempty"` // "path:line" of a DROP TABLE in another SQL file
	Columns     []SchemaColumn `json:"columns"`
	ForeignKeys []SchemaFK     `json:"foreign_keys"`
}

// SchemaColumn is one column. A column another SQL file adds to the table
// (ALTER TABLE in a migration) has that file's Path; one such a file drops
// has DroppedAt ("path:line").
type SchemaColumn struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Type      string  `json:"type"`
	Nullable  bool    `json:"nullable"`
	Default   *string `json:"default,omitempty"`
	Key       string  `json:"key,omitempty"`
	Path      string  `json:"path,omitempty"`
	Line      int     `json:"line"`
	DroppedAt string  `json:"dropped_at,omitempty"`
	// a column renamed by another SQL file: the old one names the new name,
	// the new one the old name (and keeps its definition when the rename gave none)
	RenamedTo   string `json:"renamed_to,omitempty"`
	RenamedFrom string `json:"renamed_from,omitempty"`
}

// SchemaFK is one foreign key.
type SchemaFK struct {
	Table      string `json:"ref_table"`
	Columns    string `json:"columns"`
	RefColumns string `json:"ref_columns"`
	Path       string `json:"path"`
	Line       int    `json:"line"`
}

// SchemaConflict is a column defined differently by two sources.
type SchemaConflict struct {
	Table   string   `json:"table"`
	Column  string   `json:"column,omitempty"`
	What    string   `json:"what"`
	Sources []string `json:"sources"`
	Values  []string `json:"values"`
	Paths   []string `json:"paths"`
}

// SchemaResult lists one page of the tables by name, then source path, each
// with all its columns and foreign keys, and the conflicts about the tables
// of the page.
type SchemaResult struct {
	Tables    []SchemaTable    `json:"tables"`
	Conflicts []SchemaConflict `json:"conflicts"`
}

// tableMatches reports whether a table node name answers a requested name:
// equal, or equal once a prefix ending in "_" is put on either side.
func tableMatches(name, want string) bool {
	n, w := strings.ToLower(name), strings.ToLower(want)
	if n == w {
		return true
	}
	if strings.HasSuffix(n, "_"+w) || strings.HasSuffix(w, "_"+n) {
		return !strings.Contains(strings.TrimSuffix(n, w), ".") && !strings.Contains(strings.TrimSuffix(w, n), ".")
	}
	return false
}

// Schema lists tables with their columns and keys.
func (s *Service) Schema(ctx context.Context, args SchemaArgs) (*Envelope, error) {
	const op = "schema"
	if err := checkQueryLanguage("table", args.Table); err != nil {
		return nil, err
	}
	pg, err := args.page(op, args)
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
	all, err := s.allSchemaTables(ctx, snap)
	if err != nil {
		return nil, err
	}
	var matched []SchemaTable
	for _, t := range all {
		if args.Table == "" || tableMatches(t.Name, args.Table) {
			matched = append(matched, t)
		}
	}
	shown := pageOf(pg, matched)
	res := SchemaResult{Tables: append([]SchemaTable{}, shown...), Conflicts: []SchemaConflict{}}
	onPage := map[string]bool{}
	var paths []string
	for _, t := range shown {
		onPage[strings.ToLower(t.Name)] = true
		if !strings.HasPrefix(t.Path, "db:") {
			paths = append(paths, t.Path)
		}
		for _, c := range t.Columns {
			if c.Path != "" {
				paths = append(paths, c.Path)
			}
		}
	}
	if raw, err := snap.graph.Meta(ctx, "schema_conflicts"); err == nil && raw != "" {
		var all []SchemaConflict
		if json.Unmarshal([]byte(raw), &all) == nil {
			for _, c := range all {
				if onPage[strings.ToLower(c.Table)] {
					res.Conflicts = append(res.Conflicts, c)
				}
			}
		}
	}
	env.Result = res
	env.Limits = pg.limits(snap, len(res.Tables), len(matched))
	if len(matched) == 0 {
		notFound(env, args.Table)
	}
	c.cite(paths...)
	return c.done(env.Result)
}

// allSchemaTables is every table of the revision with its columns and
// foreign keys, by name, then source path, computed once per revision:
// callers must not modify it.
func (s *Service) allSchemaTables(ctx context.Context, snap *snapshot) ([]SchemaTable, error) {
	return cached(ctx, snap, "schema", func(ctx context.Context) ([]SchemaTable, error) {
		tables, err := snap.graph.AllNodes(ctx, fact.Table)
		if err != nil {
			return nil, storeError(err)
		}
		sort.SliceStable(tables, func(i, j int) bool {
			a, b := tables[i], tables[j]
			if a.Name != b.Name {
				return a.Name < b.Name
			}
			if a.Path != b.Path {
				return a.Path < b.Path
			}
			return a.ID < b.ID
		})
		out := make([]SchemaTable, 0, len(tables))
		for _, t := range tables {
			st, err := s.schemaTable(ctx, snap, t)
			if err != nil {
				return nil, err
			}
			out = append(out, st)
		}
		return out, nil
	})
}

// schemaTable reads table t's columns (its own and those other SQL files
// add) and foreign keys.
func (s *Service) schemaTable(ctx context.Context, snap *snapshot, t fact.Node) (SchemaTable, error) {
	st := SchemaTable{ID: t.ID, Name: t.Name, Source: t.Props["source"], Path: t.Path, Line: t.StartLine, EndLine: t.EndLine,
		Partial: t.Props["partial"] == "true", Columns: []SchemaColumn{}, ForeignKeys: []SchemaFK{}}
	cols, err := snap.graph.Children(ctx, t.ID)
	if err != nil {
		return st, storeError(err)
	}
	merged, err := s.alteredColumns(ctx, snap, t.ID)
	if err != nil {
		return st, err
	}
	cols = append(cols, merged.added...)
	st.DroppedAt = merged.droppedAt
	for _, c := range cols {
		if c.Kind != fact.Column {
			continue
		}
		sc := SchemaColumn{ID: c.ID, Name: c.Name, Type: c.Props["type"], Nullable: c.Props["nullable"] == "true", Key: c.Props["key"], Line: c.StartLine,
			DroppedAt: merged.dropped[c.ID], RenamedTo: merged.renamed[c.ID], RenamedFrom: c.Props["renamed_from"]}
		if c.Path != t.Path {
			sc.Path = c.Path
		}
		if d, ok := c.Props["default"]; ok {
			sc.Default = &d
		}
		st.Columns = append(st.Columns, sc)
	}
	keepRenamedDefinitions(st.Columns)
	// the table's own columns by line, then those other files add, by file
	sort.SliceStable(st.Columns, func(i, j int) bool {
		a, b := st.Columns[i], st.Columns[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	fks, err := snap.graph.EdgesFrom(ctx, t.ID, []fact.EdgeKind{fact.ForeignKey})
	if err != nil {
		return st, storeError(err)
	}
	if len(fks) > 0 {
		ids := make([]string, len(fks))
		for i, e := range fks {
			ids[i] = e.To
		}
		to, err := snap.graph.NodesByID(ctx, ids)
		if err != nil {
			return st, storeError(err)
		}
		for _, e := range fks {
			name := to[e.To].Name
			if name == "" {
				name = e.Props["ref_table"]
			}
			st.ForeignKeys = append(st.ForeignKeys, SchemaFK{Table: name, Columns: e.Props["columns"], RefColumns: e.Props["ref_columns"],
				Path: e.EvidencePath, Line: e.EvidenceLine})
		}
	}
	return st, nil
}

// keepRenamedDefinitions gives a column renamed without a definition (RENAME
// COLUMN) the definition of the column it renames.
func keepRenamedDefinitions(cols []SchemaColumn) {
	for i := range cols {
		c := &cols[i]
		if c.RenamedFrom == "" || c.Type != "" {
			continue
		}
		for _, o := range cols {
			if o.RenamedTo == c.Name && strings.EqualFold(o.Name, c.RenamedFrom) {
				c.Type, c.Nullable, c.Default, c.Key = o.Type, o.Nullable, o.Default, o.Key
				break
			}
		}
	}
}

// altered is what the SQL files that alter a table do to it: the columns
// they add or change, and the columns they drop or rename (id -> "path:line",
// and id -> new name).
type altered struct {
	added     []fact.Node
	renamed   map[string]string
	dropped   map[string]string
	droppedAt string // "path:line" of a DROP TABLE in another SQL file
}

// alteredColumns reads the via=alter contains edges the link step draws from
// a table to the columns other SQL files add, change or drop
// (resolve/domain.go mergeAlterations). A changed column is listed again
// from the altering file, and the definition it replaces is dropped there.
func (s *Service) alteredColumns(ctx context.Context, snap *snapshot, table string) (altered, error) {
	out := altered{dropped: map[string]string{}, renamed: map[string]string{}}
	es, err := snap.graph.EdgesFrom(ctx, table, []fact.EdgeKind{fact.Contains})
	if err != nil {
		return out, storeError(err)
	}
	var ids []string
	for _, e := range es {
		if e.Props["via"] != "alter" {
			continue
		}
		switch e.Props["op"] {
		case "drop":
			out.dropped[e.To] = e.EvidencePath + ":" + strconv.Itoa(e.EvidenceLine)
			continue
		case "rename":
			out.dropped[e.To] = e.EvidencePath + ":" + strconv.Itoa(e.EvidenceLine)
			out.renamed[e.To] = e.Props["to"]
			continue
		case "drop_table":
			out.droppedAt = e.EvidencePath + ":" + strconv.Itoa(e.EvidenceLine)
			continue
		}
		ids = append(ids, e.To)
	}
	if len(ids) == 0 {
		return out, nil
	}
	nodes, err := snap.graph.NodesByID(ctx, ids)
	if err != nil {
		return out, storeError(err)
	}
	for _, id := range ids {
		if n, ok := nodes[id]; ok {
			out.added = append(out.added, n)
		}
	}
	return out, nil
}

// DomainStatus is the status section about SQL and schema sources: SQL
// strings that parsed or not (with examples), schema conflicts between
// sources, and the live databases read at index time.
type DomainStatus struct {
	SQL             json.RawMessage `json:"sql"`
	SchemaConflicts json.RawMessage `json:"schema_conflicts"`
	DBSources       json.RawMessage `json:"db_sources"`
}

// domainStatus reads the section from graph meta; nil when the revision
// was built without it.
func domainStatus(ctx context.Context, snap *snapshot) *DomainStatus {
	get := func(k string) json.RawMessage {
		v, err := snap.graph.Meta(ctx, k)
		if err != nil || v == "" || !json.Valid([]byte(v)) {
			return nil
		}
		return json.RawMessage(v)
	}
	d := &DomainStatus{SQL: get("sql_problems"), SchemaConflicts: get("schema_conflicts"), DBSources: get("db_sources")}
	if d.SQL == nil {
		return nil
	}
	if d.SchemaConflicts == nil {
		d.SchemaConflicts = json.RawMessage("[]")
	}
	if d.DBSources == nil {
		d.DBSources = json.RawMessage("[]")
	}
	return d
}
