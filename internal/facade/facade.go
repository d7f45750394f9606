// Package facade is the read path: every operation an agent can ask for, the
// envelope every answer travels in, and the result types the transports render.
// Transports (internal/cli, internal/mcpserver) call it and never touch a store.
//
// # Principal types
//
// Service answers operations for one project. It opens the current revision's
// stores read-only and reopens them when a new revision is published, so new
// calls see it without a restart while calls in flight finish on theirs.
// Envelope wraps every answer (ARCHITECTURE.md §7); Error is every failure.
package facade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ragraf/ragraf/internal/drift"
	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/control"
	"github.com/ragraf/ragraf/internal/store/graph"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// Service answers operations for one project. It is safe for concurrent use.
type Service struct {
	root    string
	layout  rev.Layout
	cfgPath string // the config whose excludes code and live_read apply (Options.Config)
	ortLib  string // Options.ORTLib

	mu   sync.Mutex
	cur  *snapshot // the revision new calls use
	next *snapshot // a newly published revision warming before it serves (warm.go)

	// warmFirst is set while Watch runs: a newly published revision is
	// served only once its per-revision caches are built (warm.go)
	warmFirst atomic.Bool
	warmCtx   context.Context // cancelled by Close: stops a warm-up
	warmStop  context.CancelFunc

	ctlMu     sync.Mutex
	ctl       *control.Store // control.sqlite, opened once and shared by calls
	ctlFile   os.FileInfo    // the file ctl has open, to notice a replaced one
	ctlOpened time.Time
}

// readOnlyRetry is how long a ledger opened for reading only is used before
// it is opened again, to find out whether it can be written now.
const readOnlyRetry = 10 * time.Second

// snapshot is one open revision; calls hold it for their whole duration.
type snapshot struct {
	name  string
	file  os.FileInfo // graph.sqlite as opened: with name, the revision's identity
	info  rev.Info
	graph *graph.Store
	lex   *lexvec.Store
	refs  sync.WaitGroup // calls in flight

	checkOnce sync.Once
	check     *drift.Checker // stale checks against this revision (stale.go)

	cacheMu sync.Mutex
	cache   map[string]any // per-revision results by key (revcache.go)
	df      *dfCache       // lowered files for slice and flow (dfcache.go), under cacheMu
	// rankBuilds counts the rank graphs built on this revision (one, once
	// single-flight and the warm-up share it)
	rankBuilds atomic.Int64
	warmed     atomic.Bool // its warm-up has completed (warm.go)
}

// Options configures a Service. The zero value serves the project's own
// .ragraf/project.yaml.
type Options struct {
	// Config is the config file the project is indexed with when it is not
	// .ragraf/project.yaml (ragraf --project FILE): code and live_read apply
	// its excludes, drift detection its corpus rules.
	Config string
	// ORTLib is the ONNX Runtime shared library a sentence model's query
	// vectors load ("": $RAGRAF_ORT_LIB, the system's, the cache's).
	ORTLib string
}

// New returns a Service for the project at root. It opens nothing until the
// first call, so a Service can be started before the first index exists.
func New(root string, opts Options) (*Service, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	l := rev.Layout{Root: abs}
	s := &Service{root: abs, layout: l, cfgPath: l.Config(), ortLib: opts.ORTLib}
	s.warmCtx, s.warmStop = context.WithCancel(context.Background())
	if opts.Config != "" {
		s.cfgPath = opts.Config
	}
	return s, nil
}

// Root is the project directory.
func (s *Service) Root() string { return s.root }

// Close closes the open revision.
func (s *Service) Close() error {
	s.warmStop()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil {
		s.cur.close()
		s.cur = nil
	}
	if next := s.next; next != nil {
		// the warm-up holds it until it has stopped
		go func() { next.refs.Wait(); next.close() }()
		s.next = nil
	}
	s.ctlMu.Lock()
	defer s.ctlMu.Unlock()
	if s.ctl != nil {
		s.ctl.Close()
		s.ctl = nil
	}
	return nil
}

