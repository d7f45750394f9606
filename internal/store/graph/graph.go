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
	db, tx, err := sqlitedb.CreateWith(ctx, sqlitedb.Native, path, schemaSQL, SchemaVersion)
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
	// plain keys and values (printable ASCII that JSON does not escape) are
	// written directly; anything else goes through encoding/json, whose bytes
	// the direct path reproduces
	// keys sorted by insertion into a small array: most props hold one to
	// four keys, and this runs once per node and edge of a build
	var small [8]string
	keys := small[:0]
	size := 2
	for k, v := range props {
		keys = append(keys, k)
		size += len(k) + len(v) + 6
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteByte('{')
	for i, k := range keys {
		v := props[k]
		if !plainJSON(k) || !plainJSON(v) {
			out, _ := json.Marshal(props) // maps marshal with sorted keys
			return string(out)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		b.WriteString(k)
		b.WriteString(`":"`)
		b.WriteString(v)
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

// plainJSON says whether encoding/json writes s as it is between quotes.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// joinSources is strings.Join(s, ","), without allocating for the usual
// single source.
func joinSources(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s, ",")
}

// byID returns the indexes 0..n-1 ordered by the id each names: rows are
// written in id order without copying or moving the facts.
func byID(n int, id func(i int) string) []int32 {
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(id(int(a)), id(int(b))) })
	return order
}

// Files writes file rows.
func (w *Writer) Files(ctx context.Context, files []File) error {
	cols := []string{"path", "lang", "status", "reason", "size", "lines", "hash", "mtime"}
	err := insertRows(ctx, w.tx, "file", cols, len(files), func(i int, v []any) {
		f := &files[i]
		v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7] = f.Path, f.Lang, f.Status, f.Reason, f.Size, f.Lines, f.Hash, f.MTime
	})
	if err != nil {
		return fmt.Errorf("inserting files: %w", err)
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
	order := byID(len(nodes), func(i int) string { return nodes[i].ID }) // callers may read theirs concurrently
	cols := []string{"id", "kind", "name", "qname", "qname_lower", "name_lower", "path", "start_line", "end_line", "lang", "parent", "signature", "props"}
	err := insertRows(ctx, w.tx, "node", cols, len(nodes), func(i int, v []any) {
		n := &nodes[order[i]]
		v[0], v[1], v[2], v[3], v[4], v[5] = n.ID, string(n.Kind), n.Name, n.QName, fact.Lower(n.QName), fact.Lower(n.Name)
		v[6], v[7], v[8], v[9], v[10], v[11], v[12] = n.Path, n.StartLine, n.EndLine, n.Lang, n.Parent, n.Signature, PropsJSON(n.Props)
	})
	if err != nil {
		return fmt.Errorf("inserting nodes: %w", err)
	}
	return nil
}

// Edges writes edges, sorted by id.
func (w *Writer) Edges(ctx context.Context, edges []fact.Edge) error {
	order := byID(len(edges), func(i int) string { return edges[i].ID })
	cols := []string{"id", "kind", "src", "dst", "provenance", "confidence", "evidence_path", "evidence_line", "sources", "props"}
	err := insertRows(ctx, w.tx, "edge", cols, len(edges), func(i int, v []any) {
		e := &edges[order[i]]
		v[0], v[1], v[2], v[3], v[4] = e.ID, string(e.Kind), e.From, e.To, string(e.Provenance)
		v[5], v[6], v[7], v[8], v[9] = e.Confidence, e.EvidencePath, e.EvidenceLine, joinSources(e.Sources), PropsJSON(e.Props)
	})
	if err != nil {
		return fmt.Errorf("inserting edges: %w", err)
	}
	return nil
}

// Unresolved writes unresolved references, sorted by id.
func (w *Writer) Unresolved(ctx context.Context, refs []fact.Unresolved) error {
	refs = slices.Clone(refs)
	sort.Slice(refs, func(i, j int) bool { return refs[i].ID < refs[j].ID })
	cols := []string{"id", "kind", "name", "src", "evidence_path", "evidence_line", "reason"}
	err := insertRows(ctx, w.tx, "unresolved", cols, len(refs), func(i int, v []any) {
		r := &refs[i]
		v[0], v[1], v[2], v[3], v[4], v[5], v[6] = r.ID, string(r.Kind), r.Name, r.From, r.Path, r.Line, r.Reason
	})
	if err != nil {
		return fmt.Errorf("inserting unresolved references: %w", err)
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
