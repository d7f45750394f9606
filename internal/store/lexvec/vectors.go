// This file stores the vector model of a revision: word vectors with their
// weights and symbol vectors, as float32 blobs. The embed package trains
// them; this one only writes and reads them.

package lexvec

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/sqlitedb"
)

// Vectors is a revision's vector model and symbol vectors. WordVecs and
// SymVecs are flat: row i is [i*Dim, (i+1)*Dim).
type Vectors struct {
	Model       string
	Dim         int
	Words       []string // sorted
	WordWeights []float32
	WordVecs    []float32
	IDs         []string // sorted
	SymVecs     []float32
	// Delta, when set, says these are only the changed symbol vectors of
	// the model in another revision's file; see VectorDelta.
	Delta *VectorDelta

	index     map[string]int
	signsOnce sync.Once
	signs     []uint64
}

// VectorDelta makes Vectors a change to the vectors of the lexvec.sqlite at
// Base (the parent revision's, whose model is reused): the word tables and
// every symbol vector stay as Base holds them, except that the symbols of
// Delete lose theirs and those of IDs get SymVecs. Update applies it to a copy
// of Base row by row; a full write reads Base and writes the result.
type VectorDelta struct {
	Base   string
	Delete []string
}

// Signs returns the sign bits of the symbol vectors, row i at
// [i*words, (i+1)*words), bit d set when dimension d is positive: the
// binary vectors of the first stage of a large search. They are derived
// from SymVecs once, on first use.
func (v *Vectors) Signs() (bits []uint64, words int) {
	words = (v.Dim + 63) / 64
	v.signsOnce.Do(func() {
		v.signs = make([]uint64, len(v.IDs)*words)
		for i := range v.IDs {
			row := v.SymVecs[i*v.Dim : (i+1)*v.Dim]
			out := v.signs[i*words : (i+1)*words]
			for d, x := range row {
				if x > 0 {
					out[d/64] |= 1 << (d % 64)
				}
			}
		}
	})
	return v.signs, words
}

// Index prepares Lookup; call it once after filling Words.
func (v *Vectors) Index() {
	v.index = make(map[string]int, len(v.Words))
	for i, w := range v.Words {
		v.index[w] = i
	}
}

// Lookup returns a word's row.
func (v *Vectors) Lookup(word string) (int, bool) {
	i, ok := v.index[word]
	return i, ok
}

