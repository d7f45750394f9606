// This file defines the search operation: lexical search (FTS5, BM25) over
// symbol names, qualified names and signatures, and over docblocks, comments
// and documentation sections, with kind boosts and the score parts in every
// hit. The FTS queries live in internal/store/lexvec/search.go.

package facade

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ragraf/ragraf/internal/bilingual"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// SearchArgs is a lexical query with filters.
type SearchArgs struct {
	Query    string `json:"query" jsonschema:"words or identifiers, e.g. add item to cart or addItem"`
	Mode     string `json:"mode,omitempty"`
	Kind     string `json:"kind,omitempty" jsonschema:"a node kind (class, method, ...), docblock, comment or doc_section"`
	PathGlob string `json:"path_glob,omitempty" jsonschema:"only hits in paths matching this glob, e.g. src/**/*.php"`
	Page
	Output

	xl *xlQuery // the translated query of a question in Russian (bilingual.go)
}

// Score explains a hit's score. Lexical: Total = BM25 * KindBoost *
// ExactBoost. Semantic: Total = Semantic, the cosine similarity of the query's
// and the symbol's vectors. Hybrid: Total = the reciprocal rank fusion of the
// lexical list, the semantic list and the expanded list (the lexical matches
// of the vocabulary words nearest the query's vector), sum of 1/(60 + rank)
// over the lists holding the hit, with the ranks (1-based, 0 when absent) and
// the parts of each; the hits that hold every query word come first, in
// their lexical order, their Total raised by 1.
type Score struct {
	BM25         float64 `json:"bm25"` // SQLite's BM25 negated, so higher is better
	KindBoost    float64 `json:"kind_boost"`
	ExactBoost   float64 `json:"exact_boost"`
	Semantic     float64 `json:"semantic,omitempty"`
	LexicalRank  int     `json:"lexical_rank,omitempty"`
	SemanticRank int     `json:"semantic_rank,omitempty"`
	ExpandedRank int     `json:"expanded_rank,omitempty"`
	Total        float64 `json:"total"`
}

// Hit is one search result: a symbol or a text chunk.
type Hit struct {
	Type      string     `json:"type"` // symbol | text
	ID        string     `json:"id"`
	Kind      string     `json:"kind"`
	Name      string     `json:"name,omitempty"`
	QName     string     `json:"qname,omitempty"`
	Signature string     `json:"signature,omitempty"`
	Text      string     `json:"text,omitempty"` // first lines of a text chunk
	NodeID    string     `json:"node_id,omitempty"`
	Path      string     `json:"path"`
	Line      int        `json:"line"`
	EndLine   int        `json:"end_line"`
	Score     Score      `json:"score"`
	Stale     *StaleMark `json:"stale,omitempty"` // its lines changed since the revision
}

// SearchResult lists hits, best first.
type SearchResult struct {
	Query       string       `json:"query"`
	Mode        string       `json:"mode"` // the mode that ran
	Fallback    string       `json:"fallback,omitempty"`
	Translation *Translation `json:"translation,omitempty"` // how a question with Russian words was searched
	Hits        []Hit        `json:"hits"`
}

// candidates is how many best FTS matches of each table (symbols, text) are
// ranked; filters apply to these. It is the same whatever the page, so the
// ranked list, its total (limits.total counts the ranked matches) and the
// offsets cursors name are the same on every page.
const candidates = 1000

var textKinds = []string{"docblock", "comment", "doc_section"}

