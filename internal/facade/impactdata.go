// This file defines impact's data block (impact.go has the call-graph part):
// what reads a changed value downstream. For a changed function or method
// the values are its parameters, the properties it writes and its return
// value; for a changed property, its loads; for a changed line (path and
// line), the values the line defines. Each is the start of a forward slice
// of the data-flow engine (internal/dataflow, through the dfEnv of flow.go),
// under one time budget for the whole block (dataflow.max_ms); the places
// the slices reach are the reads, nearest first. The block is asked for
// (data: true): on WordPress it makes impact several times slower and its
// answer about three times larger (docs/benchmarks.md).

package facade

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/ragraf/ragraf/internal/dataflow"
	"github.com/ragraf/ragraf/internal/fact"
)

// Data block statuses.
const (
	DataAvailable     = "available"
	DataUnavailable   = "unavailable"    // the revision has no data flow (Reason says why)
	DataNotApplicable = "not_applicable" // the target holds no values to follow (a class, a file)
)

// ImpactData is impact's data block. Changed lists what changed (each with
// the number of reads found from it); Reads the places that read those
// values downstream, nearest first, at most the request's limit of them;
// Total counts every read found. Truncated: Reads holds fewer than Total (the
// cap), or a budget or the memory bound stopped a walk (then a budget cut
// point says so; slice walks one value further). Complete: no cut point, so
// Total counts every read the engine can see; only then is a read that is
// not counted known not to exist.
type ImpactData struct {
	Status    string       `json:"status"`
	Reason    string       `json:"reason,omitempty"`
	Changed   []DataChange `json:"changed"`
	Reads     []DataRead   `json:"reads"`
	Total     int          `json:"total"`
	Truncated bool         `json:"truncated"`
	Complete  bool         `json:"complete"`
	CutPoints []DataCut    `json:"cut_points"`
}

// Kinds of DataChange.
const (
	ChangeParameter = "parameter"
	ChangeProperty  = "property"
	ChangeReturn    = "return"
	ChangeValue     = "value" // what a changed line defines
)

// DataChange is one changed value: a parameter ($x), a property the target
// writes or the property itself (Class::$p), the return value (return), or
// the values a line defines. Path and Line are its first definition.
type DataChange struct {
	Kind  string     `json:"kind"`
	Name  string     `json:"name"`
	Path  string     `json:"path"`
	Line  int        `json:"line"`
	Reads int        `json:"reads"`
	Stale *StaleMark `json:"stale,omitempty"`
}

// DataRead is one place downstream of a change that reads its value:
// where it is, the statement node (kind, location) and the function holding
// it; Depth counts the dependence edges from the change, Edges their kinds in
// order, Calls the function boundaries crossed (Via the last call crossed).
// Provenance is derived, with the lowest confidence on the way, when a step
// is (a heuristic call edge, a property matched by name).
type DataRead struct {
	Changed string `json:"changed"` // the DataChange's name
	DataStep
	Depth int      `json:"depth"`
	Calls int      `json:"calls"`
	Edges []string `json:"edges"`
}

func (d *ImpactData) markStale(v *StaleView) {
	if d == nil {
		return
	}
	for i := range d.Changed {
		c := &d.Changed[i]
		c.Stale = v.At(c.Path, c.Line, c.Line)
	}
	for i := range d.Reads {
		r := &d.Reads[i]
		r.Stale = v.At(r.Path, r.Line, r.Line)
	}
}

func (d *ImpactData) paths() []string {
	if d == nil {
		return nil
	}
	var out []string
	for _, c := range d.Changed {
		out = append(out, c.Path)
	}
	for _, r := range d.Reads {
		out = append(out, r.Path)
	}
	return out
}

// dataOrigin is one changed value with the IR nodes its slice starts from.
type dataOrigin struct {
	change DataChange
	start  []dataflow.Point
	// edges has, for each start node that is a read itself (a property's
	// loads, the value of a method called on a changed value), the edges
	// from the change to it; nil for the change's own nodes
	edges [][]string
}

// add appends a start node reached from the change by edges (none: the
// change itself), once.
func (o *dataOrigin) add(p dataflow.Point, edges []string) {
	for _, q := range o.start {
		if q == p {
			return
		}
	}
	o.start = append(o.start, p)
	o.edges = append(o.edges, edges)
}

