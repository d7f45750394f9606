// This file computes a revision's data-flow summaries (dataflow.Summarize)
// once resolution has given the call edges: every stored lowering is
// decoded and named by its graph node, as a query names it, and the links
// are the ones a query follows (calls, calls_heuristic, and `new` as a call
// of the constructor it runs). A component of the call graph whose input is
// unchanged since the parent revision keeps the parent's summaries, so a
// reindex walks only changed functions and the ones whose callees'
// summaries changed.

package rev

import (
	"context"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/ragraf/ragraf/internal/dataflow"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// maxCtorHops bounds the walk up the extends chain to a constructor (as the
// query's).
const maxCtorHops = 8

// SummaryInfo is what rev.json says about the data-flow summaries: how many
// were made, how many reused from the parent, the recursive components and
// the functions whose component the fixpoint cap stopped, and the wall time.
type SummaryInfo struct {
	Functions  int   `json:"functions"`
	Reused     int   `json:"reused"`
	Components int   `json:"recursive_components"`
	Capped     int   `json:"capped"`
	MS         int64 `json:"ms"`
}

// summaries computes the summaries of every lowered file in irs and returns
// them encoded per file. parentGraph is the parent revision's graph.sqlite
// ("" for none), whose stored summaries are reused where their input is
// unchanged.
func summaries(ctx context.Context, opts Options, irs map[string][]byte, nodes []fact.Node, edges []fact.Edge, parentGraph string) (map[string][]byte, *SummaryInfo, error) {
	if !opts.Config.DataFlow.Enabled || len(irs) == 0 {
		return nil, nil, nil
	}
	start := time.Now()
	models, err := dataflow.DefaultModels()
	if err != nil {
		return nil, nil, err
	}
	models = models.With(opts.Config.DataFlow.Models)
	fp := models.Fingerprint()

	defsByPath := map[string][]fact.Node{}
	byID := make(map[string]*fact.Node, len(nodes))
	for i := range nodes {
		n := &nodes[i]
		byID[n.ID] = n
		if n.Kind == fact.Function || n.Kind == fact.Method {
			defsByPath[n.Path] = append(defsByPath[n.Path], *n)
		}
	}
	paths := make([]string, 0, len(irs))
	for p := range irs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	callees, callers := summaryLinks(nodes, edges, byID)
	// only a function something calls has its summary applied: a top level
	// or a function nothing calls needs none
	pathOf := func(id string) string {
		if n := byID[id]; n != nil {
			return n.Path
		}
		return ""
	}
	var ids []string
	for _, p := range paths {
		for _, d := range defsByPath[p] {
			if len(callers[d.ID]) > 0 {
				ids = append(ids, d.ID)
			}
		}
	}
	lz := &lazyFiles{irs: irs, defs: defsByPath, files: map[string][]*dataflow.Func{}}

	includes := map[string][]dataflow.Include{}
	for i := range edges {
		e := &edges[i]
		if e.Kind != fact.Includes {
			continue
		}
		from, to := byID[e.From], byID[e.To]
		if from == nil || to == nil || from.Path == "" || to.Path == "" {
			continue
		}
		includes[from.Path] = append(includes[from.Path], dataflow.Include{Path: to.Path, Line: e.EvidenceLine})
		includes[to.Path] = append(includes[to.Path], dataflow.Include{Path: from.Path})
	}
	env := dataflow.Env{
		Models: models,
		Func: func(_ context.Context, id string) (*dataflow.Func, error) {
			for _, f := range lz.get(pathOf(id)) {
				if f.ID == id {
					return f, nil
				}
			}
			return nil, nil
		},
		Callees: func(_ context.Context, id string) ([]dataflow.Link, error) {
			return callees[id], nil
		},
		Callers: func(_ context.Context, id string) ([]dataflow.Link, error) {
			return callers[id], nil
		},
		Siblings: func(_ context.Context, f *dataflow.Func) ([]*dataflow.Func, error) { return lz.get(f.Path), nil },
		File:     func(_ context.Context, p string) ([]*dataflow.Func, error) { return lz.get(p), nil },
		Includes: func(_ context.Context, p string) ([]dataflow.Include, error) { return includes[p], nil },
	}
	prev := parentSummaries(ctx, parentGraph, fp)
	sums, st, err := dataflow.Summarize(ctx, dataflow.Revision{
		Env: env, IDs: ids,
		Path:    pathOf,
		Callees: func(id string) []dataflow.Link { return callees[id] },
		File:    func(p string) []byte { return irs[p] },
		Prev: func(id string) *dataflow.Summary {
			return prev[id]
		},
	})
	if err != nil {
		return nil, nil, err
	}
	byPath := map[string][]string{}
	for _, id := range ids {
		if sums[id] != nil {
			byPath[pathOf(id)] = append(byPath[pathOf(id)], id)
		}
	}
	out := make(map[string][]byte, len(byPath))
	for p, ids := range byPath {
		out[p] = dataflow.EncodeSummaries(fp, ids, sums)
	}
	info := &SummaryInfo{Functions: st.Functions, Reused: st.Reused, Components: st.Components, Capped: st.Capped, MS: time.Since(start).Milliseconds()}
	opts.Logger.Info("data-flow summaries", "functions", st.Functions, "reused", st.Reused, "recursive", st.Components, "capped", st.Capped, "files decoded", lz.decoded, "ms", info.MS)
	return out, info, nil
}

// lazyFiles decodes and names a file's stored lowering the first time a
// summary walk asks for it, and keeps it for the rest of the pass: files
// without a called function are never decoded.
type lazyFiles struct {
	irs     map[string][]byte
	defs    map[string][]fact.Node
	mu      sync.Mutex
	files   map[string][]*dataflow.Func
	decoded int
}

func (l *lazyFiles) get(path string) []*dataflow.Func {
	l.mu.Lock()
	fs, ok := l.files[path]
	l.mu.Unlock()
	if ok {
		return fs
	}
	b, ok := l.irs[path]
	if ok {
		var err error
		if fs, err = dataflow.Decode(b); err != nil {
			fs = nil // a query lowers such a file from its snapshot; no summary for it
		}
		dataflow.NameFuncs(fs, fact.FileNodeID(path), dataflow.DefsOf(l.defs[path]))
		for _, f := range fs {
			f.Prepare()
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if prev, ok := l.files[path]; ok { // decoded meanwhile by another walker
		return prev
	}
	l.files[path] = fs
	l.decoded++
	return fs
}

// summaryLinks returns the links a query follows, by caller and by callee:
// calls and calls_heuristic edges, and instantiates edges as calls of the
// constructor the class runs (declared, or inherited along extends).
func summaryLinks(nodes []fact.Node, edges []fact.Edge, byID map[string]*fact.Node) (callees, callers map[string][]dataflow.Link) {
	callees, callers = map[string][]dataflow.Link{}, map[string][]dataflow.Link{}
	ctorOf := map[string]string{} // class id -> its own __construct
	parents := map[string][]string{}
	for i := range edges {
		e := &edges[i]
		switch e.Kind {
		case fact.Contains:
			if n := byID[e.To]; n != nil && n.Kind == fact.Method && fact.Lower(n.Name) == "__construct" {
				ctorOf[e.From] = e.To
			}
		case fact.Extends:
			parents[e.From] = append(parents[e.From], e.To)
		}
	}
	var inherited func(class string, hops int) string
	inherited = func(class string, hops int) string {
		if c, ok := ctorOf[class]; ok {
			return c
		}
		if hops >= maxCtorHops {
			return ""
		}
		for _, p := range parents[class] {
			if c := inherited(p, hops+1); c != "" {
				return c
			}
		}
		return ""
	}
	add := func(l dataflow.Link) {
		callees[l.Caller] = append(callees[l.Caller], l)
		callers[l.Callee] = append(callers[l.Callee], l)
	}
	for i := range edges {
		e := &edges[i]
		switch e.Kind {
		case fact.Calls, fact.CallsHeuristic:
			name := ""
			if n := byID[e.To]; n != nil {
				name = n.Name
			}
			add(dataflow.Link{Caller: e.From, Callee: e.To, Line: e.EvidenceLine, Name: name, Provenance: string(e.Provenance), Confidence: e.Confidence})
		case fact.Instantiates:
			if c := inherited(e.To, 0); c != "" {
				add(dataflow.Link{Caller: e.From, Callee: c, Line: e.EvidenceLine, Name: "__construct", Provenance: string(e.Provenance), Confidence: e.Confidence})
			}
		}
	}
	return callees, callers
}

// parentSummaries reads the summaries the parent revision stored under the
// same models; nil when there is none (a first build, another schema, other
// models): everything is then computed.
func parentSummaries(ctx context.Context, path string, models uint64) map[string]*dataflow.Summary {
	if path == "" {
		return nil
	}
	st, err := graph.Open(ctx, path)
	if err != nil {
		return nil
	}
	defer st.Close()
	out := map[string]*dataflow.Summary{}
	err = st.Summaries(ctx, func(_ string, b []byte) error {
		fp, sums, err := dataflow.DecodeSummaries(b)
		if err != nil || fp != models {
			return nil
		}
		for id, s := range sums {
			out[id] = s
		}
		return nil
	})
	if err != nil {
		return nil
	}
	return out
}

// parentGraphPath is the parent revision's graph.sqlite, "" when none.
func parentGraphPath(root, parent string) string {
	if parent == "" {
		return ""
	}
	return filepath.Join(Layout{Root: root}.Rev(parent), GraphDB)
}
