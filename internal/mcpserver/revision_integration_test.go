package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/facade"
)

func callEnv(t *testing.T, ctx context.Context, cs *mcp.ClientSession, op string, args any) (*facade.Envelope, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_" + op, Arguments: args})
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, fmt.Errorf("%s: %s", op, text(t, res))
	}
	var env facade.Envelope
	if err := json.Unmarshal([]byte(text(t, res)), &env); err != nil {
		return nil, err
	}
	return &env, nil
}

// TestMCPServerFollowsARevisionBuiltAgain: `ragraf drop --yes` and `ragraf
// index` publish a new rev-0001; a running server answers from it, not from
// the removed revision of the same name.
func TestMCPServerFollowsARevisionBuiltAgain(t *testing.T) {
	root := newProject(t)
	ctx := context.Background()
	cs := connect(t, ctx, root)
	env, err := callEnv(t, ctx, cs, "symbol", map[string]any{"name": "Coupon"})
	if err != nil || !env.NotFound {
		t.Fatalf("before: %v %+v", err, env)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "Coupon.php"), []byte("<?php\nnamespace App;\nclass Coupon {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := run(t, root, "drop", "--yes"); code != 0 {
		t.Fatalf("drop: %s", out)
	}
	if out, code := run(t, root, "index"); code != 0 {
		t.Fatalf("index: %s", out)
	}
	waitServing(t, ctx, cs, "rev-0001") // the new rev-0001, once warm
	env, err = callEnv(t, ctx, cs, "symbol", map[string]any{"name": "Coupon"})
	if err != nil || env.NotFound || env.IndexRev != "rev-0001" {
		t.Fatalf("after drop and index: %v %+v", err, env)
	}
}

