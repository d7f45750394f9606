// This file defines Store, the read side of graph.sqlite; the write side,
// Writer, lives in graph.go. Every method here only reads.

package graph

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// Store reads a published graph.sqlite. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string

	endsMu sync.Mutex
	ends   map[string]map[string]bool // EdgeEnds, by direction and kinds
}

// Open opens a published graph.sqlite read-only and checks its schema version.
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

// DB gives the store's packages-internal helpers the handle; not for callers
// outside internal/store.
func (s *Store) DB() *sql.DB { return s.db }

const nodeCols = `id, kind, name, qname, path, start_line, end_line, lang, parent, signature, props`

// ScanNode reads one node row selected with nodeCols.
func scanNode(sc interface{ Scan(...any) error }) (fact.Node, error) {
	var n fact.Node
	var kind, props string
	if err := sc.Scan(&n.ID, &kind, &n.Name, &n.QName, &n.Path, &n.StartLine, &n.EndLine, &n.Lang, &n.Parent, &n.Signature, &props); err != nil {
		return n, err
	}
	n.Kind = fact.NodeKind(kind)
	if props != "{}" && props != "" {
		if err := json.Unmarshal([]byte(props), &n.Props); err != nil {
			return n, fmt.Errorf("node %s props: %w", n.ID, err)
		}
	}
	return n, nil
}

