// This file defines Update, the incremental write of lexvec.sqlite: a copy of
// the parent revision's file is changed into what a full write (Writer in
// lexvec.go) of the new chunks and symbols would hold, row by row.

package lexvec

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/rowhash"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// Digests fingerprint the rows of a lexvec.sqlite by id, so the next Update
// knows what the parent holds without reading it.
type Digests struct {
	Chunks, Symbols map[string]uint64
}

// symbolTerms is the indexed form of one symbol.
type symbolTerms struct{ name, qname, sig, kind string }

func symbolsOf(nodes []fact.Node) map[string]symbolTerms {
	out := make(map[string]symbolTerms, len(nodes))
	for _, n := range nodes {
		if n.Kind != fact.File {
			out[n.ID] = symbolTerms{Terms(n.Name), Terms(n.QName), Terms(n.Signature), string(n.Kind)}
		}
	}
	return out
}

func chunkDigest(c *fact.TextChunk) uint64 {
	h := rowhash.New()
	h.Str(c.NodeID)
	h.Str(c.Kind)
	h.Str(c.Path)
	h.Int(int64(c.StartLine))
	h.Int(int64(c.EndLine))
	h.Str(c.Text)
	return h.Sum()
}

func symbolDigest(t symbolTerms) uint64 {
	h := rowhash.New()
	h.Str(t.name)
	h.Str(t.qname)
	h.Str(t.sig)
	h.Str(t.kind)
	return h.Sum()
}

// ContentDigests fingerprints the rows a write of chunks and nodes holds.
func ContentDigests(chunks []fact.TextChunk, nodes []fact.Node) *Digests {
	d := &Digests{Chunks: make(map[string]uint64, len(chunks)), Symbols: map[string]uint64{}}
	for i := range chunks {
		d.Chunks[chunks[i].ID] = chunkDigest(&chunks[i])
	}
	for id, t := range symbolsOf(nodes) {
		d.Symbols[id] = symbolDigest(t)
	}
	return d
}

