// This file reads a live schema into sqlschema types; open.go connects.

package dbschema

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/extract/sqlschema"
)

// Read returns the tables of database (MySQL/MariaDB schema name, PostgreSQL
// database whose "public" schema is read, or SQLite file label).
func Read(ctx context.Context, db *sql.DB, driver, database string) (sqlschema.Schema, error) {
	r := reader{path: "db:" + driver + "/" + database, tables: map[string]*sqlschema.Table{}}
	var err error
	switch driver {
	case "mysql", "mariadb":
		r.source = "information_schema"
		err = r.mysql(ctx, db, database)
	case "postgres", "postgresql", "pgx":
		r.source = "information_schema"
		err = r.postgres(ctx, db, "public")
	case "sqlite", "sqlite3":
		r.source = "sqlite_pragma"
		err = r.sqlite(ctx, db)
	default:
		return sqlschema.Schema{}, fmt.Errorf("%w %q", ErrDriver, driver)
	}
	if err != nil {
		return sqlschema.Schema{}, fmt.Errorf("reading schema of %s: %w", r.path, err)
	}
	return r.schema(), nil
}

type reader struct {
	path, source string
	tables       map[string]*sqlschema.Table
}

func (r *reader) table(name string) *sqlschema.Table {
	t := r.tables[name]
	if t == nil {
		t = &sqlschema.Table{Name: name, Source: r.source, Path: r.path, Line: 1, EndLine: 1}
		r.tables[name] = t
	}
	return t
}

func (r *reader) schema() sqlschema.Schema {
	var s sqlschema.Schema
	for _, t := range r.tables {
		s.Tables = append(s.Tables, *t)
	}
	sort.Slice(s.Tables, func(i, j int) bool { return s.Tables[i].Name < s.Tables[j].Name })
	return s
}

// index appends column col at position pos (1-based) of index name.
func (r *reader) index(table, name string, unique, primary bool, col string) {
	t := r.table(table)
	for i := range t.Indexes {
		if t.Indexes[i].Name == name {
			t.Indexes[i].Columns = append(t.Indexes[i].Columns, col)
			return
		}
	}
	t.Indexes = append(t.Indexes, sqlschema.Index{Name: name, Columns: []string{col}, Unique: unique, Primary: primary, Line: 1})
}

