// This file gives tests a database of their own on the servers that
// scripts/testdb.sh starts; the integration tests of facade and cli use it.

package dbschema

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// TestDB is an empty database created for one test, with a user of its own
// that has a password: DSN holds no password, Password does.
type TestDB struct {
	Driver   string
	DSN      string
	Password string
	Database string // the database name (its tables are in "public" for PostgreSQL)
	db       *sql.DB
	t        testing.TB
}

// TestServerEnv names the variable holding the admin DSN of the test server
// for driver ("mysql" or "postgres"); scripts/testdb.sh env prints both.
func TestServerEnv(driver string) string {
	if driver == "postgres" {
		return "RAGRAF_TEST_PG_DSN"
	}
	return "RAGRAF_TEST_MYSQL_DSN"
}

var nonWord = regexp.MustCompile(`[^a-z0-9]+`)

// NewTestDB creates a database and a user for the calling test on the test
// server of driver ("mysql" or "postgres"), and drops both when the test
// ends. It skips the test when the server's variable is unset. Names are
// unique, so tests in parallel packages never see each other's tables.
func NewTestDB(t testing.TB, driver string) *TestDB {
	t.Helper()
	admin := os.Getenv(TestServerEnv(driver))
	if admin == "" {
		t.Skipf("%s not set: start the test servers with scripts/testdb.sh start and load scripts/testdb.sh env", TestServerEnv(driver))
	}
	var rnd [4]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		t.Fatal(err)
	}
	base := nonWord.ReplaceAllString(strings.ToLower(t.Name()), "_")
	name := "rg_" + base[:min(len(base), 40)] + "_" + hex.EncodeToString(rnd[:])
	pw := "pw-" + hex.EncodeToString(rnd[:])
	ctx := context.Background()
	adb, err := Open(ctx, driver, admin, "")
	if err != nil {
		t.Fatalf("opening the test server: %v", err)
	}
	defer adb.Close()
	exec := func(db *sql.DB, stmts ...string) {
		t.Helper()
		for _, s := range stmts {
			if _, err := db.ExecContext(ctx, s); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
		}
	}
	tdb := &TestDB{Driver: driver, Password: pw, Database: name, t: t}
	switch driver {
	case "postgres":
		exec(adb, `CREATE ROLE `+name+` LOGIN PASSWORD '`+pw+`'`, `CREATE DATABASE `+name+` OWNER `+name)
		u, err := url.Parse(admin)
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.User(name)
		u.Path = "/" + name
		tdb.DSN = u.String()
	default:
		exec(adb, "CREATE DATABASE `"+name+"`", "CREATE USER '"+name+"'@'%' IDENTIFIED BY '"+pw+"'",
			"GRANT ALL ON `"+name+"`.* TO '"+name+"'@'%'")
		cfg, err := mysql.ParseDSN(admin)
		if err != nil {
			t.Fatal(err)
		}
		cfg.User, cfg.Passwd, cfg.DBName = name, "", name
		tdb.DSN = cfg.FormatDSN()
	}
	t.Cleanup(func() {
		if tdb.db != nil {
			tdb.db.Close()
		}
		adb, err := Open(ctx, driver, admin, "")
		if err != nil {
			t.Errorf("dropping test database %s: %v", name, err)
			return
		}
		defer adb.Close()
		if driver == "postgres" {
			exec(adb, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`, `DROP ROLE IF EXISTS `+name)
			return
		}
		exec(adb, "DROP DATABASE IF EXISTS `"+name+"`", "DROP USER IF EXISTS '"+name+"'@'%'")
	})
	db, err := Open(ctx, driver, tdb.DSN, pw)
	if err != nil {
		t.Fatalf("opening test database %s: %v", name, err)
	}
	tdb.db = db
	return tdb
}

// Exec runs statements in the test database as its user, failing the test on
// the first error.
func (d *TestDB) Exec(stmts ...string) {
	d.t.Helper()
	for _, s := range stmts {
		if _, err := d.db.ExecContext(context.Background(), s); err != nil {
			d.t.Fatalf("%s: %v", s, err)
		}
	}
}
