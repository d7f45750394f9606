package facade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkChangeTaskCorpus times context (budget 2000) on ~200 varied
// definitions and changes after an edit of five files, on an indexed copy of
// a corpus named by RAGRAF_BENCH_ROOT (a git repository whose HEAD is the
// indexed tree; the edits are undone at the end). It also reports the
// tokens of the context answers.
func BenchmarkChangeTaskCorpus(b *testing.B) {
	root := os.Getenv("RAGRAF_BENCH_ROOT")
	if root == "" {
		b.Skip("RAGRAF_BENCH_ROOT names no indexed corpus copy")
	}
	ctx := context.Background()
	s, err := New(root, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	reqs, err := CorpusRequests(ctx, s)
	if err != nil {
		b.Skip(err)
	}
	ids := reqs["references"] // {"id":"…"}
	b.Run("context", func(b *testing.B) {
		var tokens []int
		defer cpuPerOp(b)()
		percentiles(b, func(i int) {
			args := strings.TrimSuffix(ids[i%len(ids)], "}") + `,"budget_tokens":2000}`
			env, err := s.Call(ctx, "context", []byte(args))
			if err != nil {
				b.Fatal(err)
			}
			tokens = append(tokens, env.Result.(ContextResult).Tokens)
		})
		sort.Ints(tokens)
		if len(tokens) > 0 {
			b.ReportMetric(float64(tokens[len(tokens)/2]), "tokens-p50")
			b.ReportMetric(float64(tokens[len(tokens)*95/100]), "tokens-p95")
		}
	})
	// five edited files
	env, err := s.Call(ctx, "symbol", []byte(`{"name":"get","limit":50}`))
	if err != nil {
		b.Fatal(err)
	}
	seen := map[string][]byte{}
	for _, sym := range env.Result.(SymbolResult).Symbols {
		if len(seen) == 5 {
			break
		}
		if _, ok := seen[sym.Path]; ok {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(sym.Path))
		old, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		seen[sym.Path] = old
		lines := strings.SplitAfter(string(old), "\n")
		lines[sym.Line] = lines[sym.Line] + "\t\t$edited = 1;\n"
		if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	defer func() {
		for p, old := range seen {
			_ = os.WriteFile(filepath.Join(root, filepath.FromSlash(p)), old, 0o644)
		}
	}()
	for _, args := range []string{`{}`, `{"base":"HEAD"}`} {
		b.Run("changes"+args, func(b *testing.B) {
			n := 0
			defer cpuPerOp(b)()
			percentiles(b, func(int) {
				t0 := time.Now()
				env, err := s.Call(ctx, "changes", []byte(args))
				if err != nil {
					b.Fatal(err)
				}
				if n == 0 {
					r := env.Result.(ChangesResult)
					fmt.Fprintf(os.Stderr, "changes %s: %d files, %d symbols, %d entry points, %d tables, %d tests in %v\n",
						args, r.FilesTotal, r.SymbolsTotal, r.EntryPointsTotal, r.TablesTotal, r.TestsTotal, time.Since(t0))
				}
				n++
			})
		})
	}
}

// cpuPerOp reports the process's CPU time per iteration (user and system):
// on a loaded machine wall times measure the other processes too.
func cpuPerOp(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() {
		b.ReportMetric(float64((cpu()-start).Microseconds())/1000/float64(max(b.N, 1)), "cpu-ms/op")
	}
}
