//go:build ragraf_oneengine

// With the build tags ragraf_oneengine and sqlite_fts5 every store is opened
// through SQLite's C library (mattn/go-sqlite3 with FTS5 compiled in): the
// one-engine build docs/benchmarks.md measures against the default two.

package sqlitedb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"net/url"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// openPortable opens dsn (modernc's form: _pragma=name(value) parameters)
// with the C library: the pragmas run on each new connection.
func openPortable(dsn string) (*sql.DB, error) {
	file, query, _ := strings.Cut(dsn, "?")
	vals, err := url.ParseQuery(query)
	if err != nil {
		return nil, err
	}
	var pragmas []string
	for _, p := range vals["_pragma"] {
		name, value, _ := strings.Cut(strings.TrimSuffix(p, ")"), "(")
		pragmas = append(pragmas, "PRAGMA "+name+" = "+value)
	}
	vals.Del("_pragma")
	if q := vals.Encode(); q != "" {
		file += "?" + q
	}
	d := &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
		for _, p := range pragmas {
			if _, err := c.Exec(p, nil); err != nil {
				return err
			}
		}
		return nil
	}}
	return sql.OpenDB(connector{d, file}), nil
}

type connector struct {
	d   *sqlite3.SQLiteDriver
	dsn string
}

func (c connector) Connect(context.Context) (driver.Conn, error) { return c.d.Open(c.dsn) }
func (c connector) Driver() driver.Driver                        { return c.d }
