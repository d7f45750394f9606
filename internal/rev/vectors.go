// This file computes a revision's vectors: the static model trained on the
// project (embeddings.model static:project, internal/embed), or an ONNX
// sentence model from the user's cache (embeddings.model NAME,
// internal/embed/sentence). For the latter every symbol's text (its split
// name, signature, docblock and path; not its body: the model reads 128
// tokens) and every doc section's text is looked up in the vector cache by
// (model id, sha256 of the text) first, and only the misses are embedded,
// batch by batch, each batch stored in the cache at once: a reindex embeds
// only what changed, and an interrupted build resumes where it stopped.
// With --no-embed, or when the model cannot run (no ONNX Runtime), the
// revision gets the vectors the cache already has: capability vectors is
// then partial (vectors_done < 1) or false, with the reason; the static
// model is not trained at all with --no-embed.

package rev

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/embed/model2vec"
	"github.com/ragraf/ragraf/internal/embed/sentence"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/lexvec"
	"github.com/ragraf/ragraf/internal/store/veccache"
)

// VectorStats is what the vector step of a build did (rev.json "vectors").
type VectorStats struct {
	Model    string `json:"model"`
	Texts    int    `json:"texts"`    // symbols and doc sections to embed
	Cached   int    `json:"cached"`   // found in the vector cache; static model: kept from the parent revision
	Embedded int    `json:"embedded"` // run through the model now (a text several share counts for each)
	Missing  int    `json:"missing"`  // without a vector in this revision
	// The static model (staticmodel.go): Trained when this build trained it,
	// else ReusedFrom names the parent whose word vectors embedded the
	// changed texts; TrainedIn is the revision that trained them and
	// SinceTraining the texts changed since.
	Trained       bool   `json:"trained,omitempty"`
	ReusedFrom    string `json:"reused_from,omitempty"`
	TrainedIn     string `json:"trained_in,omitempty"`
	SinceTraining int    `json:"changed_since_training,omitempty"`
}

// embedBatch is how many texts are embedded between two cache writes and
// progress reports.
const embedBatch = 64

// vectorBuild computes a build's vectors once, whichever store path asks.
type vectorBuild struct {
	opts   Options
	dir    string // the build directory
	rev    string // the revision built
	parent string
	once   sync.Once
	vec    *lexvec.Vectors
	err    error
	cap    Capability // the vectors part: Vectors, VectorModel, VectorsDone, Reason
	stats  *VectorStats
}

func newVectorBuild(opts Options, dir string, info *Info) *vectorBuild {
	return &vectorBuild{opts: opts, dir: dir, rev: info.Rev, parent: info.ParentRev}
}

// vectors returns the revision's vectors (nil: none).
func (b *vectorBuild) vectors(ctx context.Context, nodes []fact.Node, chunks []fact.TextChunk) (*lexvec.Vectors, error) {
	b.once.Do(func() { b.vec, b.err = b.build(ctx, nodes, chunks) })
	return b.vec, b.err
}

// apply copies the vector step's outcome into c (after the stores are
// written).
func (b *vectorBuild) apply(c *Capability, info *Info) {
	if b.stats != nil {
		info.Vectors = b.stats
	}
	if b.cap.VectorModel == "" && b.cap.Reason == "" {
		return
	}
	c.Vectors, c.VectorModel, c.VectorsDone = b.cap.Vectors, b.cap.VectorModel, b.cap.VectorsDone
	c.Reason = vectorlessReason(c.Reason) + b.cap.Reason
	info.Vectors = b.stats
}

// vectorlessReason strips the vectors sentence capability() wrote.
func vectorlessReason(r string) string {
	if i := strings.Index(r, vectorReasonMark); i >= 0 {
		return r[:i]
	}
	return r
}

// embedFunc embeds a batch of texts.
type embedFunc func(ctx context.Context, texts []string) ([][]float32, error)

