// This file keeps answers honest while the working tree drifts (FT-28):
// before an answer leaves, every path it cites is checked against the
// revision (a stat; a hash only when size or mtime changed; a diff only when
// the hash changed), any new change is recorded in the ledger first, and the
// envelope gets the drift summary and one stale warning per changed path.
// The ledger operations are in drift.go; the detectors in internal/drift.
//
// # Marking individual facts
//
// The same check gives a StaleView, and finish hands it to markStale
// (stalemarks.go), which sets the "stale" mark of each item of the answer:
// v.At(path, start, end) for a fact in a changed range, v.Chain(steps...) for
// an item reached through a chain (the first drifted step: its own lines, an
// edge's evidence line, or an edge in stale_edge). A *StaleMark marshals as
// {"kind", "entries", "lines", "via"} in fields tagged `json:"stale,omitempty"`,
// so facts over an unchanged tree stay as they were.

package facade

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/ragraf/ragraf/internal/drift"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/control"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// checker returns the drift Checker of snap's revision, made on first use; it
// lives as long as the open revision, so its stat cache is per revision.
func (s *Service) checker(snap *snapshot) *drift.Checker {
	snap.checkOnce.Do(func() {
		snap.check = drift.NewChecker(driftSource(snap), s.root, s.configOrDefault())
	})
	return snap.check
}

// driftSource reads snap for the detectors.
func driftSource(snap *snapshot) drift.Source {
	g := snap.graph
	conv := func(f graph.File) drift.IndexedFile {
		// the walk marks a file it cannot open `skipped`, the build one it
		// cannot read `failed`: both are "unreadable: …", a change once readable
		return drift.IndexedFile{Path: f.Path, Lang: f.Lang, Size: f.Size, MTime: f.MTime, Hash: f.Hash,
			Unreadable: (f.Status == "failed" || f.Status == "skipped") && strings.HasPrefix(f.Reason, "unreadable")}
	}
	return drift.Source{
		Rev: snap.name, GitHead: snap.info.GitHead,
		File: func(ctx context.Context, p string) (drift.IndexedFile, bool, error) {
			f, ok, err := g.File(ctx, p)
			return conv(f), ok, err
		},
		Files: func(ctx context.Context) ([]drift.IndexedFile, error) {
			fs, err := g.Files(ctx)
			out := make([]drift.IndexedFile, len(fs))
			for i, f := range fs {
				out[i] = conv(f)
			}
			return out, err
		},
		Snapshot: g.Snapshot,
		Nodes: func(ctx context.Context, p string) ([]fact.Node, error) {
			return g.NodesInFile(ctx, p)
		},
		Meta: g.Meta,
	}
}

// StaleMark flags one fact (or the chain leading to it) as possibly stale.
type StaleMark struct {
	Kind    string   `json:"kind"`
	Entries []string `json:"entries"`
	Lines   []int    `json:"lines"`         // the changed ranges it falls in, as start,end pairs
	Via     string   `json:"via,omitempty"` // for a chain: path:line of the drifted step
	// CurrentLine is where the fact's first line is in the working tree when
	// lines above it were added or removed (kind "moved" when its own lines
	// did not change); 0 when it did not move or cannot be mapped
	CurrentLine int `json:"current_line,omitempty"`
}

// StaleStep is one step of a chain: a node's range or an edge's evidence.
type StaleStep struct {
	Path  string
	Start int
	End   int    // 0 means Start
	Edge  string // the edge taken to reach this step, if any
}

// StaleView says which of an answer's cited paths changed. It is read-only
// and safe for concurrent use once built.
type StaleView struct {
	paths      map[string]*pathStale
	staleEdges map[string][]string // edge id -> entry ids
}

type pathStale struct {
	kind    string
	entries []string
	lines   [][2]int
	whole   bool // deleted or renamed away: every line is stale
	moves   *drift.LineMap
}

// Lines returns the changed line ranges of path against the revision (nil
// when unchanged; the whole file when it was deleted).
func (v *StaleView) Lines(path string) [][2]int {
	if p := v.paths[path]; p != nil {
		return p.lines
	}
	return nil
}

// At marks a fact at path whose lines are [start, end] (end 0 means start);
// it returns nil when the fact is not in a changed range.
func (v *StaleView) At(path string, start, end int) *StaleMark {
	p := v.paths[path]
	if p == nil {
		return nil
	}
	if end < start {
		end = start
	}
	var hit []int
	for _, r := range p.lines {
		if p.whole || (start <= r[1] && r[0] <= end) {
			hit = append(hit, r[0], r[1])
		}
	}
	moved := 0
	if p.moves != nil && !p.whole {
		if cur, ok := p.moves.Map(start); ok && cur != start {
			moved = cur
		}
	}
	if hit == nil && !p.whole {
		if moved == 0 {
			return nil
		}
		// the fact is as indexed, but not where the revision says
		return &StaleMark{Kind: "moved", Entries: p.entries, Lines: []int{}, CurrentLine: moved}
	}
	return &StaleMark{Kind: p.kind, Entries: p.entries, Lines: nz(hit), CurrentLine: moved}
}

// Chain returns the mark of the first drifted step of a chain (an impact,
// callers or callees path), with Via naming it, or nil when every step is
// current.
func (v *StaleView) Chain(steps ...StaleStep) *StaleMark {
	for _, st := range steps {
		m := v.At(st.Path, st.Start, st.End)
		if m == nil && st.Edge != "" {
			if ids := v.staleEdges[st.Edge]; len(ids) > 0 {
				m = &StaleMark{Kind: "stale_edge", Entries: ids, Lines: []int{}}
			}
		}
		if m != nil {
			m.Via = fmt.Sprintf("%s:%d", st.Path, st.Start)
			return m
		}
	}
	return nil
}

