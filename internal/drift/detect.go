// This file defines the Source a detector reads the revision through, the
// Delta it returns, and the per-file check every detector shares: a stat, a
// hash only when size or mtime differ, a diff against the snapshot only when
// the hash differs. Compare, GitDiff (git.go) and the Checker use it.

package drift

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	pathpkg "path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/secrets"
)

// IndexedFile is what the revision knows about one file.
type IndexedFile struct {
	Path  string
	Lang  string
	Size  int64
	MTime int64  // unix nanoseconds
	Hash  string // sha256 of the raw bytes; "" when the file was never read
	// Unreadable: the build could not read the file; once it can be read it
	// is a change (the index holds none of its facts)
	Unreadable bool
}

// Source reads the revision the working tree is compared with. The functions
// are called from one goroutine at a time per detector run, but a Checker may
// call them from several goroutines: they must be safe for concurrent use.
type Source struct {
	Rev      string
	GitHead  string
	File     func(ctx context.Context, path string) (IndexedFile, bool, error)
	Files    func(ctx context.Context) ([]IndexedFile, error)
	Snapshot func(ctx context.Context, path string) ([]byte, bool, error)
	Nodes    func(ctx context.Context, path string) ([]fact.Node, error)
	// Meta reads a graph meta value ("" when absent); nil when the source
	// has no meta (db-schema-diff then trusts the nodes it finds).
	Meta func(ctx context.Context, key string) (string, error)
	// TablePrefixes are stripped from table names when a changed .sql file
	// is parsed, as the index strips them; the detectors set them from the
	// config.
	TablePrefixes []string
}

// Delta is one difference between the revision and the working tree.
type Delta struct {
	Kind        string   `json:"kind"`
	Path        string   `json:"path"`
	OldPath     string   `json:"old_path,omitempty"`
	Lines       [][2]int `json:"lines"`
	Nodes       []string `json:"nodes"`
	Note        string   `json:"note,omitempty"`
	ContentHash string   `json:"content_hash,omitempty"`
	DedupKey    string   `json:"dedup_key"`
}

// current is one file of the working tree, read and prepared like the index
// prepares it (normalised, secrets redacted).
type current struct {
	hash string
	data []byte
}

// readCurrent reads a working-tree file through tree; ok is false when it
// does not exist. A file that cannot be read as the index reads it (not a
// regular file, a symlink out of the project, over the size cap, no
// permission) is an error whose corpus.Unreadable reason is not "".
func readCurrent(ctx context.Context, tree *corpus.Tree, path string) (current, bool, error) {
	c, err := tree.Read(ctx, path)
	if errors.Is(err, fs.ErrNotExist) {
		return current{}, false, nil
	}
	if err != nil {
		return current{}, false, err
	}
	if c.Binary {
		return current{hash: c.Hash}, true, nil
	}
	data, _ := secrets.Redact(c.Data)
	return current{hash: c.Hash, data: data}, true, nil
}

// Stat is what a stat tells about a working-tree file.
type Stat struct {
	Exists bool
	Size   int64
	MTime  int64
	// Unreadable says why the file is there but cannot be read as the index
	// reads it: "not a regular file", a symlink leading out of the project,
	// "oversize (…)"; its content is then never read
	Unreadable string
}

// StatFile stats path under root, with no size cap.
func StatFile(root, path string) (Stat, error) {
	return statFile(corpus.NewTree(root, 0), path)
}

// statFile lstats path through tree; a directory or nothing is not there.
func statFile(tree *corpus.Tree, path string) (Stat, error) {
	info, err := tree.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Stat{}, nil
	}
	if why := corpus.Unreadable(err); why != "" {
		return Stat{Exists: true, Size: info.Size, MTime: info.MTime, Unreadable: why}, nil
	}
	if err != nil {
		return Stat{}, err
	}
	return Stat{Exists: true, Size: info.Size, MTime: info.MTime}, nil
}

// newTree is the working tree as the index reads it: cfg's size cap.
func newTree(root string, cfg config.Config) *corpus.Tree {
	return corpus.NewTree(root, cfg.MaxFileSize)
}

