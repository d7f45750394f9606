package facade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

// benchOps are the measured requests; %d takes a varying class number.
var benchOps = []struct{ op, args string }{
	{"symbol", `{"name":"C%d"}`},
	{"references", `{"qname":"App\\C%d::run"}`},
	{"callers", `{"qname":"App\\C%d::run","depth":3}`},
	{"impact", `{"qname":"App\\C%d::run","depth":3}`},
	{"search", `{"query":"helper zone %d"}`},
	{"repo_map", `{"budget_tokens":2000}`},
}

// BenchmarkGenerated runs each operation on a generated graph of 5,000
// classes (15,000 definitions, 30,000 edges).
func BenchmarkGenerated(b *testing.B) {
	s, _, _ := newFixtureService(b, 5000, 10000)
	ctx := context.Background()
	for _, o := range benchOps {
		b.Run(o.op, func(b *testing.B) {
			percentiles(b, func(i int) {
				args := o.args
				if o.op != "repo_map" {
					args = fmt.Sprintf(o.args, i%5000)
				}
				if _, err := s.Call(ctx, o.op, []byte(args)); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkPhpMyAdmin and BenchmarkWordPress run each operation on varied
// real names of a corpus from ../shared/corpora/get.sh, indexed once.
func BenchmarkPhpMyAdmin(b *testing.B) { benchCorpus(b, "phpmyadmin") }

func BenchmarkWordPress(b *testing.B) { benchCorpus(b, "wordpress") }

func benchCorpus(b *testing.B, corpus string) {
	home, _ := os.UserHomeDir()
	root := filepath.Join(home, ".cache", "ragraf-corpora", corpus)
	if _, err := os.Stat(root); err != nil {
		b.Skip("no " + corpus + " corpus")
	}
	ctx := context.Background()
	if _, err := os.Stat(rev.Layout{Root: root}.Current()); err != nil {
		if _, err := rev.Build(ctx, rev.Options{Root: root, Config: config.Default()}); err != nil {
			b.Fatal(err)
		}
	}
	s, err := New(root, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	reqs, err := CorpusRequests(ctx, s)
	if err != nil {
		b.Skip(err)
	}
	for _, op := range BenchOps {
		b.Run(op, func(b *testing.B) {
			percentiles(b, func(i int) {
				if _, err := s.Call(ctx, op, []byte(reqs[op][i%len(reqs[op])])); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// percentiles runs call once per iteration and reports the p50 and p95 of
// the calls' times beside the mean (NFR-4 budgets are p95).
func percentiles(b *testing.B, call func(i int)) { Percentiles(b, call) }
