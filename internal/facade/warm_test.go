package facade

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestReliability_NewRevisionComputedOnceOffTheRequestPath: the first
// repo_map and context calls on a new revision under 50 concurrent clients
// build its rank graph once, and a server that watches the project
// (Service.Watch, as `ragraf mcp` does) builds the new revision's caches
// right after the publish, before any call asks: under load, the first
// calls on a new revision waited for these one after another (p99 36 s).
func TestReliability_NewRevisionComputedOnceOffTheRequestPath(t *testing.T) {
	s, f, root := newFixtureService(t, 200, 5)
	ctx := context.Background()

	t.Run("50 first calls, one build", func(t *testing.T) {
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				op, args := "repo_map", `{"budget_tokens":500}`
				if i%2 == 1 {
					op, args = "status", `{}`
				}
				if _, err := s.Call(ctx, op, []byte(args)); err != nil {
					t.Error(op, err)
				}
			}()
		}
		wg.Wait()
		if n := s.cur.rankBuilds.Load(); n != 1 {
			t.Errorf("the rank graph was built %d times for one revision", n)
		}
	})

	t.Run("warmed after a publish", func(t *testing.T) {
		wctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { s.Watch(wctx, 10*time.Millisecond); close(done) }()
		defer func() { cancel(); <-done }()
		f.publish(t, root, "rev-0002")
		// no call is made: the watcher alone opens and warms rev-0002
		deadline := time.Now().Add(60 * time.Second)
		for !warmed(s, "rev-0002") {
			if time.Now().After(deadline) {
				t.Fatal("rev-0002's caches not built 60 s after it was published")
			}
			time.Sleep(10 * time.Millisecond)
		}
		if n := s.cur.rankBuilds.Load(); n != 1 {
			t.Errorf("the rank graph was built %d times for rev-0002", n)
		}
		// the calls find them built
		if env := call(t, s, "repo_map", `{}`); env.IndexRev != "rev-0002" {
			t.Errorf("repo_map answered from %s", env.IndexRev)
		}
		call(t, s, "context", `{"qname":"App\\C1::run"}`)
		if n := s.cur.rankBuilds.Load(); n != 1 {
			t.Errorf("the calls built the rank graph again (%d builds)", n)
		}
	})
}

// warmed reports whether the current revision is name and every cache warm
// computes is ready on it.
func warmed(s *Service, name string) bool {
	s.mu.Lock()
	snap := s.cur
	s.mu.Unlock()
	if snap == nil || snap.name != name {
		return false
	}
	snap.cacheMu.Lock()
	defer snap.cacheMu.Unlock()
	for _, k := range warmKeys {
		var done chan struct{}
		switch e := snap.cache[k].(type) {
		case *cacheEntry[*rankGraph]:
			done = e.done
		case *cacheEntry[rankOrder]:
			done = e.done
		case *cacheEntry[StatusResult]:
			done = e.done
		default:
			return false
		}
		select {
		case <-done:
		default:
			return false
		}
	}
	return true
}
