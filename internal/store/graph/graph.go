// Package graph owns graph.sqlite, the structure of one revision: files,
// source snapshots, nodes, edges and unresolved references. Writer fills a new
// file during a build; Store reads a published one, read-only.
package graph

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// SchemaVersion is the version of schema.sql.
//
//	1: file, snapshot, node, edge, unresolved, meta.
//	2: dataflow (a file's lowered functions).
//	3: dfsummary (a file's data-flow summaries).
const SchemaVersion = 3

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
	b            *sqlitedb.Bulk
	nodesIndexed bool // IndexNodes ran
}

// Create makes a new graph.sqlite at path, which must not exist.
func Create(ctx context.Context, path string) (*Writer, error) {
	b, err := sqlitedb.CreateBulk(ctx, path, schemaSQL, SchemaVersion)
	if err != nil {
		return nil, err
	}
	return &Writer{b: b}, nil
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

// byID orders rows by id (fact.IDOrder): rows are written in id order
// without copying or moving the facts.
func byID(n int, id func(i int) string) []int32 { return fact.IDOrder(n, id) }

// Files writes file rows.
func (w *Writer) Files(ctx context.Context, files []File) error {
	cols := []string{"path", "lang", "status", "reason", "size", "lines", "hash", "mtime"}
	err := w.b.Insert(ctx, "file", cols, len(files), func(i int, r *sqlitedb.Row) {
		f := &files[i]
		r.Text(f.Path)
		r.Text(f.Lang)
		r.Text(f.Status)
		r.Text(f.Reason)
		r.Int(f.Size)
		r.Int(int64(f.Lines))
		r.Text(f.Hash)
		r.Int(f.MTime)
	})
	if err != nil {
		return fmt.Errorf("inserting files: %w", err)
	}
	return nil
}

// Snapshots stores the indexed content of each file that has one (content
// returns nil for the others).
func (w *Writer) Snapshots(ctx context.Context, files []File, content func(path string) []byte) error {
	var kept []int
	for i := range files {
		if content(files[i].Path) != nil {
			kept = append(kept, i)
		}
	}
	err := w.b.Insert(ctx, "snapshot", []string{"path", "content"}, len(kept), func(i int, r *sqlitedb.Row) {
		p := files[kept[i]].Path
		r.Text(p)
		r.Blob(content(p))
	})
	if err != nil {
		return fmt.Errorf("inserting snapshots: %w", err)
	}
	return nil
}

// Dataflow writes the lowered functions of the files ir returns bytes for.
func (w *Writer) Dataflow(ctx context.Context, files []File, ir func(path string) []byte) error {
	var kept []int
	for i := range files {
		if ir(files[i].Path) != nil {
			kept = append(kept, i)
		}
	}
	err := w.b.Insert(ctx, "dataflow", []string{"path", "ir"}, len(kept), func(i int, r *sqlitedb.Row) {
		p := files[kept[i]].Path
		r.Text(p)
		r.Blob(ir(p))
	})
	if err != nil {
		return fmt.Errorf("inserting data flow: %w", err)
	}
	return nil
}

// Summaries writes the data-flow summaries of the files sum returns bytes for.
func (w *Writer) Summaries(ctx context.Context, files []File, sum func(path string) []byte) error {
	var kept []int
	for i := range files {
		if sum(files[i].Path) != nil {
			kept = append(kept, i)
		}
	}
	err := w.b.Insert(ctx, "dfsummary", []string{"path", "sum"}, len(kept), func(i int, r *sqlitedb.Row) {
		p := files[kept[i]].Path
		r.Text(p)
		r.Blob(sum(p))
	})
	if err != nil {
		return fmt.Errorf("inserting data-flow summaries: %w", err)
	}
	return nil
}

// Nodes writes nodes, sorted by id so the file's bytes are independent of order.
func (w *Writer) Nodes(ctx context.Context, nodes []fact.Node) error {
	order := byID(len(nodes), func(i int) string { return nodes[i].ID }) // callers may read theirs concurrently
	cols := []string{"id", "kind", "name", "qname", "qname_lower", "name_lower", "path", "start_line", "end_line", "lang", "parent", "signature", "props"}
	err := w.b.Insert(ctx, "node", cols, len(nodes), func(i int, r *sqlitedb.Row) {
		n := &nodes[order[i]]
		r.Text(n.ID)
		r.Text(string(n.Kind))
		r.Text(n.Name)
		r.Text(n.QName)
		r.Text(fact.Lower(n.QName))
		r.Text(fact.Lower(n.Name))
		r.Text(n.Path)
		r.Int(int64(n.StartLine))
		r.Int(int64(n.EndLine))
		r.Text(n.Lang)
		r.Text(n.Parent)
		r.Text(n.Signature)
		r.Text(PropsJSON(n.Props))
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
	err := w.b.Insert(ctx, "edge", cols, len(edges), func(i int, r *sqlitedb.Row) {
		e := &edges[order[i]]
		r.Text(e.ID)
		r.Text(string(e.Kind))
		r.Text(e.From)
		r.Text(e.To)
		r.Text(string(e.Provenance))
		r.Float(e.Confidence)
		r.Text(e.EvidencePath)
		r.Int(int64(e.EvidenceLine))
		r.Text(joinSources(e.Sources))
		r.Text(PropsJSON(e.Props))
	})
	if err != nil {
		return fmt.Errorf("inserting edges: %w", err)
	}
	return nil
}

// Unresolved writes unresolved references, sorted by id.
func (w *Writer) Unresolved(ctx context.Context, refs []fact.Unresolved) error {
	order := byID(len(refs), func(i int) string { return refs[i].ID })
	cols := []string{"id", "kind", "name", "src", "evidence_path", "evidence_line", "reason"}
	err := w.b.Insert(ctx, "unresolved", cols, len(refs), func(i int, r *sqlitedb.Row) {
		u := &refs[order[i]]
		r.Text(u.ID)
		r.Text(string(u.Kind))
		r.Text(u.Name)
		r.Text(u.From)
		r.Text(u.Path)
		r.Int(int64(u.Line))
		r.Text(u.Reason)
	})
	if err != nil {
		return fmt.Errorf("inserting unresolved references: %w", err)
	}
	return nil
}

// Meta records key/value pairs, in key order.
func (w *Writer) Meta(ctx context.Context, meta map[string]string) error {
	keys := slices.Sorted(maps.Keys(meta))
	err := w.b.Insert(ctx, "meta", []string{"key", "value"}, len(keys), func(i int, r *sqlitedb.Row) {
		r.Text(keys[i])
		r.Text(meta[keys[i]])
	})
	if err != nil {
		return fmt.Errorf("inserting meta: %w", err)
	}
	return nil
}

// indexStatements returns the CREATE INDEX statements of indexes.sql whose
// table is, or (when on is false) is not, table.
func indexStatements(table string, on bool) []string {
	var out []string
	for _, q := range indexDefs() {
		if strings.Contains(q, " ON "+table+"(") == on {
			out = append(out, q)
		}
	}
	return out
}

// indexDefs are the statements of indexes.sql without their comments, each
// on one line with single spaces (the form ensureIndexes compares).
var indexDefs = sync.OnceValue(func() []string {
	var out []string
	for _, stmt := range strings.Split(indexesSQL, ";") {
		var code []string
		for _, line := range strings.Split(stmt, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "--") {
				code = append(code, line)
			}
		}
		if q := strings.Join(strings.Fields(strings.Join(code, "\n")), " "); q != "" {
			out = append(out, q)
		}
	}
	return out
})

// IndexNodes builds the node table's indexes now: the nodes extraction found
// are all written, and the few written later are indexed as they arrive.
// Close builds the other indexes.
func (w *Writer) IndexNodes(ctx context.Context) error {
	if err := w.b.Exec(ctx, strings.Join(indexStatements("node", true), ";\n")); err != nil {
		return fmt.Errorf("indexing nodes: %w", err)
	}
	w.nodesIndexed = true
	return nil
}

// Commit commits what is written so far and goes on in a new transaction,
// so the operating system may write those pages to disk meanwhile.
func (w *Writer) Commit(ctx context.Context) error {
	return w.b.Exec(ctx, "COMMIT; BEGIN")
}

// Close builds the indexes, commits, compacts statistics and closes the file.
func (w *Writer) Close(ctx context.Context) error {
	q := indexesSQL
	if w.nodesIndexed {
		q = strings.Join(indexStatements("node", false), ";\n")
	}
	if err := w.b.Exec(ctx, q); err != nil {
		w.b.Abort()
		return fmt.Errorf("indexing: %w", err)
	}
	if err := w.b.Commit(ctx); err != nil {
		w.b.Abort()
		return err
	}
	// approximate statistics are enough for the planner and cost a fraction
	if err := w.b.Exec(ctx, "PRAGMA analysis_limit = 1000; ANALYZE"); err != nil {
		w.b.Abort()
		return fmt.Errorf("analyzing: %w", err)
	}
	return w.b.Close()
}

// Abort discards the transaction and closes the file.
func (w *Writer) Abort() { w.b.Abort() }