// embedderOf resolves embeddings.model to the model's id (what the vector
// cache and the revision name) and a loader: "model2vec:DIR" is a model2vec
// static model in DIR (relative to the project root), any other name an ONNX
// sentence model installed in the user's cache (ragraf model pull).
func embedderOf(root string, cfg config.EmbeddingsConfig, ortLib string) (string, func() (embedFunc, error), error) {
	if dir, ok := config.Model2VecDir(root, cfg.Model); ok {
		m, err := model2vec.Load(dir)
		if err != nil {
			return "", nil, err
		}
		return m.ID(), func() (embedFunc, error) {
			return func(_ context.Context, texts []string) ([][]float32, error) { return m.Embed(texts) }, nil
		}, nil
	}
	inst, err := sentence.Resolve(cfg.Model, cfg.Path)
	if err != nil {
		return "", nil, err
	}
	return inst.ID(), func() (embedFunc, error) {
		m, err := sentence.Load(inst, ortLib)
		if err != nil {
			return nil, err
		}
		return m.Embed, nil
	}, nil
}

func (b *vectorBuild) build(ctx context.Context, nodes []fact.Node, chunks []fact.TextChunk) (*lexvec.Vectors, error) {
	cfg := b.opts.Config.Embeddings
	switch {
	case cfg.None():
		return nil, nil
	case cfg.Model == config.StaticModel:
		if b.opts.NoEmbed {
			// training is the embedding step of the static model
			b.cap = Capability{Reason: vectorReasonMark + "embedding skipped (--no-embed): the static model was not trained"}
			return nil, nil
		}
		return b.staticVectors(ctx, nodes, chunks)
	}
	log := b.opts.Logger
	id, load, err := embedderOf(b.opts.Root, cfg, b.opts.ORTLib)
	if err != nil {
		b.cap = Capability{Reason: vectorReasonMark + err.Error()}
		return nil, nil
	}
	items := embedTexts(nodes, chunks)
	st := &VectorStats{Model: id, Texts: len(items)}
	b.stats = st
	keys := make([]veccache.Key, len(items))
	for i := range items {
		keys[i] = veccache.KeyOf(items[i].text)
	}
	vecs := make([][]float32, len(items))
	var cache *veccache.Cache
	if p, err := sentence.CachePath(); err == nil {
		if cache, err = veccache.Open(ctx, p); err != nil {
			log.Warn("vector cache unusable; embedding everything", "err", err.Error())
			cache = nil
		}
	}
	if cache != nil {
		defer cache.Close()
		if vecs, err = cache.Get(ctx, id, keys); err != nil {
			return nil, err
		}
	}
	// the texts without a vector, each once: symbols may share a text
	var miss []int
	same := map[veccache.Key][]int{}
	missing := 0
	for i, v := range vecs {
		if v != nil {
			continue
		}
		missing++
		if len(same[keys[i]]) == 0 {
			miss = append(miss, i)
		}
		same[keys[i]] = append(same[keys[i]], i)
	}
	st.Cached = len(items) - missing
	var why string
	switch {
	case missing == 0:
	case b.opts.NoEmbed:
		why = "embedding skipped (--no-embed)"
	default:
		embedBatchOf, err := load()
		if err != nil {
			why = "the model cannot run: " + err.Error()
			break
		}
		b.opts.EmbedProgress(0, len(miss))
		for start := 0; start < len(miss); start += embedBatch {
			part := miss[start:min(start+embedBatch, len(miss))]
			texts := make([]string, len(part))
			for j, i := range part {
				texts[j] = items[i].text
			}
			out, err := embedBatchOf(ctx, texts)
			if err != nil {
				return nil, err // interrupted (ctx) or broken: what is cached stays
			}
			pk := make([]veccache.Key, len(part))
			for j, i := range part {
				pk[j] = keys[i]
				for _, k := range same[keys[i]] {
					vecs[k] = out[j]
				}
				st.Embedded += len(same[keys[i]])
			}
			if cache != nil {
				if err := cache.Put(ctx, id, pk, out); err != nil {
					return nil, err
				}
			}
			b.opts.EmbedProgress(start+len(part), len(miss))
		}
	}
	v := &lexvec.Vectors{Model: id}
	for i := range items {
		if vecs[i] == nil {
			st.Missing++
			continue
		}
		if v.Dim == 0 {
			v.Dim = len(vecs[i])
		}
		if len(vecs[i]) != v.Dim {
			return nil, fmt.Errorf("vector cache: %s has vectors of %d and %d dimensions", id, v.Dim, len(vecs[i]))
		}
		v.IDs = append(v.IDs, items[i].id)
		v.SymVecs = append(v.SymVecs, vecs[i]...)
	}
	if cfg.Dim > 0 && v.Dim > 0 && v.Dim != cfg.Dim {
		return nil, fmt.Errorf("embeddings.dim is %d, model %s gives %d dimensions", cfg.Dim, cfg.Model, v.Dim)
	}
	log.Info("vectors", "model", id, "texts", st.Texts, "cached", st.Cached, "embedded", st.Embedded, "missing", st.Missing)
	have := len(items) - st.Missing
	switch {
	case len(items) == 0:
		b.cap = Capability{Vectors: true, VectorModel: id, Reason: vectorReasonMark + "from " + id + " (nothing to embed)"}
		return v, nil
	case have == 0:
		b.cap = Capability{VectorModel: id, Reason: vectorReasonMark + "none: " + why}
		return nil, nil
	case st.Missing > 0:
		done := float64(have) / float64(len(items))
		b.cap = Capability{Vectors: true, VectorModel: id, VectorsDone: float64(int(done*1000)) / 1000,
			Reason: vectorReasonMark + "partial, " + strconv.Itoa(have) + " of " + strconv.Itoa(len(items)) + " texts (from the vector cache); " + why + "; ragraf index embeds the rest"}
	default:
		b.cap = Capability{Vectors: true, VectorModel: id, Reason: vectorReasonMark + "from " + id}
	}
	return v, nil
}