func (s *Store) nodes(ctx context.Context, query string, args ...any) ([]fact.Node, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []fact.Node
	for rows.Next() {
		n, err := scanNode(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// Node returns the node with id, and false when there is none.
func (s *Store) Node(ctx context.Context, id string) (fact.Node, bool, error) {
	ns, err := s.nodes(ctx, `SELECT `+nodeCols+` FROM node WHERE id = ?`, id)
	if err != nil || len(ns) == 0 {
		return fact.Node{}, false, err
	}
	return ns[0], true, nil
}

// NodesByQName returns nodes whose qualified name equals qname, ignoring case.
func (s *Store) NodesByQName(ctx context.Context, qname string) ([]fact.Node, error) {
	return s.nodes(ctx, `SELECT `+nodeCols+` FROM node WHERE qname_lower = ? ORDER BY path, start_line, id`, fact.Lower(qname))
}

// NodesByName returns nodes whose short name equals name, ignoring case.
func (s *Store) NodesByName(ctx context.Context, name string) ([]fact.Node, error) {
	return s.nodes(ctx, `SELECT `+nodeCols+` FROM node WHERE name_lower = ? ORDER BY path, start_line, id`, fact.Lower(name))
}

// NodesInFile returns a file's nodes in line order.
func (s *Store) NodesInFile(ctx context.Context, path string) ([]fact.Node, error) {
	return s.nodes(ctx, `SELECT `+nodeCols+` FROM node WHERE path = ? ORDER BY start_line, end_line DESC, id`, path)
}

// AllNodes returns every node of the given kinds (all kinds when none), by id.
func (s *Store) AllNodes(ctx context.Context, kinds ...fact.NodeKind) ([]fact.Node, error) {
	if len(kinds) == 0 {
		return s.nodes(ctx, `SELECT `+nodeCols+` FROM node ORDER BY id`)
	}
	args := make([]any, len(kinds))
	for i, k := range kinds {
		args[i] = string(k)
	}
	return s.nodes(ctx, `SELECT `+nodeCols+` FROM node WHERE kind IN (?`+strings.Repeat(",?", len(kinds)-1)+`) ORDER BY id`, args...)
}

// Snapshot returns the indexed content of path, and false when it was not kept.
func (s *Store) Snapshot(ctx context.Context, path string) ([]byte, bool, error) {
	var b []byte
	err := s.db.QueryRowContext(ctx, `SELECT content FROM snapshot WHERE path = ?`, path).Scan(&b)
	if err == sql.ErrNoRows {
		return nil, false, nil
	}
	return b, err == nil, err
}

// Dataflow returns the stored lowered functions of path (dataflow.Encode);
// false when the build stored none.
func (s *Store) Dataflow(ctx context.Context, path string) ([]byte, bool, error) {
	var b []byte
	err := s.db.QueryRowContext(ctx, `SELECT ir FROM dataflow WHERE path = ?`, path).Scan(&b)
	if err == sql.ErrNoRows {
		return nil, false, nil
	}
	return b, err == nil, err
}

// Summary returns the stored data-flow summaries of path
// (dataflow.EncodeSummaries); false when the build stored none.
func (s *Store) Summary(ctx context.Context, path string) ([]byte, bool, error) {
	var b []byte
	err := s.db.QueryRowContext(ctx, `SELECT sum FROM dfsummary WHERE path = ?`, path).Scan(&b)
	if err == sql.ErrNoRows {
		return nil, false, nil
	}
	return b, err == nil, err
}

// Summaries calls fn with every file's stored data-flow summaries.
func (s *Store) Summaries(ctx context.Context, fn func(path string, b []byte) error) error {
	rows, err := s.db.QueryContext(ctx, `SELECT path, sum FROM dfsummary`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		var b []byte
		if err := rows.Scan(&p, &b); err != nil {
			return err
		}
		if err := fn(p, b); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Files returns every file row by path.
func (s *Store) Files(ctx context.Context) ([]File, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path, lang, status, reason, size, lines, hash, mtime FROM file ORDER BY path`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []File
	for rows.Next() {
		var f File
		if err := rows.Scan(&f.Path, &f.Lang, &f.Status, &f.Reason, &f.Size, &f.Lines, &f.Hash, &f.MTime); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// File returns one file row.
func (s *Store) File(ctx context.Context, path string) (File, bool, error) {
	var f File
	err := s.db.QueryRowContext(ctx, `SELECT path, lang, status, reason, size, lines, hash, mtime FROM file WHERE path = ?`, path).
		Scan(&f.Path, &f.Lang, &f.Status, &f.Reason, &f.Size, &f.Lines, &f.Hash, &f.MTime)
	if err == sql.ErrNoRows {
		return f, false, nil
	}
	return f, err == nil, err
}

// Count is a labelled count.
type Count struct {
	Key   string
	Count int
}

func (s *Store) counts(ctx context.Context, query string, args ...any) ([]Count, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Count
	for rows.Next() {
		var c Count
		if err := rows.Scan(&c.Key, &c.Count); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// NodeCounts counts nodes by kind.
func (s *Store) NodeCounts(ctx context.Context) ([]Count, error) {
	return s.counts(ctx, `SELECT kind, count(*) FROM node GROUP BY kind ORDER BY kind`)
}

// EdgeCounts counts edges by kind and provenance, as "kind/provenance".
func (s *Store) EdgeCounts(ctx context.Context) ([]Count, error) {
	return s.counts(ctx, `SELECT kind || '/' || provenance, count(*) FROM edge GROUP BY kind, provenance ORDER BY kind, provenance`)
}

// UnresolvedCounts counts unresolved references by kind.
func (s *Store) UnresolvedCounts(ctx context.Context) ([]Count, error) {
	return s.counts(ctx, `SELECT kind, count(*) FROM unresolved GROUP BY kind ORDER BY kind`)
}

// Conflict is one qualified name declared more than once.
type Conflict struct {
	Kind  string
	QName string
	Sites []string // path:line, sorted
}

// Conflicts lists qualified names of types, functions and global constants
// declared more than once, with every site.
func (s *Store) Conflicts(ctx context.Context, limit int) ([]Conflict, int, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT kind, qname_lower, group_concat(path || ':' || start_line, char(10)), min(qname)
		FROM (SELECT * FROM node WHERE kind IN ('class','interface','trait','enum','function','constant','method') ORDER BY path, start_line)
		GROUP BY kind, qname_lower HAVING count(*) > 1 ORDER BY kind, qname_lower`)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []Conflict
	total := 0
	for rows.Next() {
		var c Conflict
		var lower, sites string
		if err := rows.Scan(&c.Kind, &lower, &sites, &c.QName); err != nil {
			return nil, 0, err
		}
		total++
		if len(out) < limit {
			c.Sites = strings.Split(sites, "\n")
			out = append(out, c)
		}
	}
	return out, total, rows.Err()
}

// Duplicates lists groups of files with identical content (by hash).
func (s *Store) Duplicates(ctx context.Context, limit int) ([][]string, int, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT group_concat(path, char(10)) FROM (SELECT path, hash FROM file WHERE hash != '' AND size > 0 ORDER BY path)
		GROUP BY hash HAVING count(*) > 1 ORDER BY min(path)`)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out [][]string
	total := 0
	for rows.Next() {
		var paths string
		if err := rows.Scan(&paths); err != nil {
			return nil, 0, err
		}
		total++
		if len(out) < limit {
			out = append(out, strings.Split(paths, "\n"))
		}
	}
	return out, total, rows.Err()
}

// Meta returns a meta value ("" when absent).
func (s *Store) Meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return v, err
}

// IDs returns every node id and every edge id, each sorted; determinism tests
// compare them across builds.
func (s *Store) IDs(ctx context.Context) (nodes, edges []string, err error) {
	for _, q := range []struct {
		sql string
		out *[]string
	}{{`SELECT id FROM node ORDER BY id`, &nodes}, {`SELECT id FROM edge ORDER BY id`, &edges}} {
		rows, err := s.db.QueryContext(ctx, q.sql)
		if err != nil {
			return nil, nil, err
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, nil, err
			}
			*q.out = append(*q.out, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, err
		}
	}
	return nodes, edges, nil
}
