package sqlitedb

import (
	"context"
	"database/sql"
	"strings"
)

// batchRows is how many rows one INSERT statement carries. A statement per
// row spends most of its time in database/sql and the driver, not in SQLite;
// a hundred rows per statement divide that overhead by a hundred.
const batchRows = 100

// InsertRows inserts n rows into table, len(cols) values each, filled by row
// into the slice it is given, with multi-row INSERT statements.
func InsertRows(ctx context.Context, tx *sql.Tx, table string, cols []string, n int, row func(i int, vals []any)) error {
	if n == 0 {
		return nil
	}
	stmt := func(rows int) (*sql.Stmt, error) {
		var b strings.Builder
		b.WriteString("INSERT INTO " + table + "(" + strings.Join(cols, ", ") + ") VALUES ")
		one := "(" + strings.Repeat("?,", len(cols)-1) + "?)"
		for r := range rows {
			if r > 0 {
				b.WriteByte(',')
			}
			b.WriteString(one)
		}
		return tx.PrepareContext(ctx, b.String())
	}
	full := min(batchRows, n)
	st, err := stmt(full)
	if err != nil {
		return err
	}
	defer st.Close()
	args := make([]any, full*len(cols))
	for start := 0; start < n; start += full {
		rows := min(full, n-start)
		if rows < full {
			if st, err = stmt(rows); err != nil {
				return err
			}
			defer st.Close()
		}
		vals := args[:rows*len(cols)]
		for r := range rows {
			row(start+r, vals[r*len(cols):(r+1)*len(cols)])
		}
		if _, err := st.ExecContext(ctx, vals...); err != nil {
			return err
		}
	}
	return nil
}