// checkOne compares one path with the revision. st is its stat; idx its
// indexed row when indexed. It returns no delta when the file is unchanged:
// same size and mtime, or the same raw bytes, or the same content once
// prepared as the index prepares it (a CRLF or BOM conversion alone, a
// changed secret value, is no change: live_read says the same).
func checkOne(ctx context.Context, src Source, tree *corpus.Tree, path string, st Stat, idx IndexedFile, indexed bool) ([]Delta, error) {
	switch {
	case !st.Exists && (!indexed || idx.Hash == ""):
		return nil, nil // nothing there, and nothing of it in the index
	case !st.Exists:
		nodes, err := src.Nodes(ctx, path)
		if err != nil {
			return nil, err
		}
		lines := [][2]int{}
		if n := fileLines(nodes); n > 0 {
			lines = [][2]int{{1, n}}
		}
		return []Delta{{Kind: KindDelete, Path: path, Lines: lines, Nodes: allIDs(nodes),
			DedupKey: key(src.Rev, KindDelete, path)}}, nil
	case st.Unreadable != "" && (!indexed || idx.Hash == ""):
		return nil, nil // the index would skip it, as it did or never saw it
	case st.Unreadable != "":
		return unreadable(ctx, src, path, st.Unreadable)
	case indexed && idx.Hash == "" && !idx.Unreadable:
		return nil, nil // never read at index time (skipped): nothing to compare
	case indexed && idx.Hash == "":
		// indexed as unreadable: readable now is a change, whatever its stat
		cur, ok, err := readCurrent(ctx, tree, path)
		if err != nil || !ok {
			return nil, ctxErr(ctx) // still unreadable, or gone
		}
		n := len(splitLines(string(cur.data)))
		return []Delta{{Kind: KindModify, Path: path, Lines: [][2]int{{1, max(n, 1)}}, Nodes: []string{},
			Note: "readable now; the index could not read it", ContentHash: cur.hash,
			DedupKey: key(src.Rev, KindModify, path, cur.hash)}}, nil
	case indexed && st.Size == idx.Size && st.MTime == idx.MTime:
		return nil, nil
	}
	cur, ok, err := readCurrent(ctx, tree, path)
	if why := corpus.Unreadable(err); why != "" {
		if !indexed {
			return nil, nil
		}
		return unreadable(ctx, src, path, why)
	}
	if err != nil || !ok {
		return nil, err
	}
	if !indexed {
		n := len(splitLines(string(cur.data)))
		return []Delta{{Kind: KindAdd, Path: path, Lines: [][2]int{{1, max(n, 1)}}, Nodes: []string{},
			ContentHash: cur.hash, DedupKey: key(src.Rev, KindAdd, path, cur.hash)}}, nil
	}
	if cur.hash == idx.Hash {
		return nil, nil // touched, not changed
	}
	return modified(ctx, src, path, cur)
}

// ctxErr is ctx's error, so a cancelled check is not taken for an answer.
func ctxErr(ctx context.Context) error { return ctx.Err() }

// unreadable is the delta of an indexed file that is still there but can no
// longer be read as the index reads it: all its facts are in doubt, and its
// content is not read to say more.
func unreadable(ctx context.Context, src Source, path, why string) ([]Delta, error) {
	nodes, err := src.Nodes(ctx, path)
	if err != nil {
		return nil, err
	}
	lines := [][2]int{}
	if n := fileLines(nodes); n > 0 {
		lines = [][2]int{{1, n}}
	}
	return []Delta{{Kind: KindModify, Path: path, Lines: lines, Nodes: allIDs(nodes),
		Note:     "not read: " + why + "; the next index skips it",
		DedupKey: key(src.Rev, KindModify, path, "unreadable", strings.Fields(why)[0])}}, nil
}

// modified builds the modify delta of an indexed file whose content changed,
// and a slice_boundary delta for each piece of code moved into a new function
// or method (FT-29).
func modified(ctx context.Context, src Source, path string, cur current) ([]Delta, error) {
	snap, hasSnap, err := src.Snapshot(ctx, path)
	if err != nil {
		return nil, err
	}
	if hasSnap && bytes.Equal(snap, cur.data) {
		return nil, nil // the same content as the index prepared it
	}
	nodes, err := src.Nodes(ctx, path)
	if err != nil {
		return nil, err
	}
	d := diffLines(snap, cur.data)
	out := []Delta{{Kind: KindModify, Path: path, Lines: d.Ranges, Nodes: touched(nodes, d.Ranges),
		ContentHash: cur.hash, DedupKey: key(src.Rev, KindModify, path, cur.hash)}}
	slices, err := sliceBoundaries(ctx, src.Rev, path, nodes, snap, d, cur)
	if err != nil {
		return nil, err
	}
	out = append(out, slices...)
	schema, err := schemaChanges(ctx, src, path, nodes, snap, cur.data)
	if err != nil {
		return nil, fmt.Errorf("comparing the schema of %s: %w", path, err)
	}
	return append(out, schema...), nil
}

func fileLines(nodes []fact.Node) int {
	for _, n := range nodes {
		if n.Kind == fact.File {
			return n.EndLine
		}
	}
	return 0
}

// key joins the parts of a dedup key. The method is never part of it.
func key(parts ...string) string { return strings.Join(parts, "|") }

// ManualKey is the dedup key of a manual entry: the same note on the same path
// and kind is recorded once.
func ManualKey(rev, kind, path, note string) string {
	return key(rev, MethodManual, kind, path, note)
}

