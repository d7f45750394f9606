// This file defines what a set of changed definitions reaches backwards:
// the definitions along impact's edges (walk.go), the tables the code touches
// and the entry points that handle any of it; context and impact answer from it.

package facade

import (
	"context"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// reachResult is what a set of changed definitions reaches backwards, each
// list ordered by depth and place.
type reachResult struct {
	hard, soft   []reached // definitions
	hardT, softT []reached // tables
	hardE, softE []reached // entry points
	places       map[string]graph.Place
}

// reach walks impact's edges back from start up to depth, then attaches the
// tables the code touches (unless tables is withoutTables: a change to a
// table does not reach the other tables its users touch) and the entry points that
// handle any of it, as the impact operation does.
func (s *Service) reach(ctx context.Context, snap *snapshot, start []string, depth int, tables tableReach) (*reachResult, error) {
	r := &reachResult{}
	if len(start) == 0 {
		r.places = map[string]graph.Place{}
		return r, nil
	}
	var err error
	if r.hard, r.soft, err = s.hardSoft(ctx, snap, start, impactKinds, depth, hardAndSoft); err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	for _, id := range start {
		skip[id] = true
	}
	from := origins(start, r.hard, r.soft)
	if tables == withTables {
		if r.hardT, r.softT, err = s.attach(ctx, snap, from, attachOpts{kinds: tableKinds, forward: true, skip: skip}); err != nil {
			return nil, err
		}
	}
	if r.hardE, r.softE, err = s.attach(ctx, snap, from, attachOpts{kinds: handlesKinds, again: true, skip: skip}); err != nil {
		return nil, err
	}
	all := slices.Concat(r.hard, r.soft, r.hardT, r.softT, r.hardE, r.softE)
	if r.places, err = snap.graph.Places(ctx, reachedIDs(all)); err != nil {
		return nil, storeError(err)
	}
	r.hard, r.soft = byPlace(r.hard, r.places), byPlace(r.soft, r.places)
	r.hardT, r.softT = byPlace(r.hardT, r.places), byPlace(r.softT, r.places)
	r.hardE, r.softE = byPlace(r.hardE, r.places), byPlace(r.softE, r.places)
	return r, nil
}

// hardFirst is the hard list then the soft one, each reached item marked.
func hardFirst(hard, soft []reached) []reachedAs {
	out := make([]reachedAs, 0, len(hard)+len(soft))
	for _, r := range hard {
		out = append(out, reachedAs{r, true})
	}
	for _, r := range soft {
		out = append(out, reachedAs{r, false})
	}
	return out
}

type reachedAs struct {
	reached
	hard bool
}

func (r *reachResult) entryPoints() []reachedAs { return hardFirst(r.hardE, r.softE) }
func (r *reachResult) tables() []reachedAs      { return hardFirst(r.hardT, r.softT) }

// files counts the files of the definitions reached.
func (r *reachResult) files() int {
	seen := map[string]bool{}
	for _, x := range slices.Concat(r.hard, r.soft) {
		seen[r.places[x.id].Path] = true
	}
	return len(seen)
}

// tests groups the reached definitions that live in test files by file:
// files reached over stated chains first, then by path.
func (r *reachResult) tests() []ReachFile {
	by := map[string]*ReachFile{}
	for _, x := range hardFirst(r.hard, r.soft) {
		p := r.places[x.id]
		if !isTestPath(p.Path) {
			continue
		}
		f := by[p.Path]
		if f == nil {
			f = &ReachFile{Path: p.Path, Line: p.Line, Provenance: string(fact.Derived)}
			by[p.Path] = f
		}
		f.Symbols++
		f.Line = min(f.Line, p.Line)
		if x.hard {
			f.Provenance = string(fact.Stated)
		}
	}
	out := make([]ReachFile, 0, len(by))
	for _, p := range slices.Sorted(maps.Keys(by)) {
		out = append(out, *by[p])
	}
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].Provenance == string(fact.Stated) && out[j].Provenance != string(fact.Stated)
	})
	return out
}

// isTestPath reports whether a file holds tests by the usual conventions of
// the indexed languages: a tests directory; a name ending in Test or Tests
// (PHPUnit, JUnit, NUnit), _test (Go, Python), _spec (RSpec), .test or
// .spec (Jest, Vitest, Jasmine); test_*.py (pytest).
func isTestPath(p string) bool {
	for _, seg := range strings.Split(path.Dir(p), "/") {
		switch strings.ToLower(seg) {
		case "test", "tests", "spec", "specs", "__tests__":
			return true
		}
	}
	base := strings.TrimSuffix(path.Base(p), path.Ext(p))
	for _, suf := range []string{"Test", "Tests", "_test", ".test", "_spec", ".spec"} {
		if strings.HasSuffix(base, suf) {
			return true
		}
	}
	return strings.HasPrefix(base, "test_") && path.Ext(p) == ".py"
}

// tableReach says whether reach attaches the tables the code touches.
type tableReach bool

const (
	withoutTables tableReach = false
	withTables    tableReach = true
)

// itemKind is what reachItems loads: plain reached items, or
// implementations (their provenance is that of the chain, and the relation
// its first edge).
type itemKind bool

const (
	reachedItems        itemKind = false
	implementationItems itemKind = true
)

// reachItems loads the items of list as items says.
func (s *Service) reachItems(ctx context.Context, snap *snapshot, list []reachedAs, items itemKind) ([]ReachItem, error) {
	ids := make([]string, len(list))
	for i, r := range list {
		ids[i] = r.id
	}
	syms, err := s.symbolsOf(ctx, snap, ids)
	if err != nil {
		return nil, err
	}
	out := make([]ReachItem, 0, len(list))
	for _, r := range list {
		sym := syms[r.id]
		if sym == nil {
			continue
		}
		ch := steps(r.chain)
		it := ReachItem{ID: sym.ID, Kind: sym.Kind, QName: sym.QName, Path: sym.Path, Line: sym.Line, Depth: r.depth, chain: ch}
		if it.QName == "" {
			it.QName = sym.Name
		}
		if len(ch) > 0 {
			it.Relation = ch[0].Kind
		}
		switch {
		case items == implementationItems:
			it.Provenance = chainProvenance(ch)
		case r.hard:
			it.Provenance = string(fact.Stated)
		default:
			it.Provenance = string(fact.Derived)
		}
		out = append(out, it)
	}
	return out, nil
}
