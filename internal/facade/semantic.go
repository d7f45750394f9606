// This file defines the semantic and hybrid modes of search: the query's
// vector (the static model's, a model2vec model's, or a sentence model's run
// here through ONNX Runtime) against the symbols' and doc sections' (internal/embed), and the
// reciprocal rank fusion of that list with the lexical one.

package facade

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/embed"
	"github.com/ragraf/ragraf/internal/embed/model2vec"
	"github.com/ragraf/ragraf/internal/embed/sentence"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// rrfK is the constant of reciprocal rank fusion: 1/(rrfK + rank).
const rrfK = 60

// semanticWeight weighs the semantic list in the fusion (the lexical and the
// expanded lexical list weigh 1): 2/(rrfK + rank). A question in the code's
// own words is answered by the strict lexical hits, which come first
// (strictFirst); what the fusion ranks is the rest, where the loose lexical
// hits hold one query word somewhere, often in a short name ("name capture",
// docs/accuracy.md). 2 scored best of 1, 1.5, 2 and 3 on the tune half of
// the English judged queries (3 no better than 2).
const semanticWeight = 2.0

// searchMode runs the mode res names, or lexical search with res.Fallback
// saying why when the revision has no vectors or its model cannot embed the
// query here.
func (s *Service) searchMode(ctx context.Context, snap *snapshot, args SearchArgs, match string, res *SearchResult) ([]Hit, error) {
	if res.Mode == "lexical" {
		return s.lexical(ctx, snap, args, match)
	}
	vec, err := snap.lex.Vectors(ctx)
	if err != nil {
		return nil, storeError(err)
	}
	var q []float32
	if vec == nil {
		res.Fallback = res.Mode + " search needs vectors, which this revision does not have (" + vectorReason(snap) + "); lexical search ran instead"
	} else if q, err = s.queryVector(ctx, vec, args.Query, args.xl); err != nil {
		res.Fallback = res.Mode + " search could not embed the query (" + err.Error() + "); lexical search ran instead"
	}
	if res.Fallback != "" {
		res.Mode = "lexical"
		return s.lexical(ctx, snap, args, match)
	}
	sem, err := s.semantic(ctx, snap, vec, q, "", args.Kind, args.PathGlob)
	if err != nil || res.Mode == "semantic" {
		return sem, err
	}
	strict, lex, err := s.lexicalStrict(ctx, snap, args, match)
	if err != nil {
		return nil, err
	}
	exp, err := s.expanded(ctx, snap, vec, args)
	if err != nil {
		return nil, err
	}
	return strictFirst(strict, fuse(lex, sem, exp)), nil
}

// strictFirst puts the hits that hold every query word (the strict lexical
// query's) first, in their lexical order, with Total raised by 1: a
// question in the code's own words keeps the answers lexical search gives
// it, and the vectors rank what follows.
func strictFirst(strict, fused []Hit) []Hit {
	if len(strict) == 0 {
		return fused
	}
	at := make(map[string]int, len(fused))
	for i, h := range fused {
		at[h.ID] = i
	}
	out := make([]Hit, 0, len(fused))
	isStrict := make(map[string]bool, len(strict))
	for _, h := range strict {
		i, ok := at[h.ID]
		if !ok || isStrict[h.ID] {
			continue
		}
		isStrict[h.ID] = true
		f := fused[i]
		f.Score.Total = round6(f.Score.Total + 1)
		out = append(out, f)
	}
	for _, h := range fused {
		if !isStrict[h.ID] {
			out = append(out, h)
		}
	}
	return out
}

// expansionWords is how many vocabulary words nearest the query's vector
// make the expanded lexical list of hybrid search (3 scored best of 0, 3, 6
// and 10 on the tune half of the English judged queries, docs/accuracy.md).
const expansionWords = 3