// Compare checks the whole corpus against the revision: files changed, added
// and deleted, with deletes and adds of mostly unchanged content paired into
// renames. The result is sorted by path.
func Compare(ctx context.Context, src Source, root string, cfg config.Config) ([]Delta, error) {
	src.TablePrefixes = cfg.Database.TablePrefixes
	walked, err := corpus.Walk(ctx, corpus.Options{Root: root, Config: cfg})
	if err != nil {
		return nil, fmt.Errorf("walking %s: %w", root, err)
	}
	files, err := src.Files(ctx)
	if err != nil {
		return nil, err
	}
	indexed := make(map[string]IndexedFile, len(files))
	for _, f := range files {
		indexed[f.Path] = f
	}
	tree := newTree(root, cfg)
	var out []Delta
	seen := make(map[string]bool, len(walked))
	for _, w := range walked {
		seen[w.Path] = true
		idx, ok := indexed[w.Path]
		if !ok && w.Status != corpus.Pending {
			continue // a new file the index would skip
		}
		st := Stat{Exists: true, Size: w.Size, MTime: w.ModTime}
		if w.Status != corpus.Pending {
			// an indexed file the walk skips now: say why, never read it blindly
			if st, err = statFile(tree, w.Path); err != nil {
				return nil, err
			}
		}
		ds, err := checkOne(ctx, src, tree, w.Path, st, idx, ok)
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	for _, f := range files {
		if seen[f.Path] || f.Hash == "" {
			continue
		}
		// gone from the walk: deleted, or now excluded
		ds, err := checkOne(ctx, src, tree, f.Path, Stat{}, f, true)
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	out, err = pairRenames(ctx, src, tree, out)
	if err != nil {
		return nil, err
	}
	sortDeltas(out)
	return out, nil
}

func sortDeltas(ds []Delta) {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].Path != ds[j].Path {
			return ds[i].Path < ds[j].Path
		}
		return ds[i].Kind < ds[j].Kind
	})
}

// Checker checks single paths against one revision, remembering the answer
// per (path, size, mtime) so a path that did not change since the last check
// costs one stat. It is safe for concurrent use.
type Checker struct {
	src  Source
	tree *corpus.Tree
	cfg  config.Config

	mu    sync.Mutex
	cache map[string]checked
	moves map[string]movesAt // moves.go
}

type checked struct {
	st     Stat
	deltas []Delta
}

// NewChecker returns a Checker for src. A path the revision does not hold is
// only read when cfg would index it, so a check never opens a secrets file.
func NewChecker(src Source, root string, cfg config.Config) *Checker {
	src.TablePrefixes = cfg.Database.TablePrefixes
	return &Checker{src: src, tree: newTree(root, cfg), cfg: cfg, cache: map[string]checked{}, moves: map[string]movesAt{}}
}

// Rev is the revision the Checker compares with.
func (c *Checker) Rev() string { return c.src.Rev }

// Check returns the deltas of path now (none when it matches the revision)
// and whether they were computed afresh rather than taken from the cache.
func (c *Checker) Check(ctx context.Context, path string) ([]Delta, bool, error) {
	st, err := statFile(c.tree, path)
	if err != nil {
		return nil, false, err
	}
	c.mu.Lock()
	hit, ok := c.cache[path]
	c.mu.Unlock()
	if ok && hit.st == st {
		return hit.deltas, false, nil
	}
	idx, indexed, err := c.src.File(ctx, path)
	if err != nil {
		return nil, false, err
	}
	if !indexed && !inCorpus(c.cfg, path) {
		st = Stat{}
	}
	ds, err := checkOne(ctx, c.src, c.tree, path, st, idx, indexed)
	if err != nil {
		return nil, false, err
	}
	if len(ds) == 0 && indexed && idx.Unreadable {
		// still unreadable: a chmod changes neither size nor mtime, so the
		// next check must try again
		return nil, true, nil
	}
	c.mu.Lock()
	c.cache[path] = checked{st: st, deltas: ds}
	c.mu.Unlock()
	return ds, true, nil
}

// inCorpus reports whether a path not in the index would be indexed: a
// language the project indexes, and not excluded by the mandatory rules or
// the config. Detectors that do not walk (git-diff) use it for new files.
func inCorpus(cfg config.Config, path string) bool {
	lang := corpus.DetectLang(path)
	if lang == "" || !slices.Contains(cfg.Languages, lang) || config.IsMandatoryExcluded(path) {
		return false
	}
	for _, globs := range [][]string{cfg.Exclude, cfg.SecretsExclude} {
		for _, g := range globs {
			target := path
			if !strings.Contains(g, "/") {
				target = pathpkg.Base(path)
			}
			if ok, _ := doublestar.Match(g, target); ok {
				return false
			}
		}
	}
	return true
}