// fk appends a column pair to foreign key name.
func (r *reader) fk(table, name, col, refTable, refCol string) {
	t := r.table(table)
	for i := range t.ForeignKeys {
		f := &t.ForeignKeys[i]
		if f.Name == name {
			if !contains(f.Columns, col) {
				f.Columns = append(f.Columns, col)
			}
			if !contains(f.RefColumns, refCol) {
				f.RefColumns = append(f.RefColumns, refCol)
			}
			return
		}
	}
	t.ForeignKeys = append(t.ForeignKeys, sqlschema.ForeignKey{Name: name, Columns: []string{col}, RefTable: refTable, RefColumns: []string{refCol}, Line: 1})
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// keys sets Column.Key from the indexes, as MySQL's COLUMN_KEY does.
func (r *reader) keys() {
	for _, t := range r.tables {
		t.RecomputeKeys()
	}
}

func (r *reader) mysql(ctx context.Context, db *sql.DB, schema string) error {
	rows, err := db.QueryContext(ctx, `
SELECT c.TABLE_NAME, c.COLUMN_NAME, c.COLUMN_TYPE, c.IS_NULLABLE, c.COLUMN_DEFAULT
FROM information_schema.COLUMNS c
JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
WHERE c.TABLE_SCHEMA = ? AND t.TABLE_TYPE = 'BASE TABLE'
ORDER BY c.TABLE_NAME, c.ORDINAL_POSITION`, schema)
	if err != nil {
		return err
	}
	if err := r.columns(rows, mysqlDefault); err != nil {
		return err
	}
	rows, err = db.QueryContext(ctx, `
SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, COLUMN_NAME
FROM information_schema.STATISTICS
WHERE TABLE_SCHEMA = ?
ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`, schema)
	if err != nil {
		return err
	}
	err = scanRows(rows, func(rows *sql.Rows) error {
		var table, name, col string
		var nonUnique int
		if err := rows.Scan(&table, &name, &nonUnique, &col); err != nil {
			return err
		}
		r.index(table, name, nonUnique == 0, name == "PRIMARY", col)
		return nil
	})
	if err != nil {
		return err
	}
	rows, err = db.QueryContext(ctx, `
SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME
FROM information_schema.KEY_COLUMN_USAGE
WHERE TABLE_SCHEMA = ? AND REFERENCED_TABLE_NAME IS NOT NULL
ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`, schema)
	if err != nil {
		return err
	}
	if err := r.fks(rows); err != nil {
		return err
	}
	r.keys()
	return nil
}

// mysqlDefault normalises COLUMN_DEFAULT: MariaDB writes a NULL default as the
// text NULL and quotes string literals; MySQL does neither.
func mysqlDefault(s sql.NullString) *string {
	if !s.Valid || s.String == "NULL" {
		return nil
	}
	v := s.String
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		v = strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	return &v
}

func (r *reader) postgres(ctx context.Context, db *sql.DB, schema string) error {
	rows, err := db.QueryContext(ctx, `
SELECT c.table_name, c.column_name,
       CASE WHEN c.character_maximum_length IS NOT NULL
            THEN c.data_type || '(' || c.character_maximum_length || ')'
            WHEN c.data_type = 'numeric' AND c.numeric_precision IS NOT NULL
            THEN c.data_type || '(' || c.numeric_precision || ',' || c.numeric_scale || ')'
            ELSE c.data_type END,
       c.is_nullable, c.column_default
FROM information_schema.columns c
JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
WHERE c.table_schema = $1 AND t.table_type = 'BASE TABLE'
ORDER BY c.table_name, c.ordinal_position`, schema)
	if err != nil {
		return err
	}
	if err := r.columns(rows, plainDefault); err != nil {
		return err
	}
	// information_schema has no non-unique indexes; pg_index has them all.
	rows, err = db.QueryContext(ctx, `
SELECT t.relname, i.relname, ix.indisunique, ix.indisprimary, a.attname
FROM pg_index ix
JOIN pg_class t ON t.oid = ix.indrelid
JOIN pg_class i ON i.oid = ix.indexrelid
JOIN pg_namespace n ON n.oid = t.relnamespace
JOIN LATERAL unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord) ON true
JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
WHERE n.nspname = $1
ORDER BY t.relname, i.relname, k.ord`, schema)
	if err != nil {
		return err
	}
	err = scanRows(rows, func(rows *sql.Rows) error {
		var table, name, col string
		var unique, primary bool
		if err := rows.Scan(&table, &name, &unique, &primary, &col); err != nil {
			return err
		}
		if _, ok := r.tables[table]; ok {
			r.index(table, name, unique, primary, col)
		}
		return nil
	})
	if err != nil {
		return err
	}
	rows, err = db.QueryContext(ctx, `
SELECT kcu.table_name, tc.constraint_name, kcu.column_name, ccu.table_name, ccu.column_name
FROM information_schema.table_constraints tc
JOIN information_schema.key_column_usage kcu
  ON kcu.constraint_schema = tc.constraint_schema AND kcu.constraint_name = tc.constraint_name
JOIN information_schema.constraint_column_usage ccu
  ON ccu.constraint_schema = tc.constraint_schema AND ccu.constraint_name = tc.constraint_name
WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = $1
ORDER BY kcu.table_name, tc.constraint_name, kcu.ordinal_position`, schema)
	if err != nil {
		return err
	}
	if err := r.fks(rows); err != nil {
		return err
	}
	r.keys()
	return nil
}

func plainDefault(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}

func (r *reader) columns(rows *sql.Rows, def func(sql.NullString) *string) error {
	return scanRows(rows, func(rows *sql.Rows) error {
		var table, name, typ, nullable string
		var dflt sql.NullString
		if err := rows.Scan(&table, &name, &typ, &nullable, &dflt); err != nil {
			return err
		}
		t := r.table(table)
		t.Columns = append(t.Columns, sqlschema.Column{
			Name: name, Type: strings.ToLower(typ), Nullable: nullable == "YES", Default: def(dflt), Line: 1,
		})
		return nil
	})
}

func (r *reader) fks(rows *sql.Rows) error {
	return scanRows(rows, func(rows *sql.Rows) error {
		var table, name, col, refTable, refCol string
		if err := rows.Scan(&table, &name, &col, &refTable, &refCol); err != nil {
			return err
		}
		r.fk(table, name, col, refTable, refCol)
		return nil
	})
}

func scanRows(rows *sql.Rows, each func(*sql.Rows) error) error {
	defer rows.Close()
	for rows.Next() {
		if err := each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (r *reader) sqlite(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return err
	}
	var names []string
	if err := scanRows(rows, func(rows *sql.Rows) error {
		var n string
		err := rows.Scan(&n)
		names = append(names, n)
		return err
	}); err != nil {
		return err
	}
	for _, name := range names {
		t := r.table(name)
		rows, err := db.QueryContext(ctx, `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid`, name)
		if err != nil {
			return err
		}
		var pk []string
		pkPos := map[string]int{}
		if err := scanRows(rows, func(rows *sql.Rows) error {
			var col, typ string
			var notnull, pkn int
			var dflt sql.NullString
			if err := rows.Scan(&col, &typ, &notnull, &dflt, &pkn); err != nil {
				return err
			}
			t.Columns = append(t.Columns, sqlschema.Column{Name: col, Type: strings.ToLower(typ), Nullable: notnull == 0 && pkn == 0, Default: plainDefault(dflt), Line: 1})
			if pkn > 0 {
				pk = append(pk, col)
				pkPos[col] = pkn
			}
			return nil
		}); err != nil {
			return err
		}
		if len(pk) > 0 {
			sort.Slice(pk, func(i, j int) bool { return pkPos[pk[i]] < pkPos[pk[j]] })
			t.Indexes = append(t.Indexes, sqlschema.Index{Name: "PRIMARY", Columns: pk, Primary: true, Unique: true, Line: 1})
		}
		type idx struct {
			name   string
			unique bool
			origin string
		}
		var idxs []idx
		rows, err = db.QueryContext(ctx, `SELECT name, "unique", origin FROM pragma_index_list(?) ORDER BY name`, name)
		if err != nil {
			return err
		}
		if err := scanRows(rows, func(rows *sql.Rows) error {
			var x idx
			var u int
			err := rows.Scan(&x.name, &u, &x.origin)
			x.unique = u != 0
			idxs = append(idxs, x)
			return err
		}); err != nil {
			return err
		}
		for _, x := range idxs {
			if x.origin == "pk" {
				continue // already from table_info
			}
			rows, err := db.QueryContext(ctx, `SELECT name FROM pragma_index_info(?) ORDER BY seqno`, x.name)
			if err != nil {
				return err
			}
			if err := scanRows(rows, func(rows *sql.Rows) error {
				var col sql.NullString
				if err := rows.Scan(&col); err != nil {
					return err
				}
				if col.Valid {
					r.index(name, x.name, x.unique, false, col.String)
				}
				return nil
			}); err != nil {
				return err
			}
		}
		rows, err = db.QueryContext(ctx, `SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq`, name)
		if err != nil {
			return err
		}
		if err := scanRows(rows, func(rows *sql.Rows) error {
			var id int
			var refTable, from string
			var to sql.NullString
			if err := rows.Scan(&id, &refTable, &from, &to); err != nil {
				return err
			}
			r.fk(name, fmt.Sprintf("fk_%s_%d", name, id), from, refTable, to.String)
			return nil
		}); err != nil {
			return err
		}
	}
	r.keys()
	return nil
}
