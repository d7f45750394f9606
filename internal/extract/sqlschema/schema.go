// This file defines the schema types and their conversion to graph facts;
// parse.go fills them from SQL text and diff.go compares two of them.

package sqlschema

import (
	"sort"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// Schema is a set of tables, sorted by name.
type Schema struct {
	Tables []Table
}

// Table is one table as one source defines it.
type Table struct {
	Name string
	// Source says where the definition comes from: "sql_file", "php_string",
	// "information_schema", "sqlite_pragma".
	Source      string
	Path        string
	Line        int
	EndLine     int
	Columns     []Column
	Indexes     []Index
	ForeignKeys []ForeignKey
	// Partial marks a table this file only alters (ALTER TABLE or CREATE
	// INDEX of a table created elsewhere): Columns are the ones it adds or
	// changes and Dropped the ones it drops. The link step applies such
	// tables onto the table's definition in path order.
	Partial bool
	Dropped []Dropped
	// DropsTable marks a partial table this file drops (DROP TABLE of a
	// table created elsewhere).
	DropsTable bool
}

// Dropped is a column an ALTER TABLE drops from a table defined elsewhere.
type Dropped struct {
	Column string
	Line   int
}

// Column is one column of a table.
type Column struct {
	Name     string
	Type     string // lower-case SQL type as declared, e.g. "bigint(20) unsigned"
	Nullable bool
	Default  *string // nil when there is no default
	Key      string  // "PRI", "UNI", "MUL" or "" (MySQL's COLUMN_KEY meaning)
	Line     int     // where the column was defined (or last changed)
	// RenamedFrom is the old name when an ALTER TABLE renames a column of a
	// table defined in another file; Type is "" when the statement gives no
	// definition (RENAME COLUMN), and the link step takes the old column's.
	RenamedFrom string
}

// Index is one index or key of a table.
type Index struct {
	Name    string
	Columns []string
	Primary bool
	Unique  bool
	Line    int
}

// ForeignKey is a FOREIGN KEY ... REFERENCES constraint.
type ForeignKey struct {
	Name       string
	Columns    []string
	RefTable   string
	RefColumns []string
	Line       int
}

// Problem is a statement that could not be understood.
type Problem struct {
	Path string
	Line int
	Msg  string
}

// Table returns the table named name, or nil.
func (s Schema) Table(name string) *Table {
	for i := range s.Tables {
		if s.Tables[i].Name == name {
			return &s.Tables[i]
		}
	}
	return nil
}

// Column returns the column named name, or nil.
func (t *Table) Column(name string) *Column {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

func (s *Schema) sort() {
	sort.SliceStable(s.Tables, func(i, j int) bool { return s.Tables[i].Name < s.Tables[j].Name })
}

// sourceName is the extractor name written into edge Sources.
const sourceName = "sqlschema"

// Facts returns table and column nodes, contains edges table -> column and
// foreign_key edges table -> referenced table. Node ids include the path, so
// one table defined by two sources gives two nodes and both facts are kept.
// A referenced table is looked up in s (same source); when s does not define
// it, the edge points at the id the table would have in the same path.
func (s Schema) Facts() ([]fact.Node, []fact.Edge) {
	var nodes []fact.Node
	var edges []fact.Edge
	for _, t := range s.Tables {
		tid := fact.NodeID(fact.Table, t.Name, t.Path, 0)
		nodes = append(nodes, fact.Node{
			ID: tid, Kind: fact.Table, Name: t.Name, QName: t.Name, Path: t.Path,
			StartLine: t.Line, EndLine: max(t.EndLine, t.Line), Lang: "sql",
			Props: tableProps(t),
		})
		for _, c := range t.Columns {
			qn := t.Name + "." + c.Name
			cid := fact.NodeID(fact.Column, qn, t.Path, 0)
			props := map[string]string{
				"type": c.Type, "nullable": strconv.FormatBool(c.Nullable), "key": c.Key, "source": t.Source,
			}
			if c.Default != nil {
				props["default"] = *c.Default
			}
			if c.RenamedFrom != "" {
				props[PropRenamedFrom] = c.RenamedFrom
			}
			line := c.Line
			if line == 0 {
				line = t.Line
			}
			nodes = append(nodes, fact.Node{
				ID: cid, Kind: fact.Column, Name: c.Name, QName: qn, Path: t.Path,
				StartLine: line, EndLine: line, Lang: "sql", Parent: tid, Props: props,
			})
			edges = append(edges, stated(fact.Contains, tid, cid, t.Path, line, nil))
		}
		for _, fk := range t.ForeignKeys {
			to := fact.NodeID(fact.Table, fk.RefTable, t.Path, 0)
			line := fk.Line
			if line == 0 {
				line = t.Line
			}
			props := map[string]string{"columns": join(fk.Columns), "ref_columns": join(fk.RefColumns)}
			if fk.Name != "" {
				props["name"] = fk.Name
			}
			edges = append(edges, stated(fact.ForeignKey, tid, to, t.Path, line, props))
		}
	}
	return nodes, edges
}

// Props keys of a partial table node.
const (
	PropPartial    = "partial"     // "true" when the node only alters the table
	PropDropped    = "dropped"     // "col:line,col:line": the columns it drops
	PropDropsTable = "drops_table" // "true" when the file drops the table

	// PropRenamedFrom on a column node of a partial table: the column of the
	// altered table it renames.
	PropRenamedFrom = "renamed_from"
)

func tableProps(t Table) map[string]string {
	p := map[string]string{"source": t.Source}
	if t.Partial {
		p[PropPartial] = "true"
	}
	if t.DropsTable {
		p[PropDropsTable] = "true"
	}
	if len(t.Dropped) > 0 {
		var parts []string
		for _, d := range t.Dropped {
			parts = append(parts, d.Column+":"+strconv.Itoa(d.Line))
		}
		p[PropDropped] = join(parts)
	}
	return p
}

// ParseDropped reads a partial table node's PropDropped value.
func ParseDropped(v string) []Dropped {
	var out []Dropped
	for _, part := range strings.Split(v, ",") {
		name, line, ok := strings.Cut(part, ":")
		if !ok || name == "" {
			continue
		}
		n, _ := strconv.Atoi(line)
		out = append(out, Dropped{Column: name, Line: n})
	}
	return out
}

func stated(k fact.EdgeKind, from, to, path string, line int, props map[string]string) fact.Edge {
	return fact.Edge{
		ID: fact.EdgeID(k, from, to, path, line), Kind: k, From: from, To: to,
		Provenance: fact.Stated, Confidence: 1, EvidencePath: path, EvidenceLine: line,
		Sources: []string{sourceName}, Props: props,
	}
}

func join(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}
