// This file publishes a built revision: rename the temporary directory into
// revs/, record it in rev_history, switch CURRENT atomically, rotate old
// revisions. build.go writes the directory.

package rev

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"syscall"
	"time"

	"github.com/ragraf/ragraf/internal/store/control"
)

// ErrLocked means another build holds the project's lock.
var ErrLocked = errors.New("another ragraf build is running on this project")

// buildGCPercent is the garbage collector's target during a build, which
// allocates much short-lived memory: collecting when the heap has grown by
// twice the live heap rather than by once saves about a tenth of a build's
// CPU for about a tenth more peak memory (docs/benchmarks.md). GOGC, when
// set, wins.
const buildGCPercent = 200

// Build builds and publishes a new revision and returns its rev.json.
func Build(ctx context.Context, opts Options) (Info, error) {
	opts.SetDefaults()
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(buildGCPercent))
	}
	l := Layout{Root: opts.Root}
	for _, d := range []string{l.Index(), l.Revs(), l.Tmp(), l.Logs()} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return Info{}, fmt.Errorf("creating %s: %w", d, err)
		}
	}
	unlock, err := lock(l.Lock())
	if err != nil {
		return Info{}, err
	}
	defer unlock()
	// leftovers of builds that crashed; nobody else builds while we hold the lock
	if ents, err := os.ReadDir(l.Tmp()); err == nil {
		for _, e := range ents {
			_ = os.RemoveAll(filepath.Join(l.Tmp(), e.Name()))
		}
	}
	ctl, err := control.Open(ctx, l.Control())
	if err != nil {
		return Info{}, err
	}
	defer ctl.Close()
	// a commit that was killed between the switch and its archive is finished
	// before anything else changes
	if err := finishArchive(ctx, l, ctl, opts); err != nil {
		return Info{}, err
	}
	seq, err := nextSeq(ctx, l, ctl)
	if err != nil {
		return Info{}, err
	}
	parent, _ := l.CurrentRev()
	info := Info{
		Rev: Name(seq), CreatedAt: opts.Now().UTC().Format(time.RFC3339),
		ConfigHash: opts.Config.Hash(), GitHead: gitHead(ctx, opts.Root),
		RagrafVersion: ragrafVersion(), ParentRev: parent, Capability: capability(nil, opts.Config),
	}
	dir := filepath.Join(l.Tmp(), info.Rev+"."+strconv.Itoa(os.Getpid()))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Info{}, err
	}
	defer os.RemoveAll(dir) // a no-op once renamed
	if err := write(ctx, opts, dir, &info); err != nil {
		return Info{}, err
	}
	opts.Hook("written")
	if opts.BeforePublish != nil {
		if err := opts.BeforePublish(); err != nil {
			return Info{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return Info{}, err
	}
	if err := syncDir(dir); err != nil {
		return Info{}, err
	}
	if err := os.Rename(dir, l.Rev(info.Rev)); err != nil {
		return Info{}, fmt.Errorf("publishing %s: %w", info.Rev, err)
	}
	if err := syncDir(l.Revs()); err != nil {
		return Info{}, err
	}
	opts.Hook("renamed")
	capJSON, _ := json.Marshal(info.Capability)
	if err := ctl.AppendRev(ctx, control.Rev{
		Rev: info.Rev, Seq: seq, CreatedAt: info.CreatedAt, CorpusHash: info.CorpusHash,
		ConfigHash: info.ConfigHash, GitHead: info.GitHead, RagrafVersion: info.RagrafVersion,
		Files: info.FilesTotal, Nodes: info.Nodes, Edges: info.Edges, Capability: string(capJSON), ParentRev: parent,
	}); err != nil {
		return Info{}, err
	}
	opts.Hook("recorded")
	archiving := opts.Archive && parent != ""
	if archiving {
		// switch and archive are one step: the note outlives a crash between
		// them, and the next build finishes the archive (finishArchive)
		if err := writePending(l, pendingArchive{From: parent, To: info.Rev}); err != nil {
			return Info{}, err
		}
	}
	if err := writeAtomic(l.Current(), []byte(info.Rev+"\n")); err != nil {
		return Info{}, err
	}
	opts.Hook("published")
	// rotation removes old revision directories while the archive report is
	// written; it spares the parent, which the report reads, until the
	// report is written
	keep := []string{info.Rev}
	if archiving {
		keep = append(keep, parent)
	}
	rotated := make(chan error, 1)
	go func() { rotated <- rotate(ctx, l, ctl, opts.Config.RetainRevs, keep, opts.Now()) }()
	var aerr error
	if archiving {
		if aerr = archive(ctx, l, ctl, parent, info, opts.Now()); aerr == nil {
			aerr = removePending(l)
		}
	}
	err = <-rotated
	if err == nil && archiving && aerr == nil {
		// the report is written: the parent is no longer read, and
		// retain_revs counts it again
		err = rotate(ctx, l, ctl, opts.Config.RetainRevs, []string{info.Rev}, opts.Now())
	}
	if err != nil {
		opts.Logger.Warn("rotating old revisions", "err", err.Error())
	}
	if aerr != nil {
		return info, fmt.Errorf("%s is published, but archiving the ledger of %s failed: %w", info.Rev, parent, aerr)
	}
	return info, nil
}

// nextSeq is one past the highest revision known to the history or present on
// disk (a revision published by a build that crashed before recording it).
func nextSeq(ctx context.Context, l Layout, ctl *control.Store) (int, error) {
	seq, err := ctl.MaxSeq(ctx)
	if err != nil {
		return 0, err
	}
	ents, err := os.ReadDir(l.Revs())
	if err != nil {
		return 0, err
	}
	for _, e := range ents {
		if n, ok := Seq(e.Name()); ok && n > seq {
			seq = n
		}
	}
	return seq + 1, nil
}

// rotate removes the oldest revision directories beyond retain, never those
// in keep (the current one, and a parent still being read); their
// rev_history rows stay and a rotation row is appended.
func rotate(ctx context.Context, l Layout, ctl *control.Store, retain int, keep []string, now time.Time) error {
	if retain < 1 {
		retain = 1
	}
	ents, err := os.ReadDir(l.Revs())
	if err != nil {
		return err
	}
	hist, err := ctl.Revs(ctx)
	if err != nil {
		return err
	}
	cur, _ := l.CurrentRev()
	current := WereCurrent(hist, cur)
	// junk first: a revision never current (its build died between the
	// rename and the switch) is no revision to keep, and must not push out
	// one that was
	var seqs []int
	for _, e := range ents {
		n, ok := Seq(e.Name())
		if !ok || !e.IsDir() {
			continue
		}
		if name := Name(n); !current[name] && !slices.Contains(keep, name) {
			if err := removeRev(ctx, l, ctl, name, now); err != nil {
				return err
			}
			continue
		}
		seqs = append(seqs, n)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(seqs)))
	for i, n := range seqs {
		name := Name(n)
		if i < retain || slices.Contains(keep, name) {
			continue
		}
		if err := removeRev(ctx, l, ctl, name, now); err != nil {
			return err
		}
	}
	return nil
}

