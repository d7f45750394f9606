// Package sqlitedb opens the SQLite files of the three stores with the right
// pragmas and checks their schema version. It is the one place that names the
// SQLite drivers; the store packages above it own their schemas.
//
// Two builds of SQLite are linked in. modernc.org/sqlite (pure Go, with FTS5)
// reads every store and writes lexvec.sqlite and control.sqlite; the C
// library that github.com/mattn/go-sqlite3 compiles writes graph.sqlite: a
// new file through Bulk (bulk.c calls the C API directly), an update through
// the driver. It does the bulk inserts and index builds 1.6 times as fast
// (docs/benchmarks.md). Both read and write the same file format.
package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"strconv"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver: the C library, no FTS5 without a build tag
	_ "modernc.org/sqlite"          // registers the "sqlite" driver; FTS5 is built in
)

// Engine is the SQLite build a store file is written with.
type Engine int

const (
	// Portable is modernc.org/sqlite: full-text search (FTS5) included.
	Portable Engine = iota
	// Native is SQLite's C library: faster bulk writes, no full-text search.
	Native
)

// ErrSchema is wrapped by a VersionError.
var ErrSchema = errors.New("unsupported store schema version")

// VersionError says a store file was written by an incompatible schema version.
type VersionError struct {
	Path      string
	Found     int
	Supported int
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("%s: store schema version %d, this ragraf reads version %d; run `ragraf drop --yes` and `ragraf index`", e.Path, e.Found, e.Supported)
}

func (e *VersionError) Unwrap() error { return ErrSchema }

// ReadConns is how many connections OpenReadOnly keeps on a store file:
// calls beyond it wait for a free one.
var ReadConns = max(8, 2*runtime.GOMAXPROCS(0))

// OpenReadOnly opens an immutable store file: SQLite will neither write nor
// take locks, so readers never change the file's bytes (FT-24). All
// ReadConns connections are opened now and kept until Close, none is opened
// later: the file stays readable through them after it is unlinked (a
// revision rotated or dropped while calls still read it), as an open file
// does on Unix.
func OpenReadOnly(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("opening store %q: %w", path, err)
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=ro&immutable=1&_pragma=query_only(1)"
	db, err := openPortable(dsn)
	if err != nil {
		return nil, fmt.Errorf("opening store %q: %w", path, err)
	}
	n := ReadConns
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	ctx := context.Background()
	conns := make([]*sql.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close() // back to the idle pool, which keeps all n
		}
	}()
	for range n {
		c, err := db.Conn(ctx)
		if err == nil {
			err = c.PingContext(ctx)
		}
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("opening store %q: %w", path, err)
		}
		conns = append(conns, c)
	}
	return db, nil
}

// OpenBuild opens a store file that is being built: no journal and no fsync
// per transaction, because an unfinished build lives under .ragraf/tmp and is
// thrown away, never published. Sync is called once at the end.
func OpenBuild(path string) (*sql.DB, error) {
	return OpenBuildWith(Portable, path)
}

