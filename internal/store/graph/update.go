// This file defines Update, the incremental write of graph.sqlite: it turns a
// copy of the parent revision's file into exactly what a full write of the new
// content would hold, touching only the rows that differ. A reindex after a
// few edits then writes a few hundred rows instead of every row of the
// project. The full write is Writer in graph.go.

package graph

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/rowhash"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// Content is everything one revision's graph.sqlite holds.
type Content struct {
	Files      []File
	Snapshot   func(path string) []byte // the indexed content of a file; nil when none is kept
	Dataflow   func(path string) []byte // a file's lowered functions (dataflow.Encode); nil when none
	Summary    func(path string) []byte // a file's data-flow summaries (dataflow.EncodeSummaries); nil when none
	Nodes      []fact.Node
	Edges      []fact.Edge
	Unresolved []fact.Unresolved
	Meta       map[string]string
}

// UpdateStats counts the rows an Update wrote and deleted.
type UpdateStats struct {
	Written int
	Deleted int
}

// Digests fingerprint every row of a graph.sqlite by key (path or id), so the
// next Update knows what the parent holds without reading it.
type Digests struct {
	Files, Nodes, Edges, Unresolved map[string]uint64
	// Summaries fingerprint the dfsummary rows by path apart from the
	// file rows: a callee's change rewrites a caller's summaries only
	Summaries map[string]uint64
}

// ContentDigests fingerprints the rows c writes.
func ContentDigests(c Content) *Digests {
	d := &Digests{
		Files: make(map[string]uint64, len(c.Files)), Nodes: make(map[string]uint64, len(c.Nodes)),
		Edges: make(map[string]uint64, len(c.Edges)), Unresolved: make(map[string]uint64, len(c.Unresolved)),
	}
	for _, f := range c.Files {
		var snap, ir []byte
		if c.Snapshot != nil {
			snap = c.Snapshot(f.Path)
		}
		if c.Dataflow != nil {
			ir = c.Dataflow(f.Path)
		}
		d.Files[f.Path] = fileDigest(&f, snap, ir)
		if c.Summary != nil {
			if b := c.Summary(f.Path); b != nil {
				if d.Summaries == nil {
					d.Summaries = map[string]uint64{}
				}
				d.Summaries[f.Path] = blobDigest(b)
			}
		}
	}
	for i := range c.Nodes {
		d.Nodes[c.Nodes[i].ID] = nodeDigest(&c.Nodes[i])
	}
	for i := range c.Edges {
		e := &c.Edges[i]
		d.Edges[e.ID] = edgeDigest(e)
	}
	for i := range c.Unresolved {
		r := &c.Unresolved[i]
		d.Unresolved[r.ID] = unresolvedDigest(string(r.Kind), r.Name, r.From, r.Path, r.Line, r.Reason)
	}
	return d
}