// TestNFR5_RotationUnderLoad: with retain_revs: 1 every publication removes
// the previous revision while calls are reading it; none of them fails.
func TestNFR5_RotationUnderLoad(t *testing.T) {
	root := newProject(t)
	if err := os.WriteFile(filepath.Join(root, ".ragraf", "project.yaml"), []byte("retain_revs: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cs := connect(t, ctx, root)
	var stop atomic.Bool
	var calls, failed atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	ops := []struct {
		op   string
		args any
	}{
		{"repo_map", map[string]any{"budget_tokens": 300}},
		{"symbol", map[string]any{"name": "Cart"}},
		{"references", map[string]any{"qname": `App\Cart`}},
		{"search", map[string]any{"query": "cart item"}},
		{"outline", map[string]any{"path": "src/Cart.php"}},
	}
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; !stop.Load(); i++ {
				o := ops[i%len(ops)]
				calls.Add(1)
				if _, err := callEnv(t, ctx, cs, o.op, o.args); err != nil {
					failed.Add(1)
					select {
					case errs <- err:
					default:
					}
				}
			}
		}(w)
	}
	for i := 0; i < 6; i++ {
		if err := os.WriteFile(filepath.Join(root, "src", fmt.Sprintf("Extra%d.php", i)), []byte(fmt.Sprintf("<?php\nnamespace App;\nclass Extra%d {}\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, code := run(t, root, "index"); code != 0 {
			t.Fatalf("index: %s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if failed.Load() > 0 || calls.Load() < 50 {
		t.Errorf("%d of %d calls failed", failed.Load(), calls.Load())
	}
	revs, _ := os.ReadDir(filepath.Join(root, ".ragraf", "revs"))
	if len(revs) != 1 {
		t.Errorf("%d revisions on disk with retain_revs: 1", len(revs))
	}
}

// serving reads the serving state from a status answer.
func serving(t *testing.T, env *facade.Envelope) (rev string, warm bool, next string) {
	t.Helper()
	res, _ := env.Result.(map[string]any)
	sv, _ := res["serving"].(map[string]any)
	rev, _ = res["rev"].(string)
	warm, _ = sv["warm"].(bool)
	next, _ = sv["next"].(string)
	return rev, warm, next
}

// waitServing waits until the server answers from a warm revision named
// want with no newer one warming: `ragraf mcp` serves a newly published
// revision once its caches are built, the previous one answering meanwhile.
func waitServing(t *testing.T, ctx context.Context, cs *mcp.ClientSession, want string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute) // liveness only
	for {
		env, err := callEnv(t, ctx, cs, "status", map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		if rev, warm, next := serving(t, env); env.IndexRev == want && rev == want && warm && next == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server does not serve a warm %s", want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestReliability_PublishUnderLoadAnswersFromWarmRevisions: clients call
// while `ragraf index` publishes a new revision. The server goes on
// answering from the previous revision until the new one is warm, then
// switches: no answer mixes the two (each answer's content is its
// index_rev's, a class added in the tree is found exactly from the new
// revision, the changed file is marked stale exactly in the old one), no
// client sees the old revision after the new one, and every status answer
// from the new revision says its caches were built before it answered.
func TestReliability_PublishUnderLoadAnswersFromWarmRevisions(t *testing.T) {
	root := newProject(t)
	ctx := context.Background()
	cs := connect(t, ctx, root)
	waitServing(t, ctx, cs, "rev-0001")
	// the tree moves on before the clients start: rev-0001 is stale for Cart.php
	if err := os.WriteFile(filepath.Join(root, "src", "Coupon.php"), []byte("<?php\nnamespace App;\nclass Coupon { public function apply(Cart $c): void { $c->count(); } }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cart := filepath.Join(root, "src", "Cart.php")
	b, err := os.ReadFile(cart)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cart, append(b, "// changed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	ops := []struct {
		op   string
		args map[string]any
	}{
		{"symbol", map[string]any{"name": "Coupon"}},
		{"outline", map[string]any{"path": "src/Cart.php"}},
		{"status", map[string]any{}},
		{"repo_map", map[string]any{"budget_tokens": 400}},
		{"context", map[string]any{"qname": `App\Cart::count`}},
	}
	var published atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	report := func(format string, args ...any) {
		select {
		case errs <- fmt.Errorf(format, args...):
		default:
		}
	}
	deadline := time.Now().Add(3 * time.Minute) // liveness only
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			onNew := 0 // answers from rev-0002 seen by this client
			for i := w; onNew < 2*len(ops) && time.Now().Before(deadline); i++ {
				o := ops[i%len(ops)]
				env, err := callEnv(t, ctx, cs, o.op, o.args)
				if err != nil {
					report("client %d %s: %v", w, o.op, err)
					return
				}
				switch env.IndexRev {
				case "rev-0001":
					if onNew > 0 {
						report("client %d: %s answered from rev-0001 after rev-0002 had answered", w, o.op)
					}
				case "rev-0002":
					if !published.Load() {
						report("client %d: rev-0002 answered before it was published", w)
					}
					onNew++
				default:
					report("client %d: %s from %q", w, o.op, env.IndexRev)
				}
				old := env.IndexRev == "rev-0001"
				switch o.op {
				case "symbol":
					if env.NotFound != old {
						report("%s: Coupon not_found=%v", env.IndexRev, env.NotFound)
					}
				case "outline":
					if (len(env.StaleWarnings) > 0) != old {
						report("%s: outline of the changed src/Cart.php with stale warnings %v", env.IndexRev, env.StaleWarnings)
					}
				case "status":
					rev, warm, next := serving(t, env)
					if rev != env.IndexRev {
						report("status of %s in an answer from %s", rev, env.IndexRev)
					}
					if !old && (!warm || next != "") {
						report("status from rev-0002 before its warm-up completed: warm=%v next=%q", warm, next)
					}
				case "repo_map":
					text, _ := env.Result.(map[string]any)["text"].(string)
					if strings.Contains(text, "Coupon") == old {
						report("%s: repo_map mentions Coupon: %v", env.IndexRev, !old)
					}
				}
			}
			if onNew == 0 {
				report("client %d never saw rev-0002", w)
			}
		}(w)
	}
	published.Store(true) // before the index: an answer from rev-0002 cannot precede it
	if out, code := run(t, root, "index"); code != 0 {
		t.Fatalf("index: %s", out)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
