// This file defines Walk, the deterministic listing of a project's files. The
// .gitignore matcher it applies lives in gitignore.go; reading a listed file
// for extraction is Read in read.go.

package corpus

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/ragraf/ragraf/internal/config"
)

// Status says what became of a file; corpus produces only "" and Skipped.
type Status string

// File statuses. Parsed, Partial and Failed are set by extraction.
const (
	Pending Status = ""
	Parsed  Status = "parsed"
	Partial Status = "partial"
	Failed  Status = "failed"
	Skipped Status = "skipped"
)

// File is one file found by Walk.
type File struct {
	Path    string // slash-separated, relative to the root; the key everywhere
	Lang    string // detected language name (see DetectLang); "" when unknown
	Size    int64  // bytes (of the target, for a followed symlink)
	ModTime int64  // unix nanoseconds
	Status  Status // Pending (to be extracted) or Skipped
	Reason  string // why it was skipped
}

// Options configures Walk.
type Options struct {
	Root   string
	Config config.Config
}

// SetDefaults fills the zero fields of o: the current directory as Root, and
// config.Default() when no language is configured.
func (o *Options) SetDefaults() {
	if o.Root == "" {
		o.Root = "."
	}
	if len(o.Config.Languages) == 0 {
		o.Config = config.Default()
	}
}

// Walk lists the files under opts.Root, sorted by Path. Excluded files
// (mandatory excludes, .gitignore, exclude, secrets_exclude) get no entry and
// are never opened; secrets files are not even stat'ed. Other files that cannot
// be indexed are listed with Status Skipped and a Reason.
func Walk(ctx context.Context, opts Options) ([]File, error) {
	opts.SetDefaults()
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("walking %s: %w", opts.Root, err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("walking %s: %w", opts.Root, err)
	}
	w := &walker{ctx: ctx, root: root, realRoot: realRoot, cfg: opts.Config, rules: NewRules(root, opts.Config), langs: map[string]bool{}}
	for _, l := range opts.Config.Languages {
		w.langs[l] = true
	}
	var rules []ignoreRule
	if opts.Config.RespectGitignore {
		rules = w.rules.infoExclude()
	}
	if err := w.dir("", rules); err != nil {
		return nil, err
	}
	if err := w.sniff(); err != nil {
		return nil, err
	}
	slices.SortFunc(w.out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return w.out, nil
}

type walker struct {
	ctx      context.Context
	root     string
	realRoot string
	cfg      config.Config
	rules    *Rules
	langs    map[string]bool
	out      []File
	toSniff  []int // indexes into out of files to check for NUL bytes
}

func (w *walker) abs(rel string) string {
	return filepath.Join(w.root, filepath.FromSlash(rel))
}

// dir lists one directory; rules are the .gitignore rules of its ancestors.
func (w *walker) dir(rel string, rules []ignoreRule) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	abs := w.abs(rel)
	if w.cfg.RespectGitignore {
		rules = append(slices.Clip(rules), w.rules.dirIgnore(rel)...)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		if rel == "" {
			return fmt.Errorf("walking %s: %w", w.root, err)
		}
		w.out = append(w.out, File{Path: rel, Status: Skipped, Reason: "unreadable: " + errText(err)})
		return nil
	}
	for _, e := range entries {
		name := e.Name()
		p := name
		if rel != "" {
			p = rel + "/" + name
		}
		typ := e.Type()
		isDir := typ.IsDir()
		if w.rules.entry(p, name, isDir, rules) != "" {
			continue
		}
		if isDir {
			if err := w.dir(p, rules); err != nil {
				return err
			}
			continue
		}
		if !w.rules.included(p) {
			continue
		}
		w.file(p, e)
	}
	return nil
}

// file records one non-directory entry.
func (w *walker) file(p string, e fs.DirEntry) {
	f := File{Path: p, Lang: DetectLang(p)}
	var info fs.FileInfo
	var err error
	switch typ := e.Type(); {
	case typ&fs.ModeSymlink != 0:
		var reason string
		info, reason = w.symlink(p)
		if reason == "-" {
			return
		}
		if reason != "" {
			f.Status, f.Reason = Skipped, reason
			w.out = append(w.out, f)
			return
		}
	case !typ.IsRegular():
		f.Status, f.Reason = Skipped, "not a regular file"
		w.out = append(w.out, f)
		return
	default:
		info, err = e.Info()
		if err != nil {
			f.Status, f.Reason = Skipped, "unreadable: "+errText(err)
			w.out = append(w.out, f)
			return
		}
	}
	f.Size, f.ModTime = info.Size(), info.ModTime().UnixNano()
	switch {
	case isBinaryExt(p):
		f.Status, f.Reason = Skipped, "binary"
	case f.Lang == "":
		f.Status, f.Reason = Skipped, "language not indexed: unknown file type"
	case Unavailable[f.Lang] != "":
		f.Status, f.Reason = Skipped, "language unavailable: "+f.Lang+": "+Unavailable[f.Lang]
	case !w.langs[f.Lang]:
		f.Status, f.Reason = Skipped, "language not indexed: "+f.Lang
	case f.Size > w.cfg.MaxFileSize:
		f.Status, f.Reason = Skipped, fmt.Sprintf("oversize (%s > %s)", humanSize(f.Size), humanSize(w.cfg.MaxFileSize))
	default:
		w.toSniff = append(w.toSniff, len(w.out))
	}
	w.out = append(w.out, f)
}

// symlink resolves the link at p. It returns the target's info, or a skip
// reason, or "-" when the target is itself excluded (the link gets no entry, so
// a link cannot expose a secrets file).
func (w *walker) symlink(p string) (fs.FileInfo, string) {
	target, err := filepath.EvalSymlinks(w.abs(p))
	if err != nil {
		return nil, "broken symlink"
	}
	relT, err := filepath.Rel(w.realRoot, target)
	if err != nil || relT == ".." || strings.HasPrefix(relT, ".."+string(filepath.Separator)) {
		return nil, "symlink outside root"
	}
	if w.rules.Excluded(filepath.ToSlash(relT)) != "" {
		return nil, "-"
	}
	info, err := os.Stat(target)
	if err != nil {
		return nil, "unreadable: " + errText(err)
	}
	if info.IsDir() {
		return nil, "symlink to directory"
	}
	if !info.Mode().IsRegular() {
		return nil, "not a regular file"
	}
	return info, ""
}

// sniff marks files with a NUL byte in their first 8 KB as binary. Opening
// files dominates the walk, so workers share the list; each writes only its own
// entries of w.out, which needs no lock.
func (w *walker) sniff() error {
	workers := min(runtime.GOMAXPROCS(0), len(w.toSniff)/64+1)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Go(func() {
			for j := k; j < len(w.toSniff); j += workers {
				if w.ctx.Err() != nil {
					return
				}
				f := &w.out[w.toSniff[j]]
				bin, err := isBinaryFile(w.abs(f.Path))
				switch {
				case err != nil:
					f.Status, f.Reason = Skipped, "unreadable: "+errText(err)
				case bin:
					f.Status, f.Reason = Skipped, "binary"
				}
			}
		})
	}
	wg.Wait()
	return w.ctx.Err()
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<20)), ".0") + " MiB"
	case n >= 1<<10:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/(1<<10)), ".0") + " KiB"
	}
	return fmt.Sprintf("%d B", n)
}

// errText drops the path from an fs error: the entry already names the file.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
