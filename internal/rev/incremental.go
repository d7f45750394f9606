// This file writes a revision's stores incrementally: when the parent
// revision's store files are on disk with the current schema, they are copied
// and changed row by row into what a full write would produce
// (graph.Update, lexvec.Update). Otherwise, or if anything goes wrong, the
// stores are written in full (build.go). Either way the rows are the same;
// only the time differs.

package rev

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// updateStores tries the incremental write of both stores into dir from the
// parent revision. It reports false (and leaves no store file in dir) when
// the caller must write them in full.
func updateStores(ctx context.Context, opts Options, dir, parent string, gc graph.Content, chunks []fact.TextChunk) bool {
	if parent == "" {
		return false
	}
	src := Layout{Root: opts.Root}.Rev(parent)
	start := time.Now()
	var g errgroup.Group
	var gs graph.UpdateStats
	var lw, ld int
	g.Go(func() error {
		dst := filepath.Join(dir, GraphDB)
		if err := copyFile(filepath.Join(src, GraphDB), dst); err != nil {
			return err
		}
		var err error
		gs, err = graph.Update(ctx, dst, gc)
		return err
	})
	g.Go(func() error {
		dst := filepath.Join(dir, LexvecDB)
		if err := copyFile(filepath.Join(src, LexvecDB), dst); err != nil {
			return err
		}
		var err error
		lw, ld, err = lexvec.Update(ctx, dst, chunks, gc.Nodes)
		return err
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
	return out.Close()
}
