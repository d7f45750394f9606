// This file names the database a DSN points at, for Read.

package dbschema

import (
	"path/filepath"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// DatabaseName returns the database a DSN selects: the MySQL/MariaDB schema
// name, "public" for PostgreSQL, or the file's base name for SQLite.
func DatabaseName(driver, dsn string) string {
	switch driver {
	case "mysql", "mariadb":
		if cfg, err := mysql.ParseDSN(dsn); err == nil {
			return cfg.DBName
		}
		return ""
	case "postgres", "postgresql", "pgx":
		return "public"
	default:
		return filepath.Base(strings.TrimPrefix(strings.SplitN(dsn, "?", 2)[0], "file:"))
	}
}
