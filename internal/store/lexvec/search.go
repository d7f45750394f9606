// This file defines the lexical search queries over symbol_fts and chunk_fts;
// the facade's search operation ranks and filters what they return.

package lexvec

import (
	"context"
	"strings"
)

// MatchQuery turns free text into an FTS5 query: the code-aware terms of the
// text (Terms), each quoted, joined with OR so a hit needs one of them and
// BM25 ranks hits with more of them higher. It returns "" when the text holds
// no term.
func MatchQuery(text string) string {
	seen := map[string]bool{}
	var parts []string
	for _, t := range strings.Fields(Terms(text)) {
		if seen[t] {
			continue
		}
		seen[t] = true
		parts = append(parts, `"`+strings.ReplaceAll(t, `"`, `""`)+`"`)
	}
	return strings.Join(parts, " OR ")
}

// StrictQuery turns free text into an FTS5 query that every query word must
// match, either as the whole identifier or as all of its camelCase and
// snake_case parts: "findByEmail user" gives
// ("findbyemail" OR ("find" AND "by" AND "email")) AND "user". Common parts
// such as "get" or "id" then narrow a search instead of widening it. It
// returns "" when the text holds no word.
func StrictQuery(text string) string {
	seen := map[string]bool{}
	var groups []string
	quote := func(t string) string { return `"` + strings.ReplaceAll(t, `"`, `""`) + `"` }
	for i := 0; i < len(text); {
		if !wordAt(text, i) {
			_, size := nextRune(text, i)
			i += size
			continue
		}
		j := i
		for j < len(text) && wordAt(text, j) {
			_, size := nextRune(text, j)
			j += size
		}
		seg := text[i:j]
		i = j
		group := quote(strings.ToLower(seg))
		if parts := splitIdent(seg); len(parts) > 1 {
			qs := make([]string, len(parts))
			for k, p := range parts {
				qs[k] = quote(p)
			}
			group = "(" + group + " OR (" + strings.Join(qs, " AND ") + "))"
		}
		if !seen[group] {
			seen[group] = true
			groups = append(groups, group)
		}
	}
	return strings.Join(groups, " AND ")
}

// commonLimit is how many chunks a term must match to count as common: a
// loose query with such a term makes FTS5 score thousands of rows.
const commonLimit = 500

// LooseQuery is MatchQuery without the terms that match more than
// commonLimit chunks, when at least one rarer term remains: "ftp_base get"
// looks for "ftp_base" (and "ftp", "base"), not for every chunk that says
// "get". Which terms are common is learned once per term and kept, since the
// file never changes.
func (s *Store) LooseQuery(ctx context.Context, text string) (string, error) {
	var rare, all []string
	seen := map[string]bool{}
	for _, t := range strings.Fields(Terms(text)) {
		if seen[t] {
			continue
		}
		seen[t] = true
		q := `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
		all = append(all, q)
		common, err := s.isCommon(ctx, t, q)
		if err != nil {
			return "", err
		}
		if !common {
			rare = append(rare, q)
		}
	}
	if len(rare) == 0 {
		rare = all
	}
	return strings.Join(rare, " OR "), nil
}

func (s *Store) isCommon(ctx context.Context, term, quoted string) (bool, error) {
	s.commonMu.Lock()
	c, ok := s.common[term]
	s.commonMu.Unlock()
	if ok {
		return c, nil
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM chunk_fts WHERE chunk_fts MATCH ? LIMIT ?)`, quoted, commonLimit+1).Scan(&n); err != nil {
		return false, err
	}
	s.commonMu.Lock()
	if s.common == nil {
		s.common = map[string]bool{}
	}
	s.common[term] = n > commonLimit
	s.commonMu.Unlock()
	return n > commonLimit, nil
}

// SymbolHit is one symbol_fts match; BM25 is SQLite's score (lower is better).
type SymbolHit struct {
	ID   string
	Kind string
	BM25 float64
}

// SearchSymbols returns up to limit symbols matching an FTS5 query built by
// MatchQuery, best first, ties by id. Name matches weigh most, then the
// qualified name, then the signature.
func (s *Store) SearchSymbols(ctx context.Context, match string, limit int) ([]SymbolHit, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, kind, bm25(symbol_fts, 10.0, 4.0, 1.0) AS score FROM symbol_fts
		WHERE symbol_fts MATCH ? ORDER BY score, id LIMIT ?`, match, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SymbolHit
	for rows.Next() {
		var h SymbolHit
		if err := rows.Scan(&h.ID, &h.Kind, &h.BM25); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// ChunkHit is one chunk_fts match with its chunk, but not its text (ChunkTexts
// reads that for the hits an answer shows).
type ChunkHit struct {
	ID        string
	NodeID    string
	Kind      string
	Path      string
	StartLine int
	EndLine   int
	BM25      float64
}

// SearchChunks returns up to limit text chunks matching an FTS5 query built
// by MatchQuery, best first, ties by id.
func (s *Store) SearchChunks(ctx context.Context, match string, limit int) ([]ChunkHit, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.node_id, c.kind, c.path, c.start_line, c.end_line, f.score
		FROM (SELECT id, bm25(chunk_fts) AS score FROM chunk_fts WHERE chunk_fts MATCH ? ORDER BY score, id LIMIT ?) f
		JOIN chunk c ON c.id = f.id ORDER BY f.score, c.id`, match, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ChunkHit
	for rows.Next() {
		var h ChunkHit
		if err := rows.Scan(&h.ID, &h.NodeID, &h.Kind, &h.Path, &h.StartLine, &h.EndLine, &h.BM25); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// ChunkTexts returns the text of the chunks with the given ids, keyed by id;
// unknown ids are absent.
func (s *Store) ChunkTexts(ctx context.Context, ids []string) (map[string]string, error) {
	out := make(map[string]string, len(ids))
	for i := 0; i < len(ids); i += 500 {
		part := ids[i:min(i+500, len(ids))]
		args := make([]any, len(part))
		for j, id := range part {
			args[j] = id
		}
		rows, err := s.db.QueryContext(ctx, `SELECT id, text FROM chunk WHERE id IN (?`+strings.Repeat(",?", len(part)-1)+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id, text string
			if err := rows.Scan(&id, &text); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = text
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