// acquire returns the current revision, opening it (or a newly published one)
// as needed; release it when the call is done.
//
// A revision is known by its name and its graph.sqlite file: `ragraf drop`
// then `ragraf index` publishes a new rev-0001, which the open one must not
// stand for. The open revision keeps its store files open (sqlitedb.OpenReadOnly),
// so its file cannot be reused for another while it is held, and calls on it
// finish even if rotation removes its directory meanwhile.
func (s *Service) acquire(ctx context.Context) (*snapshot, func(), error) {
	if snap, ok := ctx.Value(pinKey{}).(*snapshot); ok {
		// a warm-up runs its calls on the revision it warms (warm.go)
		snap.refs.Add(1)
		return snap, snap.refs.Done, nil
	}
	for attempt := 0; ; attempt++ {
		name, err := s.layout.CurrentRev()
		if err != nil {
			if errors.Is(err, rev.ErrNotIndexed) {
				return nil, nil, &Error{Code: ErrNotIndexed, Message: "the project has no index yet: run `ragraf index` first"}
			}
			if attempt < 3 {
				continue // CURRENT named a revision rotated away since: read it again
			}
			return nil, nil, &Error{Code: ErrInternal, Message: err.Error()}
		}
		file, statErr := os.Stat(filepath.Join(s.layout.Rev(name), rev.GraphDB))
		s.mu.Lock()
		if cur := s.cur; cur != nil && (cur.is(name, file, statErr) || s.next != nil) {
			// the current revision; or a newer one is warming, and the
			// current one answers until it is ready (warm.go)
			cur.refs.Add(1)
			s.mu.Unlock()
			return cur, cur.refs.Done, nil
		}
		snap, err := openSnapshot(ctx, s.layout, name)
		if err != nil {
			s.mu.Unlock()
			// CURRENT moved on while the revision it named was opened (and
			// rotated away): open the new one
			if now, cerr := s.layout.CurrentRev(); cerr == nil && now != name && attempt < 3 {
				continue
			}
			return nil, nil, err
		}
		if cur := s.cur; cur != nil && s.warmFirst.Load() {
			// warm the new revision first; the current one answers
			// meanwhile, and the switch happens once it is warm
			s.next = snap
			snap.refs.Add(1) // the warm-up's
			go s.warmThenServe(snap)
			cur.refs.Add(1)
			s.mu.Unlock()
			return cur, cur.refs.Done, nil
		}
		s.serve(snap)
		snap.refs.Add(1)
		s.mu.Unlock()
		return snap, snap.refs.Done, nil
	}
}

// pinKey is the context key of a revision calls must use (warm.go).
type pinKey struct{}

// is reports whether snap is revision name whose graph.sqlite is file.
func (snap *snapshot) is(name string, file os.FileInfo, statErr error) bool {
	return snap.name == name && statErr == nil && os.SameFile(snap.file, file)
}

// serve makes snap the revision new calls use; s.mu is held. The old one is
// closed once its calls have finished; its caches (rank graph, drift
// checker) go with it.
func (s *Service) serve(snap *snapshot) {
	if old := s.cur; old != nil && old != snap {
		go func() { old.refs.Wait(); old.close() }()
	}
	s.cur = snap
}

// openSnapshot opens revision name. Its graph.sqlite is stat'ed before it is
// opened: if the file is replaced in between, the next call sees a
// different file and opens again.
func openSnapshot(ctx context.Context, l rev.Layout, name string) (*snapshot, error) {
	dir := l.Rev(name)
	file, err := os.Stat(filepath.Join(dir, rev.GraphDB))
	if err != nil {
		return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("opening revision %s: %v", name, err)}
	}
	b, err := os.ReadFile(filepath.Join(dir, rev.RevJSON))
	if err != nil {
		return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("reading %s: %v", rev.RevJSON, err)}
	}
	snap := &snapshot{name: name, file: file}
	if err := json.Unmarshal(b, &snap.info); err != nil {
		return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("decoding %s: %v", rev.RevJSON, err)}
	}
	if snap.graph, err = graph.Open(ctx, filepath.Join(dir, rev.GraphDB)); err != nil {
		return nil, storeError(err)
	}
	if snap.lex, err = lexvec.Open(ctx, filepath.Join(dir, rev.LexvecDB)); err != nil {
		snap.graph.Close()
		return nil, storeError(err)
	}
	return snap, nil
}

func (s *snapshot) close() {
	if s.graph != nil {
		s.graph.Close()
	}
	if s.lex != nil {
		s.lex.Close()
	}
}

// control returns control.sqlite, opened on first use and shared by all calls
// (it is safe for concurrent use); callers must not close it. A stat per call
// notices when the file was replaced (`ragraf drop` and a new index) and
// opens the new one.
func (s *Service) control(ctx context.Context) (*control.Store, error) {
	s.ctlMu.Lock()
	defer s.ctlMu.Unlock()
	path := s.layout.Control()
	if s.ctl != nil {
		// a ledger open for reading only (a read-only file system, a full
		// disk) is tried for writing again now and then
		fresh := s.ctl.ReadOnly() == nil || time.Since(s.ctlOpened) < readOnlyRetry
		if fi, err := os.Stat(path); err == nil && os.SameFile(fi, s.ctlFile) && fresh {
			return s.ctl, nil
		}
		s.ctl.Close() // in-flight statements finish first
		s.ctl = nil
	}
	c, err := control.Open(ctx, path)
	if err != nil {
		return nil, storeError(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		c.Close()
		return nil, storeError(err)
	}
	s.ctl, s.ctlFile, s.ctlOpened = c, fi, time.Now()
	return c, nil
}