// dataTarget is what the data block starts from: a definition (Symbol), or
// a line of path when line > 0.
type dataTarget struct {
	sym  Symbol
	path string
	line int
}

// maxDataCuts caps the cut points one data block lists.
const maxDataCuts = 20

// impactData builds the data block for t within budget (its time and
// memory for the whole block, its states and depth per changed value):
// limit caps the reads listed, hard keeps only stated reads.
func (s *Service) impactData(ctx context.Context, snap *snapshot, t dataTarget, budget dataflow.Budget, limit int, hard bool) (*ImpactData, error) {
	out := &ImpactData{Status: DataAvailable, Changed: []DataChange{}, Reads: []DataRead{}, CutPoints: []DataCut{}}
	if !snap.info.Capability.Dataflow {
		out.Status, out.Reason = DataUnavailable, dataflowOf(snap).Reason
		return out, nil
	}
	d, err := s.newDFEnv(snap)
	if err != nil {
		return nil, err
	}
	defer d.close()
	origins, cut, err := d.origins(ctx, t)
	if err != nil {
		if errors.Is(err, dataflow.ErrMemory) {
			out.Truncated = true
			out.CutPoints = append(out.CutPoints, DataCut{Reason: "budget: memory"})
			return out, nil
		}
		return nil, err
	}
	switch {
	case origins == nil && cut == nil:
		out.Status, out.Reason = DataNotApplicable, "data flow is followed from a function, method or property: pass its id, or path with line"
		return out, nil
	case cut != nil && cut.Reason == "":
		out.Status, out.Reason = DataUnavailable, "no data-flow IR for "+t.sym.QName+" (not PHP, or its file does not parse)"
		return out, nil
	case cut != nil:
		out.CutPoints = append(out.CutPoints, *cut)
	}
	budget = d.withDefaults(budget)
	deadline := time.Now().Add(time.Duration(budget.MaxMS) * time.Millisecond)
	type read struct {
		origin int
		step   dataflow.Step
		depth  int
		calls  int
		edges  []string
		conf   float64
		derive bool
	}
	// a value read in hundreds of places (a hub's return value) would take
	// the whole budget: each slice stops at 25 nodes per read listed
	nodeCap := min(max(25*limit, 200), maxSliceNodes)
	env := memoCalls(d.env())
	var reads []read
	cuts := map[DataCut]bool{}
	if cut != nil {
		cuts[*cut] = true
	}
	for oi := range origins {
		o := &origins[oi]
		for len(o.edges) < len(o.start) {
			o.edges = append(o.edges, nil)
		}
		left := time.Until(deadline).Milliseconds()
		if left < 1 {
			out.Truncated = true
			cuts[DataCut{Reason: "budget"}] = true
			break
		}
		b := budget
		b.MaxMS = int(left)
		sr, err := dataflow.Slice(ctx, env, o.start, true, nodeCap, b)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return nil, err
			}
			return nil, AsError(err)
		}
		out.Truncated = out.Truncated || sr.Truncated
		for _, c := range sr.Cuts {
			cuts[DataCut{Path: c.Path, Line: c.Line, Reason: c.Reason}] = true
		}
		// the slice's nodes come in the order reached, each after the node
		// it was reached from: the first dependence edge into a node is
		// the one that reached it, so the walk's tree is rebuilt in order
		n := len(sr.Nodes)
		parent := make([]int, n)
		kind := make([]dataflow.EdgeKind, n)
		for i := range parent {
			parent[i] = -1
		}
		for _, dep := range sr.Deps {
			if parent[dep.To] < 0 && sr.Nodes[dep.To].Edge != "" {
				parent[dep.To], kind[dep.To] = dep.From, dep.Kind
			}
		}
		rs := make([]read, n)
		type place struct {
			fn   string
			line int
		}
		seen := map[place]bool{}
		for i, st := range sr.Nodes {
			r := read{origin: oi, step: st, conf: st.Confidence, derive: st.Provenance == "derived"}
			if st.Edge == "" && i < len(o.edges) && o.edges[i] != nil {
				// a start node that is a read: a load of the changed
				// property (exact for its class, a guess for a receiver of
				// unknown class, *::$p), or a method's value on it
				es := o.edges[i]
				r.depth, r.edges, r.step.Edge = len(es), es, dataflow.EdgeKind(es[len(es)-1])
				if es[0] == string(dataflow.Load) && strings.HasPrefix(st.Location, "*::") {
					r.conf, r.derive = 0.6, true
				}
			}
			if p := parent[i]; p >= 0 && p < i {
				pr := rs[p]
				r.depth, r.calls = pr.depth+1, pr.calls
				r.edges = append(slices.Clip(pr.edges), string(kind[i]))
				r.conf, r.derive = min(pr.conf, st.Confidence), pr.derive || r.derive
				if st.Via != nil {
					r.calls++
				}
			}
			rs[i] = r
			if r.depth == 0 {
				continue // a start node: the change itself
			}
			if hard && r.derive {
				continue
			}
			k := place{st.Function, st.Line}
			if seen[k] {
				continue
			}
			seen[k] = true
			reads = append(reads, r)
			o.change.Reads++
		}
	}
	slices.SortStableFunc(reads, func(a, b read) int {
		return cmp.Or(cmp.Compare(a.depth, b.depth), cmp.Compare(a.origin, b.origin),
			cmp.Compare(a.step.Path, b.step.Path), cmp.Compare(a.step.Line, b.step.Line), cmp.Compare(a.step.Function, b.step.Function))
	})
	for _, o := range origins {
		out.Changed = append(out.Changed, o.change)
	}
	if out.Truncated {
		cuts[DataCut{Reason: "budget"}] = true // Total counts what was walked
	}
	out.Total = len(reads)
	if len(reads) > limit {
		reads, out.Truncated = reads[:limit], true
	}
	raw := make([]dataflow.Step, len(reads))
	for i, r := range reads {
		raw[i] = r.step
	}
	steps, err := s.steps(ctx, snap, raw)
	if err != nil {
		return nil, err
	}
	for i, r := range reads {
		st := steps[i]
		st.Provenance, st.Confidence = "stated", r.conf
		if r.derive || r.conf < 1 {
			st.Provenance = "derived"
		}
		out.Reads = append(out.Reads, DataRead{Changed: origins[r.origin].change.Name, DataStep: st, Depth: r.depth, Calls: r.calls, Edges: r.edges})
	}
	for c := range cuts {
		out.CutPoints = append(out.CutPoints, c)
	}
	slices.SortFunc(out.CutPoints, func(a, b DataCut) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Reason, b.Reason))
	})
	out.CutPoints = slices.Compact(out.CutPoints)
	if len(out.CutPoints) > maxDataCuts {
		out.CutPoints = out.CutPoints[:maxDataCuts]
	}
	out.Complete = len(out.CutPoints) == 0
	return out, nil
}

