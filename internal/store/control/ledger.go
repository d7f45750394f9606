// This file is the drift ledger in control.sqlite: entries, acknowledgements,
// archives and stale edges (ARCHITECTURE.md §8). The rules that decide what an
// entry is live in internal/drift; this file only appends and reads. There is
// no update or delete here, and the schema's triggers refuse both (FT-26).

package control

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrUnknownEntry means an acknowledgement named an entry that does not exist.
var ErrUnknownEntry = errors.New("unknown drift entry")

// Entry is one drift_entry row with its acknowledgements.
type Entry struct {
	ID          string   `json:"id"`
	Revision    string   `json:"revision"`
	Method      string   `json:"method"`
	Kind        string   `json:"kind"`
	Path        string   `json:"path"`
	OldPath     string   `json:"old_path,omitempty"`
	Lines       [][2]int `json:"lines"`
	Nodes       []string `json:"nodes"`
	Note        string   `json:"note,omitempty"`
	ContentHash string   `json:"content_hash,omitempty"`
	DetectedAt  string   `json:"detected_at"`
	DedupKey    string   `json:"dedup_key"`
	Acks        []Ack    `json:"acks"`
	// AcksTotal is set by readers that show only the latest acks: how many
	// the entry has in all
	AcksTotal int `json:"acks_total,omitempty"`
}

// Ack is one drift_ack row.
type Ack struct {
	EntryID string `json:"entry_id"`
	Note    string `json:"note"`
	AckedAt string `json:"acked_at"`
}

// ErrBadPath means an entry's path cannot name a file of the project; the
// facade refuses such paths before they get here (cleanPath).
var ErrBadPath = errors.New("drift entry path is not a project-relative file path")

// storablePath reports whether p can be a ledger path: not empty, no NUL
// byte, relative and inside the project, at most 4,096 bytes. A live
// database's "db:<name>" paths pass.
func storablePath(p string) bool {
	if p == "" || len(p) > 4096 || strings.ContainsRune(p, 0) || strings.HasPrefix(p, "/") {
		return false
	}
	for _, el := range strings.Split(p, "/") {
		if el == ".." {
			return false
		}
	}
	return true
}

// EntryID is the id of the entry with dedup key key: equal keys, equal ids.
func EntryID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "d-" + hex.EncodeToString(sum[:8])
}