func removeRev(ctx context.Context, l Layout, ctl *control.Store, name string, now time.Time) error {
	if err := os.RemoveAll(l.Rev(name)); err != nil {
		return fmt.Errorf("removing %s: %w", name, err)
	}
	return ctl.AppendRotation(ctx, name, now)
}

// WereCurrent returns the revisions that were ever current: the current one,
// and every revision a recorded build started from (a build's parent is what
// CURRENT named when it began). A revision outside the set was published by a
// build that died before switching CURRENT.
func WereCurrent(hist []control.Rev, current string) map[string]bool {
	set := map[string]bool{}
	if current != "" {
		set[current] = true
	}
	for _, r := range hist {
		if r.ParentRev != "" {
			set[r.ParentRev] = true
		}
	}
	return set
}

// writeAtomic writes data to a temporary file beside path, syncs it and
// renames it over path, so readers see the old or the new content, never half.
func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp" + strconv.Itoa(os.Getpid())
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncDir fsyncs a directory and the regular files in it.
func syncDir(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if e.Type().IsRegular() {
			if f, err := os.Open(filepath.Join(dir, e.Name())); err == nil {
				_ = f.Sync()
				f.Close()
			}
		}
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// lock takes an exclusive, non-blocking lock on path; the kernel releases it
// if the process dies.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// Drop removes the whole index directory of a project.
func Drop(root string) error {
	l := Layout{Root: root}
	if _, err := os.Stat(l.Index()); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	unlock, err := lock(l.Lock())
	if err != nil {
		return err
	}
	defer unlock()
	// keep project.yaml: it is the user's config, not index data
	ents, err := os.ReadDir(l.Index())
	if err != nil {
		return err
	}
	for _, e := range ents {
		if e.Name() == "project.yaml" || e.Name() == "lock" {
			continue
		}
		if err := os.RemoveAll(filepath.Join(l.Index(), e.Name())); err != nil {
			return fmt.Errorf("dropping %s: %w", e.Name(), err)
		}
	}
	return nil
}