// memoCalls keeps the call edges e reads for the slices of one data block:
// each slice has a walker of its own, and the values of one function cross
// the same calls.
func memoCalls(e dataflow.Env) dataflow.Env {
	memo := func(get func(context.Context, string) ([]dataflow.Link, error)) func(context.Context, string) ([]dataflow.Link, error) {
		seen := map[string][]dataflow.Link{}
		return func(ctx context.Context, id string) ([]dataflow.Link, error) {
			if ls, ok := seen[id]; ok {
				return ls, nil
			}
			ls, err := get(ctx, id)
			if err == nil {
				seen[id] = ls
			}
			return ls, err
		}
	}
	e.Callees, e.Callers = memo(e.Callees), memo(e.Callers)
	return e
}

// origins resolves a data target into the values that change. It returns
// nil, nil for a target that holds no values (a class, a file without a
// line); a cut with no reason when the target has no IR, and a cut with its
// reason when the function was not lowered (too large).
func (d *dfEnv) origins(ctx context.Context, t dataTarget) ([]dataOrigin, *DataCut, error) {
	if t.line > 0 {
		fs, err := d.file(ctx, t.path)
		if err != nil {
			return nil, nil, err
		}
		if len(fs) == 0 {
			return nil, &DataCut{}, nil
		}
		f := fs[0]
		for _, g := range fs[1:] {
			if g.Contains(t.line) && g.StartLine >= f.StartLine {
				f = g
			}
		}
		if f.Skipped != "" {
			return []dataOrigin{}, &DataCut{Path: f.Path, Line: f.StartLine, Reason: "skipped: " + f.Skipped}, nil
		}
		return lineOrigins(f, t.line), nil, nil
	}
	switch t.sym.Kind {
	case string(fact.Function), string(fact.Method):
		f, err := d.fn(ctx, t.sym.ID)
		if err != nil {
			return nil, nil, err
		}
		if f == nil {
			return nil, &DataCut{}, nil
		}
		if f.Skipped != "" {
			return []dataOrigin{}, &DataCut{Path: f.Path, Line: f.StartLine, Reason: "skipped: " + f.Skipped}, nil
		}
		return funcOrigins(f), nil, nil
	case string(fact.Property):
		fs, err := d.file(ctx, t.sym.Path)
		if err != nil {
			return nil, nil, err
		}
		if len(fs) == 0 {
			return nil, &DataCut{}, nil
		}
		return propertyOrigins(fs, t.sym), nil, nil
	}
	return nil, nil, nil
}

