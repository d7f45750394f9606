// This file decides whether a build trains the static model (embeddings.model
// static:project) or reuses its parent revision's. Training reads the whole
// revision (internal/embed), so a reindex after a few edits would pay for all
// of it again; instead, when `reindex --commit` builds on a parent whose model
// was trained under the same settings and few symbol texts changed since that
// training, the parent's word vectors embed the new and changed texts and every
// other symbol keeps its vector: the vectors are a delta to the parent's
// lexvec.sqlite, which the incremental write applies row by row. Each revision with the static model keeps
// model.digest: the settings, the revision that trained the word vectors, how
// many texts changed since, and a digest of every symbol's text.

package rev

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/ragraf/ragraf/internal/codec"
	"github.com/ragraf/ragraf/internal/embed"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// ModelDigestFile is the static model's record in a revision directory.
const ModelDigestFile = "model.digest"

// modelDigestMagic starts model.digest.
const modelDigestMagic = "ragraf static model 2\n"

// reuseShare bounds the texts that may change since the training of a
// reused model, as a share of the texts it was trained on: beyond it the
// next build trains again. Reuse freezes the vocabulary, the weights and
// the co-occurrence statistics: a word first written after the training
// adds nothing to a vector. At 5 % that is at most one text in twenty, and
// on WordPress (13,675 symbols) 683 texts, far beyond an edit of a few files
// (the edit-5-files scenario changes 5), so a day of small reindexes reuses
// while a branch switch or a large refactoring trains again. Changes add up
// across reindexes: a chain of small ones trains again once together they
// reach the bound.
const reuseShare = 0.05

// modelDigest is what model.digest holds.
type modelDigest struct {
	settings string            // embed.Settings of the training
	trained  string            // the revision that trained the word vectors
	trainedN int               // texts it was trained on
	since    int               // texts changed since that training
	texts    map[string]uint64 // this revision's symbol texts (embed.Corpus.Digests)
	missing  []string          // the symbols without a vector, sorted
}

func writeModelDigest(dir string, m *modelDigest) error {
	e := &encoder{Writer: codec.Writer{B: []byte(modelDigestMagic)}}
	e.Str(m.settings)
	e.Str(m.trained)
	e.Uvarint(uint64(m.trainedN))
	e.Uvarint(uint64(m.since))
	appendDigestMap(e, m.texts)
	e.strList(m.missing)
	return os.WriteFile(filepath.Join(dir, ModelDigestFile), e.B, 0o644)
}

// readModelDigest reads a revision's model.digest; nil when it is missing
// or unreadable.
func readModelDigest(dir string) *modelDigest {
	b, err := os.ReadFile(filepath.Join(dir, ModelDigestFile))
	if err != nil || !bytes.HasPrefix(b, []byte(modelDigestMagic)) {
		return nil
	}
	d := newDecoder(b[len(modelDigestMagic):])
	m := &modelDigest{settings: d.Str(), trained: d.Str(), trainedN: int(d.Uvarint()), since: int(d.Uvarint())}
	m.texts = decodeDigestMap(d)
	m.missing = d.strSlice()
	if d.Err() != nil || d.Len() != 0 {
		return nil
	}
	return m
}

// changedTexts counts the symbols added, removed or with another text.
func changedTexts(prev, cur map[string]uint64) int {
	n := 0
	for id, d := range cur {
		if p, ok := prev[id]; !ok || p != d {
			n++
		}
	}
	for id := range prev {
		if _, ok := cur[id]; !ok {
			n++
		}
	}
	return n
}