// Update makes the graph.sqlite at path, a copy of an earlier revision's
// file, hold exactly c. next must be ContentDigests(c); prev, when not nil,
// are the digests of the file's own rows, which then need not be read. The
// file's schema version must be SchemaVersion; a *sqlitedb.VersionError says
// a full write is needed instead.
func Update(ctx context.Context, path string, c Content, prev, next *Digests) (UpdateStats, error) {
	var st UpdateStats
	db, err := sqlitedb.OpenBuildWith(sqlitedb.Native, path)
	if err != nil {
		return st, err
	}
	defer db.Close()
	if err := sqlitedb.CheckVersion(ctx, db, path, SchemaVersion); err != nil {
		return st, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return st, err
	}
	defer tx.Rollback()
	u := updater{ctx: ctx, tx: tx, st: &st}
	if prev != nil {
		u.prev = prev
	}

	// files, snapshots and lowered functions, fingerprinted together: a
	// file whose row, indexed content (the same bytes redacted by another
	// ragraf) or lowering changed gets all three again
	changed, err := u.sync("file", "path", u.prevOf(func(d *Digests) map[string]uint64 { return d.Files }), next.Files,
		`SELECT f.path, f.lang, f.status, f.reason, f.size, f.lines, f.hash, f.mtime, s.content, d.ir FROM file f LEFT JOIN snapshot s ON s.path = f.path LEFT JOIN dataflow d ON d.path = f.path`,
		func(rows *sql.Rows) (string, uint64, error) {
			var f File
			var snap, ir []byte
			err := rows.Scan(&f.Path, &f.Lang, &f.Status, &f.Reason, &f.Size, &f.Lines, &f.Hash, &f.MTime, &snap, &ir)
			return f.Path, fileDigest(&f, snap, ir), err
		})
	if err != nil {
		return st, err
	}
	for _, f := range c.Files {
		if !changed[f.Path] {
			continue
		}
		if err := u.exec(`INSERT OR REPLACE INTO file(path, lang, status, reason, size, lines, hash, mtime) VALUES (?,?,?,?,?,?,?,?)`,
			f.Path, f.Lang, f.Status, f.Reason, f.Size, f.Lines, f.Hash, f.MTime); err != nil {
			return st, err
		}
		if err := u.exec(`DELETE FROM snapshot WHERE path = ?`, f.Path); err != nil {
			return st, err
		}
		if b := c.Snapshot(f.Path); b != nil {
			if err := u.exec(`INSERT INTO snapshot(path, content) VALUES (?, ?)`, f.Path, b); err != nil {
				return st, err
			}
		}
		if err := u.exec(`DELETE FROM dataflow WHERE path = ?`, f.Path); err != nil {
			return st, err
		}
		if c.Dataflow != nil {
			if b := c.Dataflow(f.Path); b != nil {
				if err := u.exec(`INSERT INTO dataflow(path, ir) VALUES (?, ?)`, f.Path, b); err != nil {
					return st, err
				}
			}
		}
	}
	for p := range u.gone {
		if err := u.exec(`DELETE FROM snapshot WHERE path = ?`, p); err != nil {
			return st, err
		}
		if err := u.exec(`DELETE FROM dataflow WHERE path = ?`, p); err != nil {
			return st, err
		}
	}

	// summaries, apart: a file's change rewrites the summaries of the
	// files whose functions call it only where they changed
	want := next.Summaries
	if want == nil {
		want = map[string]uint64{}
	}
	changed, err = u.sync("dfsummary", "path", u.prevOf(func(d *Digests) map[string]uint64 { return d.Summaries }), want,
		`SELECT path, sum FROM dfsummary`, func(rows *sql.Rows) (string, uint64, error) {
			var p string
			var b []byte
			err := rows.Scan(&p, &b)
			return p, blobDigest(b), err
		})
	if err != nil {
		return st, err
	}
	for p := range changed {
		if err := u.exec(`INSERT OR REPLACE INTO dfsummary(path, sum) VALUES (?, ?)`, p, c.Summary(p)); err != nil {
			return st, err
		}
	}

	// nodes
	byID := make(map[string]*fact.Node, len(c.Nodes))
	for i := range c.Nodes {
		byID[c.Nodes[i].ID] = &c.Nodes[i]
	}
	changed, err = u.sync("node", "id", u.prevOf(func(d *Digests) map[string]uint64 { return d.Nodes }), next.Nodes,
		`SELECT `+nodeCols+` FROM node`, func(rows *sql.Rows) (string, uint64, error) {
			n, err := scanNode(rows)
			return n.ID, nodeDigest(&n), err
		})
	if err != nil {
		return st, err
	}
	for id := range changed {
		n := byID[id]
		if err := u.exec(`INSERT OR REPLACE INTO node(id, kind, name, qname, qname_lower, name_lower, path, start_line, end_line, lang, parent, signature, props) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			n.ID, string(n.Kind), n.Name, n.QName, fact.Lower(n.QName), fact.Lower(n.Name), n.Path, n.StartLine, n.EndLine, n.Lang, n.Parent, n.Signature, PropsJSON(n.Props)); err != nil {
			return st, err
		}
	}

	// edges
	edgeByID := make(map[string]*fact.Edge, len(c.Edges))
	for i := range c.Edges {
		edgeByID[c.Edges[i].ID] = &c.Edges[i]
	}
	changed, err = u.sync("edge", "id", u.prevOf(func(d *Digests) map[string]uint64 { return d.Edges }), next.Edges,
		`SELECT id, kind, src, dst, provenance, confidence, evidence_path, evidence_line, sources, props FROM edge`,
		func(rows *sql.Rows) (string, uint64, error) {
			var id, kind, src, dst, prov, epath, sources, props string
			var conf float64
			var line int
			err := rows.Scan(&id, &kind, &src, &dst, &prov, &conf, &epath, &line, &sources, &props)
			return id, edgeRowDigest(kind, src, dst, prov, conf, epath, line, sources, props), err
		})
	if err != nil {
		return st, err
	}
	for id := range changed {
		e := edgeByID[id]
		if err := u.exec(`INSERT OR REPLACE INTO edge(id, kind, src, dst, provenance, confidence, evidence_path, evidence_line, sources, props) VALUES (?,?,?,?,?,?,?,?,?,?)`,
			e.ID, string(e.Kind), e.From, e.To, string(e.Provenance), e.Confidence, e.EvidencePath, e.EvidenceLine, strings.Join(e.Sources, ","), PropsJSON(e.Props)); err != nil {
			return st, err
		}
	}

	// unresolved references
	unByID := make(map[string]*fact.Unresolved, len(c.Unresolved))
	for i := range c.Unresolved {
		unByID[c.Unresolved[i].ID] = &c.Unresolved[i]
	}
	changed, err = u.sync("unresolved", "id", u.prevOf(func(d *Digests) map[string]uint64 { return d.Unresolved }), next.Unresolved,
		`SELECT id, kind, name, src, evidence_path, evidence_line, reason FROM unresolved`,
		func(rows *sql.Rows) (string, uint64, error) {
			var id, kind, name, src, path, reason string
			var line int
			err := rows.Scan(&id, &kind, &name, &src, &path, &line, &reason)
			return id, unresolvedDigest(kind, name, src, path, line, reason), err
		})
	if err != nil {
		return st, err
	}
	for id := range changed {
		r := unByID[id]
		if err := u.exec(`INSERT OR REPLACE INTO unresolved(id, kind, name, src, evidence_path, evidence_line, reason) VALUES (?,?,?,?,?,?,?)`,
			r.ID, string(r.Kind), r.Name, r.From, r.Path, r.Line, r.Reason); err != nil {
			return st, err
		}
	}

	// meta is small: replace it whole
	if err := u.exec(`DELETE FROM meta`); err != nil {
		return st, err
	}
	for k, v := range c.Meta {
		if err := u.exec(`INSERT INTO meta(key, value) VALUES (?, ?)`, k, v); err != nil {
			return st, err
		}
	}
	if err := ensureIndexes(ctx, tx); err != nil {
		return st, fmt.Errorf("updating indexes of %q: %w", path, err)
	}
	if err := tx.Commit(); err != nil {
		return st, fmt.Errorf("committing %q: %w", path, err)
	}
	return st, db.Close()
}

// ensureIndexes makes the secondary indexes of a file copied from an older
// revision those of indexes.sql: an index defined otherwise is built again,
// once, and a missing one is created.
func ensureIndexes(ctx context.Context, tx *sql.Tx) error {
	for _, want := range indexDefs() {
		fields := strings.Fields(want)
		if len(fields) < 3 || fields[0] != "CREATE" || fields[1] != "INDEX" {
			continue
		}
		name := fields[2]
		var have string
		err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`, name).Scan(&have)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if strings.Join(strings.Fields(have), " ") == want {
			continue
		}
		if _, err := tx.ExecContext(ctx, `DROP INDEX IF EXISTS `+name); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, want); err != nil {
			return err
		}
	}
	return nil
}

