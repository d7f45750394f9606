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

// warmed reports whether the current revision is name, its warm-up has
// completed and every cache warm computes is there.
func warmed(s *Service, name string) bool {
	s.mu.Lock()
	snap := s.cur
	s.mu.Unlock()
	if snap == nil || snap.name != name || !snap.warmed.Load() {
		return false
	}
	for _, k := range warmKeys {
		if !snap.isCached(k) {
			return false
		}
	}
	return true
}

// TestReliability_NewRevisionServedOnceWarm: while Watch runs, a newly
// published revision does not answer until its warm-up has completed; the
// previous revision answers meanwhile, under its own name, with stale marks
// for what the tree changed since; then every call switches to the new one,
// whose caches are there (no call builds its rank graph).
func TestReliability_NewRevisionServedOnceWarm(t *testing.T) {
	s, f, root := newFixtureService(t, 50, 3)
	ctx := context.Background()
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { s.Watch(wctx, 10*time.Millisecond); close(done) }()
	defer func() { cancel(); <-done }()
	for !warmed(s, "rev-0001") {
		time.Sleep(10 * time.Millisecond)
	}

	hold, started := make(chan struct{}), make(chan string, 1)
	warmHook = func(snap *snapshot) { started <- snap.name; <-hold }
	defer func() { warmHook = nil }()
	f.files["src/C1.php"] += "// changed\n"
	f.publish(t, root, "rev-0002")
	if name := <-started; name != "rev-0002" {
		t.Fatalf("warming %s", name)
	}
	// the warm-up is held: rev-0001 answers, says rev-0002 is warming,
	// and marks the file the tree changed since it was built
	env := call(t, s, "status", `{}`)
	st := env.Result.(StatusResult)
	if env.IndexRev != "rev-0001" || st.Rev != "rev-0001" || !st.Serving.Warm || st.Serving.Next != "rev-0002" {
		t.Fatalf("while rev-0002 warms: %s %+v", env.IndexRev, st.Serving)
	}
	env = call(t, s, "outline", `{"path":"src/C1.php"}`)
	if env.IndexRev != "rev-0001" || len(env.StaleWarnings) == 0 {
		t.Errorf("outline from %s, stale warnings %v", env.IndexRev, env.StaleWarnings)
	}
	close(hold)
	for !warmed(s, "rev-0002") {
		time.Sleep(10 * time.Millisecond)
	}
	env = call(t, s, "status", `{}`)
	st = env.Result.(StatusResult)
	if env.IndexRev != "rev-0002" || !st.Serving.Warm || st.Serving.Next != "" {
		t.Errorf("after the warm-up: %s %+v", env.IndexRev, st.Serving)
	}
	env = call(t, s, "outline", `{"path":"src/C1.php"}`)
	if env.IndexRev != "rev-0002" || len(env.StaleWarnings) != 0 {
		t.Errorf("outline from %s, stale warnings %v", env.IndexRev, env.StaleWarnings)
	}
	call(t, s, "repo_map", `{"budget_tokens":700}`)
	call(t, s, "context", `{"qname":"App\\C2::run"}`)
	if n := s.cur.rankBuilds.Load(); n != 1 {
		t.Errorf("rank graph built %d times on rev-0002", n)
	}
}