// Symbol returns a symbol's vector; nil when it has none.
func (v *Vectors) Symbol(id string) []float32 {
	lo, hi := 0, len(v.IDs)
	for lo < hi {
		m := (lo + hi) / 2
		if v.IDs[m] < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(v.IDs) && v.IDs[lo] == id {
		return v.SymVecs[lo*v.Dim : (lo+1)*v.Dim]
	}
	return nil
}

func blob(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func unblob(b []byte, dst []float32) []float32 {
	for i := 0; i+4 <= len(b); i += 4 {
		dst = append(dst, math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))
	}
	return dst
}

// writeVectors replaces the vector tables' rows with v (nil: none).
func writeVectors(ctx context.Context, tx *sql.Tx, v *Vectors) error {
	if v != nil && v.Delta != nil {
		full, err := v.materialize(ctx)
		if err != nil {
			return err
		}
		v = full
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM word_vector; DELETE FROM symbol_vector; DELETE FROM meta WHERE key IN ('vector_model', 'vector_dim')`); err != nil {
		return err
	}
	if v == nil {
		return nil
	}
	err := sqlitedb.InsertRows(ctx, tx, "word_vector", []string{"word", "weight", "v"}, len(v.Words), func(i int, r []any) {
		r[0], r[1], r[2] = v.Words[i], float64(v.WordWeights[i]), blob(v.WordVecs[i*v.Dim:(i+1)*v.Dim])
	})
	if err != nil {
		return fmt.Errorf("inserting word vectors: %w", err)
	}
	err = sqlitedb.InsertRows(ctx, tx, "symbol_vector", []string{"id", "v"}, len(v.IDs), func(i int, r []any) {
		r[0], r[1] = v.IDs[i], blob(v.SymVecs[i*v.Dim:(i+1)*v.Dim])
	})
	if err != nil {
		return fmt.Errorf("inserting symbol vectors: %w", err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES ('vector_model', ?), ('vector_dim', ?)`, v.Model, strconv.Itoa(v.Dim))
	return err
}

// materialize applies a delta to its base: the whole vectors.
func (v *Vectors) materialize(ctx context.Context) (*Vectors, error) {
	s, err := Open(ctx, v.Delta.Base)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	base, err := s.readVectors(ctx)
	if err != nil {
		return nil, err
	}
	if base == nil || base.Model != v.Model || base.Dim != v.Dim {
		return nil, fmt.Errorf("%s: no %s vectors to apply the changes to", v.Delta.Base, v.Model)
	}
	drop := make(map[string]bool, len(v.Delta.Delete)+len(v.IDs))
	for _, id := range v.Delta.Delete {
		drop[id] = true
	}
	for _, id := range v.IDs {
		drop[id] = true
	}
	type row struct {
		id  string
		vec []float32
	}
	var rows []row
	for i, id := range base.IDs {
		if !drop[id] {
			rows = append(rows, row{id, base.SymVecs[i*v.Dim : (i+1)*v.Dim]})
		}
	}
	for i, id := range v.IDs {
		rows = append(rows, row{id, v.SymVecs[i*v.Dim : (i+1)*v.Dim]})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].id < rows[j].id })
	out := &Vectors{Model: base.Model, Dim: base.Dim, Words: base.Words, WordWeights: base.WordWeights, WordVecs: base.WordVecs}
	for _, r := range rows {
		out.IDs = append(out.IDs, r.id)
		out.SymVecs = append(out.SymVecs, r.vec...)
	}
	out.Index()
	return out, nil
}

// updateVectors applies a delta to the file's own vector rows, which must
// be the delta's base model (the file is a copy of the base). It returns
// the rows written and deleted.
func updateVectors(ctx context.Context, tx *sql.Tx, v *Vectors) (written, deleted int, err error) {
	var model, dim sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT value FROM meta WHERE key = 'vector_model'), (SELECT value FROM meta WHERE key = 'vector_dim')`).Scan(&model, &dim); err != nil {
		return 0, 0, err
	}
	if model.String != v.Model || dim.String != strconv.Itoa(v.Dim) {
		return 0, 0, fmt.Errorf("lexvec: the file holds %q vectors of %s dimensions, not the %s the changes are for", model.String, dim.String, v.Model)
	}
	for _, ids := range [][]string{v.Delta.Delete, v.IDs} {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `DELETE FROM symbol_vector WHERE id = ?`, id); err != nil {
				return 0, 0, err
			}
			deleted++
		}
	}
	for i, id := range v.IDs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO symbol_vector(id, v) VALUES (?, ?)`, id, blob(v.SymVecs[i*v.Dim:(i+1)*v.Dim])); err != nil {
			return 0, 0, err
		}
		written++
	}
	return written, deleted, nil
}

// WordVectors reads the vector model's rows of the given words only (those
// it has), Index()ed, without symbol vectors; nil when the revision has no
// vectors.
func (s *Store) WordVectors(ctx context.Context, words []string) (*Vectors, error) {
	v, err := s.vectorMeta(ctx)
	if v == nil || err != nil {
		return nil, err
	}
	words = slices.Compact(slices.Sorted(slices.Values(words)))
	for start := 0; start < len(words); start += 500 {
		part := words[start:min(start+500, len(words))]
		args := make([]any, len(part))
		for i, w := range part {
			args[i] = w
		}
		rows, err := s.db.QueryContext(ctx, `SELECT word, weight, v FROM word_vector WHERE word IN (?`+strings.Repeat(",?", len(part)-1)+`) ORDER BY word`, args...)
		if err != nil {
			return nil, err
		}
		if err := s.appendWords(v, rows); err != nil {
			return nil, err
		}
	}
	v.Index()
	return v, nil
}

