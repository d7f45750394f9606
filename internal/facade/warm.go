// This file keeps a long-running server's per-revision caches off the
// request path. While Watch runs, a newly published revision is not served
// at once: it is opened and warmed (repo_map's rank graph and global rank,
// the unfocused map, status's counts, the co-change history, the vectors of
// semantic search and `similar`, the drift checker, and one call of the
// operations that read them) while the previous revision goes on answering;
// then new calls switch to it at once. Every answer names its revision
// (index_rev) and is stale-checked against it, so an answer from the
// previous revision is consistent and marked where the tree moved on. The
// warm-up goes through the same single-flight caches as the calls
// (revcache.go): a build that fails or is cancelled keeps nothing.

package facade

import (
	"context"
	"encoding/json"
	"time"
)

// Watch follows the project's published revision until ctx is done: every
// interval it reads CURRENT (and stats the revision's graph), and once a new
// revision is there it warms it, and only then serves it. The first revision
// it finds is served at once (there is no other) and warmed. It returns when
// ctx is done.
func (s *Service) Watch(ctx context.Context, every time.Duration) {
	s.warmFirst.Store(true)
	defer s.warmFirst.Store(false)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		snap, release, err := s.acquire(ctx) // starts the warm-up of a new revision
		if err == nil {
			if !snap.warmed.Load() {
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

// warmThenServe warms snap, a newly published revision, and then makes it
// the one new calls use, unless the service was closed meanwhile. It holds
// one reference on snap, which it releases.
func (s *Service) warmThenServe(snap *snapshot) {
	defer snap.refs.Done()
	if warmHook != nil {
		warmHook(snap)
	}
	s.warm(s.warmCtx, snap)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next != snap {
		return // closed
	}
	s.next = nil
	s.serve(snap)
}

// warmHook, when set (by tests), runs before a new revision's warm-up.
var warmHook func(*snapshot)

// warmKeys are the per-revision caches warm computes, for tests.
var warmKeys = []string{"rank", "rank/unfocused", "status/20", "cochange"}

// Warming says which revision answers and whether its caches are built.
type Warming struct {
	// Warm is true once the answering revision's caches are built.
	Warm bool `json:"warm"`
	// Next is a newer revision being warmed; it answers once warm ("" when none).
	Next string `json:"next,omitempty"`
}

// warming describes snap, the answering revision, for status.
func (s *Service) warming(snap *snapshot) Warming {
	w := Warming{Warm: snap.warmed.Load()}
	s.mu.Lock()
	if s.next != nil && s.next != snap {
		w.Next = s.next.name
	}
	s.mu.Unlock()
	return w
}

// warm computes snap's per-revision caches by running calls on it. Errors
// are dropped: a cache that failed is not kept, and the call that needs it
// computes it again. snap counts as warm once every step ran uncancelled.
func (s *Service) warm(ctx context.Context, snap *snapshot) {
	ctx = context.WithValue(ctx, pinKey{}, snap) // every call below answers from snap
	if g, err := s.rankGraph(ctx, snap); err == nil {
		g.globalRank() // context's ranking
	}
	_ = s.checker(snap)
	var target string
	if ctx.Err() == nil {
		// the unfocused order and the default map; its best definition
		// is the target of the calls below
		if env, err := s.RepoMap(ctx, RepoMapArgs{}); err == nil {
			if m, ok := env.Result.(RepoMapResult); ok {
				for _, f := range m.Files {
					if len(f.Symbols) > 0 && target == "" {
						target = f.Symbols[0].ID
					}
				}
			}
		}
	}
	if ctx.Err() == nil {
		_, _ = s.Status(ctx, StatusArgs{})
	}
	if ctx.Err() == nil {
		_, _ = s.history(ctx, snap)
	}
	if ctx.Err() == nil {
		_, _ = snap.lex.Vectors(ctx)
	}
	if target != "" {
		id, _ := json.Marshal(map[string]string{"id": target})
		for _, op := range []string{"context", "search"} { // the others read no cache of their own
			if ctx.Err() != nil {
				break
			}
			args := id
			if op == "search" {
				args = []byte(`{"query":"get"}`)
			}
			_, _ = s.Call(ctx, op, args)
		}
	}
	if ctx.Err() == nil {
		snap.warmed.Store(true)
	}
}