// expanded is the lexical list of the words the project uses for what the
// query asks (embed.Expand): any of them, a stem matching its longer forms.
func (s *Service) expanded(ctx context.Context, snap *snapshot, vec *lexvec.Vectors, args SearchArgs) ([]Hit, error) {
	var parts []string
	text := args.Query
	if args.xl != nil {
		text = args.xl.english
	}
	for _, w := range embed.Expand(vec, text, expansionWords) {
		q := `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
		if len(w) >= 4 {
			q += "*"
		}
		parts = append(parts, q)
	}
	if len(parts) == 0 {
		return nil, nil
	}
	return s.lexicalMatch(ctx, snap, args, strings.Join(parts, " OR "))
}

// queryVector embeds the query with the revision's model: the static one
// from its word vectors, a sentence model by loading it (once per process)
// from the user's cache; nil when no word of the query is known.
func (s *Service) queryVector(ctx context.Context, vec *lexvec.Vectors, query string, xl *xlQuery) ([]float32, error) {
	if strings.HasPrefix(vec.Model, config.Model2VecPrefix) {
		m, err := s.model2vecOf(vec.Model)
		if err != nil {
			return nil, err
		}
		return m.EmbedText(query), nil
	}
	name, ok := strings.CutPrefix(vec.Model, "onnx:")
	if !ok {
		if xl != nil { // the static model knows the project's words: the translation's
			return embed.QueryWeighted(vec, xl.words, xl.weights), nil
		}
		return embed.Query(vec, query), nil
	}
	if i := strings.LastIndexByte(name, '@'); i >= 0 {
		name = name[:i]
	}
	inst, err := sentence.Resolve(name, "")
	if err != nil {
		return nil, err
	}
	if inst.ID() != vec.Model {
		return nil, fmt.Errorf("the installed %s is %s, the revision's vectors come from %s: reindex", name, inst.ID(), vec.Model)
	}
	m, err := sentence.Load(inst, s.ortLib)
	if err != nil {
		return nil, err
	}
	out, err := m.Embed(ctx, []string{query})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// model2vecs holds the model2vec models loaded by this process, by id.
var model2vecs sync.Map

// model2vecOf loads the model2vec model the revision's vectors come from: the
// directory the project's embeddings.model names, which must still hold the
// same files (the id carries their sha256).
func (s *Service) model2vecOf(id string) (*model2vec.Model, error) {
	if m, ok := model2vecs.Load(id); ok {
		return m.(*model2vec.Model), nil
	}
	cfg, err := config.Load(s.cfgPath)
	if err != nil {
		return nil, err
	}
	dir, ok := config.Model2VecDir(s.root, cfg.Embeddings.Model)
	if !ok {
		return nil, fmt.Errorf("the revision's vectors come from %s, the project's embeddings.model is %q: reindex", id, cfg.Embeddings.Model)
	}
	m, err := model2vec.Load(dir)
	if err != nil {
		return nil, err
	}
	if m.ID() != id {
		return nil, fmt.Errorf("%s now holds %s, the revision's vectors come from %s: reindex", dir, m.ID(), id)
	}
	model2vecs.Store(id, m)
	return m, nil
}

// semanticDepth is how many nearest symbols and doc sections semantic
// ranks: fewer than the lexical candidates, since each costs a node read
// and cosine ranks past a few hundred say little (RRF gives rank 300
// 1/360); on WordPress the node reads were most of a semantic call.
const semanticDepth = 300

// semantic ranks up to semanticDepth symbols and doc sections by their
// vectors' cosine with q, filtered by kind and glob; skip is left out.
func (s *Service) semantic(ctx context.Context, snap *snapshot, vec *lexvec.Vectors, q []float32, skip, kind, glob string) ([]Hit, error) {
	hits := []Hit{}
	if q == nil {
		return hits, nil
	}
	k := len(vec.IDs) // filters may drop any number: rank them all
	if kind == "" && glob == "" {
		k = semanticDepth
	}
	near := embed.Nearest(vec, q, k, skip)
	for start := 0; start < len(near) && len(hits) < semanticDepth; start += semanticDepth {
		part := near[start:min(start+semanticDepth, len(near))]
		ids := make([]string, len(part))
		for i, h := range part {
			ids[i] = h.ID
		}
		nodes, err := snap.graph.NodesByID(ctx, ids)
		if err != nil {
			return nil, storeError(err)
		}
		var rest []string
		for _, id := range ids {
			if _, ok := nodes[id]; !ok {
				rest = append(rest, id)
			}
		}
		var chunks map[string]fact.TextChunk
		if len(rest) > 0 {
			if chunks, err = snap.lex.ChunksByID(ctx, rest); err != nil {
				return nil, storeError(err)
			}
		}
		for _, h := range part {
			if n, ok := nodes[h.ID]; ok {
				if (kind != "" && string(n.Kind) != kind) || !globMatch(glob, n.Path) {
					continue
				}
				hits = append(hits, semanticHit(n, h.Score))
			} else if c, ok := chunks[h.ID]; ok {
				if (kind != "" && c.Kind != kind) || !globMatch(glob, c.Path) {
					continue
				}
				hits = append(hits, Hit{Type: "text", ID: c.ID, Kind: c.Kind, NodeID: c.NodeID, Path: c.Path, Line: c.StartLine, EndLine: c.EndLine,
					Score: Score{KindBoost: 1, ExactBoost: 1, Semantic: round6(h.Score), Total: round6(h.Score)}})
			}
			if len(hits) == semanticDepth {
				break
			}
		}
	}
	return hits, nil
}

func semanticHit(n fact.Node, cos float64) Hit {
	return Hit{Type: "symbol", ID: n.ID, Kind: string(n.Kind), Name: n.Name, QName: n.QName, Signature: n.Signature,
		Path: n.Path, Line: n.StartLine, EndLine: n.EndLine,
		Score: Score{KindBoost: 1, ExactBoost: 1, Semantic: round6(cos), Total: round6(cos)}}
}

// fuse merges the lexical, the semantic and the expanded lexical list by
// reciprocal rank fusion, the semantic list weighted by semanticWeight.
func fuse(lex, sem, exp []Hit) []Hit {
	byID := map[string]int{}
	var out []Hit
	for i, h := range lex {
		h.Score.LexicalRank = i + 1
		byID[h.ID] = len(out)
		out = append(out, h)
	}
	for i, h := range sem {
		if j, ok := byID[h.ID]; ok {
			out[j].Score.Semantic = h.Score.Semantic
			out[j].Score.SemanticRank = i + 1
			continue
		}
		h.Score = Score{Semantic: h.Score.Semantic, SemanticRank: i + 1}
		byID[h.ID] = len(out)
		out = append(out, h)
	}
	for i, h := range exp {
		if j, ok := byID[h.ID]; ok {
			out[j].Score.ExpandedRank = i + 1
			continue
		}
		h.Score = Score{BM25: h.Score.BM25, KindBoost: h.Score.KindBoost, ExactBoost: h.Score.ExactBoost, ExpandedRank: i + 1}
		byID[h.ID] = len(out)
		out = append(out, h)
	}
	for i := range out {
		sc := &out[i].Score
		var t float64
		if sc.LexicalRank > 0 {
			t += 1.0 / float64(rrfK+sc.LexicalRank)
		}
		if sc.SemanticRank > 0 {
			t += semanticWeight / float64(rrfK+sc.SemanticRank)
		}
		if sc.ExpandedRank > 0 {
			t += 1.0 / float64(rrfK+sc.ExpandedRank)
		}
		sc.Total = round6(t)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := &out[i].Score, &out[j].Score
		if a.Total != b.Total {
			return a.Total > b.Total
		}
		return false // equal fused scores keep the lexical order first
	})
	return out
}
