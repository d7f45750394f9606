// This file is the extraction cache: what each file yielded, kept in one
// pack file, .ragraf/cache/extract.pack, keyed by path and content hash and
// valid for one extractor build and config, so a build re-extracts only files
// whose content changed (reindex after a few edits, FT-32). Every file is
// still read and hashed, so reuse is decided by content, never by timestamps.
// One pack rather than a file per source file: a build writes it with one
// encoder while the stores are written, and the next build reads it in one
// sequential pass. build.go calls loadCache, extractCached and saveCache.

package rev

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/ragraf/ragraf/internal/codec"
	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/extract/docs"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// cacheFormat changes when cacheEntry or the pack layout changes shape.
// 5: a reference's receiver is a typed descriptor (package typ, stored as
// its text), with the include path, the trait alias and the tags front
// ends' qualifier in fields of their own.
const cacheFormat = "5"

// cachePath is the pack file.
func cachePath(l Layout) string { return filepath.Join(l.Index(), "cache", "extract.pack") }

// cacheEntry is a fileResult as the pack holds it (codec.go).
type cacheEntry struct {
	Row      graph.File
	Nodes    []fact.Node
	Edges    []fact.Edge
	Chunks   []fact.TextChunk
	Refs     []fact.Ref
	Mentions []docs.Mention
	Snapshot []byte
	Dataflow []byte
}

// cacheHeader says which extractor and config produced a pack.
type cacheHeader struct {
	Format, Build, Config string
	Entries               int
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

func header(opts Options, entries int) cacheHeader {
	return cacheHeader{Format: cacheFormat, Build: extractorBuild(), Config: opts.Config.Hash(), Entries: entries}
}

// extractCache holds the previous build's results by path.
type extractCache map[string]*cacheEntry

// packMagic starts a pack file; the format version is cacheFormat.
const packMagic = "ragraf extraction pack\n"

// loadCache reads the pack if it was written by this extractor build with
// this config; any other pack, or none, gives an empty cache. A cache that
// cannot be read only costs time. Entries decode on every core.
func loadCache(opts Options) extractCache {
	c := extractCache{}
	if extractorBuild() == "" {
		return c
	}
	b, err := os.ReadFile(cachePath(Layout{Root: opts.Root}))
	if err != nil {
		return c
	}
	h, d, ok := packHeader(b)
	if !ok || h != header(opts, h.Entries) {
		return c
	}
	parts := make([][]byte, h.Entries)
	for i := range parts {
		if parts[i] = d.Next(d.Uvarint()); d.Err() != nil {
			opts.Logger.Warn("reading extraction cache", "err", d.Err().Error())
			return c
		}
	}
	entries := make([]*cacheEntry, len(parts))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range parts {
		g.Go(func() (err error) {
			entries[i], err = decodeEntry(parts[i])
			return err
		})
	}
	if err := g.Wait(); err != nil {
		opts.Logger.Warn("reading extraction cache", "err", err.Error())
		return c
	}
	for _, e := range entries {
		c[e.Row.Path] = e
	}
	return c
}

// packHeader reads the header of a pack and returns a decoder positioned at
// its first entry.
func packHeader(b []byte) (cacheHeader, *decoder, bool) {
	if !bytes.HasPrefix(b, []byte(packMagic)) {
		return cacheHeader{}, nil, false
	}
	d := newDecoder(b[len(packMagic):])
	h := cacheHeader{Format: d.Str(), Build: d.Str(), Config: d.Str(), Entries: d.Count(1)}
	return h, d, d.Err() == nil
}

// extractCached returns the cached result for f's current content, or
// extracts it; reused tells which.
func extractCached(ctx context.Context, opts Options, cache extractCache, f corpus.File, p lang.Parser) (r fileResult, reused bool, err error) {
	e := cache[f.Path]
	if f.Status == corpus.Skipped || e == nil {
		r, err = extractOne(ctx, opts, f, p)
		return r, false, err
	}
	c, err := corpus.Read(filepath.Join(opts.Root, filepath.FromSlash(f.Path)))
	if err != nil || c.Binary || c.Hash != e.Row.Hash {
		r, err = extractOne(ctx, opts, f, p)
		return r, false, err
	}
	row := e.Row
	row.Size, row.MTime = f.Size, f.ModTime
	return fileResult{row: row, nodes: e.Nodes, edges: e.Edges, chunks: e.Chunks, refs: e.Refs,
		mentions: e.Mentions, snapshot: e.Snapshot, dataflow: e.Dataflow}, true, nil
}

// saveCache writes every result worth keeping (not skipped, not failed: a
// failure is retried next time) into a new pack, beside its final name and
// renamed, so an interrupted build never leaves half a pack.
func saveCache(opts Options, results []fileResult) error {
	if extractorBuild() == "" {
		return nil
	}
	var keep []*fileResult
	for i := range results {
		r := &results[i]
		if r.row.Hash != "" && r.row.Status != string(corpus.Skipped) && r.row.Status != string(corpus.Failed) {
			keep = append(keep, r)
		}
	}
	dst := cachePath(Layout{Root: opts.Root})
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp := dst + ".tmp" + strconv.Itoa(os.Getpid())
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	h := header(opts, len(keep))
	he := &codec.Writer{B: []byte(packMagic)}
	he.Str(h.Format)
	he.Str(h.Build)
	he.Str(h.Config)
	he.Uvarint(uint64(h.Entries))
	_, err = w.Write(he.B)
	var buf, lenBuf []byte
	for _, r := range keep {
		if err != nil {
			break
		}
		buf = appendEntry(buf[:0], &cacheEntry{Row: r.row, Nodes: r.nodes, Edges: r.edges, Chunks: r.chunks, Refs: r.refs, Mentions: r.mentions, Snapshot: r.snapshot, Dataflow: r.dataflow})
		lenBuf = binary.AppendUvarint(lenBuf[:0], uint64(len(buf)))
		if _, err = w.Write(lenBuf); err == nil {
			_, err = w.Write(buf)
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing extraction cache: %w", err)
	}
	return os.Rename(tmp, dst)
}
