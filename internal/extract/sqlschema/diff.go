// This file compares two schemas; the drift detector turns the changes into
// schema_change ledger entries.

package sqlschema

import (
	"sort"
	"strings"
)

// Change kinds.
const (
	TableAdded        = "table_added"
	TableRemoved      = "table_removed"
	ColumnAdded       = "column_added"
	ColumnRemoved     = "column_removed"
	ColumnTypeChanged = "column_type_changed"
	ColumnNullChanged = "column_null_changed"    // Old, New: "NULL" or "NOT NULL"
	DefaultChanged    = "column_default_changed" // Old, New: the default, or "no default"
	KeyChanged        = "column_key_changed"     // Old, New: PRI, UNI, MUL, or "no key"
)

// Change is one difference between two schemas. Column is "" for table
// changes; Old and New hold the column types for column_type_changed, and
// the two sides of the attribute for the other column changes.
type Change struct {
	Table  string
	Column string
	Kind   string
	Old    string
	New    string
}

// columnChanges compares the attributes of one column on both sides. Both
// sides come from the same reader (two reads of a database, or two versions
// of a file), so defaults compare as written.
func columnChanges(table string, o, n Column) []Change {
	var out []Change
	add := func(kind, old, new string) {
		out = append(out, Change{Table: table, Column: o.Name, Kind: kind, Old: old, New: new})
	}
	if normType(n.Type) != normType(o.Type) {
		add(ColumnTypeChanged, o.Type, n.Type)
	}
	if o.Nullable != n.Nullable {
		add(ColumnNullChanged, nullWord(o.Nullable), nullWord(n.Nullable))
	}
	if od, nd := defaultWord(o.Default), defaultWord(n.Default); od != nd {
		add(DefaultChanged, od, nd)
	}
	if !strings.EqualFold(o.Key, n.Key) {
		add(KeyChanged, keyWord(o.Key), keyWord(n.Key))
	}
	return out
}

func nullWord(nullable bool) string {
	if nullable {
		return "NULL"
	}
	return "NOT NULL"
}

func defaultWord(d *string) string {
	if d == nil {
		return "no default"
	}
	return *d
}

func keyWord(k string) string {
	if k == "" {
		return "no key"
	}
	return strings.ToUpper(k)
}

// Diff lists what changed from old to new, sorted by table, column and kind.
// Types are compared case-insensitively.
func Diff(old, new Schema) []Change {
	var out []Change
	for _, ot := range old.Tables {
		nt := new.Table(ot.Name)
		if nt == nil {
			out = append(out, Change{Table: ot.Name, Kind: TableRemoved})
			continue
		}
		for _, oc := range ot.Columns {
			nc := nt.Column(oc.Name)
			switch {
			case nc == nil:
				out = append(out, Change{Table: ot.Name, Column: oc.Name, Kind: ColumnRemoved, Old: oc.Type})
			default:
				out = append(out, columnChanges(ot.Name, oc, *nc)...)
			}
		}
		for _, nc := range nt.Columns {
			if ot.Column(nc.Name) == nil {
				out = append(out, Change{Table: ot.Name, Column: nc.Name, Kind: ColumnAdded, New: nc.Type})
			}
		}
	}
	for _, nt := range new.Tables {
		if old.Table(nt.Name) == nil {
			out = append(out, Change{Table: nt.Name, Kind: TableAdded})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Table != b.Table {
			return a.Table < b.Table
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Kind < b.Kind
	})
	return out
}
