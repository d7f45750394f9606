// This file opens database connections; read.go reads their schema.

package dbschema

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite" // registers driver "sqlite"
)

// ErrDriver is returned for a driver name this package does not read.
var ErrDriver = errors.New("unsupported database driver")

// Open connects to a database and pings it. driver is "mysql", "mariadb",
// "postgres" (or "pgx") or "sqlite". password, when not empty, replaces the
// DSN's password. Errors never contain the password.
func Open(ctx context.Context, driver, dsn, password string) (*sql.DB, error) {
	var db *sql.DB
	switch driver {
	case "mysql", "mariadb":
		cfg, err := mysql.ParseDSN(dsn)
		if err != nil {
			return nil, fmt.Errorf("parsing %s DSN: %s", driver, scrub(err.Error(), dsn, password))
		}
		if password != "" {
			cfg.Passwd = password
		}
		conn, err := mysql.NewConnector(cfg)
		if err != nil {
			return nil, fmt.Errorf("configuring %s: %s", driver, scrub(err.Error(), dsn, password))
		}
		db = sql.OpenDB(conn)
	case "postgres", "postgresql", "pgx":
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			return nil, fmt.Errorf("parsing postgres DSN: %s", scrub(err.Error(), dsn, password))
		}
		if password != "" {
			cfg.Password = password
		}
		db = stdlib.OpenDB(*cfg)
	case "sqlite", "sqlite3":
		var err error
		db, err = sql.Open("sqlite", dsn)
		if err != nil {
			return nil, fmt.Errorf("opening sqlite database: %w", err)
		}
	default:
		return nil, fmt.Errorf("%w %q", ErrDriver, driver)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connecting to %s database: %s", driver, scrub(err.Error(), dsn, password))
	}
	return db, nil
}

var userinfoPassword = regexp.MustCompile(`(://[^:/@\s]*:)[^@\s]*@`)
var mysqlPassword = regexp.MustCompile(`^([^:/@\s]*:)[^@]*@`)

// scrub removes the password and any password in the DSN from msg.
func scrub(msg, dsn, password string) string {
	if password != "" {
		msg = strings.ReplaceAll(msg, password, "***")
	}
	for _, re := range []*regexp.Regexp{userinfoPassword, mysqlPassword} {
		if m := re.FindStringSubmatch(dsn); m != nil {
			if pw := strings.TrimSuffix(strings.TrimPrefix(m[0], m[1]), "@"); pw != "" {
				msg = strings.ReplaceAll(msg, pw, "***")
			}
		}
	}
	return msg
}
