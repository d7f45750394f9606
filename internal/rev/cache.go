// This file is the extraction cache: what one file yielded, kept under
// .ragraf/cache/extract/ keyed by path, content hash and extractor build, so a
// build re-extracts only files whose content changed (reindex after a few
// edits, FT-32). Every file is still read and hashed, so reuse is decided by
// content, never by timestamps. build.go calls extractCached.

package rev

import (
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/extract/docs"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang/php"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// cacheFormat changes when cacheEntry changes shape.
const cacheFormat = "1"

// cacheDir is where entries live, one file each.
func cacheDir(l Layout) string { return filepath.Join(l.Index(), "cache", "extract") }

// cacheEntry is a fileResult in exported form for gob.
type cacheEntry struct {
	Row      graph.File
	Nodes    []fact.Node
	Edges    []fact.Edge
	Chunks   []fact.TextChunk
	Refs     []fact.Ref
	Mentions []docs.Mention
	Snapshot []byte
}

// extractorBuild names the code that extracted: the Go build id of the running
// binary, so a rebuilt ragraf never reuses another build's results. A binary
// without one falls back to its size and mtime.
var extractorBuild = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if f, err := elf.Open(exe); err == nil {
		defer f.Close()
		if s := f.Section(".note.go.buildid"); s != nil {
			if b, err := s.Data(); err == nil {
				sum := sha256.Sum256(b)
				return hex.EncodeToString(sum[:])
			}
		}
	}
	if st, err := os.Stat(exe); err == nil {
		return strconv.FormatInt(st.Size(), 10) + "." + strconv.FormatInt(st.ModTime().UnixNano(), 10)
	}
	return ""
})

// cacheKey names the entry for a file's content.
func cacheKey(opts Options, path, hash string) string {
	sum := sha256.Sum256([]byte(cacheFormat + "\x00" + extractorBuild() + "\x00" + opts.Config.Hash() + "\x00" + path + "\x00" + hash))
	return hex.EncodeToString(sum[:16])
}

func cacheFile(opts Options, key string) string {
	return filepath.Join(cacheDir(Layout{Root: opts.Root}), key[:2], key+".gob")
}

// extractCached returns the cached result for f's current content, or
// extracts it and stores the result. A cache that cannot be read or written
// only costs time.
func extractCached(ctx context.Context, opts Options, f corpus.File, x *php.Extractor) (fileResult, error) {
	if f.Status == corpus.Skipped || extractorBuild() == "" {
		return extractOne(ctx, opts, f, x)
	}
	c, err := corpus.Read(filepath.Join(opts.Root, filepath.FromSlash(f.Path)))
	if err != nil || c.Binary {
		return extractOne(ctx, opts, f, x)
	}
	key := cacheKey(opts, f.Path, c.Hash)
	if b, err := os.ReadFile(cacheFile(opts, key)); err == nil {
		var e cacheEntry
		if gob.NewDecoder(bytes.NewReader(b)).Decode(&e) == nil && e.Row.Path == f.Path && e.Row.Hash == c.Hash {
			e.Row.Size, e.Row.MTime = f.Size, f.ModTime
			return fileResult{row: e.Row, nodes: e.Nodes, edges: e.Edges, chunks: e.Chunks, refs: e.Refs,
				mentions: e.Mentions, snapshot: e.Snapshot}, nil
		}
	}
	r, err := extractOne(ctx, opts, f, x)
	if err != nil || r.row.Hash != c.Hash || r.row.Status == string(corpus.Failed) {
		return r, err // a failure is retried next time, not remembered
	}
	if err := storeCached(opts, key, r); err != nil {
		opts.Logger.Warn("writing extraction cache", "path", f.Path, "err", err.Error())
	}
	return r, nil
}

// storeCached writes an entry beside its final name and renames it, so a
// concurrent or interrupted build never reads half an entry.
func storeCached(opts Options, key string, r fileResult) error {
	var buf bytes.Buffer
	e := cacheEntry{Row: r.row, Nodes: r.nodes, Edges: r.edges, Chunks: r.chunks, Refs: r.refs, Mentions: r.mentions, Snapshot: r.snapshot}
	if err := gob.NewEncoder(&buf).Encode(&e); err != nil {
		return fmt.Errorf("encoding: %w", err)
	}
	dst := cacheFile(opts, key)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp := dst + ".tmp" + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