// OpenBuildWith is OpenBuild with the given engine.
func OpenBuildWith(e Engine, path string) (*sql.DB, error) {
	file := "file:" + (&url.URL{Path: path}).EscapedPath()
	var db *sql.DB
	var err error
	if e == Native {
		db, err = sql.Open("sqlite3", file+"?_journal_mode=OFF&_synchronous=OFF&_cache_size=-65536")
	} else {
		db, err = openPortable(file + "?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)&_pragma=temp_store(MEMORY)&_pragma=cache_size(-65536)")
	}
	if err != nil {
		return nil, fmt.Errorf("creating store %q: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	if e == Native {
		// the one connection sorts index builds in memory, as the
		// portable engine's DSN says
		if _, err := db.Exec("PRAGMA temp_store = MEMORY"); err != nil {
			db.Close()
			return nil, fmt.Errorf("creating store %q: %w", path, err)
		}
	}
	return db, nil
}

// OpenReadWrite opens a long-lived mutable store (control.sqlite) in WAL mode
// with a busy timeout, so a reader and a writer in two processes do not fail.
func OpenReadWrite(path string) (*sql.DB, error) {
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(ON)"
	db, err := openPortable(dsn)
	if err != nil {
		return nil, fmt.Errorf("opening store %q: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// OpenReaders opens up to n connections that read a mutable store
// (control.sqlite) in WAL mode beside its one writer: they read the last
// committed state without waiting for the writer or for each other.
func OpenReaders(path string, n int) (*sql.DB, error) {
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_pragma=busy_timeout(10000)&_pragma=query_only(1)"
	db, err := openPortable(dsn)
	if err != nil {
		return nil, fmt.Errorf("opening store %q: %w", path, err)
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	return db, nil
}

// OpenLiveReadOnly opens a mutable store (control.sqlite) for reading only,
// for a file system where it cannot be written. Without immutable, SQLite
// reads the write-ahead log and takes no write lock, which needs its shared
// memory file to exist or to be creatable; with immutable it reads the main
// file alone, without locks, which is only right while nobody writes it.
func OpenLiveReadOnly(path string, immutable bool) (*sql.DB, error) {
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=ro&_pragma=busy_timeout(10000)&_pragma=query_only(1)"
	if immutable {
		dsn = "file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=ro&immutable=1&_pragma=query_only(1)"
	}
	db, err := openPortable(dsn)
	if err != nil {
		return nil, fmt.Errorf("opening store %q: %w", path, err)
	}
	return db, nil
}

// IsNotWritable reports whether err is SQLite saying it cannot write: a
// read-only file or file system, no space left, or a file it cannot create
// or grow.
func IsNotWritable(err error) bool {
	var se interface{ Code() int }
	if !errors.As(err, &se) {
		return false
	}
	switch c := se.Code(); c & 0xff {
	case 8, 13, 14: // SQLITE_READONLY, SQLITE_FULL, SQLITE_CANTOPEN
		return true
	case 10: // SQLITE_IOERR: writing, growing or truncating a file
		return c == 10|3<<8 || c == 10|6<<8 || c == 10|19<<8 || c == 10|13<<8
	}
	return false
}

// SetVersion records the schema version in SQLite's user_version.
func SetVersion(ctx context.Context, db *sql.DB, v int) error {
	_, err := db.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(v))
	return err
}

// CheckVersion refuses a file whose schema version is not want.
func CheckVersion(ctx context.Context, db *sql.DB, path string, want int) error {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("reading schema version of %q: %w", path, err)
	}
	if v != want {
		return &VersionError{Path: path, Found: v, Supported: want}
	}
	return nil
}

// LibraryVersion returns the version of the SQLite library an engine holds.
func LibraryVersion(ctx context.Context, e Engine) (string, error) {
	driver := "sqlite"
	if e == Native {
		driver = "sqlite3"
	}
	db, err := sql.Open(driver, ":memory:")
	if err != nil {
		return "", err
	}
	defer db.Close()
	var v string
	err = db.QueryRowContext(ctx, "SELECT sqlite_version()").Scan(&v)
	return v, err
}

// Create makes a new store file at path with schema and version, and opens
// the transaction its bulk writes go into.
func Create(ctx context.Context, path, schema string, version int) (*sql.DB, *sql.Tx, error) {
	return CreateWith(ctx, Portable, path, schema, version)
}

// CreateWith is Create with the given engine.
func CreateWith(ctx context.Context, e Engine, path, schema string, version int) (*sql.DB, *sql.Tx, error) {
	db, err := OpenBuildWith(e, path)
	if err != nil {
		return nil, nil, err
	}
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("creating schema in %q: %w", path, err)
	}
	if err := SetVersion(ctx, db, version); err != nil {
		db.Close()
		return nil, nil, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return db, tx, nil
}