// AppendEntries records entries whose dedup key is new and returns those it
// recorded, in order; an entry with a known key adds nothing (FT-27). IDs are
// derived from the dedup key.
func (s *Store) AppendEntries(ctx context.Context, entries []Entry) (_ []Entry, err error) {
	if len(entries) == 0 {
		return nil, nil
	}
	if err := s.writable(); err != nil {
		return nil, err
	}
	defer func() { err = writeErr(err) }()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO drift_entry(id, revision, method, kind, path, old_path, lines, nodes, note, content_hash, detected_at, dedup_key)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	var added []Entry
	for _, e := range entries {
		if e.DedupKey == "" {
			return nil, fmt.Errorf("drift entry for %s has no dedup key", e.Path)
		}
		if !storablePath(e.Path) || (e.OldPath != "" && !storablePath(e.OldPath)) {
			return nil, fmt.Errorf("%w: %q", ErrBadPath, e.Path)
		}
		e.ID = EntryID(e.DedupKey)
		if e.Lines == nil {
			e.Lines = [][2]int{}
		}
		if e.Nodes == nil {
			e.Nodes = []string{}
		}
		lines, _ := json.Marshal(e.Lines)
		nodes, _ := json.Marshal(e.Nodes)
		res, err := stmt.ExecContext(ctx, e.ID, e.Revision, e.Method, e.Kind, e.Path, e.OldPath, string(lines), string(nodes), e.Note, e.ContentHash, e.DetectedAt, e.DedupKey)
		if err != nil {
			return nil, fmt.Errorf("recording drift entry for %s: %w", e.Path, err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			e.Acks = []Ack{}
			added = append(added, e)
		}
	}
	return added, tx.Commit()
}

// Filter selects ledger entries; zero fields match everything.
type Filter struct {
	Revision string
	Path     string
	Kind     string
	Unacked  bool
	IDs      []string
}

const entryCols = `id, revision, method, kind, path, old_path, lines, nodes, note, content_hash, detected_at, dedup_key`

// Entries returns the matching entries in detection order, each with its
// acknowledgements.
func (s *Store) Entries(ctx context.Context, f Filter) ([]Entry, error) {
	var where []string
	var args []any
	if f.Revision != "" {
		where, args = append(where, "revision = ?"), append(args, f.Revision)
	}
	if f.Path != "" {
		where, args = append(where, "(path = ? OR old_path = ?)"), append(args, f.Path, f.Path)
	}
	if f.Kind != "" {
		where, args = append(where, "kind = ?"), append(args, f.Kind)
	}
	if f.Unacked {
		where = append(where, "NOT EXISTS (SELECT 1 FROM drift_ack a WHERE a.entry_id = drift_entry.id)")
	}
	if len(f.IDs) > 0 {
		where = append(where, "id IN (?"+strings.Repeat(",?", len(f.IDs)-1)+")")
		for _, id := range f.IDs {
			args = append(args, id)
		}
	}
	q := `SELECT ` + entryCols + ` FROM drift_entry`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	rows, err := s.rdb.QueryContext(ctx, q+" ORDER BY seq", args...)
	if err != nil {
		return nil, fmt.Errorf("reading drift entries: %w", err)
	}
	defer rows.Close()
	var out []Entry
	byID := map[string]int{}
	for rows.Next() {
		var e Entry
		var lines, nodes string
		if err := rows.Scan(&e.ID, &e.Revision, &e.Method, &e.Kind, &e.Path, &e.OldPath, &lines, &nodes, &e.Note, &e.ContentHash, &e.DetectedAt, &e.DedupKey); err != nil {
			return nil, err
		}
		_ = json.Unmarshal([]byte(lines), &e.Lines)
		_ = json.Unmarshal([]byte(nodes), &e.Nodes)
		e.Acks = []Ack{}
		byID[e.ID] = len(out)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return out, nil
	}
	acks, err := s.acks(ctx, f.Revision)
	if err != nil {
		return nil, err
	}
	for _, a := range acks {
		if i, ok := byID[a.EntryID]; ok {
			out[i].Acks = append(out[i].Acks, a)
		}
	}
	return out, nil
}

// acks returns the acknowledgements of a revision's entries (all when rev is "").
func (s *Store) acks(ctx context.Context, rev string) ([]Ack, error) {
	q := `SELECT a.entry_id, a.note, a.acked_at FROM drift_ack a`
	var args []any
	if rev != "" {
		q += ` JOIN drift_entry e ON e.id = a.entry_id WHERE e.revision = ?`
		args = append(args, rev)
	}
	rows, err := s.rdb.QueryContext(ctx, q+` ORDER BY a.seq`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Ack
	for rows.Next() {
		var a Ack
		if err := rows.Scan(&a.EntryID, &a.Note, &a.AckedAt); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// AppendAck acknowledges an entry; the entry itself stays as it was (FT-36).
func (s *Store) AppendAck(ctx context.Context, entryID, note string, at time.Time) (_ Ack, err error) {
	if err := s.writable(); err != nil {
		return Ack{}, err
	}
	defer func() { err = writeErr(err) }()
	var one int
	err = s.db.QueryRowContext(ctx, `SELECT 1 FROM drift_entry WHERE id = ?`, entryID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return Ack{}, fmt.Errorf("%w: %s", ErrUnknownEntry, entryID)
	}
	if err != nil {
		return Ack{}, err
	}
	a := Ack{EntryID: entryID, Note: note, AckedAt: at.UTC().Format(time.RFC3339Nano)}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO drift_ack(entry_id, note, acked_at) VALUES (?,?,?)`, a.EntryID, a.Note, a.AckedAt); err != nil {
		return Ack{}, fmt.Errorf("acknowledging %s: %w", entryID, err)
	}
	return a, nil
}

// Summary counts a revision's entries and those without acknowledgement.
func (s *Store) Summary(ctx context.Context, rev string) (entries, unacked int, err error) {
	err = s.rdb.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(NOT EXISTS (SELECT 1 FROM drift_ack a WHERE a.entry_id = e.id)), 0)
		FROM drift_entry e WHERE e.revision = ?`, rev).Scan(&entries, &unacked)
	return entries, unacked, err
}

// StaleEdge is one stale_edge row.
type StaleEdge struct {
	Revision   string `json:"revision"`
	EdgeID     string `json:"edge_id"`
	EntryID    string `json:"entry_id"`
	Reason     string `json:"reason"` // evidence | endpoint
	RecordedAt string `json:"recorded_at"`
}

// AppendStaleEdges records edges made stale by entries; known rows add nothing.
func (s *Store) AppendStaleEdges(ctx context.Context, edges []StaleEdge) (err error) {
	if len(edges) == 0 {
		return nil
	}
	if err := s.writable(); err != nil {
		return err
	}
	defer func() { err = writeErr(err) }()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO stale_edge(revision, edge_id, entry_id, reason, recorded_at) VALUES (?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, e := range edges {
		if _, err := stmt.ExecContext(ctx, e.Revision, e.EdgeID, e.EntryID, e.Reason, e.RecordedAt); err != nil {
			return fmt.Errorf("recording stale edge %s: %w", e.EdgeID, err)
		}
	}
	return tx.Commit()
}

// StaleEdges returns a revision's stale edges by edge id.
func (s *Store) StaleEdges(ctx context.Context, rev string) ([]StaleEdge, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT revision, edge_id, entry_id, reason, recorded_at FROM stale_edge WHERE revision = ? ORDER BY edge_id, entry_id`, rev)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StaleEdge
	for rows.Next() {
		var e StaleEdge
		if err := rows.Scan(&e.Revision, &e.EdgeID, &e.EntryID, &e.Reason, &e.RecordedAt); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// ArchivedEntry is one drift_archive row.
type ArchivedEntry struct {
	FromRev    string `json:"from_rev"`
	ToRev      string `json:"to_rev"`
	Entry      Entry  `json:"entry"`
	Report     string `json:"report"`
	ArchivedAt string `json:"archived_at"`
}

// AppendArchive copies the ledger of fromRev, acknowledgements included, into
// drift_archive under toRev and returns how many entries it copied. The
// entries stay in drift_entry; the new revision's active ledger starts empty
// because it is keyed by revision (FT-32).
func (s *Store) AppendArchive(ctx context.Context, fromRev, toRev, report string, at time.Time) (_ int, err error) {
	if err := s.writable(); err != nil {
		return 0, err
	}
	defer func() { err = writeErr(err) }()
	entries, err := s.Entries(ctx, Filter{Revision: fromRev})
	if err != nil {
		return 0, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	stamp := at.UTC().Format(time.RFC3339)
	for _, e := range entries {
		b, _ := json.Marshal(e)
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO drift_archive(from_rev, to_rev, entry_id, entry, report, archived_at) VALUES (?,?,?,?,?,?)`,
			fromRev, toRev, e.ID, string(b), report, stamp); err != nil {
			return 0, fmt.Errorf("archiving drift entry %s: %w", e.ID, err)
		}
	}
	return len(entries), tx.Commit()
}

// Archived returns the archived entries of the reindex that produced toRev
// (every archive when toRev is "").
func (s *Store) Archived(ctx context.Context, toRev string) ([]ArchivedEntry, error) {
	q := `SELECT from_rev, to_rev, entry, report, archived_at FROM drift_archive`
	var args []any
	if toRev != "" {
		q, args = q+` WHERE to_rev = ?`, append(args, toRev)
	}
	rows, err := s.rdb.QueryContext(ctx, q+` ORDER BY to_rev, rowid`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ArchivedEntry
	for rows.Next() {
		var a ArchivedEntry
		var entry string
		if err := rows.Scan(&a.FromRev, &a.ToRev, &entry, &a.Report, &a.ArchivedAt); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(entry), &a.Entry); err != nil {
			return nil, fmt.Errorf("decoding archived entry: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