// Update makes the lexvec.sqlite at path hold exactly chunks, the symbol
// index of nodes and the vectors vec, touching only the chunk and symbol rows
// that differ (the vector tables are written whole, since a model trained on
// the whole revision changes every row, unless vec is a delta to the file's
// own vectors: then only its rows). want must be
// ContentDigests(chunks, nodes); prev, when not nil, are the digests of the
// file's rows, otherwise they are read from it. It returns the number of rows
// written and deleted. A *sqlitedb.VersionError says a full write is needed
// instead.
func Update(ctx context.Context, path string, chunks []fact.TextChunk, nodes []fact.Node, vec *Vectors, prev, want *Digests) (written, deleted int, err error) {
	db, err := sqlitedb.OpenBuild(path)
	if err != nil {
		return 0, 0, err
	}
	defer db.Close()
	if err := sqlitedb.CheckVersion(ctx, db, path, SchemaVersion); err != nil {
		return 0, 0, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	if prev == nil {
		if prev, err = readDigests(ctx, tx); err != nil {
			return 0, 0, err
		}
	}
	exec := func(q string, args ...any) error {
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("updating lexvec: %w", err)
		}
		if strings.HasPrefix(q, "DELETE") {
			deleted++
		} else {
			written++
		}
		return nil
	}

	// chunks: delete the stale ones (and their full-text rows), insert the new
	staleChunks := staleKeys(prev.Chunks, want.Chunks)
	ftsRows, err := rowidsOf(ctx, tx, "chunk_fts", staleChunks)
	if err != nil {
		return 0, 0, err
	}
	for _, id := range staleChunks {
		if err := exec(`DELETE FROM chunk WHERE id = ?`, id); err != nil {
			return 0, 0, err
		}
	}
	for _, rid := range ftsRows {
		if err := exec(`DELETE FROM chunk_fts WHERE rowid = ?`, rid); err != nil {
			return 0, 0, err
		}
	}
	for i := range chunks {
		c := &chunks[i]
		if d, ok := prev.Chunks[c.ID]; ok && d == want.Chunks[c.ID] {
			continue
		}
		if err := exec(`INSERT INTO chunk(id, node_id, kind, path, start_line, end_line, text) VALUES (?,?,?,?,?,?,?)`,
			c.ID, c.NodeID, c.Kind, c.Path, c.StartLine, c.EndLine, c.Text); err != nil {
			return 0, 0, err
		}
		if err := exec(`INSERT INTO chunk_fts(terms, id) VALUES (?, ?)`, Terms(c.Text), c.ID); err != nil {
			return 0, 0, err
		}
		prev.Chunks[c.ID] = want.Chunks[c.ID] // a repeated id is written once, as by the full write
	}

	// symbols
	staleSyms := staleKeys(prev.Symbols, want.Symbols)
	symRows, err := rowidsOf(ctx, tx, "symbol_fts", staleSyms)
	if err != nil {
		return 0, 0, err
	}
	for _, rid := range symRows {
		if err := exec(`DELETE FROM symbol_fts WHERE rowid = ?`, rid); err != nil {
			return 0, 0, err
		}
	}
	for _, n := range nodes {
		w, ok := want.Symbols[n.ID]
		if !ok {
			continue // a file, not a symbol
		}
		if d, ok := prev.Symbols[n.ID]; ok && d == w {
			continue
		}
		if err := exec(`INSERT INTO symbol_fts(name, qname, signature, id, kind) VALUES (?,?,?,?,?)`,
			Terms(n.Name), Terms(n.QName), Terms(n.Signature), n.ID, string(n.Kind)); err != nil {
			return 0, 0, err
		}
		prev.Symbols[n.ID] = w
	}
	if vec != nil && vec.Delta != nil {
		w, d, err := updateVectors(ctx, tx, vec)
		if err != nil {
			return 0, 0, fmt.Errorf("updating lexvec vectors: %w", err)
		}
		written, deleted = written+w, deleted+d
	} else {
		if err := writeVectors(ctx, tx, vec); err != nil {
			return 0, 0, fmt.Errorf("updating lexvec vectors: %w", err)
		}
		if vec != nil {
			written += len(vec.Words) + len(vec.IDs)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, fmt.Errorf("committing %q: %w", path, err)
	}
	return written, deleted, db.Close()
}

// staleKeys lists, sorted, the keys of have that want lacks or holds with
// another digest: their rows must go.
func staleKeys(have, want map[string]uint64) []string {
	var out []string
	for k, d := range have {
		if w, ok := want[k]; !ok || w != d {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// rowidsOf returns the rowids of a full-text table's rows with the given ids,
// in one scan of the table.
func rowidsOf(ctx context.Context, tx *sql.Tx, table string, ids []string) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	rows, err := tx.QueryContext(ctx, `SELECT rowid, id FROM `+table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var rid int64
		var id string
		if err := rows.Scan(&rid, &id); err != nil {
			return nil, err
		}
		if want[id] {
			out = append(out, rid)
		}
	}
	return out, rows.Err()
}

// readDigests fingerprints the rows a lexvec.sqlite holds.
func readDigests(ctx context.Context, tx *sql.Tx) (*Digests, error) {
	d := &Digests{Chunks: map[string]uint64{}, Symbols: map[string]uint64{}}
	rows, err := tx.QueryContext(ctx, `SELECT id, node_id, kind, path, start_line, end_line, text FROM chunk`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var c fact.TextChunk
		if err := rows.Scan(&c.ID, &c.NodeID, &c.Kind, &c.Path, &c.StartLine, &c.EndLine, &c.Text); err != nil {
			rows.Close()
			return nil, err
		}
		d.Chunks[c.ID] = chunkDigest(&c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = tx.QueryContext(ctx, `SELECT id, name, qname, signature, kind FROM symbol_fts`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var t symbolTerms
		if err := rows.Scan(&id, &t.name, &t.qname, &t.sig, &t.kind); err != nil {
			return nil, err
		}
		d.Symbols[id] = symbolDigest(t)
	}
	return d, rows.Err()
}
