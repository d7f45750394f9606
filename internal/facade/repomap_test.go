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
