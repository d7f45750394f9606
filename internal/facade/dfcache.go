// This file caches the data-flow IR of a revision: the files slice and flow
// lower (flow.go, dfEnv.file), kept on the open revision and shared by every
// call of the process, so a file is parsed and lowered once per revision
// instead of once per query. The cache is bounded by dataflow.max_memory_mb
// (estimated sizes, least recently used file dropped first) and freed with the
// revision. The PHP parsers that lower are pooled the same way.

package facade

import (
	"container/list"
	"errors"
	"io/fs"
	"sync"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/dataflow"
	"github.com/ragraf/ragraf/internal/lang/php"
)

// dfFile is one lowered file: its functions, named by graph node (their ids
// set, Prepare'd so concurrent queries only read them), and the names of the
// graph nodes they stand for.
type dfFile struct {
	path  string
	funcs []*dataflow.Func // nil: the revision has no PHP snapshot of path, or it does not parse
	names map[string]string
	// sums are the build's summaries of the file's functions by id, nil
	// when it stored none or made them under other models
	sums map[string]*dataflow.Summary
	size int64
}

// dfCache is the LRU of lowered files of one revision.
type dfCache struct {
	mu    sync.Mutex
	max   int64 // bytes
	size  int64
	lru   *list.List // of *dfFile, most recently used first
	files map[string]*list.Element
	cfg   config.DataFlowConfig
	// cfgErr: project.yaml exists but does not load; slice and flow refuse
	// with it rather than answer under settings or models the user did not write
	cfgErr error
	// include edges by path, both ways (dfEnv.includes); small, never evicted
	incMu    sync.Mutex
	includes map[string][]dataflow.Include
}

// dataflowConfig reads the data-flow settings of the project's config (the
// defaults when there is none); err says why it does not load.
func (s *Service) dataflowConfig() (config.DataFlowConfig, error) {
	cfg, err := config.Load(s.cfgPath)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return config.Default().DataFlow, err
		}
		cfg = config.Default()
	}
	return cfg.DataFlow, nil
}

// dfCacheOf returns the cache of snap, made on first use with the project's
// dataflow settings.
func (s *Service) dfCacheOf(snap *snapshot) *dfCache {
	snap.cacheMu.Lock()
	defer snap.cacheMu.Unlock()
	if snap.df == nil {
		cfg, err := s.dataflowConfig()
		snap.df = newDFCache(cfg)
		snap.df.cfgErr = err
	}
	return snap.df
}

func newDFCache(cfg config.DataFlowConfig) *dfCache {
	return &dfCache{max: int64(cfg.MaxMemoryMB) << 20, lru: list.New(), files: map[string]*list.Element{}, cfg: cfg, includes: map[string][]dataflow.Include{}}
}

func (c *dfCache) get(path string) (*dfFile, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.files[path]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(e)
	return e.Value.(*dfFile), true
}

// put keeps f (or the copy another call put first, which it returns) and
// drops the least recently used files while the cache is over its bound; a
// file larger than the whole bound is not kept.
func (c *dfCache) put(f *dfFile) *dfFile {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.files[f.path]; ok {
		c.lru.MoveToFront(e)
		return e.Value.(*dfFile)
	}
	if f.size > c.max {
		return f
	}
	c.files[f.path] = c.lru.PushFront(f)
	c.size += f.size
	for c.size > c.max {
		e := c.lru.Back()
		old := e.Value.(*dfFile)
		c.lru.Remove(e)
		delete(c.files, old.path)
		c.size -= old.size
	}
	return f
}

// stats returns the number of files cached and their estimated bytes.
func (c *dfCache) stats() (files int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.files), c.size
}

// dfParsers pools PHP extractors for lowering: making one loads two
// grammars, and an extractor is not safe for concurrent use. Extractors in
// the pool live as long as the process.
var dfParsers = make(chan *php.Extractor, 4)

func getParser() (*php.Extractor, error) {
	select {
	case x := <-dfParsers:
		return x, nil
	default:
		return php.New()
	}
}

func putParser(x *php.Extractor) {
	select {
	case dfParsers <- x:
	default:
		x.Close()
	}
}

// fileSize estimates the bytes a lowered file holds.
func fileSize(path string, fs []*dataflow.Func, names map[string]string) int64 {
	n := int64(128 + len(path))
	for _, f := range fs {
		n += f.Size()
	}
	for k, v := range names {
		n += int64(48 + len(k) + len(v))
	}
	return n
}
