// Package veccache is the vector cache: sentence-model vectors keyed by
// (model id, sha256 of the embedded text), in one SQLite file outside every
// revision (the user's cache directory), so that a reindex, another
// revision or another project with the same text embeds nothing again.
// Vectors are float32 little-endian blobs. The file is mutable, in WAL mode
// with a busy timeout: two indexing processes may share it.
package veccache

import (
	"context"
	"crypto/sha256"
	"database/sql"
	_ "embed"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// SchemaVersion is the cache file's schema version.
//
//	1: vec(model, hash, v)
const SchemaVersion = 1

//go:embed schema.sql
var schema string

// Key is the sha256 of an embedded text.
type Key [32]byte

// KeyOf hashes text.
func KeyOf(text string) Key { return sha256.Sum256([]byte(text)) }

// Cache is an open cache file.
type Cache struct {
	db   *sql.DB
	path string
}

// Open opens or creates the cache at path.
func Open(ctx context.Context, path string) (*Cache, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	db, err := sqlitedb.OpenReadWrite(path)
	if err != nil {
		return nil, err
	}
	var v int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening vector cache %q: %w", path, err)
	}
	switch v {
	case 0:
		if _, err := db.ExecContext(ctx, schema); err != nil {
			db.Close()
			return nil, fmt.Errorf("creating vector cache %q: %w", path, err)
		}
		if err := sqlitedb.SetVersion(ctx, db, SchemaVersion); err != nil {
			db.Close()
			return nil, err
		}
	case SchemaVersion:
	default:
		db.Close()
		return nil, &sqlitedb.VersionError{Path: path, Found: v, Supported: SchemaVersion}
	}
	return &Cache{db: db, path: path}, nil
}

// Close closes the file.
func (c *Cache) Close() error { return c.db.Close() }

// Get returns the cached vectors of model for keys, by index; a missing one
// is nil.
func (c *Cache) Get(ctx context.Context, model string, keys []Key) ([][]float32, error) {
	out := make([][]float32, len(keys))
	const chunk = 500
	for start := 0; start < len(keys); start += chunk {
		part := keys[start:min(start+chunk, len(keys))]
		args := make([]any, 0, len(part)+1)
		args = append(args, model)
		for _, k := range part {
			args = append(args, k[:])
		}
		q := `SELECT hash, v FROM vec WHERE model = ? AND hash IN (?` + strings.Repeat(",?", len(part)-1) + `)`
		rows, err := c.db.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, fmt.Errorf("reading vector cache %q: %w", c.path, err)
		}
		got := map[Key][]float32{}
		for rows.Next() {
			var h, b []byte
			if err := rows.Scan(&h, &b); err != nil {
				rows.Close()
				return nil, err
			}
			var k Key
			copy(k[:], h)
			got[k] = decode(b)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		for i, k := range part {
			out[start+i] = got[k]
		}
	}
	return out, nil
}

// Put stores vectors of model under keys, in one transaction.
func (c *Cache) Put(ctx context.Context, model string, keys []Key, vecs [][]float32) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO vec(model, hash, v) VALUES (?, ?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for i, k := range keys {
		if _, err := st.ExecContext(ctx, model, k[:], encode(vecs[i])); err != nil {
			return fmt.Errorf("writing vector cache %q: %w", c.path, err)
		}
	}
	return tx.Commit()
}

// Count is the number of vectors cached for model.
func (c *Cache) Count(ctx context.Context, model string) (int, error) {
	var n int
	err := c.db.QueryRowContext(ctx, `SELECT count(*) FROM vec WHERE model = ?`, model).Scan(&n)
	return n, err
}

func encode(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decode(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
