// This file caches what depends on a revision alone (repo_map's rank graph,
// status's counts) on the open revision, so it is computed once per revision
// and freed with it: when a newer revision is current and the old one's last
// call has finished, nothing refers to the old cache any more.

package facade

import (
	"context"
	"strings"
)

// cacheEntry is one cached value, ready when done is closed.
type cacheEntry[T any] struct {
	done chan struct{}
	v    T
	err  error
}

// cached returns the value of key on snap, computing it with build on first
// use. Concurrent callers wait for one computation. It runs detached from the
// first caller's context and holds a reference on the revision, so a call
// cancelled meanwhile neither stops it for the others nor leaves a cancelled
// result behind; an error is not kept, and the next call computes again.
func cached[T any](ctx context.Context, snap *snapshot, key string, build func(context.Context) (T, error)) (T, error) {
	snap.cacheMu.Lock()
	e, ok := snap.cache[key].(*cacheEntry[T])
	if !ok {
		e = &cacheEntry[T]{done: make(chan struct{})}
		if snap.cache == nil {
			snap.cache = map[string]any{}
		}
		snap.cache[key] = e
		snap.refs.Add(1) // the caller holds one: the revision stays open for the build
		go func() {
			defer snap.refs.Done()
			v, err := build(context.WithoutCancel(ctx))
			snap.cacheMu.Lock()
			e.v, e.err = v, err
			if err != nil && snap.cache[key] == e {
				delete(snap.cache, key)
			}
			snap.cacheMu.Unlock()
			close(e.done)
		}()
	}
	snap.cacheMu.Unlock()
	select {
	case <-e.done:
		return e.v, e.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// cacheCount counts the cached keys of snap that start with prefix.
func (snap *snapshot) cacheCount(prefix string) int {
	snap.cacheMu.Lock()
	defer snap.cacheMu.Unlock()
	n := 0
	for k := range snap.cache {
		if strings.HasPrefix(k, prefix) {
			n++
		}
	}
	return n
}

// isCached reports whether key is cached (or being computed) on snap.
func (snap *snapshot) isCached(key string) bool {
	snap.cacheMu.Lock()
	defer snap.cacheMu.Unlock()
	_, ok := snap.cache[key]
	return ok
}