// updater runs one Update's statements and remembers the keys it deleted.
type updater struct {
	ctx  context.Context
	tx   *sql.Tx
	st   *UpdateStats
	prev *Digests        // the parent's row digests, or nil to read its rows
	gone map[string]bool // keys deleted by the last sync
}

func (u *updater) prevOf(f func(*Digests) map[string]uint64) map[string]uint64 {
	if u.prev == nil {
		return nil
	}
	return f(u.prev)
}

func (u *updater) exec(q string, args ...any) error {
	if _, err := u.tx.ExecContext(u.ctx, q, args...); err != nil {
		return fmt.Errorf("updating graph: %w", err)
	}
	if strings.HasPrefix(q, "DELETE") {
		u.st.Deleted++
	} else {
		u.st.Written++
	}
	return nil
}

// sync learns the digest of every row of table by key — from prev when
// given, else by reading the rows — deletes rows whose key is not in want,
// and returns the keys whose row must be (re)written: absent or different.
func (u *updater) sync(table, keyCol string, prev, want map[string]uint64, query string, scan func(*sql.Rows) (string, uint64, error)) (map[string]bool, error) {
	if prev == nil {
		prev = map[string]uint64{}
		rows, err := u.tx.QueryContext(u.ctx, query)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", table, err)
		}
		for rows.Next() {
			k, d, err := scan(rows)
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("reading %s: %w", table, err)
			}
			prev[k] = d
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	var gone []string
	changed := map[string]bool{}
	for k, d := range prev {
		if w, ok := want[k]; !ok {
			gone = append(gone, k)
		} else if w != d {
			changed[k] = true
		}
	}
	sort.Strings(gone)
	u.gone = map[string]bool{}
	for _, k := range gone {
		if err := u.exec(`DELETE FROM `+table+` WHERE `+keyCol+` = ?`, k); err != nil {
			return nil, err
		}
		u.gone[k] = true
	}
	for k := range want {
		if _, ok := prev[k]; !ok {
			changed[k] = true
		}
	}
	return changed, nil
}