// funcOrigins are f's parameters, the properties it writes (one origin per
// property, from all its stores) and its return value.
func funcOrigins(f *dataflow.Func) []dataOrigin {
	out := []dataOrigin{}
	for _, p := range f.Params {
		n := f.Nodes[p]
		out = append(out, dataOrigin{change: DataChange{Kind: ChangeParameter, Name: "$" + n.Loc.Name, Path: f.Path, Line: n.Line},
			start: []dataflow.Point{{Func: f, Node: p}}})
	}
	byProp := map[string]int{}
	for i, n := range f.Nodes {
		if n.Loc.Kind != dataflow.Prop || n.Kind == "load" {
			continue
		}
		j, ok := byProp[n.Loc.Name]
		if !ok {
			j = len(out)
			byProp[n.Loc.Name] = j
			out = append(out, dataOrigin{change: DataChange{Kind: ChangeProperty, Name: n.Loc.Name, Path: f.Path, Line: n.Line}})
		}
		out[j].start = append(out[j].start, dataflow.Point{Func: f, Node: i})
	}
	if len(f.Returns) > 0 {
		o := dataOrigin{change: DataChange{Kind: ChangeReturn, Name: "return", Path: f.Path, Line: f.Nodes[f.Returns[0]].Line}}
		for _, r := range f.Returns {
			o.start = append(o.start, dataflow.Point{Func: f, Node: r})
		}
		out = append(out, o)
	}
	return out
}

// lineOrigins are the values line of f defines: a parameter, a property
// store and a return each on its own, everything else at the line as one
// value named by its locations.
func lineOrigins(f *dataflow.Func, line int) []dataOrigin {
	out := []dataOrigin{}
	for _, o := range funcOrigins(f) {
		var at []dataflow.Point
		for _, p := range o.start {
			if f.Nodes[p.Node].Line == line {
				at = append(at, p)
			}
		}
		if len(at) > 0 {
			o.start, o.change.Line = at, line
			out = append(out, o)
		}
	}
	taken := map[int]bool{}
	for _, o := range out {
		for _, p := range o.start {
			taken[p.Node] = true
		}
	}
	v := dataOrigin{change: DataChange{Kind: ChangeValue, Path: f.Path, Line: line}}
	var names []string
	for i, n := range f.Nodes {
		if n.Line != line || taken[i] {
			continue
		}
		v.start = append(v.start, dataflow.Point{Func: f, Node: i})
		if name := n.Loc.String(); (n.Loc.Kind == dataflow.Local || n.Loc.Kind == dataflow.Elem || n.Loc.Kind == dataflow.Global) && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if len(v.start) > 0 {
		if len(names) == 0 {
			names = append(names, f.Nodes[v.start[0].Node].Loc.String())
		}
		v.change.Name = strings.Join(names, ", ")
		out = append(out, v)
	}
	return out
}

// propertyOrigins is one origin for property sym: every load of it in its
// file (Class::$p, or *::$p where the receiver's class is unknown).
func propertyOrigins(fs []*dataflow.Func, sym Symbol) []dataOrigin {
	name := strings.TrimPrefix(sym.Name, "$")
	class := lastName(sym.Container)
	loc := class + "::$" + name
	o := dataOrigin{change: DataChange{Kind: ChangeProperty, Name: loc, Path: sym.Path, Line: sym.Line}}
	for _, f := range fs {
		for i, n := range f.Nodes {
			if n.Loc.Kind == dataflow.Prop && n.Kind == "load" && (n.Loc.Name == loc || n.Loc.Name == "*::$"+name) {
				o.add(dataflow.Point{Func: f, Node: i}, []string{string(dataflow.Load)})
			}
		}
	}
	return []dataOrigin{o}
}
