package facade

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/rev"
)

// TestOpenRevisionSurvivesRemoval: once a revision is open, its store files
// stay readable by every call on it, however many run at once, after its
// directory is removed (rotation with retain_revs: 1, or `ragraf drop`):
// the stores' connections are all opened with the revision and kept.
func TestOpenRevisionSurvivesRemoval(t *testing.T) {
	s, _, root := newFixtureService(t, 30, 0)
	ctx := context.Background()
	snap, release, err := s.acquire(ctx)
	must(t, err)
	defer release()
	must(t, os.RemoveAll(rev.Layout{Root: root}.Rev("rev-0001")))
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i%2 == 0 {
				if _, err := snap.graph.AllNodes(ctx, fact.Class, fact.Method); err != nil {
					errs <- err
				}
			} else if _, err := snap.lex.ChunkCount(ctx); err != nil {
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestRevisionIdentityIsMoreThanItsName: a revision removed and built again
// under the same name (`ragraf drop --yes` then `ragraf index`) is a new
// revision to a running Service.
func TestRevisionIdentityIsMoreThanItsName(t *testing.T) {
	s, f, root := newFixtureService(t, 5, 0)
	if env := call(t, s, "symbol", `{"name":"Coupon"}`); !env.NotFound {
		t.Fatal("Coupon found before it exists")
	}
	l := rev.Layout{Root: root}
	must(t, os.RemoveAll(l.Rev("rev-0001")))
	f.node(fact.Class, `App\Coupon`, "Coupon", "src/Coupon.php", 2, 3, "", "class Coupon")
	f.files["src/Coupon.php"] = "<?php\nclass Coupon\n{}\n"
	f.publish(t, root, "rev-0001")
	if _, err := os.Stat(filepath.Join(l.Rev("rev-0001"), rev.GraphDB)); err != nil {
		t.Fatal(err)
	}
	if env := call(t, s, "symbol", `{"name":"Coupon"}`); env.NotFound || env.IndexRev != "rev-0001" {
		t.Errorf("after the revision was built again: not_found %v in %s", env.NotFound, env.IndexRev)
	}
}

// TestCachesGoWithTheirRevision: once a newer revision is current and the
// last call on the old one has finished, the old revision's caches (repo_map's
// rank graph) are freed, not kept for the life of the process.
func TestCachesGoWithTheirRevision(t *testing.T) {
	s, f, root := newFixtureService(t, 50, 0)
	call(t, s, "repo_map", `{"budget_tokens":300}`)
	freed := make(chan struct{})
	s.mu.Lock()
	runtime.AddCleanup(s.cur.cache["rank"].(*cacheEntry[*rankGraph]).v, func(ch chan struct{}) { close(ch) }, freed)
	s.mu.Unlock()
	f.publish(t, root, "rev-0002")
	if env := call(t, s, "repo_map", `{"budget_tokens":300}`); env.IndexRev != "rev-0002" {
		t.Fatalf("answered from %s", env.IndexRev)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		select {
		case <-freed:
			return
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the old revision's rank graph is still reachable 10 s after it stopped being current")
		}
	}
}
