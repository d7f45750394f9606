// This file defines the revisions operation: the revision history from
// control.sqlite and the reindex reports kept in .ragraf/archive.

package facade

import (
	"context"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/control"
)

// RevisionsArgs takes paging only.
type RevisionsArgs struct {
	Page
	Output
}

// Revision is one history row.
type Revision struct {
	control.Rev
	Current bool `json:"current"`
	OnDisk  bool `json:"on_disk"`
}

// RevisionsResult is the history, newest first, and the archive reports.
type RevisionsResult struct {
	Current   string     `json:"current"`
	Revisions []Revision `json:"revisions"`
	Reports   []string   `json:"reports"` // paths relative to the project root
}

// Revisions lists the revision history and the archive reports.
func (s *Service) Revisions(ctx context.Context, args RevisionsArgs) (*Envelope, error) {
	const op = "revisions"
	pg, err := args.page(op, args)
	if err != nil {
		return nil, err
	}
	limit, offset := pg.limit, pg.offset
	c, err := s.begin(ctx, op, pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	ctl, err := s.control(ctx)
	if err != nil {
		return nil, err
	}
	revs, err := ctl.Revs(ctx)
	if err != nil {
		return nil, storeError(err)
	}
	all := make([]Revision, 0, len(revs))
	// a revision whose build died before it switched CURRENT was never a
	// revision anyone could read; it is not history
	were := rev.WereCurrent(revs, snap.name)
	for i := len(revs) - 1; i >= 0; i-- {
		r := revs[i]
		if !were[r.Rev] {
			continue
		}
		_, statErr := os.Stat(s.layout.Rev(r.Rev))
		all = append(all, Revision{Rev: r, Current: r.Rev == snap.name, OnDisk: statErr == nil})
	}
	res := RevisionsResult{Current: snap.name, Revisions: window(all, limit, offset), Reports: []string{}}
	if ents, err := os.ReadDir(s.layout.Archive()); err == nil {
		for _, e := range ents {
			if !e.IsDir() && (strings.HasSuffix(e.Name(), ".md") || strings.HasSuffix(e.Name(), ".json")) {
				res.Reports = append(res.Reports, path.Join(".ragraf", "archive", e.Name()))
			}
		}
		sort.Strings(res.Reports)
	}
	env := c.env
	env.Result = res
	env.Limits = pg.limits(snap, len(res.Revisions), len(all))
	return c.done(env.Result)
}
