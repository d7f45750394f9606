// Package lexvec owns lexvec.sqlite: the text chunks of one revision (docblocks,
// comments, documentation sections) and its full-text indexes. Writer fills a
// new file during a build; Store reads a published one, read-only.
//
// Text lives here and never in graph.sqlite's structural rows (FT-9).
package lexvec

import (
	"context"
	"database/sql"
	_ "embed"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// SchemaVersion is the version of schema.sql.
//
//	1: chunk, chunk_fts, symbol_fts, meta.
//	2: word_vector, symbol_vector (the static vector model).
const SchemaVersion = 2

//go:embed schema.sql
var schemaSQL string

//go:embed indexes.sql
var indexesSQL string

// bulkLoadConfig and servingConfig set the full-text indexes' write
// behaviour during a full write and for the file's later life (the FTS5
// defaults: a 1 MiB term buffer, automatic merges of four segments).
const (
	bulkLoadConfig = `INSERT INTO chunk_fts(chunk_fts, rank) VALUES ('hashsize', 268435456);
INSERT INTO chunk_fts(chunk_fts, rank) VALUES ('automerge', 0);
INSERT INTO symbol_fts(symbol_fts, rank) VALUES ('hashsize', 268435456);
INSERT INTO symbol_fts(symbol_fts, rank) VALUES ('automerge', 0);`
	servingConfig = `INSERT INTO chunk_fts(chunk_fts, rank) VALUES ('hashsize', 1048576);
INSERT INTO chunk_fts(chunk_fts, rank) VALUES ('automerge', 4);
INSERT INTO symbol_fts(symbol_fts, rank) VALUES ('hashsize', 1048576);
INSERT INTO symbol_fts(symbol_fts, rank) VALUES ('automerge', 4);`
)

// Writer fills a new lexvec.sqlite. It is used by one goroutine.
type Writer struct {
	db   *sql.DB
	tx   *sql.Tx
	path string
}

// Create makes a new lexvec.sqlite at path.
func Create(ctx context.Context, path string) (*Writer, error) {
	db, tx, err := sqlitedb.Create(ctx, path, schemaSQL, SchemaVersion)
	if err != nil {
		return nil, err
	}
	// One bulk load: the full-text indexes gather every term in memory and
	// write one segment at commit, instead of flushing a segment per
	// megabyte and merging them as they pile up.
	if _, err := tx.ExecContext(ctx, bulkLoadConfig); err != nil {
		tx.Rollback()
		db.Close()
		return nil, fmt.Errorf("configuring %q: %w", path, err)
	}
	return &Writer{db: db, tx: tx, path: path}, nil
}

// Chunks writes text chunks and indexes their terms, sorted by id.
func (w *Writer) Chunks(ctx context.Context, chunks []fact.TextChunk) error {
	chunks = slices.Clone(chunks) // callers may read theirs concurrently
	sort.Slice(chunks, func(i, j int) bool { return chunks[i].ID < chunks[j].ID })
	cols := []string{"id", "node_id", "kind", "path", "start_line", "end_line", "text"}
	err := sqlitedb.InsertRows(ctx, w.tx, "chunk", cols, len(chunks), func(i int, v []any) {
		c := &chunks[i]
		v[0], v[1], v[2], v[3], v[4], v[5], v[6] = c.ID, c.NodeID, c.Kind, c.Path, c.StartLine, c.EndLine, c.Text
	})
	if err != nil {
		return fmt.Errorf("inserting chunks: %w", err)
	}
	err = w.loadFTS(ctx, "chunk_fts", []string{"terms", "id"}, len(chunks), func(i int, v []any) {
		v[0], v[1] = Terms(chunks[i].Text), chunks[i].ID
	})
	if err != nil {
		return fmt.Errorf("indexing chunks: %w", err)
	}
	return nil
}

// Symbols indexes the searchable text of symbol nodes, sorted by id.
func (w *Writer) Symbols(ctx context.Context, nodes []fact.Node) error {
	sorted := make([]*fact.Node, 0, len(nodes))
	for i := range nodes {
		if nodes[i].Kind != fact.File {
			sorted = append(sorted, &nodes[i])
		}
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ID < sorted[j].ID })
	cols := []string{"name", "qname", "signature", "id", "kind"}
	err := w.loadFTS(ctx, "symbol_fts", cols, len(sorted), func(i int, v []any) {
		n := sorted[i]
		v[0], v[1], v[2], v[3], v[4] = Terms(n.Name), Terms(n.QName), Terms(n.Signature), n.ID, string(n.Kind)
	})
	if err != nil {
		return fmt.Errorf("indexing symbols: %w", err)
	}
	return nil
}

