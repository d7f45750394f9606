package php

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkExtractCorpus extracts every PHP file of the corpus named by
// RAGRAF_BENCH_CORPUS (a directory) with one extractor, as one worker of a
// build does: go test ./internal/lang/php -run XXX -bench ExtractCorpus.
func BenchmarkExtractCorpus(b *testing.B) {
	dir := os.Getenv("RAGRAF_BENCH_CORPUS")
	if dir == "" {
		b.Skip("RAGRAF_BENCH_CORPUS not set")
	}
	var files [][]byte
	var paths []string
	size := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && d.Name() == ".ragraf" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".php") {
			if src, err := os.ReadFile(p); err == nil {
				files, paths = append(files, src), append(paths, p)
				size += len(src)
			}
		}
		return nil
	})
	x, err := New()
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	b.SetBytes(int64(size))
	for b.Loop() {
		for i, src := range files {
			if _, err := x.File(context.Background(), paths[i], src); err != nil {
				b.Fatal(err)
			}
		}
	}
}
