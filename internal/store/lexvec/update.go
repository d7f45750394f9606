// This file defines Update, the incremental write of lexvec.sqlite: a copy of
// the parent revision's file is changed into what a full write (Writer in
// lexvec.go) of the new chunks and symbols would hold, row by row.

package lexvec

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// Update makes the lexvec.sqlite at path hold exactly chunks and the symbol
// index of nodes, touching only rows that differ. It returns the number of
// rows written and deleted. A *sqlitedb.VersionError says a full write is
// needed instead.
func Update(ctx context.Context, path string, chunks []fact.TextChunk, nodes []fact.Node) (written, deleted int, err error) {
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

	// chunks, with their full-text rows found by rowid
	want := make(map[string]*fact.TextChunk, len(chunks))
	for i := range chunks {
		want[chunks[i].ID] = &chunks[i]
	}
	ftsRow, err := rowids(ctx, tx, `SELECT rowid, id FROM chunk_fts`)
	if err != nil {
		return 0, 0, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, node_id, kind, path, start_line, end_line, text FROM chunk`)
	if err != nil {
		return 0, 0, err
	}
	have := map[string]bool{}
	var stale []string
	for rows.Next() {
		var c fact.TextChunk
		if err := rows.Scan(&c.ID, &c.NodeID, &c.Kind, &c.Path, &c.StartLine, &c.EndLine, &c.Text); err != nil {
			rows.Close()
			return 0, 0, err
		}
		have[c.ID] = true
		if w, ok := want[c.ID]; !ok || *w != c {
			stale = append(stale, c.ID)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}
	for _, id := range stale {
		if err := exec(`DELETE FROM chunk WHERE id = ?`, id); err != nil {
			return 0, 0, err
		}
		if rid, ok := ftsRow[id]; ok {
			if err := exec(`DELETE FROM chunk_fts WHERE rowid = ?`, rid); err != nil {
				return 0, 0, err
			}
		}
		delete(have, id)
	}
	for i := range chunks {
		c := &chunks[i]
		if have[c.ID] {
			continue
		}
		if err := exec(`INSERT INTO chunk(id, node_id, kind, path, start_line, end_line, text) VALUES (?,?,?,?,?,?,?)`,
			c.ID, c.NodeID, c.Kind, c.Path, c.StartLine, c.EndLine, c.Text); err != nil {
			return 0, 0, err
		}
		if err := exec(`INSERT INTO chunk_fts(terms, id) VALUES (?, ?)`, Terms(c.Text), c.ID); err != nil {
			return 0, 0, err
		}
	}

	// symbols: the indexed terms of each node
	type symRow struct{ name, qname, sig, kind string }
	wantSym := map[string]symRow{}
	for _, n := range nodes {
		if n.Kind != fact.File {
			wantSym[n.ID] = symRow{Terms(n.Name), Terms(n.QName), Terms(n.Signature), string(n.Kind)}
		}
	}
	srows, err := tx.QueryContext(ctx, `SELECT rowid, id, name, qname, signature, kind FROM symbol_fts`)
	if err != nil {
		return 0, 0, err
	}
	haveSym := map[string]bool{}
	var staleSym []int64
	for srows.Next() {
		var rid int64
		var id string
		var r symRow
		if err := srows.Scan(&rid, &id, &r.name, &r.qname, &r.sig, &r.kind); err != nil {
			srows.Close()
			return 0, 0, err
		}
		if w, ok := wantSym[id]; ok && w == r {
			haveSym[id] = true
			continue
		}
		staleSym = append(staleSym, rid)
	}
	srows.Close()
	if err := srows.Err(); err != nil {
		return 0, 0, err
	}
	for _, rid := range staleSym {
		if err := exec(`DELETE FROM symbol_fts WHERE rowid = ?`, rid); err != nil {
			return 0, 0, err
		}
	}
	for _, n := range nodes {
		r, ok := wantSym[n.ID]
		if !ok || haveSym[n.ID] {
			continue
		}
		if err := exec(`INSERT INTO symbol_fts(name, qname, signature, id, kind) VALUES (?,?,?,?,?)`, r.name, r.qname, r.sig, n.ID, r.kind); err != nil {
			return 0, 0, err
		}
		haveSym[n.ID] = true
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, fmt.Errorf("committing %q: %w", path, err)
	}
	return written, deleted, db.Close()
}

// rowids maps the id column of a full-text table to its rowids.
func rowids(ctx context.Context, tx *sql.Tx, q string) (map[string]int64, error) {
	rows, err := tx.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var rid int64
		var id string
		if err := rows.Scan(&rid, &id); err != nil {
			return nil, err
		}
		out[id] = rid
	}
	return out, rows.Err()
}
