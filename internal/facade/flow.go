// This file defines the flow operation and what slice (slice.go) shares
// with it: the data-flow environment of a revision (the indexed snapshots
// lowered on demand, the call edges of the graph), the resolution of a
// criterion (an id, or path:line with a variable) into IR nodes, and the
// step and cut types of both answers. The engine is internal/dataflow; the
// PHP lowering internal/lang/php/dataflow.go.

package facade

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/dataflow"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang/php"
)

// ErrCapability is the code of an operation the revision cannot answer
// (its capability says why).
const ErrCapability = "E_CAPABILITY"

// DataBudget bounds one slice or flow query (NFR-8); over it the answer is
// partial and marked truncated.
type DataBudget struct {
	MaxMS     int `json:"max_ms,omitempty"`
	MaxStates int `json:"max_states,omitempty"`
}

// DataVia is the call a step crosses.
type DataVia struct {
	CallSite   string `json:"call_site"` // path:line of the call
	Callee     string `json:"callee"`    // node id of the function entered or left
	CalleeName string `json:"callee_name,omitempty"`
}

// DataStep is one statement node of a slice or a flow: where it is, what
// location it defines, and the edge that reached it.
type DataStep struct {
	Path         string     `json:"path"`
	Line         int        `json:"line"`
	Kind         string     `json:"kind"`
	Location     string     `json:"location"`
	Function     string     `json:"function"` // node id of the enclosing function, method or file
	FunctionName string     `json:"function_name,omitempty"`
	Edge         string     `json:"edge,omitempty"`
	Via          *DataVia   `json:"via,omitempty"`
	Provenance   string     `json:"provenance"`
	Confidence   float64    `json:"confidence"`
	Sanitizers   []string   `json:"sanitizers,omitempty"`
	Stale        *StaleMark `json:"stale,omitempty"`
}