// Search runs a lexical search.
func (s *Service) Search(ctx context.Context, args SearchArgs) (*Envelope, error) {
	const op = "search"
	if err := checkName("query", args.Query, required); err != nil {
		return nil, err
	}
	mode, err := checkEnum("mode", args.Mode, "", "lexical", "semantic", "hybrid")
	if err != nil {
		return nil, err
	}
	if _, err := checkEnum("kind", args.Kind, "", append(append([]string{}, nodeKinds...), textKinds...)...); err != nil {
		return nil, err
	}
	if args.PathGlob != "" {
		if err := checkName("path_glob", args.PathGlob, optional); err != nil {
			return nil, err
		}
		if !doublestar.ValidatePattern(args.PathGlob) {
			return nil, badInput("path_glob %q is not a valid glob", args.PathGlob)
		}
	}
	pg, err := args.page(op, args)
	if err != nil {
		return nil, err
	}
	limit, offset := pg.limit, pg.offset
	match := lexvec.MatchQuery(args.Query)
	var tr *Translation
	if bilingual.HasCyrillic(args.Query) {
		args.xl, tr = translate(args.Query)
		match = args.xl.loose
	}
	if match == "" {
		return nil, badInput("query %q holds no word to search for", args.Query)
	}
	c, err := s.begin(ctx, op, pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	if mode == "" {
		// hybrid when the revision has vectors (ARCHITECTURE.md §12), else lexical
		mode = "lexical"
		if snap.info.Capability.Vectors {
			mode = "hybrid"
		}
	}
	env := c.env
	res := SearchResult{Query: args.Query, Mode: mode, Translation: tr, Hits: []Hit{}}
	hits, err := s.searchMode(ctx, snap, args, match, &res)
	if err != nil {
		return nil, err
	}
	res.Hits = window(hits, limit, offset)
	if err := s.excerpts(ctx, snap, res.Hits); err != nil {
		return nil, err
	}
	env.Result = res
	env.Limits = pg.limits(snap, len(res.Hits), len(hits))
	if len(hits) == 0 {
		env.NotFound = true
		env.Suggest = append(env.Suggest, Suggestion{Op: "symbol", Args: map[string]any{"name": lastName(strings.TrimSpace(args.Query)), "fuzzy": true}, Why: "names containing the text"})
	}
	paths := make([]string, 0, len(res.Hits))
	for _, h := range res.Hits {
		paths = append(paths, h.Path)
	}
	c.cite(paths...)
	return c.done(env.Result)
}

// excerpts fills the text of the page's text hits: ranking needs no text, so
// only the chunks shown are read.
func (s *Service) excerpts(ctx context.Context, snap *snapshot, hits []Hit) error {
	var ids []string
	for _, h := range hits {
		if h.Type == "text" {
			ids = append(ids, h.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	texts, err := snap.lex.ChunkTexts(ctx, ids)
	if err != nil {
		return storeError(err)
	}
	for i := range hits {
		if hits[i].Type == "text" {
			hits[i].Text = excerpt(texts[hits[i].ID])
		}
	}
	return nil
}

func vectorReason(snap *snapshot) string {
	if r := snap.info.Capability.Reason; r != "" {
		return r
	}
	return "no embedding model configured"
}

// strictEnough is how many strict hits make the loose query unnecessary,
// whatever the page size: a handful of hits that contain every word answer
// better than a page filled with hits that contain one, and one threshold for
// every page keeps the ranked list the same on each.
const strictEnough = 5

// lexical ranks symbol and text matches. It runs the strict query first
// (every word must match) and adds the loose one's hits (any term) only when
// the strict one finds fewer than strictEnough: a precise question gets a
// precise answer fast, a vague one still gets something.
func (s *Service) lexical(ctx context.Context, snap *snapshot, args SearchArgs, loose string) ([]Hit, error) {
	_, hits, err := s.lexicalStrict(ctx, snap, args, loose)
	return hits, err
}

// lexicalStrict is lexical, with the hits of the strict query apart too.
func (s *Service) lexicalStrict(ctx context.Context, snap *snapshot, args SearchArgs, loose string) ([]Hit, []Hit, error) {
	strictQ, looseText := lexvec.StrictQuery(args.Query), args.Query
	if args.xl != nil {
		strictQ, looseText = args.xl.strict, args.xl.english
	}
	hits, err := s.lexicalMatch(ctx, snap, args, strictQ)
	if err != nil || len(hits) >= strictEnough {
		return hits, hits, err
	}
	strict := slices.Clone(hits)
	if looseText != "" {
		rare, err := snap.lex.LooseQuery(ctx, looseText)
		if err != nil {
			return nil, nil, storeError(err)
		}
		if rare != "" {
			loose = rare
			if args.xl != nil && args.xl.own != "" {
				loose += " OR " + args.xl.own // Russian words in comments and docblocks
			}
		}
	}
	more, err := s.lexicalMatch(ctx, snap, args, loose)
	if err != nil {
		return nil, nil, err
	}
	seen := make(map[string]bool, len(hits))
	for _, h := range hits {
		seen[h.ID] = true
	}
	for _, h := range more {
		if !seen[h.ID] {
			hits = append(hits, h)
		}
	}
	sortHits(hits)
	return strict, hits, nil
}

func (s *Service) lexicalMatch(ctx context.Context, snap *snapshot, args SearchArgs, match string) ([]Hit, error) {
	query := strings.ToLower(strings.TrimSpace(args.Query))
	wantText := args.Kind == "" || isTextKind(args.Kind)
	wantSym := args.Kind == "" || !isTextKind(args.Kind)
	var hits []Hit
	if match == "" {
		return hits, nil
	}
	if wantSym {
		sh, err := snap.lex.SearchSymbols(ctx, match, candidates)
		if err != nil {
			return nil, storeError(err)
		}
		ids := make([]string, 0, len(sh))
		for _, h := range sh {
			ids = append(ids, h.ID)
		}
		nodes, err := snap.graph.NodesByID(ctx, ids)
		if err != nil {
			return nil, storeError(err)
		}
		for _, h := range sh {
			n, ok := nodes[h.ID]
			if !ok || (args.Kind != "" && string(n.Kind) != args.Kind) || !globMatch(args.PathGlob, n.Path) {
				continue
			}
			exact := 1.0
			if strings.ToLower(n.Name) == query || strings.ToLower(n.QName) == query || args.xl.keeps(n.Name) {
				exact = 2.0
			}
			hits = append(hits, Hit{Type: "symbol", ID: n.ID, Kind: string(n.Kind), Name: n.Name, QName: n.QName, Signature: n.Signature,
				Path: n.Path, Line: n.StartLine, EndLine: n.EndLine, Score: score(-h.BM25, symbolBoost(n.Kind), exact)})
		}
	}
	if wantText {
		ch, err := snap.lex.SearchChunks(ctx, match, candidates)
		if err != nil {
			return nil, storeError(err)
		}
		for _, h := range ch {
			if (args.Kind != "" && h.Kind != args.Kind) || !globMatch(args.PathGlob, h.Path) {
				continue
			}
			hits = append(hits, Hit{Type: "text", ID: h.ID, Kind: h.Kind, NodeID: h.NodeID,
				Path: h.Path, Line: h.StartLine, EndLine: h.EndLine, Score: score(-h.BM25, textBoost(h.Kind), 1)})
		}
	}
	sortHits(hits)
	return hits, nil
}

// sortHits orders hits best first, ties by place and id, so answers are stable.
func sortHits(hits []Hit) {
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := &hits[i], &hits[j] // a Hit is large: compare in place
		if a.Score.Total != b.Score.Total {
			return a.Score.Total > b.Score.Total
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.ID < b.ID
	})
}

func isTextKind(k string) bool {
	for _, t := range textKinds {
		if k == t {
			return true
		}
	}
	return false
}

func globMatch(glob, path string) bool {
	if glob == "" {
		return true
	}
	ok, _ := doublestar.Match(glob, path)
	return ok
}

// round6 keeps scores stable in JSON across platforms' float formatting.
func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }

func score(bm25, kind, exact float64) Score {
	return Score{BM25: round6(bm25), KindBoost: kind, ExactBoost: exact, Total: round6(bm25 * kind * exact)}
}

// symbolBoost prefers declarations an agent navigates to: types, then
// functions and methods, then members.
func symbolBoost(k fact.NodeKind) float64 {
	switch {
	case k.IsType():
		return 1.5
	case k == fact.Function || k == fact.Method:
		return 1.3
	case k == fact.Constant:
		return 1.1
	case k == fact.Namespace:
		return 0.8
	}
	return 1.0
}

func textBoost(kind string) float64 {
	switch kind {
	case "docblock", "doc_section":
		return 1.0
	}
	return 0.8
}

// excerpt is the first three lines of a chunk, at most 300 bytes.
func excerpt(t string) string {
	lines := strings.SplitN(t, "\n", 4)
	if len(lines) > 3 {
		lines = lines[:3]
	}
	out := strings.Join(lines, "\n")
	if len(out) > 300 {
		out = out[:300]
		for len(out) > 0 && out[len(out)-1]&0xC0 == 0x80 {
			out = out[:len(out)-1]
		}
		if len(out) > 0 && out[len(out)-1] >= 0xC0 {
			out = out[:len(out)-1]
		}
	}
	return out
}
