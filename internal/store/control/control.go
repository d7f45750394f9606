// Package control owns control.sqlite: the revision history and the drift
// ledger (ledger.go). It outlives every revision and is never
// rotated. Its tables only grow: the package exposes appends and reads, and
// triggers in the schema refuse UPDATE and DELETE.
package control

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// SchemaVersion is the version of schema.sql.
//
//	1: rev_history, rev_rotation.
//	2: drift_entry, drift_ack, drift_archive, stale_edge (ledger.go); a
//	   version 1 file is migrated in place when opened.
const SchemaVersion = 2

//go:embed schema.sql
var schemaSQL string

// Store is an open control.sqlite. It is safe for concurrent use.
type Store struct {
	db       *sql.DB // writes, one connection: one writer at a time in this process
	rdb      *sql.DB // reads, several connections: WAL readers do not wait for each other or for the writer
	path     string
	readOnly error // why the file is open for reading only; nil when writable
}

// ErrReadOnly is wrapped by every write to a control.sqlite that cannot be
// written: on a read-only file system, without permission, or out of space.
var ErrReadOnly = errors.New("control.sqlite cannot be written")

// Open opens (creating if needed) control.sqlite at path. When the file
// exists but cannot be opened for writing (a read-only directory or file
// system, a full disk), it is opened for reading: reads work and every
// write returns an error wrapping ErrReadOnly.
func Open(ctx context.Context, path string) (*Store, error) {
	s, err := openWritable(ctx, path)
	if err == nil {
		return s, nil
	}
	var ve *sqlitedb.VersionError
	if errors.As(err, &ve) {
		return nil, err
	}
	if _, serr := os.Stat(path); serr != nil {
		return nil, err
	}
	for _, immutable := range []bool{false, true} {
		if ro, rerr := openReadOnly(ctx, path, immutable); rerr == nil {
			ro.readOnly = err
			return ro, nil
		} else if errors.As(rerr, &ve) {
			return nil, rerr
		}
	}
	return nil, err
}

func openWritable(ctx context.Context, path string) (*Store, error) {
	db, err := sqlitedb.OpenReadWrite(path)
	if err != nil {
		return nil, err
	}
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening control store %q: %w", path, err)
	}
	// 0 is a new file; versions below SchemaVersion migrate by running the
	// idempotent schema, which only adds tables and triggers
	if v > SchemaVersion {
		db.Close()
		return nil, &sqlitedb.VersionError{Path: path, Found: v, Supported: SchemaVersion}
	}
	if _, err := db.ExecContext(ctx, schemaSQL); err != nil {
		db.Close()
		return nil, fmt.Errorf("creating control schema in %q: %w", path, err)
	}
	if v != SchemaVersion {
		if err := sqlitedb.SetVersion(ctx, db, SchemaVersion); err != nil {
			db.Close()
			return nil, err
		}
	}
	rdb, err := sqlitedb.OpenReaders(path, readConns)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Store{db: db, rdb: rdb, path: path}, nil
}

// readConns is how many connections read a writable control.sqlite at once.
const readConns = 8

// openReadOnly opens path for reading; it must hold the current schema,
// since a file that cannot be written cannot be migrated.
func openReadOnly(ctx context.Context, path string, immutable bool) (*Store, error) {
	db, err := sqlitedb.OpenLiveReadOnly(path, immutable)
	if err != nil {
		return nil, err
	}
	var v, n int
	err = db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	if err == nil && v == SchemaVersion {
		err = db.QueryRowContext(ctx, "SELECT count(*) FROM drift_entry WHERE seq < 0").Scan(&n)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("opening control store %q for reading: %w", path, err)
	}
	if v != SchemaVersion {
		db.Close()
		return nil, &sqlitedb.VersionError{Path: path, Found: v, Supported: SchemaVersion}
	}
	return &Store{db: db, rdb: db, path: path}, nil
}

// ReadOnly returns why the store is open for reading only, or nil.
func (s *Store) ReadOnly() error { return s.readOnly }

// writable returns the error a write gets on a read-only store.
func (s *Store) writable() error {
	if s.readOnly != nil {
		return fmt.Errorf("%w: %v", ErrReadOnly, s.readOnly)
	}
	return nil
}

// writeErr marks a failed write that SQLite could not make (a read-only
// file, a full disk) with ErrReadOnly.
func writeErr(err error) error {
	if err != nil && sqlitedb.IsNotWritable(err) && !errors.Is(err, ErrReadOnly) {
		return fmt.Errorf("%w: %w", ErrReadOnly, err)
	}
	return err
}

// Close closes the file.
func (s *Store) Close() error {
	err := s.db.Close()
	if s.rdb != s.db {
		err = errors.Join(err, s.rdb.Close())
	}
	return err
}

// Rev is one rev_history row.
type Rev struct {
	Rev           string `json:"rev"`
	Seq           int    `json:"seq"`
	CreatedAt     string `json:"created_at"`
	CorpusHash    string `json:"corpus_hash"`
	ConfigHash    string `json:"config_hash"`
	GitHead       string `json:"git_head"`
	RagrafVersion string `json:"ragraf_version"`
	Files         int    `json:"files"`
	Nodes         int    `json:"nodes"`
	Edges         int    `json:"edges"`
	Capability    string `json:"capability"`
	ParentRev     string `json:"parent_rev"`
	RemovedAt     string `json:"removed_at,omitempty"` // set when the store directory was rotated away
}

// AppendRev records a published revision.
func (s *Store) AppendRev(ctx context.Context, r Rev) error {
	if err := s.writable(); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO rev_history(rev, seq, created_at, corpus_hash, config_hash, git_head, ragraf_version, files, nodes, edges, capability, parent_rev)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`, r.Rev, r.Seq, r.CreatedAt, r.CorpusHash, r.ConfigHash, r.GitHead, r.RagrafVersion, r.Files, r.Nodes, r.Edges, r.Capability, r.ParentRev)
	if err != nil {
		return fmt.Errorf("recording revision %s: %w", r.Rev, writeErr(err))
	}
	return nil
}

// AppendRotation records that a revision's store directory was removed.
func (s *Store) AppendRotation(ctx context.Context, rev string, at time.Time) error {
	if err := s.writable(); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO rev_rotation(rev, removed_at) VALUES (?, ?)`, rev, at.UTC().Format(time.RFC3339))
	return writeErr(err)
}

// Revs returns the history, oldest first.
func (s *Store) Revs(ctx context.Context) ([]Rev, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT h.rev, h.seq, h.created_at, h.corpus_hash, h.config_hash, h.git_head, h.ragraf_version, h.files, h.nodes, h.edges, h.capability, h.parent_rev, coalesce(r.removed_at, '')
		FROM rev_history h LEFT JOIN rev_rotation r ON r.rev = h.rev ORDER BY h.seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Rev
	for rows.Next() {
		var r Rev
		if err := rows.Scan(&r.Rev, &r.Seq, &r.CreatedAt, &r.CorpusHash, &r.ConfigHash, &r.GitHead, &r.RagrafVersion, &r.Files, &r.Nodes, &r.Edges, &r.Capability, &r.ParentRev, &r.RemovedAt); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// MaxSeq returns the highest revision number recorded (0 when none).
func (s *Store) MaxSeq(ctx context.Context) (int, error) {
	var n sql.NullInt64
	err := s.rdb.QueryRowContext(ctx, `SELECT max(seq) FROM rev_history`).Scan(&n)
	return int(n.Int64), err
}

// DB exposes the handle to the drift ledger code inside internal/store.
func (s *Store) DB() *sql.DB { return s.db }
