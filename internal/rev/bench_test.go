package rev

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
)

// BenchmarkIndexCorpus indexes the corpus named by RAGRAF_BENCH_CORPUS (a
// directory from ../shared/corpora/get.sh); it is skipped when unset.
func BenchmarkIndexCorpus(b *testing.B) {
	src := os.Getenv("RAGRAF_BENCH_CORPUS")
	if src == "" {
		b.Skip("RAGRAF_BENCH_CORPUS not set")
	}
	for i := 0; i < b.N; i++ {
		os.RemoveAll(filepath.Join(src, Dir))
		if _, err := Build(context.Background(), Options{Root: src, Config: config.Default()}); err != nil {
			b.Fatal(err)
		}
	}
}
