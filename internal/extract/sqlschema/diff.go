// This file compares two schemas; the drift detector turns the changes into
// schema_change ledger entries.

package sqlschema

import "sort"

// Change kinds.
const (
	TableAdded        = "table_added"
	TableRemoved      = "table_removed"
	ColumnAdded       = "column_added"
	ColumnRemoved     = "column_removed"
	ColumnTypeChanged = "column_type_changed"
)

// Change is one difference between two schemas. Column is "" for table
// changes; Old and New hold the column types for column_type_changed.
type Change struct {
	Table  string
	Column string
	Kind   string
	Old    string
	New    string
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
			case normType(nc.Type) != normType(oc.Type):
				out = append(out, Change{Table: ot.Name, Column: oc.Name, Kind: ColumnTypeChanged, Old: oc.Type, New: nc.Type})
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
