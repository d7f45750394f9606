package facade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

// stepCtx is a context cancelled at its limit-th Done call: sweeping the
// limit cancels a call at every point where it looks at its context, in the
// same order on every run.
type stepCtx struct {
	context.Context
	limit int64
	n     atomic.Int64
	once  sync.Once
	ch    chan struct{}
	fired atomic.Bool
}

func newStepCtx(limit int64) *stepCtx {
	return &stepCtx{Context: context.Background(), limit: limit, ch: make(chan struct{})}
}

func (c *stepCtx) Done() <-chan struct{} {
	if c.n.Add(1) > c.limit {
		c.once.Do(func() { c.fired.Store(true); close(c.ch) })
	}
	return c.ch
}

func (c *stepCtx) Err() error {
	if c.fired.Load() {
		return context.Canceled
	}
	return nil
}

// cancelProject indexes three of the data-flow test sources and a file of documented
// functions, with the static vector model, so that every per-revision cache
// has something to hold: the rank graph (repo_map, context), status counts,
// the vectors (semantic, hybrid, similar), the lowered files and include
// edges (slice, flow), the drift checker (every answer's stale check).
func cancelProject(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, name := range []string{"inter.php", "incl_main.php", "incl_view.php"} {
		b, err := os.ReadFile(filepath.Join("testdata", "dataflow", "src", name))
		must(t, err)
		must(t, os.WriteFile(filepath.Join(root, name), b, 0o644))
	}
	var b strings.Builder
	b.WriteString("<?php\nnamespace Shop;\n\n")
	for i := range 3 {
		fmt.Fprintf(&b, "/**\n * Puts goods into the shopping basket before checkout.\n */\nfunction cartAdd%d($goods) { return cartAdd%d($goods); }\n\n", i, (i+1)%3)
		fmt.Fprintf(&b, "/**\n * Delivers a letter to the recipient inbox through the relay.\n */\nfunction mailSend%d($to) { return $to; }\n\n", i)
	}
	must(t, os.WriteFile(filepath.Join(root, "lib.php"), []byte(b.String()), 0o644))
	cfg := config.Default()
	cfg.Embeddings.Model = config.StaticModel
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: cfg}); err != nil {
		t.Fatal(err)
	}
	return root
}

func stride(limit int64) int64 {
	switch {
	case limit < 32:
		return 1
	case limit < 128:
		return 4
	}
	return 16
}

func serviceOn(t *testing.T, root string) *Service {
	t.Helper()
	s, err := New(root, Options{})
	must(t, err)
	return s
}

// TestReliability_CancelAtEveryStepCachesNothing: each operation that fills
// a per-revision cache (vectors, rank graph, global ranks, status counts,
// lowered files, include edges, drift checker, tokenizer) is cancelled at
// every point where it looks at its context, one point per call, each on a
// new service; after each cancelled call the same call on that service with
// a live context must answer exactly what a service that was never cancelled
// answers. A cancelled
// result kept by any cache fails it (vectors kept a cancellation in a
// sync.Once: semantic search, hybrid search and similar failed for every
// session until a restart).
func TestReliability_CancelAtEveryStepCachesNothing(t *testing.T) {
	root := cancelProject(t)
	calls := []struct{ op, args string }{
		{"search", `{"query":"basket goods","mode":"semantic"}`},
		{"similar", `{"qname":"Shop\\cartAdd1"}`},
		{"repo_map", `{"budget_tokens":400}`},
		{"repo_map", `{"budget_tokens":400,"focus":["inter.php"]}`},
		{"context", `{"qname":"Shop\\cartAdd1","budget_tokens":600}`},
		{"status", `{}`},
		{"outline", `{"path":"inter.php"}`},
		{"slice", `{"path":"inter.php","line":3,"variable":"q"}`},
		{"flow", `{"from":"incl_main.php:2","to":"sink:output"}`},
	}
	for _, c := range calls {
		t.Run(c.op, func(t *testing.T) {
			t.Parallel()
			want := encode(t, call(t, serviceOn(t, root), c.op, c.args).Result)
			cancelled := 0
			// every step up to 32, every 4th up to 128, then every 16th:
			// past the first queries the steps are mostly rows of one
			// query, where one cancel is like the next
			for limit := int64(0); ; limit += stride(limit) {
				if limit > 5000 {
					t.Fatalf("%s %s: still cancelled after 5,000 steps", c.op, c.args)
				}
				// a new service each time: its caches are empty, so the
				// cancelled call is the one that fills them
				s := serviceOn(t, root)
				ctx := newStepCtx(limit)
				_, err := s.Call(ctx, c.op, []byte(c.args))
				if !ctx.fired.Load() {
					s.Close()
					if err != nil {
						t.Fatalf("%s %s: %v", c.op, c.args, err)
					}
					break // the call ran to its end before the limit
				}
				if err != nil {
					cancelled++
					if fe := AsError(err); fe.Code != ErrCancelled {
						t.Errorf("%s %s cancelled at step %d: %v, want %s", c.op, c.args, limit, err, ErrCancelled)
					}
				}
				env, err := s.Call(context.Background(), c.op, []byte(c.args))
				s.Close()
				if err != nil {
					t.Fatalf("%s %s after a call cancelled at step %d: %v", c.op, c.args, limit, err)
				}
				if got := encode(t, env.Result); string(got) != string(want) {
					t.Fatalf("%s %s after a call cancelled at step %d:\n%s\nwant\n%s", c.op, c.args, limit, got, want)
				}
			}
			t.Logf("%s %s: %d cancelled calls", c.op, c.args, cancelled)
			if cancelled == 0 {
				t.Errorf("%s %s: no call was cancelled", c.op, c.args)
			}
		})
	}
}
