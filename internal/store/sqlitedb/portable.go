//go:build !ragraf_oneengine

package sqlitedb

import "database/sql"

// openPortable opens dsn (modernc's form: _pragma=name(value) parameters)
// with the portable engine.
func openPortable(dsn string) (*sql.DB, error) { return sql.Open("sqlite", dsn) }
