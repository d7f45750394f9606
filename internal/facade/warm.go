// This file keeps a long-running server's per-revision caches off the
// request path: Watch notices a newly published revision within a second,
// opens it and computes what depends on the revision alone (repo_map's rank
// graph and global rank, the unfocused map, status's counts, the vectors of
// semantic search and `similar`) before the calls on it need them. The
// computations go through the same single-flight caches as the calls
// (revcache.go), so a call that arrives first shares them, and a warm-up
// that fails or is cancelled keeps nothing.

package facade

import (
	"context"
	"time"
)

// Watch follows the project's published revision until ctx is done: every
// interval it reads CURRENT (and stats the revision's graph), and once a new
// revision is there it opens it and warms its caches (warm). It returns when
// ctx is done.
func (s *Service) Watch(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	var last *snapshot
	for {
		snap, release, err := s.acquire(ctx)
		if err == nil {
			if snap != last {
				last = snap
				s.warm(ctx, snap)
			}
			release()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// warmKeys are the per-revision caches warm computes, for tests.
var warmKeys = []string{"rank", "rank/unfocused", "status/20"}

// warm computes snap's per-revision caches. Errors are dropped: a cache
// that failed is not kept, and the call that needs it computes it again.
func (s *Service) warm(ctx context.Context, snap *snapshot) {
	if g, err := s.rankGraph(ctx, snap); err == nil {
		g.globalRank() // context's ranking
	}
	if ctx.Err() == nil {
		_, _ = s.RepoMap(ctx, RepoMapArgs{}) // the unfocused order and the default map
	}
	if ctx.Err() == nil {
		_, _ = s.Status(ctx, StatusArgs{})
	}
	if ctx.Err() == nil {
		_, _ = snap.lex.Vectors(ctx)
	}
}