// DataCut is a place the analysis could not see past: unresolved call,
// include not followed, variable variable, imprecise: …, depth, budget.
type DataCut struct {
	Path   string `json:"path,omitempty"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

// dfEnv is the data-flow environment of one query on one revision: files
// lowered once per revision (the revision's dfCache, dfcache.go), call edges
// read from the graph. held counts the bytes of the files the query uses,
// which dataflow.max_memory_mb bounds (NFR-8).
type dfEnv struct {
	snap   *snapshot
	cache  *dfCache
	files  map[string][]*dataflow.Func
	byID   map[string]*dataflow.Func
	sums   map[string]*dataflow.Summary
	names  map[string]string // node id -> name, for call edges
	models *dataflow.Models
	held   int64
	ctors  map[string]string // class id -> the constructor new runs ("" none); dfctor.go
}

func (s *Service) newDFEnv(snap *snapshot) (*dfEnv, error) {
	m, err := dataflow.DefaultModels()
	if err != nil {
		return nil, &Error{Code: ErrInternal, Message: err.Error()}
	}
	c := s.dfCacheOf(snap)
	if c.cfgErr != nil {
		return nil, &Error{Code: ErrBadInput, Message: "project.yaml does not load, so the data-flow settings and models are unknown: " + c.cfgErr.Error() + "; fix it (`ragraf index` checks it too) and restart the server"}
	}
	return &dfEnv{snap: snap, cache: c, files: map[string][]*dataflow.Func{}, byID: map[string]*dataflow.Func{}, sums: map[string]*dataflow.Summary{}, names: map[string]string{}, models: m.With(c.cfg.Models)}, nil
}

func (d *dfEnv) close() {}

// file returns the lowered functions of path (nil when the revision has no
// PHP snapshot of it), from the revision's cache or lowered now. Over the
// memory budget it returns dataflow.ErrMemory (never for the query's first
// file, which the answer needs to say anything).
func (d *dfEnv) file(ctx context.Context, path string) ([]*dataflow.Func, error) {
	if fs, ok := d.files[path]; ok {
		return fs, nil
	}
	f, ok := d.cache.get(path)
	if !ok {
		var err error
		if f, err = d.lower(ctx, path); err != nil {
			return nil, err
		}
		f = d.cache.put(f)
	}
	if d.held > 0 && d.held+f.size > d.cache.max {
		return nil, dataflow.ErrMemory
	}
	d.held += f.size
	for id, name := range f.names {
		d.names[id] = name
	}
	for _, fn := range f.funcs {
		d.byID[fn.ID] = fn
	}
	for id, sum := range f.sums {
		d.sums[id] = sum
	}
	d.files[path] = f.funcs
	return f.funcs, nil
}

// lowered returns the functions of path as the build lowered and stored
// them, or, for a file it stored none of (partial, or over its budget),
// lowers the revision's snapshot now; nil when there is nothing to lower.
func (d *dfEnv) lowered(ctx context.Context, path string) ([]*dataflow.Func, error) {
	b, ok, err := d.snap.graph.Dataflow(ctx, path)
	if err != nil {
		return nil, storeError(err)
	}
	if ok {
		if fs, err := dataflow.Decode(b); err == nil && len(fs) > 0 {
			return fs, nil
		}
	}
	content, ok, err := d.snap.graph.Snapshot(ctx, path)
	if err != nil {
		return nil, storeError(err)
	}
	if !ok {
		return nil, nil
	}
	x, err := getParser()
	if err != nil {
		return nil, &Error{Code: ErrInternal, Message: err.Error()}
	}
	fs, err := x.Dataflow(ctx, path, content, d.cache.cfg.MaxFunctionLines)
	putParser(x)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, nil // a file that does not parse has no data flow to offer
	}
	return fs, nil
}

// lower reads path's functions (lowered) and names each function by its
// graph node: a function or method with the same start
// line, the file's node for the top level; a function the graph does not
// know gets an id of its own and no call edges.
func (d *dfEnv) lower(ctx context.Context, path string) (*dfFile, error) {
	out := &dfFile{path: path, names: map[string]string{}}
	row, ok, err := d.snap.graph.File(ctx, path)
	if err != nil {
		return nil, storeError(err)
	}
	if !ok || row.Lang != php.Lang {
		out.size = fileSize(path, nil, nil)
		return out, nil
	}
	fs, err := d.lowered(ctx, path)
	if err != nil {
		return nil, err
	}
	if fs == nil {
		out.size = fileSize(path, nil, nil)
		return out, nil
	}
	nodes, err := d.snap.graph.NodesInFile(ctx, path)
	if err != nil {
		return nil, storeError(err)
	}
	out.names = dataflow.NameFuncs(fs, fact.FileNodeID(path), dataflow.DefsOf(nodes))
	if b, ok, err := d.snap.graph.Summary(ctx, path); err != nil {
		return nil, storeError(err)
	} else if ok {
		// summaries made under other models (project.yaml changed since
		// the build) are not applied: their sinks and sources are not these
		if fp, sums, err := dataflow.DecodeSummaries(b); err == nil && fp == d.models.Fingerprint() {
			out.sums = sums
		}
	}
	for _, f := range fs {
		f.Prepare()
	}
	out.funcs = fs
	out.size = fileSize(path, fs, out.names)
	return out, nil
}

func (d *dfEnv) fn(ctx context.Context, id string) (*dataflow.Func, error) {
	if f, ok := d.byID[id]; ok {
		return f, nil
	}
	n, ok, err := d.snap.graph.Node(ctx, id)
	if err != nil {
		return nil, storeError(err)
	}
	if !ok {
		d.byID[id] = nil
		return nil, nil
	}
	if _, err := d.file(ctx, n.Path); err != nil {
		return nil, err // ErrMemory: not remembered as absent
	}
	f := d.byID[id]
	if f == nil {
		d.byID[id] = nil
	}
	return f, nil
}

func (d *dfEnv) links(ctx context.Context, es []fact.Edge) ([]dataflow.Link, error) {
	var need []string
	for _, e := range es {
		if _, ok := d.names[e.To]; !ok {
			need = append(need, e.To)
		}
	}
	if len(need) > 0 {
		byID, err := d.snap.graph.NodesByID(ctx, need)
		if err != nil {
			return nil, storeError(err)
		}
		for _, id := range need {
			d.names[id] = byID[id].Name
		}
	}
	out := make([]dataflow.Link, 0, len(es))
	for _, e := range es {
		out = append(out, dataflow.Link{Caller: e.From, Callee: e.To, Line: e.EvidenceLine, Name: d.names[e.To],
			Provenance: string(e.Provenance), Confidence: e.Confidence})
	}
	return out, nil
}

// env is the engine's view of the revision.
func (d *dfEnv) env() dataflow.Env {
	return dataflow.Env{
		Models: d.models,
		Func:   d.fn,
		Callees: func(ctx context.Context, caller string) ([]dataflow.Link, error) {
			es, err := d.snap.graph.EdgesFrom(ctx, caller, callKinds)
			if err != nil {
				return nil, storeError(err)
			}
			ls, err := d.links(ctx, es)
			if err != nil {
				return nil, err
			}
			news, err := d.snap.graph.EdgesFrom(ctx, caller, []fact.EdgeKind{fact.Instantiates})
			if err != nil {
				return nil, storeError(err)
			}
			cs, err := d.ctorLinks(ctx, news)
			if err != nil {
				return nil, err
			}
			ls = append(ls, cs...)
			xs, err := d.extraCallees(ctx, caller, ls)
			return append(ls, xs...), err
		},
		Callers: func(ctx context.Context, callee string) ([]dataflow.Link, error) {
			es, err := d.snap.graph.EdgesToAny(ctx, []string{callee}, callKinds)
			if err != nil {
				return nil, storeError(err)
			}
			ls, err := d.links(ctx, es)
			if err != nil {
				return nil, err
			}
			cs, err := d.ctorCallers(ctx, callee)
			if err != nil {
				return nil, err
			}
			ls = append(ls, cs...)
			xs, err := d.extraCallers(ctx, callee)
			return append(ls, xs...), err
		},
		Siblings: func(ctx context.Context, f *dataflow.Func) ([]*dataflow.Func, error) {
			return d.file(ctx, f.Path)
		},
		File:     d.file,
		Includes: d.includes,
		Summary: func(ctx context.Context, id string) (*dataflow.Summary, error) {
			if _, err := d.fn(ctx, id); err != nil {
				return nil, err
			}
			return d.sums[id], nil
		},
	}
}

// includes returns the include edges of the file at path, both ways.
func (d *dfEnv) includes(ctx context.Context, path string) ([]dataflow.Include, error) {
	d.cache.incMu.Lock()
	is, ok := d.cache.includes[path]
	d.cache.incMu.Unlock()
	if ok {
		return is, nil
	}
	is, err := d.readIncludes(ctx, path)
	if err != nil {
		return nil, err
	}
	d.cache.incMu.Lock()
	d.cache.includes[path] = is
	d.cache.incMu.Unlock()
	return is, nil
}

func (d *dfEnv) readIncludes(ctx context.Context, path string) ([]dataflow.Include, error) {
	id := fact.FileNodeID(path)
	kinds := []fact.EdgeKind{fact.Includes}
	out, err := d.snap.graph.EdgesFrom(ctx, id, kinds)
	if err != nil {
		return nil, storeError(err)
	}
	in, err := d.snap.graph.EdgesToAny(ctx, []string{id}, kinds)
	if err != nil {
		return nil, storeError(err)
	}
	var ids []string
	for _, e := range out {
		ids = append(ids, e.To)
	}
	for _, e := range in {
		ids = append(ids, e.From)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	nodes, err := d.snap.graph.NodesByID(ctx, ids)
	if err != nil {
		return nil, storeError(err)
	}
	var res []dataflow.Include
	for _, e := range out {
		if n, ok := nodes[e.To]; ok && n.Path != "" {
			res = append(res, dataflow.Include{Path: n.Path, Line: e.EvidenceLine})
		}
	}
	for _, e := range in {
		if n, ok := nodes[e.From]; ok && n.Path != "" {
			res = append(res, dataflow.Include{Path: n.Path})
		}
	}
	return res, nil
}

// place is a criterion: a node id, or path:line, with an optional variable.
type place struct {
	id       string
	path     string
	line     int
	variable string
}

// parsePlace reads "path:line" or an id.
func (s *Service) parsePlace(field, v, variable string) (place, error) {
	p := place{variable: strings.TrimPrefix(variable, "$")}
	if i := strings.LastIndexByte(v, ':'); i > 0 {
		if n, err := strconv.Atoi(v[i+1:]); err == nil {
			if n < 1 {
				return p, badInput("%s: line must be at least 1", field)
			}
			path, err := s.cleanPath(field, v[:i])
			if err != nil {
				return p, err
			}
			p.path, p.line = path, n
			return p, nil
		}
	}
	if err := checkID(field, v); err != nil {
		return p, err
	}
	p.id = v
	return p, nil
}

// idPoints is what an id alone stands for in points.
type idPoints bool

const (
	idReturns idPoints = false // the function's returns
	idParams  idPoints = true  // the function's parameters
)

// points resolves a criterion into IR nodes. An id alone stands for the
// function's parameters or its returns (alone); a line picks the
// nodes at that line of the innermost function containing it, narrowed to
// the variable when one is given.
func (d *dfEnv) points(ctx context.Context, p place, alone idPoints) ([]dataflow.Point, error) {
	var f *dataflow.Func
	if p.id != "" {
		var err error
		if f, err = d.fn(ctx, p.id); err != nil || f == nil {
			return nil, err
		}
		if p.line == 0 {
			ids := f.Returns
			if alone == idParams {
				ids = f.Params
			}
			if f.TopLevel {
				ids = nil
				for i := range f.Nodes {
					ids = append(ids, i)
				}
			}
			return pointsOf(f, ids, p.variable), nil
		}
	} else {
		fs, err := d.file(ctx, p.path)
		if err != nil || len(fs) == 0 {
			return nil, err
		}
		f = fs[0]
		for _, g := range fs[1:] {
			if g.Contains(p.line) && g.StartLine >= f.StartLine {
				f = g
			}
		}
	}
	var ids []int
	for i, n := range f.Nodes {
		if n.Line == p.line {
			ids = append(ids, i)
		}
	}
	return pointsOf(f, ids, p.variable), nil
}

func pointsOf(f *dataflow.Func, ids []int, variable string) []dataflow.Point {
	var out []dataflow.Point
	for _, i := range ids {
		if variable != "" && !usesVar(f, i, variable) {
			continue
		}
		out = append(out, dataflow.Point{Func: f, Node: i})
	}
	return out
}

// roots keeps the points no other point at the same line flows into: where
// the line's values start (the input itself, not the variable it is
// assigned to after a sanitizer), so a path from the line passes through
// everything the line does to them.
func roots(pts []dataflow.Point) []dataflow.Point {
	in := map[int]bool{}
	for _, p := range pts {
		in[p.Node] = true
	}
	var out []dataflow.Point
	for _, p := range pts {
		root := true
		for _, e := range p.Func.Nodes[p.Node].In {
			if in[e.From] {
				root = false
				break
			}
		}
		if root {
			out = append(out, p)
		}
	}
	return out
}

// usesVar reports whether node i of f defines variable v or uses it (an
// argument or an echo of $v is about $v too).
func usesVar(f *dataflow.Func, i int, v string) bool {
	if strings.EqualFold(f.Nodes[i].Loc.Var(), v) {
		return true
	}
	for _, in := range f.Nodes[i].In {
		if strings.EqualFold(f.Nodes[in.From].Loc.Var(), v) {
			return true
		}
	}
	return false
}

func checkBudget(b DataBudget, depth int) (dataflow.Budget, error) {
	ms, err := checkRange("max_ms", b.MaxMS, 0, 1, 10000) // 0: dataflow.max_ms (withDefaults)
	if err != nil {
		return dataflow.Budget{}, err
	}
	st, err := checkRange("max_states", b.MaxStates, 200000, 1, 2000000)
	if err != nil {
		return dataflow.Budget{}, err
	}
	return dataflow.Budget{MaxMS: ms, MaxStates: st, Depth: depth}, nil
}

// withDefaults fills what the query left to the project's config.
func (d *dfEnv) withDefaults(b dataflow.Budget) dataflow.Budget {
	if b.MaxMS == 0 {
		b.MaxMS = d.cache.cfg.MaxMS
	}
	return b
}

func checkDataflow(snap *snapshot) error {
	if c := snap.info.Capability; !c.Dataflow {
		why, _, _ := strings.Cut(c.Reason, "; ") // the data-flow part; vectors follow
		if why == "" {
			why = "built before the engine"
		}
		return &Error{Code: ErrCapability, Message: "this revision has no data flow: " + why + " (reindex once the engine can run: dataflow.enabled true, a version that has it)"}
	}
	return nil
}

// steps converts engine steps, naming their functions.
func (s *Service) steps(ctx context.Context, snap *snapshot, in []dataflow.Step) ([]DataStep, error) {
	var ids []string
	for _, st := range in {
		ids = append(ids, st.Function)
		if st.Via != nil {
			ids = append(ids, st.Via.Callee)
		}
	}
	syms, err := s.symbolsOf(ctx, snap, ids)
	if err != nil {
		return nil, err
	}
	name := func(id string) string {
		if sym := syms[id]; sym != nil {
			if sym.QName != "" {
				return sym.QName
			}
			return sym.Name
		}
		return ""
	}
	out := make([]DataStep, len(in))
	for i, st := range in {
		ds := DataStep{Path: st.Path, Line: st.Line, Kind: st.Kind, Location: st.Location, Function: st.Function, FunctionName: name(st.Function),
			Edge: string(st.Edge), Provenance: st.Provenance, Confidence: st.Confidence, Sanitizers: st.Sanitizers}
		if st.Via != nil {
			ds.Via = &DataVia{CallSite: fmt.Sprintf("%s:%d", st.Via.CallPath, st.Via.CallLine), Callee: st.Via.Callee, CalleeName: name(st.Via.Callee)}
		}
		out[i] = ds
	}
	return out, nil
}

func cutsOf(cs []dataflow.Cut) []DataCut {
	out := make([]DataCut, len(cs))
	for i, c := range cs {
		out[i] = DataCut{Path: c.Path, Line: c.Line, Reason: c.Reason}
	}
	return out
}

func markSteps(ss []DataStep, v *StaleView) {
	for i := range ss {
		ss[i].Stale = v.At(ss[i].Path, ss[i].Line, ss[i].Line)
	}
}

func stepPaths(ss []DataStep) []string {
	var out []string
	for _, st := range ss {
		out = append(out, st.Path)
	}
	return out
}

// FlowArgs names both ends of a flow.
type FlowArgs struct {
	From         string `json:"from" jsonschema:"id, path:line or source:NAME (http_input or the project's dataflow.models)"`
	FromVariable string `json:"from_variable,omitempty"`
	To           string `json:"to" jsonschema:"id, path:line or sink:sql|output|shell|include|unserialize|file|code|ldap|xpath (or the project's)"`
	ToVariable   string `json:"to_variable,omitempty"`
	Depth        int    `json:"depth,omitempty" jsonschema:"0-5, default 2"`
	DataBudget
	Output
}

// FlowResult is a data-flow path, or why there is none.
type FlowResult struct {
	From string `json:"from"`
	To   string `json:"to"`
	// Found: Path holds the shortest path from source to sink. Otherwise
	// Complete says whether the search saw all it could reach: only then
	// is the absence of a path a fact; CutPoints say where it was blind.
	Found      bool       `json:"found"`
	Complete   bool       `json:"complete"`
	Truncated  bool       `json:"truncated"`
	Path       []DataStep `json:"path"`
	Sanitizers []string   `json:"sanitizers"` // passed on the path, in order
	CutPoints  []DataCut  `json:"cut_points"`
}

func (r FlowResult) markStale(v *StaleView) any {
	markSteps(r.Path, v)
	return r
}

// Flow searches for a data-flow path between two places or models.
func (s *Service) Flow(ctx context.Context, args FlowArgs) (*Envelope, error) {
	const op = "flow"
	if args.From == "" || args.To == "" {
		return nil, badInput("pass from and to")
	}
	depth, err := checkRange("depth", args.Depth, 2, 0, 5)
	if err != nil {
		return nil, err
	}
	budget, err := checkBudget(args.DataBudget, depth)
	if err != nil {
		return nil, err
	}
	srcModel, fromModel := strings.CutPrefix(args.From, "source:")
	sinkModel, toModel := strings.CutPrefix(args.To, "sink:")
	if strings.HasPrefix(args.From, "sink:") || strings.HasPrefix(args.To, "source:") {
		return nil, badInput("a flow goes from a source to a sink: from takes source:NAME, to takes sink:NAME")
	}
	if fromModel && toModel {
		return nil, badInput("one end of a flow must be a place (node id or path:line); searching from every source of the project is not supported")
	}
	var from, to place
	if !fromModel {
		if from, err = s.parsePlace("from", args.From, args.FromVariable); err != nil {
			return nil, err
		}
	}
	if !toModel {
		if to, err = s.parsePlace("to", args.To, args.ToVariable); err != nil {
			return nil, err
		}
	}
	c, err := s.begin(ctx, op, pager{})
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	if err := checkLowering(ctx, snap, from, to); err != nil {
		return nil, err
	}
	if err := checkDataflow(snap); err != nil {
		return nil, err
	}
	env := c.env
	res := FlowResult{From: args.From, To: args.To, Path: []DataStep{}, Sanitizers: []string{}, CutPoints: []DataCut{}}
	d, err := s.newDFEnv(snap)
	if err != nil {
		return nil, err
	}
	defer d.close()
	var (
		start   []dataflow.Point
		goal    dataflow.Goal
		forward = true
	)
	switch {
	case fromModel:
		if goal, err = d.models.SourceGoal(srcModel); err != nil {
			return nil, badInput("from: %v", err)
		}
		if start, err = d.points(ctx, to, idParams); err != nil {
			return nil, err
		}
		forward = false
	default:
		if start, err = d.points(ctx, from, idParams); err != nil {
			return nil, err
		}
		if from.variable == "" {
			start = roots(start)
		}
		if toModel {
			if goal, err = d.models.SinkGoal(sinkModel); err != nil {
				return nil, badInput("to: %v", err)
			}
		} else {
			ends, err := d.points(ctx, to, idParams)
			if err != nil {
				return nil, err
			}
			if len(ends) == 0 {
				env.Result = res
				notFoundPlace(env, to)
				return c.done(env.Result)
			}
			goal = dataflow.PointGoal(ends)
		}
	}
	if len(start) == 0 {
		env.Result = res
		if fromModel {
			notFoundPlace(env, to)
		} else {
			notFoundPlace(env, from)
		}
		return c.done(env.Result)
	}
	fr, err := dataflow.Flow(ctx, d.env(), start, goal, forward, d.withDefaults(budget))
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, AsError(err)
	}
	res.Found, res.Complete, res.Truncated = fr.Found, fr.Complete, fr.Truncated
	if res.Path, err = s.steps(ctx, snap, fr.Path); err != nil {
		return nil, err
	}
	for _, st := range res.Path {
		res.Sanitizers = append(res.Sanitizers, st.Sanitizers...)
	}
	res.CutPoints = cutsOf(fr.Cuts)
	env.Result = res
	env.Limits = Limits{Limit: len(res.Path), Returned: len(res.Path), Total: len(res.Path), Truncated: res.Truncated}
	c.cite(stepPaths(res.Path)...)
	return c.done(env.Result)
}

// notFoundPlace answers a criterion with no data-flow node: the line holds
// no definition or use (or the variable is not at it).
func notFoundPlace(env *Envelope, p place) {
	env.NotFound = true
	if p.path != "" {
		env.Suggest = append(env.Suggest, Suggestion{Op: "code", Args: map[string]any{"path": p.path, "start_line": max(p.line-5, 1), "end_line": p.line + 5}, Why: "the indexed lines around it, to pick a line that defines or uses a value"})
		return
	}
	env.Suggest = append(env.Suggest, Suggestion{Op: "code", Args: map[string]any{"id": p.id}, Why: "the definition's body, to pick a line"})
}
