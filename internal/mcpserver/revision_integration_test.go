package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