// staticVectors trains the static model on the build's content, or reuses
// the parent's (see the file comment), records which in b.stats and writes
// model.digest into the build directory.
func (b *vectorBuild) staticVectors(ctx context.Context, nodes []fact.Node, chunks []fact.TextChunk) (*lexvec.Vectors, error) {
	log := b.opts.Logger
	start := time.Now()
	corpus := embed.NewCorpus(nodes, chunks)
	texts := corpus.Digests()
	st := &VectorStats{Model: embed.ModelID, Texts: corpus.Len()}
	rec := &modelDigest{settings: embed.Settings, texts: texts}
	var v *lexvec.Vectors
	if b.opts.ReuseModel && b.parent != "" {
		v = b.reuse(ctx, corpus, texts, st, rec)
	}
	if v == nil {
		v = corpus.Train()
		st.Trained, st.TrainedIn, st.Embedded = true, b.rev, corpus.Len()
		rec.trained, rec.trainedN = b.rev, corpus.Len()
		if v != nil {
			have := make(map[string]bool, len(v.IDs))
			for _, id := range v.IDs {
				have[id] = true
			}
			for id := range texts {
				if !have[id] {
					rec.missing = append(rec.missing, id)
				}
			}
			slices.Sort(rec.missing)
		}
	}
	if v == nil {
		st.Missing = corpus.Len()
	} else {
		st.Missing = len(rec.missing)
		if err := writeModelDigest(b.dir, rec); err != nil {
			return nil, err
		}
	}
	b.stats = st
	b.opts.Hook("trained")
	log.Info("vectors", "model", embed.ModelID, "texts", st.Texts, "trained", st.Trained, "reused_from", st.ReusedFrom,
		"trained_in", st.TrainedIn, "embedded", st.Embedded, "kept", st.Cached, "changed_since_training", st.SinceTraining,
		"ms", time.Since(start).Milliseconds())
	return v, nil
}

// reuse embeds the changed texts with the parent's model: the vectors it
// returns are a delta to the parent's lexvec.sqlite (lexvec.VectorDelta).
// nil when the model must be trained (why is logged).
func (b *vectorBuild) reuse(ctx context.Context, corpus *embed.Corpus, texts map[string]uint64, st *VectorStats, rec *modelDigest) *lexvec.Vectors {
	log := b.opts.Logger
	src := Layout{Root: b.opts.Root}.Rev(b.parent)
	pm := readModelDigest(src)
	switch {
	case pm == nil:
		log.Info("static model: training (the parent revision has no model to reuse)", "parent", b.parent)
		return nil
	case pm.settings != embed.Settings:
		log.Info("static model: training (the parent's was trained under other settings)", "parent", b.parent)
		return nil
	}
	changed := changedTexts(pm.texts, texts)
	since := pm.since + changed
	if limit := int(reuseShare * float64(pm.trainedN)); since > limit {
		log.Info("static model: training (too many texts changed since its training)", "parent", b.parent,
			"trained_in", pm.trained, "changed", since, "limit", limit)
		return nil
	}
	base := filepath.Join(src, LexvecDB)
	s, err := lexvec.Open(ctx, base)
	if err != nil {
		log.Warn("static model: training (the parent's vectors are unreadable)", "parent", b.parent, "err", err.Error())
		return nil
	}
	defer s.Close()
	v, gone, embedded, err := corpus.Reembed(pm.texts, func(words []string) (*lexvec.Vectors, error) {
		m, err := s.WordVectors(ctx, words)
		if err == nil && (m == nil || m.Model != embed.ModelID || m.Dim != embed.Dim) {
			err = errors.New("the parent's vectors are not the static model's")
		}
		return m, err
	})
	if err != nil {
		log.Warn("static model: training (the parent's model cannot be reused)", "parent", b.parent, "err", err.Error())
		return nil
	}
	v.Delta = &lexvec.VectorDelta{Base: base, Delete: gone}
	// the symbols without a vector: the parent's and those that lose theirs
	// now, less those embedded with one
	missing := map[string]bool{}
	for _, ids := range [][]string{pm.missing, gone} {
		for _, id := range ids {
			if _, ok := texts[id]; ok {
				missing[id] = true
			}
		}
	}
	for _, id := range v.IDs {
		delete(missing, id)
	}
	for id := range missing {
		rec.missing = append(rec.missing, id)
	}
	slices.Sort(rec.missing)
	st.ReusedFrom, st.TrainedIn, st.SinceTraining = b.parent, pm.trained, since
	st.Embedded, st.Cached = embedded, corpus.Len()-embedded
	rec.trained, rec.trainedN, rec.since = pm.trained, pm.trainedN, since
	return v
}
