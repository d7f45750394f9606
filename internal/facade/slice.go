// This file defines the slice operation: the statements a value at a line
// depends on (backward) or reaches (forward), with the dependence edges
// between them and the functions crossed (with control: also the
// conditions they run under, and what those read); never source text (FT-19: bodies
// only through code). The environment and step types are in flow.go.

package facade

import (
	"context"
	"errors"

	"github.com/ragraf/ragraf/internal/dataflow"
)

// SliceArgs names the criterion and the walk.
type SliceArgs struct {
	ID        string `json:"id,omitempty"`
	Path      string `json:"path,omitempty"`
	Line      int    `json:"line,omitempty"`
	Variable  string `json:"variable,omitempty"`
	Direction string `json:"direction,omitempty" jsonschema:"backward|forward"`
	Depth     int    `json:"depth,omitempty" jsonschema:"0-5, default 2"`
	// Control adds the conditions each statement runs under (edge kind
	// control) and what they read.
	Control bool `json:"control,omitempty" jsonschema:"add the conditions statements run under (edge control)"`
	DataBudget
	Output
	Page
}

// SliceNode is one statement node of a slice; Index is its place in the
// whole slice, which edges refer to across pages.
type SliceNode struct {
	Index int `json:"index"`
	DataStep
}

// SliceEdge is a dependence edge: the value of node From reaches node To.
type SliceEdge struct {
	From int    `json:"from"`
	To   int    `json:"to"`
	Kind string `json:"kind"`
}

// SliceFunction is a function the slice crosses.
type SliceFunction struct {
	ID    string `json:"id"`
	QName string `json:"qname"`
	Path  string `json:"path"`
	Line  int    `json:"line"`
}

// SliceResult is a slice. Nodes are paged (in the order reached); Edges are
// those ending at a node of the page.
type SliceResult struct {
	Direction string          `json:"direction"`
	Nodes     []SliceNode     `json:"nodes"`
	Edges     []SliceEdge     `json:"edges"`
	Functions []SliceFunction `json:"functions"`
	CutPoints []DataCut       `json:"cut_points"`
	// Complete: no cut point; what the nodes depend on (or reach) is all there.
	Complete  bool `json:"complete"`
	Truncated bool `json:"truncated"` // a budget (max_states, max_ms, the node cap) stopped the walk
}

func (r SliceResult) markStale(v *StaleView) any {
	for i := range r.Nodes {
		st := &r.Nodes[i].DataStep
		st.Stale = v.At(st.Path, st.Line, st.Line)
	}
	return r
}

// maxSliceNodes caps one slice; pages are cut from it.
const maxSliceNodes = 2000

// Slice answers a structural slice from a criterion.
func (s *Service) Slice(ctx context.Context, args SliceArgs) (*Envelope, error) {
	const op = "slice"
	if (args.ID == "") == (args.Path == "") {
		return nil, badInput("pass id, or path with line")
	}
	if args.Path != "" && args.Line < 1 {
		return nil, badInput("line (at least 1) goes with path")
	}
	if args.Line < 0 {
		return nil, badInput("line must be at least 1")
	}
	dir, err := checkEnum("direction", args.Direction, "backward", "backward", "forward")
	if err != nil {
		return nil, err
	}
	depth, err := checkRange("depth", args.Depth, 2, 0, 5)
	if err != nil {
		return nil, err
	}
	budget, err := checkBudget(args.DataBudget, depth)
	if err != nil {
		return nil, err
	}
	p := place{id: args.ID, line: args.Line, variable: trimDollar(args.Variable)}
	if args.ID != "" {
		if err := checkID("id", args.ID); err != nil {
			return nil, err
		}
	} else {
		if p.path, err = s.cleanPath("path", args.Path); err != nil {
			return nil, err
		}
		if err := s.checkExcluded(p.path); err != nil {
			return nil, err
		}
	}
	pg, err := args.page(op, args)
	if err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, op, pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	if err := checkLowering(ctx, snap, p); err != nil {
		return nil, err
	}
	if err := checkDataflow(snap); err != nil {
		return nil, err
	}
	env := c.env
	res := SliceResult{Direction: dir, Nodes: []SliceNode{}, Edges: []SliceEdge{}, Functions: []SliceFunction{}, CutPoints: []DataCut{}}
	d, err := s.newDFEnv(snap)
	if err != nil {
		return nil, err
	}
	defer d.close()
	start, err := d.points(ctx, p, idPoints(dir == "forward"))
	if err != nil {
		return nil, err
	}
	if len(start) == 0 {
		env.Result = res
		env.Limits = pg.limits(snap, 0, 0)
		notFoundPlace(env, p)
		return c.done(env.Result)
	}
	walk := dataflow.Slice
	if args.Control {
		walk = dataflow.SliceControl
	}
	sr, err := walk(ctx, d.env(), start, dir == "forward", maxSliceNodes, d.withDefaults(budget))
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, AsError(err)
	}
	steps, err := s.steps(ctx, snap, sr.Nodes)
	if err != nil {
		return nil, err
	}
	all := make([]SliceNode, len(steps))
	for i, st := range steps {
		all[i] = SliceNode{Index: i, DataStep: st}
	}
	res.Nodes = pageOf(pg, all)
	onPage := map[int]bool{}
	for _, n := range res.Nodes {
		onPage[n.Index] = true
	}
	for _, e := range sr.Deps {
		if onPage[e.To] {
			res.Edges = append(res.Edges, SliceEdge{From: e.From, To: e.To, Kind: string(e.Kind)})
		}
	}
	syms, err := s.symbolsOf(ctx, snap, sr.Functions)
	if err != nil {
		return nil, err
	}
	for _, id := range sr.Functions {
		if sym := syms[id]; sym != nil {
			res.Functions = append(res.Functions, SliceFunction{ID: id, QName: sym.QName, Path: sym.Path, Line: sym.Line})
		}
	}
	res.CutPoints = cutsOf(sr.Cuts)
	res.Complete = len(res.CutPoints) == 0
	res.Truncated = sr.Truncated
	env.Result = res
	env.Limits = pg.limits(snap, len(res.Nodes), len(all))
	var paths []string
	for _, n := range res.Nodes {
		paths = append(paths, n.Path)
	}
	c.cite(paths...)
	return c.done(env.Result)
}

func trimDollar(v string) string {
	if len(v) > 0 && v[0] == '$' {
		return v[1:]
	}
	return v
}