// loadFTS inserts n rows into the full-text table in row order. The rows go
// to a temporary table first, a hundred per statement, then into the index
// with one statement. A statement that inserts many rows opens a savepoint,
// where FTS5 writes its pending terms out as a segment: rows inserted into the
// index a hundred per statement leave a segment per statement to merge, and a
// statement per row pays the statement's cost per row (either way about a
// third slower, measured on 30,000 chunks).
func (w *Writer) loadFTS(ctx context.Context, table string, cols []string, n int, row func(i int, v []any)) error {
	list := strings.Join(cols, ", ")
	if _, err := w.tx.ExecContext(ctx, "CREATE TEMP TABLE fts_stage("+list+")"); err != nil {
		return err
	}
	if err := sqlitedb.InsertRows(ctx, w.tx, "temp.fts_stage", cols, n, row); err != nil {
		return err
	}
	_, err := w.tx.ExecContext(ctx, "INSERT INTO "+table+"("+list+") SELECT "+list+" FROM temp.fts_stage ORDER BY rowid; DROP TABLE temp.fts_stage")
	return err
}

// Meta records a key/value pair.
func (w *Writer) Meta(ctx context.Context, key, value string) error {
	_, err := w.tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)`, key, value)
	return err
}

// Close commits, optimizes the full-text indexes and closes the file.
func (w *Writer) Close(ctx context.Context) error {
	if _, err := w.tx.ExecContext(ctx, indexesSQL+";\n"+servingConfig); err != nil {
		w.tx.Rollback()
		w.db.Close()
		return fmt.Errorf("indexing %q: %w", w.path, err)
	}
	if err := w.tx.Commit(); err != nil {
		w.db.Close()
		return fmt.Errorf("committing %q: %w", w.path, err)
	}
	for _, q := range []string{`INSERT INTO chunk_fts(chunk_fts) VALUES ('optimize')`, `INSERT INTO symbol_fts(symbol_fts) VALUES ('optimize')`} {
		if _, err := w.db.ExecContext(ctx, q); err != nil {
			w.db.Close()
			return fmt.Errorf("optimizing %q: %w", w.path, err)
		}
	}
	return w.db.Close()
}

// Abort discards the transaction and closes the file.
func (w *Writer) Abort() {
	_ = w.tx.Rollback()
	_ = w.db.Close()
}

// Store reads a published lexvec.sqlite. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string

	commonMu sync.Mutex
	common   map[string]bool // term -> matches more than commonLimit chunks (search.go)

	vecMu   sync.Mutex
	vecLoad *vectorLoad // the vectors read, or being read (vectors.go)
}

// Open opens a published lexvec.sqlite read-only and checks its schema version.
func Open(ctx context.Context, path string) (*Store, error) {
	db, err := sqlitedb.OpenReadOnly(path)
	if err != nil {
		return nil, err
	}
	if err := sqlitedb.CheckVersion(ctx, db, path, SchemaVersion); err != nil {
		db.Close()
		return nil, err
	}
	return &Store{db: db, path: path}, nil
}

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// ChunksOf returns the chunks linked to a node, in line order.
func (s *Store) ChunksOf(ctx context.Context, nodeID string) ([]fact.TextChunk, error) {
	return s.chunks(ctx, `SELECT id, node_id, kind, path, start_line, end_line, text FROM chunk WHERE node_id = ? ORDER BY path, start_line, id`, nodeID)
}

// ChunksInFile returns a file's chunks in line order.
func (s *Store) ChunksInFile(ctx context.Context, path string) ([]fact.TextChunk, error) {
	return s.chunks(ctx, `SELECT id, node_id, kind, path, start_line, end_line, text FROM chunk WHERE path = ? ORDER BY start_line, id`, path)
}

// ChunkCount counts chunks by kind.
func (s *Store) ChunkCount(ctx context.Context) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT kind, count(*) FROM chunk GROUP BY kind`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, rows.Err()
}

func (s *Store) chunks(ctx context.Context, q string, args ...any) ([]fact.TextChunk, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []fact.TextChunk
	for rows.Next() {
		var c fact.TextChunk
		if err := rows.Scan(&c.ID, &c.NodeID, &c.Kind, &c.Path, &c.StartLine, &c.EndLine, &c.Text); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
