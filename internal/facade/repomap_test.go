package facade

import (
	"context"
	"testing"
)

// TestRepoMapAfterCancelledCall: a repo_map call cancelled while its rank
// graph is being built leaves nothing behind; the next call (any session)
// gets a map.
func TestRepoMapAfterCancelledCall(t *testing.T) {
	s, _, _ := newFixtureService(t, 50, 0)
	call(t, s, "status", `{}`) // the revision is open
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Call(ctx, "repo_map", []byte(`{"budget_tokens":300}`)); err == nil {
		t.Log("the cancelled call finished anyway")
	}
	for i := 0; i < 2; i++ {
		env, err := s.Call(context.Background(), "repo_map", []byte(`{"budget_tokens":300}`))
		if err != nil {
			t.Fatalf("call %d after a cancelled one: %v", i+1, err)
		}
		if r := env.Result.(RepoMapResult); len(r.Files) == 0 {
			t.Fatalf("call %d: empty map", i+1)
		}
	}
}

// TestRepoMapCachedEqualsComputed: an unfocused map served from the
// revision's cache is the map computed afresh, for every budget asked.
func TestRepoMapCachedEqualsComputed(t *testing.T) {
	s, _, _ := newFixtureService(t, 120, 0)
	for _, budget := range []string{"300", "1000", "300"} {
		first := encode(t, call(t, s, "repo_map", `{"budget_tokens":`+budget+`}`).Result)
		snap, release, err := s.acquire(context.Background())
		must(t, err)
		snap.cacheMu.Lock()
		snap.cache = nil // forget everything: the next call computes
		snap.cacheMu.Unlock()
		release()
		fresh := encode(t, call(t, s, "repo_map", `{"budget_tokens":`+budget+`}`).Result)
		again := encode(t, call(t, s, "repo_map", `{"budget_tokens":`+budget+`}`).Result)
		if string(first) != string(fresh) || string(fresh) != string(again) {
			t.Errorf("budget %s: cached and computed maps differ", budget)
		}
	}
}
