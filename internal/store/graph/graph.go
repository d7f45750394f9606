// Package graph owns graph.sqlite, the structure of one revision: files,
// source snapshots, nodes, edges and unresolved references. Writer fills a new
// file during a build; Store reads a published one, read-only.
package graph

import (
	"context"
	"database/sql"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// SchemaVersion is the version of schema.sql.
//
//	1: file, snapshot, node, edge, unresolved, meta.
const SchemaVersion = 1

//go:embed schema.sql
var schemaSQL string

//go:embed indexes.sql
var indexesSQL string

// File is one corpus file's row.
type File struct {
	Path   string
	Lang   string
	Status string
	Reason string
	Size   int64
	Lines  int
	Hash   string
	MTime  int64
}

// Writer fills a new graph.sqlite. It is used by one goroutine.
type Writer struct {
	db   *sql.DB
	tx   *sql.Tx
	path string
}

// Create makes a new graph.sqlite at path, which must not exist.
func Create(ctx context.Context, path string) (*Writer, error) {
	db, tx, err := sqlitedb.Create(ctx, path, schemaSQL, SchemaVersion)
	if err != nil {
		return nil, err
	}
	return &Writer{db: db, tx: tx, path: path}, nil
}

// PropsJSON encodes props with sorted keys ("{}" when empty), so equal props
// give equal bytes.
func PropsJSON(props map[string]string) string {
	if len(props) == 0 {
		return "{}"
	}
	b, _ := json.Marshal(props) // maps marshal with sorted keys
	return string(b)
}

// Files writes file rows.
func (w *Writer) Files(ctx context.Context, files []File) error {
	st, err := w.tx.PrepareContext(ctx, `INSERT INTO file(path, lang, status, reason, size, lines, hash, mtime) VALUES (?,?,?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, f := range files {
		if _, err := st.ExecContext(ctx, f.Path, f.Lang, f.Status, f.Reason, f.Size, f.Lines, f.Hash, f.MTime); err != nil {
			return fmt.Errorf("inserting file %q: %w", f.Path, err)
		}
	}
	return nil
}

// Snapshot stores the indexed content of one file.
func (w *Writer) Snapshot(ctx context.Context, path string, content []byte) error {
	_, err := w.tx.ExecContext(ctx, `INSERT INTO snapshot(path, content) VALUES (?, ?)`, path, content)
	return err
}

// Nodes writes nodes, sorted by id so the file's bytes are independent of order.
func (w *Writer) Nodes(ctx context.Context, nodes []fact.Node) error {
	nodes = slices.Clone(nodes) // callers may read theirs concurrently
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].ID < nodes[j].ID })
	st, err := w.tx.PrepareContext(ctx, `INSERT INTO node(id, kind, name, qname, qname_lower, name_lower, path, start_line, end_line, lang, parent, signature, props) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, n := range nodes {
		if _, err := st.ExecContext(ctx, n.ID, string(n.Kind), n.Name, n.QName, fact.Lower(n.QName), fact.Lower(n.Name),
			n.Path, n.StartLine, n.EndLine, n.Lang, n.Parent, n.Signature, PropsJSON(n.Props)); err != nil {
			return fmt.Errorf("inserting node %s (%s %s): %w", n.ID, n.Kind, n.QName, err)
		}
	}
	return nil
}

// Edges writes edges, sorted by id.
func (w *Writer) Edges(ctx context.Context, edges []fact.Edge) error {
	edges = slices.Clone(edges)
	sort.Slice(edges, func(i, j int) bool { return edges[i].ID < edges[j].ID })
	st, err := w.tx.PrepareContext(ctx, `INSERT INTO edge(id, kind, src, dst, provenance, confidence, evidence_path, evidence_line, sources, props) VALUES (?,?,?,?,?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, e := range edges {
		if _, err := st.ExecContext(ctx, e.ID, string(e.Kind), e.From, e.To, string(e.Provenance), e.Confidence,
			e.EvidencePath, e.EvidenceLine, strings.Join(e.Sources, ","), PropsJSON(e.Props)); err != nil {
			return fmt.Errorf("inserting edge %s (%s): %w", e.ID, e.Kind, err)
		}
	}
	return nil
}

// Unresolved writes unresolved references, sorted by id.
func (w *Writer) Unresolved(ctx context.Context, refs []fact.Unresolved) error {
	refs = slices.Clone(refs)
	sort.Slice(refs, func(i, j int) bool { return refs[i].ID < refs[j].ID })
	st, err := w.tx.PrepareContext(ctx, `INSERT INTO unresolved(id, kind, name, src, evidence_path, evidence_line, reason) VALUES (?,?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, r := range refs {
		if _, err := st.ExecContext(ctx, r.ID, string(r.Kind), r.Name, r.From, r.Path, r.Line, r.Reason); err != nil {
			return fmt.Errorf("inserting unresolved %s: %w", r.ID, err)
		}
	}
	return nil
}

// Meta records a key/value pair.
func (w *Writer) Meta(ctx context.Context, key, value string) error {
	_, err := w.tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)`, key, value)
	return err
}

// Close commits, compacts statistics and closes the file.
func (w *Writer) Close(ctx context.Context) error {
	if _, err := w.tx.ExecContext(ctx, indexesSQL); err != nil {
		w.tx.Rollback()
		w.db.Close()
		return fmt.Errorf("indexing %q: %w", w.path, err)
	}
	if err := w.tx.Commit(); err != nil {
		w.db.Close()
		return fmt.Errorf("committing %q: %w", w.path, err)
	}
	// approximate statistics are enough for the planner and cost a fraction
	if _, err := w.db.ExecContext(ctx, "PRAGMA analysis_limit = 1000; ANALYZE"); err != nil {
		w.db.Close()
		return fmt.Errorf("analyzing %q: %w", w.path, err)
	}
	return w.db.Close()
}

// Abort discards the transaction and closes the file.
func (w *Writer) Abort() {
	_ = w.tx.Rollback()
	_ = w.db.Close()
}