// vectorReasonMark starts the vectors part of a capability reason.
const vectorReasonMark = "vectors: "

// embedItem is one text the model reads, under the id search returns.
type embedItem struct {
	id, text string
}

// maxEmbedText bounds the bytes of a text: the model reads 128 tokens.
const maxEmbedText = 1500

// embedTexts lists what is embedded, by id: per symbol (files excepted) its
// split name, signature, docblock and path; per doc section its text.
func embedTexts(nodes []fact.Node, chunks []fact.TextChunk) []embedItem {
	docblocks := map[string][]string{}
	var out []embedItem
	for i := range chunks {
		c := &chunks[i]
		switch {
		case c.Kind == "docblock" && c.NodeID != "":
			docblocks[c.NodeID] = append(docblocks[c.NodeID], c.Text)
		case c.Kind == "doc_section":
			out = append(out, embedItem{id: c.ID, text: cut(collapse(c.Text))})
		}
	}
	for i := range nodes {
		n := &nodes[i]
		if n.Kind == fact.File {
			continue
		}
		parts := []string{splitIdent(n.Name)}
		if n.Signature != "" {
			parts = append(parts, n.Signature)
		}
		db := docblocks[n.ID]
		slices.Sort(db)
		for _, d := range db {
			if t := cleanDocblock(d); t != "" {
				parts = append(parts, t)
			}
		}
		parts = append(parts, n.Path)
		out = append(out, embedItem{id: n.ID, text: cut(strings.Join(parts, ". "))})
	}
	slices.SortFunc(out, func(a, b embedItem) int { return strings.Compare(a.id, b.id) })
	return slices.CompactFunc(out, func(a, b embedItem) bool { return a.id == b.id })
}

// splitIdent turns save_prefs, savePrefs and SavePREFSNow into words.
func splitIdent(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if r == '_' || r == '$' || r == '\\' {
			b.WriteByte(' ')
			continue
		}
		if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

var commentMarks = regexp.MustCompile(`(?m)^\s*(/\*\*?|\*/|\*|//|#)\s?`)

// cleanDocblock drops the comment markers of a docblock.
func cleanDocblock(s string) string {
	s = strings.TrimSuffix(strings.TrimSpace(s), "*/")
	return collapse(commentMarks.ReplaceAllString(s, ""))
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// cut keeps at most maxEmbedText bytes, on a rune boundary.
func cut(s string) string {
	if len(s) <= maxEmbedText {
		return s
	}
	return strings.ToValidUTF8(s[:maxEmbedText], "")
}