// The keys below render a row's content so two rows compare as strings.

// The digests below fingerprint a row's columns as stored, in column order
// (rowhash: FNV-1a over the fields joined by NUL).

// blobDigest fingerprints a row of one blob (a file's summaries).
func blobDigest(b []byte) uint64 {
	h := rowhash.New()
	h.Bytes(b)
	return h.Sum()
}

// fileDigest fingerprints a file row with its snapshot and lowered functions
// (nil when none is kept).
func fileDigest(f *File, snapshot, ir []byte) uint64 {
	h := rowhash.New()
	h.Str(f.Lang)
	h.Str(f.Status)
	h.Str(f.Reason)
	h.Int(f.Size)
	h.Int(int64(f.Lines))
	h.Str(f.Hash)
	h.Int(f.MTime)
	if snapshot != nil {
		h.Bytes(snapshot)
	}
	if ir != nil {
		h.Str("dataflow")
		h.Bytes(ir)
	}
	return h.Sum()
}

func nodeDigest(n *fact.Node) uint64 {
	h := rowhash.New()
	h.Str(string(n.Kind))
	h.Str(n.Name)
	h.Str(n.QName)
	h.Str(n.Path)
	h.Int(int64(n.StartLine))
	h.Int(int64(n.EndLine))
	h.Str(n.Lang)
	h.Str(n.Parent)
	h.Str(n.Signature)
	h.Str(PropsJSON(n.Props))
	return h.Sum()
}

func edgeDigest(e *fact.Edge) uint64 {
	h := edgeHead(string(e.Kind), e.From, e.To, string(e.Provenance), e.Confidence, e.EvidencePath, e.EvidenceLine)
	h.Join(e.Sources, ",")
	h.Str(PropsJSON(e.Props))
	return h.Sum()
}

// edgeRowDigest is edgeDigest of an edge read back from its row.
func edgeRowDigest(kind, src, dst, prov string, conf float64, path string, line int, sources, props string) uint64 {
	h := edgeHead(kind, src, dst, prov, conf, path, line)
	h.Str(sources)
	h.Str(props)
	return h.Sum()
}

func edgeHead(kind, src, dst, prov string, conf float64, path string, line int) rowhash.Hash {
	h := rowhash.New()
	h.Str(kind)
	h.Str(src)
	h.Str(dst)
	h.Str(prov)
	h.Float(conf)
	h.Str(path)
	h.Int(int64(line))
	return h
}

func unresolvedDigest(kind, name, src, path string, line int, reason string) uint64 {
	h := rowhash.New()
	h.Str(kind)
	h.Str(name)
	h.Str(src)
	h.Str(path)
	h.Int(int64(line))
	h.Str(reason)
	return h.Sum()
}
