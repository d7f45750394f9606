// This file writes a revision's stores incrementally: when the parent
// revision's store files are on disk with the current schema, they are copied
// and changed row by row into what a full write would produce
// (graph.Update, lexvec.Update). Otherwise, or if anything goes wrong, the
// stores are written in full (build.go). Either way the rows are the same;
// only the time differs.
//
// Every revision also keeps rows.digest, a fingerprint of each store row by
// key, so the next update knows what the parent holds without reading its
// rows back through SQLite. Without it (an older revision) the rows are read.

package rev

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ragraf/ragraf/internal/codec"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// updateStores tries the incremental write of both stores into dir from the
// parent revision. It reports false (and leaves no store file in dir) when
// the caller must write them in full.
func updateStores(ctx context.Context, opts Options, vb *vectorBuild, dir, parent string, gc graph.Content, chunks []fact.TextChunk, next func() *rowDigests) bool {
	if parent == "" {
		return false
	}
	src := Layout{Root: opts.Root}.Rev(parent)
	start := time.Now()
	prev := readDigests(src) // nil when absent: Update reads the rows instead
	var g errgroup.Group
	var gs graph.UpdateStats
	var lw, ld int
	g.Go(func() error {
		dst := filepath.Join(dir, GraphDB)
		if err := copyFile(filepath.Join(src, GraphDB), dst); err != nil {
			return err
		}
		var err error
		var gp *graph.Digests
		if prev != nil {
			gp = prev.Graph
		}
		if gs, err = graph.Update(ctx, dst, gc, gp, next().Graph); err != nil {
			return err
		}
		return syncFile(dst)
	})
	g.Go(func() error {
		dst := filepath.Join(dir, LexvecDB)
		if err := copyFile(filepath.Join(src, LexvecDB), dst); err != nil {
			return err
		}
		var lp *lexvec.Digests
		if prev != nil {
			lp = prev.Lex
		}
		vec, err := vb.vectors(ctx, gc.Nodes, chunks)
		if err != nil {
			return err
		}
		if lw, ld, err = lexvec.Update(ctx, dst, chunks, gc.Nodes, vec, lp, next().Lex); err != nil {
			return err
		}
		return syncFile(dst)
	})
	if err := g.Wait(); err != nil {
		os.Remove(filepath.Join(dir, GraphDB))
		os.Remove(filepath.Join(dir, LexvecDB))
		if !errors.Is(err, os.ErrNotExist) && ctx.Err() == nil {
			opts.Logger.Warn("incremental store write failed; writing in full", "parent", parent, "err", err.Error())
		}
		return false
	}
	opts.Logger.Info("stores updated from parent", "parent", parent,
		"graph_written", gs.Written, "graph_deleted", gs.Deleted, "lexvec_written", lw, "lexvec_deleted", ld,
		"ms", time.Since(start).Milliseconds())
	return true
}

// DigestFile is the name of the row fingerprints in a revision directory.
const DigestFile = "rows.digest"

// rowDigests is what rows.digest holds.
type rowDigests struct {
	Graph *graph.Digests
	Lex   *lexvec.Digests
}

// contentDigests fingerprints the rows of both stores for content, the two
// at the same time.
func contentDigests(gc graph.Content, chunks []fact.TextChunk) *rowDigests {
	var d rowDigests
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); d.Lex = lexvec.ContentDigests(chunks, gc.Nodes) }()
	d.Graph = graph.ContentDigests(gc)
	wg.Wait()
	return &d
}

// digestMagic starts rows.digest, followed by seven key -> digest maps (codec.go).
const digestMagic = "ragraf row digests 2\n"

// writeDigests writes rows.digest into a revision directory.
func writeDigests(dir string, d *rowDigests) error {
	e := &encoder{Writer: codec.Writer{B: []byte(digestMagic)}}
	for _, m := range []map[string]uint64{d.Graph.Files, d.Graph.Nodes, d.Graph.Edges, d.Graph.Unresolved, d.Graph.Summaries, d.Lex.Chunks, d.Lex.Symbols} {
		appendDigestMap(e, m)
	}
	return os.WriteFile(filepath.Join(dir, DigestFile), e.B, 0o644)
}

// readDigests reads a revision's rows.digest; nil when it is missing or unreadable.
func readDigests(dir string) *rowDigests {
	b, err := os.ReadFile(filepath.Join(dir, DigestFile))
	if err != nil || !bytes.HasPrefix(b, []byte(digestMagic)) {
		return nil
	}
	dec := newDecoder(b[len(digestMagic):])
	g, l := &graph.Digests{}, &lexvec.Digests{}
	for _, m := range []*map[string]uint64{&g.Files, &g.Nodes, &g.Edges, &g.Unresolved, &g.Summaries, &l.Chunks, &l.Symbols} {
		*m = decodeDigestMap(dec)
	}
	if dec.Err() != nil || dec.Len() != 0 {
		return nil
	}
	return &rowDigests{Graph: g, Lex: l}
}

// copyFile copies a published store file; published files are never written
// again, so a plain copy is consistent.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copying %s: %w", src, err)
	}
	startWriteback(out)
	return out.Close()
}

// syncFile fsyncs a finished store file, so that the sync of the whole
// directory before publishing has little left to do.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
