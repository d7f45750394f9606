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

	"github.com/ragraf/ragraf/internal/drift"
	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/control"
	"github.com/ragraf/ragraf/internal/store/graph"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// Service answers operations for one project. It is safe for concurrent use.
type Service struct {
	root   string
	layout rev.Layout

	mu  sync.Mutex
	cur *snapshot // the revision new calls use

	ctlMu   sync.Mutex
	ctl     *control.Store // control.sqlite, opened once and shared by calls
	ctlFile os.FileInfo    // the file ctl has open, to notice a replaced one
}

// snapshot is one open revision; calls hold it for their whole duration.
type snapshot struct {
	name  string
	info  rev.Info
	graph *graph.Store
	lex   *lexvec.Store
	refs  sync.WaitGroup // calls in flight

	checkOnce sync.Once
	check     *drift.Checker // stale checks against this revision (stale.go)

	rankMu sync.Mutex
	rank   *rankEntry // repo_map's rank graph (repomap.go)
}

// New returns a Service for the project at root. It opens nothing until the
// first call, so a Service can be started before the first index exists.
func New(root string) (*Service, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	return &Service{root: abs, layout: rev.Layout{Root: abs}}, nil
}

// Root is the project directory.
func (s *Service) Root() string { return s.root }

// Close closes the open revision.
func (s *Service) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil {
		s.cur.close()
		s.cur = nil
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
func (s *Service) acquire(ctx context.Context) (*snapshot, func(), error) {
	name, err := s.layout.CurrentRev()
	if err != nil {
		if errors.Is(err, rev.ErrNotIndexed) {
			return nil, nil, &Error{Code: ErrNotIndexed, Message: "the project has no index yet: run `ragraf index` first"}
		}
		return nil, nil, &Error{Code: ErrInternal, Message: err.Error()}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil || s.cur.name != name {
		snap, err := openSnapshot(ctx, s.layout, name)
		if err != nil {
			return nil, nil, err
		}
		if old := s.cur; old != nil {
			// close the old revision once its calls have finished
			go func() { old.refs.Wait(); old.close() }()
		}
		s.cur = snap
	}
	snap := s.cur
	snap.refs.Add(1)
	return snap, snap.refs.Done, nil
}

func openSnapshot(ctx context.Context, l rev.Layout, name string) (*snapshot, error) {
	dir := l.Rev(name)
	b, err := os.ReadFile(filepath.Join(dir, rev.RevJSON))
	if err != nil {
		return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("reading %s: %v", rev.RevJSON, err)}
	}
	snap := &snapshot{name: name}
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
		if fi, err := os.Stat(path); err == nil && os.SameFile(fi, s.ctlFile) {
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
	s.ctl, s.ctlFile = c, fi
	return c, nil
}