// EdgeStale reports whether an edge is recorded in stale_edge for the
// revision (its evidence or an endpoint changed).
func (v *StaleView) EdgeStale(id string) bool { return len(v.staleEdges[id]) > 0 }

func nz[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// staleView checks paths against snap's revision, records new changes in the
// ledger, and returns what changed. Paths already checked at the same size and
// mtime cost one stat each.
func (s *Service) staleView(ctx context.Context, snap *snapshot, paths []string) (*StaleView, error) {
	ctl, err := s.control(ctx)
	if err != nil {
		return nil, err
	}
	return s.checkPaths(ctx, ctl, snap, paths)
}

func (s *Service) checkPaths(ctx context.Context, ctl *control.Store, snap *snapshot, paths []string) (*StaleView, error) {
	v := &StaleView{paths: map[string]*pathStale{}, staleEdges: map[string][]string{}}
	ck := s.checker(snap)
	var fresh []drift.Delta
	needCompare := false
	seen := map[string]bool{}
	for _, p := range paths {
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		ds, isNew, err := ck.Check(ctx, p)
		if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENAMETOOLONG) {
			continue // no file can have this name (a ledger entry written before paths were checked)
		}
		if err != nil {
			return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("checking %s for drift: %v", p, err)}
		}
		if len(ds) == 0 {
			continue
		}
		ps := &pathStale{kind: ds[0].Kind}
		for _, d := range ds {
			ps.entries = append(ps.entries, control.EntryID(d.DedupKey))
			if d.Kind == drift.KindDelete {
				ps.whole = true
				needCompare = true // a delete may be half of a rename: let compare pair it
			}
			ps.lines = append(ps.lines, d.Lines...)
		}
		ps.lines = mergeLines(ps.lines)
		if !ps.whole {
			if ps.moves, err = ck.Moves(ctx, p); err != nil {
				return nil, &Error{Code: ErrInternal, Message: fmt.Sprintf("mapping the lines of %s: %v", p, err)}
			}
		}
		v.paths[p] = ps
		if isNew {
			fresh = append(fresh, ds...)
		}
	}
	if needCompare {
		// record what compare sees; a deleted path that was renamed gets the
		// rename's entry in its warning
		all, err := drift.Compare(ctx, driftSource(snap), s.root, s.configOrDefault())
		if err != nil {
			return nil, &Error{Code: ErrInternal, Message: "comparing the working tree: " + err.Error()}
		}
		if _, err := s.record(ctx, ctl, snap, drift.MethodCompare, all); err != nil && !readOnly(err) {
			return nil, err
		}
		for _, d := range all {
			if d.Kind == drift.KindRename && v.paths[d.OldPath] != nil {
				v.paths[d.OldPath].kind = drift.KindRename
				v.paths[d.OldPath].entries = []string{control.EntryID(d.DedupKey)}
			}
		}
	} else if _, err := s.record(ctx, ctl, snap, drift.MethodCompare, fresh); err != nil && !readOnly(err) {
		return nil, err
	}
	if len(v.paths) > 0 {
		edges, err := ctl.StaleEdges(ctx, snap.name)
		if err != nil {
			return nil, storeError(err)
		}
		for _, e := range edges {
			v.staleEdges[e.EdgeID] = append(v.staleEdges[e.EdgeID], e.EntryID)
		}
	}
	return v, nil
}

// readOnly reports whether err says the ledger cannot be written. A read
// then answers without recording what it found: its stale warnings still
// say what changed.
func readOnly(err error) bool {
	var fe *Error
	return errors.As(err, &fe) && fe.Code == ErrReadOnly
}

func mergeLines(rs [][2]int) [][2]int {
	sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
	var out [][2]int
	for _, r := range rs {
		if n := len(out); n > 0 && r[0] <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

// stale fills env.Drift and env.StaleWarnings for paths.
func (s *Service) stale(ctx context.Context, env *Envelope, snap *snapshot, paths []string) error {
	ctl, err := s.control(ctx)
	if err != nil {
		return err
	}
	v, err := s.checkPaths(ctx, ctl, snap, paths)
	if err != nil {
		return err
	}
	if len(v.paths) > 0 {
		env.Result = markStale(env.Result, v)
	}
	keys := make([]string, 0, len(v.paths))
	for p := range v.paths {
		keys = append(keys, p)
	}
	sort.Strings(keys)
	for _, p := range keys {
		ps := v.paths[p]
		var lines []int
		for _, r := range ps.lines {
			lines = append(lines, r[0], r[1])
		}
		env.StaleWarnings = append(env.StaleWarnings, StaleWarning{Path: p, Entries: ps.entries, Kind: ps.kind, Lines: nz(lines)})
	}
	return summarize(ctx, ctl, env, snap)
}

// summarize fills env.Drift from the active ledger.
func summarize(ctx context.Context, ctl *control.Store, env *Envelope, snap *snapshot) error {
	n, un, err := ctl.Summary(ctx, snap.name)
	if err != nil {
		return storeError(err)
	}
	env.Drift = DriftSummary{Entries: n, Unacked: un, LedgerCheckedAt: time.Now().UTC().Format(time.RFC3339)}
	return nil
}