// vectorMeta returns an empty Vectors with the stored model and
// dimension; nil when the revision has no vectors.
func (s *Store) vectorMeta(ctx context.Context) (*Vectors, error) {
	var model, dim sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT value FROM meta WHERE key = 'vector_model'), (SELECT value FROM meta WHERE key = 'vector_dim')`).Scan(&model, &dim)
	if err != nil {
		return nil, err
	}
	if !model.Valid {
		return nil, nil
	}
	v := &Vectors{Model: model.String}
	if v.Dim, err = strconv.Atoi(dim.String); err != nil || v.Dim <= 0 {
		return nil, fmt.Errorf("%s: bad vector_dim %q", s.path, dim.String)
	}
	return v, nil
}

// appendWords appends the word rows (word, weight, v) of rows to v and
// closes rows.
func (s *Store) appendWords(v *Vectors, rows *sql.Rows) error {
	defer rows.Close()
	for rows.Next() {
		var w string
		var wt float64
		var b []byte
		if err := rows.Scan(&w, &wt, &b); err != nil {
			return err
		}
		if len(b) != 4*v.Dim {
			return fmt.Errorf("%s: word vector of %d bytes, not %d dimensions", s.path, len(b), v.Dim)
		}
		v.Words = append(v.Words, w)
		v.WordWeights = append(v.WordWeights, float32(wt))
		v.WordVecs = unblob(b, v.WordVecs)
	}
	return rows.Err()
}

// ChunksByID returns the chunks with the given ids, by id.
func (s *Store) ChunksByID(ctx context.Context, ids []string) (map[string]fact.TextChunk, error) {
	out := make(map[string]fact.TextChunk, len(ids))
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(start+500, len(ids))]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		cs, err := s.chunks(ctx, `SELECT id, node_id, kind, path, start_line, end_line, text FROM chunk WHERE id IN (?`+strings.Repeat(",?", len(part)-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			out[c.ID] = c
		}
	}
	return out, nil
}

// Vectors writes the vector model; nil writes none.
func (w *Writer) Vectors(ctx context.Context, v *Vectors) error {
	return writeVectors(ctx, w.tx, v)
}

// vectorLoad is one read of the vector model, finished when done is closed.
type vectorLoad struct {
	done chan struct{}
	v    *Vectors
	err  error
}

// Vectors reads the vector model once and keeps it; nil when the revision
// has none. Concurrent callers share one read, which runs detached from the
// first caller's context: a caller that is cancelled stops waiting, not the
// read, and a read that fails is not kept (the next call reads again), so one
// cancelled search never breaks the searches after it.
func (s *Store) Vectors(ctx context.Context) (*Vectors, error) {
	s.vecMu.Lock()
	l := s.vecLoad
	if l == nil {
		l = &vectorLoad{done: make(chan struct{})}
		s.vecLoad = l
		go func() {
			v, err := s.readVectors(context.WithoutCancel(ctx))
			s.vecMu.Lock()
			l.v, l.err = v, err
			if err != nil && s.vecLoad == l {
				s.vecLoad = nil
			}
			s.vecMu.Unlock()
			close(l.done)
		}()
	}
	s.vecMu.Unlock()
	select {
	case <-l.done:
	case <-ctx.Done():
		select {
		case <-l.done: // read already: the answer is there
		default:
			return nil, ctx.Err()
		}
	}
	return l.v, l.err
}

func (s *Store) readVectors(ctx context.Context) (*Vectors, error) {
	v, err := s.vectorMeta(ctx)
	if v == nil || err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT word, weight, v FROM word_vector ORDER BY word`)
	if err != nil {
		return nil, err
	}
	if err := s.appendWords(v, rows); err != nil {
		return nil, err
	}
	rows, err = s.db.QueryContext(ctx, `SELECT id, v FROM symbol_vector ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return nil, err
		}
		v.IDs = append(v.IDs, id)
		v.SymVecs = unblob(b, v.SymVecs)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(v.WordVecs) != len(v.Words)*v.Dim || len(v.SymVecs) != len(v.IDs)*v.Dim {
		return nil, fmt.Errorf("%s: vectors do not have %d dimensions", s.path, v.Dim)
	}
	v.Index()
	return v, nil
}
