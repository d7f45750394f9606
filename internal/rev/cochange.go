// This file mines the co-change history into a revision (package cochange):
// read while the revision is built, extending the parent revision's.

package rev

import (
	"context"
	"time"

	"github.com/ragraf/ragraf/internal/cochange"
)

// mineHistory writes the co-change history of opts.Root into dir, reusing
// the parent revision's commits. A history git cannot read is written with
// its reason; only failing to write the file is an error.
func mineHistory(ctx context.Context, opts Options, dir string, info *Info) error {
	start := time.Now()
	var prev *cochange.History
	if info.ParentRev != "" {
		p, err := cochange.Load(Layout{Root: opts.Root}.Rev(info.ParentRev))
		if err != nil {
			opts.Logger.Warn("reading the parent's co-change history", "err", err.Error())
		}
		prev = p
	}
	h := cochange.Mine(ctx, opts.Root, prev, cochange.Options{Commits: opts.Config.CoChange.Commits, MaxFiles: opts.Config.CoChange.MaxFiles})
	opts.Logger.Info("history mined", "commits", len(h.Commits), "mined", h.Mined, "reused", h.Reused, "bulk", h.Bulk,
		"reason", h.Reason, "ms", time.Since(start).Milliseconds())
	return cochange.Write(dir, h)
}
