// This file defines the walker behind the queries over the IR (Slice and Flow,
// slice_flow.go), following def-use edges within a function and the call graph (Env) across functions with a
// call string of at most two sites. The IR is lowered per language
// (internal/lang/php/dataflow.go); the facade supplies Env from a revision.

package dataflow

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"time"
)

// Link is one call edge of the revision: Caller calls Callee (whose short
// name is Name) at Line.
type Link struct {
	Caller, Callee string
	Line           int
	Name           string
	Provenance     string // stated | derived
	Confidence     float64
	// Late: the callee overrides the method a static:: call names, which
	// late static binding runs when the class the caller was called on
	// is the callee's (magicmoves.go, lateApplies)
	Late bool
}

// Env is what a query needs from a revision. Func returns the IR of a graph
// node (a function, a method or a file's top level), nil when there is none;
// Callees and Callers return call edges (calls and calls_heuristic) from and
// to a node; Siblings the functions of f's file, where a property's stores
// and loads are matched. Each is called again for the same argument; the
// caller caches.
type Env struct {
	Func     func(ctx context.Context, id string) (*Func, error)
	Callees  func(ctx context.Context, caller string) ([]Link, error)
	Callers  func(ctx context.Context, callee string) ([]Link, error)
	Siblings func(ctx context.Context, f *Func) ([]*Func, error)
	// File returns the functions of the file at path; Includes its include
	// edges both ways (globals.go). Either may be nil: no globals across
	// functions then.
	File     func(ctx context.Context, path string) ([]*Func, error)
	Includes func(ctx context.Context, path string) ([]Include, error)
	Models   *Models
	// Summary returns the stored summary of a function (summary.go), nil
	// when there is none or it was made under other models; may be nil.
	Summary func(ctx context.Context, id string) (*Summary, error)
}

// ErrMemory is returned by Env.Func when lowering another function would
// take the query over its memory budget; the query stops there and its
// answer is partial, marked truncated, with a "budget: memory" cut point.
var ErrMemory = errors.New("data-flow memory budget exhausted")

// Budget bounds one query (NFR-8): MaxStates search states, MaxMS
// milliseconds of wall time, Depth function boundaries crossed.
type Budget struct {
	MaxStates int
	MaxMS     int
	Depth     int
}

// Point names a node of a function.
type Point struct {
	Func *Func
	Node int
}

// Via is the call a step crosses: the call site and the callee.
type Via struct {
	CallPath string `json:"call_path"`
	CallLine int    `json:"call_line"`
	Callee   string `json:"callee"` // graph id of the function entered or left
}

// Step is one node of an answer with the edge that reached it.
type Step struct {
	Path       string   `json:"path"`
	Line       int      `json:"line"`
	Kind       string   `json:"kind"`
	Location   string   `json:"location"`
	Function   string   `json:"function"` // graph id
	Edge       EdgeKind `json:"edge,omitempty"`
	Via        *Via     `json:"via,omitempty"`
	Provenance string   `json:"provenance"`
	Confidence float64  `json:"confidence"`
	Sanitizers []string `json:"sanitizers,omitempty"`
}

// Cut is a place the analysis could not see past.
type Cut struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// Dep is one dependence edge of a slice between two of its nodes.
type Dep struct {
	From int      `json:"from"` // index in SliceResult.Nodes
	To   int      `json:"to"`
	Kind EdgeKind `json:"kind"`
}

// SliceResult is a slice: its nodes in the order reached, the edges among
// them, the functions crossed, the cut points and whether a budget stopped
// the walk.
type SliceResult struct {
	Nodes     []Step
	Deps      []Dep
	Functions []string
	Cuts      []Cut
	Truncated bool
}

// FlowResult is a flow: the shortest path when Found; otherwise Complete
// says whether the search saw everything it could reach (only then is the
// absence of a path a fact), and Cuts where it could not see.
type FlowResult struct {
	Found     bool
	Complete  bool
	Truncated bool
	Path      []Step
	Cuts      []Cut
	States    int
}

// frame is one call-string entry: the call (index in the caller's Calls)
// a path entered a callee by.
type frame struct {
	fn   string
	call int
}

// state is a search state: a node under a call string of at most two sites.
type state struct {
	fn     string
	node   int
	cs     [2]frame
	ncs    int
	crossd int // functions crossed so far; not a distinct state by itself
	// back: walked backwards in a forward slice, from a condition a
	// reached statement runs under (control.go)
	back bool
}

func (s state) key() state { s.crossd = 0; return s }

func (s state) push(f frame) state {
	if s.ncs == 2 {
		s.cs[0], s.cs[1] = s.cs[1], f
	} else {
		s.cs[s.ncs] = f
		s.ncs++
	}
	return s
}

func (s state) pop() (state, frame, bool) {
	if s.ncs == 0 {
		return s, frame{}, false
	}
	s.ncs--
	f := s.cs[s.ncs]
	s.cs[s.ncs] = frame{}
	return s, f, true
}

// edge is one move of the search.
type edge struct {
	to         state
	kind       EdgeKind
	note       string
	via        *Via
	derived    bool
	confidence float64
}

// walker runs one query.
type walker struct {
	ctx      context.Context
	env      Env
	budget   Budget
	deadline time.Time
	funcs    map[string]*Func
	callees  map[string][]Link
	callers  map[string][]Link
	siblings map[string][]*Func
	includes map[string][]Include
	globals  map[string]*globalIndex
	scopes   map[string][]string
	magic    map[string]bool // entered, by magic method and file
	flow     bool            // the walk is a Flow
	// goal names the model a Flow searches for (Goal.Sink, Goal.Source):
	// a callee past the depth budget whose summary reaches it is entered
	goal    Goal
	sums    map[string]*Summary
	acc     *sumAcc             // set while the walker computes summaries
	skipped map[string]*Func    // functions not lowered (Func.Skipped), by id
	calls   map[string][][]Link // by function id, the links of each of its calls (targets)
	moves   []edge              // forward's and backward's result, reused
	cuts    map[Cut]bool
	states  int
	stopped bool
	memory  bool // stopped by ErrMemory
	err     error
}

func newWalker(ctx context.Context, env Env, b Budget) *walker {
	if b.MaxStates <= 0 {
		b.MaxStates = 200000
	}
	if b.MaxMS <= 0 {
		b.MaxMS = 2000
	}
	if b.Depth <= 0 {
		b.Depth = 2
	}
	return &walker{ctx: ctx, env: env, budget: b, deadline: time.Now().Add(time.Duration(b.MaxMS) * time.Millisecond),
		funcs: map[string]*Func{}, callees: map[string][]Link{}, callers: map[string][]Link{}, siblings: map[string][]*Func{}, cuts: map[Cut]bool{},
		includes: map[string][]Include{}, globals: map[string]*globalIndex{}, scopes: map[string][]string{}, magic: map[string]bool{},
		sums: map[string]*Summary{}, skipped: map[string]*Func{}, calls: map[string][][]Link{}}
}

func (w *walker) fn(id string) *Func {
	if f, ok := w.funcs[id]; ok {
		if sk := w.skipped[id]; f == nil && sk != nil {
			w.cut(sk.Path, sk.StartLine, "skipped: "+sk.Skipped) // every time: a summary walk starts with no cut points
		}
		return f
	}
	f, err := w.env.Func(w.ctx, id)
	switch {
	case errors.Is(err, ErrMemory):
		w.stopped, w.memory = true, true
		w.cut("", 0, "budget: memory")
		return nil // not kept: the function is not known to be absent
	case err != nil && w.err == nil:
		w.err = err
	}
	if f != nil && f.Skipped != "" {
		w.skipped[id] = f
		w.cut(f.Path, f.StartLine, "skipped: "+f.Skipped)
		f = nil // its calls pass their arguments through, as a library's do
	}
	w.funcs[id] = f
	return f
}

func (w *walker) cut(path string, line int, reason string) {
	w.cuts[Cut{Path: path, Line: line, Reason: reason}] = true
}

// across returns the function node id names, which a step from line of f
// (at state s) enters, or nil: it has no IR, or entering it would pass the
// depth budget, which is noted as a cut point.
func (w *walker) across(id string, f *Func, line int, s state) *Func {
	g := w.fn(id)
	if g == nil {
		return nil
	}
	if s.crossd >= w.budget.Depth {
		w.cut(f.Path, line, "depth")
		return nil
	}
	return g
}

// tick counts a state and reports whether the budget allows another.
func (w *walker) tick() bool {
	w.states++
	if w.states > w.budget.MaxStates {
		w.stopped = true
		return false
	}
	if w.states%256 == 0 {
		if time.Now().After(w.deadline) || w.ctx.Err() != nil {
			w.stopped = true
			return false
		}
	}
	return true
}

// targets returns the call edges resolving call c of f, matched once per
// function (every call of f against its links).
func (w *walker) targets(f *Func, c int) []Link {
	byCall, ok := w.calls[f.ID]
	if !ok {
		ls, err := w.env.Callees(w.ctx, f.ID)
		if err != nil && w.err == nil {
			w.err = err
		}
		w.callees[f.ID] = ls
		byLine := map[int][]int{}
		for i := range ls {
			byLine[ls[i].Line] = append(byLine[ls[i].Line], i)
		}
		byCall = make([][]Link, len(f.Calls))
		for k := range f.Calls {
			call := &f.Calls[k]
			for _, i := range byLine[call.Line] {
				if linkMatches(ls[i], call) {
					byCall[k] = append(byCall[k], ls[i])
				}
			}
		}
		w.calls[f.ID] = byCall
	}
	if c < 0 || c >= len(byCall) {
		return nil
	}
	return byCall[c]
}

func (w *walker) callersOf(id string) []Link {
	ls, ok := w.callers[id]
	if !ok {
		var err error
		ls, err = w.env.Callers(w.ctx, id)
		if err != nil && w.err == nil {
			w.err = err
		}
		w.callers[id] = ls
	}
	return ls
}

// sitesOf returns the calls of caller f that link l names.
func sitesOf(f *Func, l Link) []int {
	var out []int
	for i := range f.Calls {
		if linkMatches(l, &f.Calls[i]) {
			out = append(out, i)
		}
	}
	return out
}

func linkVia(f *Func, c int, callee string) *Via {
	return &Via{CallPath: f.Path, CallLine: f.Calls[c].Line, Callee: callee}
}

func derivedLink(l Link) (bool, float64) {
	if l.Provenance == "derived" {
		return true, l.Confidence
	}
	return false, 1
}

// noteImprecise records why f cannot be exact, once per function.
func (w *walker) noteImprecise(f *Func) {
	for _, r := range f.Imprecise {
		w.cut(f.Path, f.StartLine, r)
	}
}

// forward lists the moves out of s.
func (w *walker) forward(s state) []edge {
	f := w.fn(s.fn)
	if f == nil {
		return nil
	}
	n := &f.Nodes[s.node]
	out := w.moves[:0] // valid until the next forward or backward: every caller is done with it by then
	// into callees: an argument becomes the callee's parameter
	if n.Kind == "arg" {
		c := &f.Calls[n.Call]
		ts := w.targets(f, n.Call)
		if len(ts) == 0 && (c.Dynamic || c.Method) && w.env.Models.sanitizer(c) == "" {
			w.cut(f.Path, n.Line, "unresolved call")
		}
		if w.flow && w.env.Models.sanitizer(c) != "" {
			ts = nil // a flow passes a sanitizer by its sanitize step, not through its body
		}
		for _, l := range ts {
			g := w.fn(l.Callee)
			ps := g.paramsFor(n.Loc.Index, n.Loc.Key == Spread)
			if g == nil || len(ps) == 0 || (l.Late && !w.lateApplies(s, g)) {
				continue
			}
			if s.crossd >= w.budget.Depth {
				es, enter := w.summaryForward(f, n, s, g, l, ps)
				out = append(out, es...)
				if !enter {
					continue
				}
			}
			d, conf := derivedLink(l)
			for _, p := range ps {
				to := s.push(frame{fn: f.ID, call: n.Call})
				to.fn, to.node, to.crossd = g.ID, p, s.crossd+1
				out = append(out, edge{to: to, kind: ArgEdge, via: linkVia(f, n.Call, g.ID), derived: d, confidence: conf})
			}
		}
	}
	// out of the callee: a return becomes the call's value
	if n.Kind == "return" {
		if rest, fr, ok := s.pop(); ok {
			if g := w.fn(fr.fn); g != nil {
				rest.fn, rest.node = g.ID, g.Calls[fr.call].Result
				out = append(out, edge{to: rest, kind: Ret, via: linkVia(g, fr.call, f.ID), confidence: 1})
			}
		} else {
			for _, l := range w.callersOf(f.ID) {
				g := w.across(l.Caller, f, n.Line, s)
				if g == nil {
					continue
				}
				d, conf := derivedLink(l)
				for _, c := range sitesOf(g, l) {
					to := state{fn: g.ID, node: g.Calls[c].Result, crossd: s.crossd + 1}
					out = append(out, edge{to: to, kind: Ret, via: linkVia(g, c, f.ID), derived: d, confidence: conf})
				}
				for _, j := range magicSites(f, g, l) {
					to := state{fn: g.ID, node: j, crossd: s.crossd + 1}
					out = append(out, edge{to: to, kind: Ret, via: &Via{CallPath: g.Path, CallLine: l.Line, Callee: f.ID}, derived: d, confidence: conf})
				}
			}
		}
	}
	w.sessionCut(f, n, true)
	if n.Kind == RefOut || n.Kind == Throw {
		out = append(out, w.refOutMoves(f, n, s)...)
	}
	if n.Kind == "output" && (strings.HasPrefix(n.Loc.Name, "include") || strings.HasPrefix(n.Loc.Name, "require")) && !w.includeFollowed(f.Path, n.Line) {
		w.cut(f.Path, n.Line, "include not followed")
	}
	// a property store reaches every load of the property in its file
	// (a summary does not follow it: the parameter is open)
	if n.Loc.Kind == Prop && n.Kind != "load" && w.acc != nil {
		w.acc.open = true
	} else if n.Loc.Kind == Prop && n.Kind != "load" {
		out = append(out, w.propPeers(f, n, s, true)...)
		out = append(out, w.magicSetMoves(f, n, s)...)
		out = append(out, w.magicAccessMoves(f, n, s, true)...)
	}
	out = append(out, w.magicAccessSites(f, n, s, true)...)
	for _, j := range f.Out(s.node) {
		in := f.edgeTo(s.node, j)
		m := &f.Nodes[j]
		if in.Kind == CallEdge && m.Call >= 0 {
			c := &f.Calls[m.Call]
			if san := w.env.Models.sanitizer(c); san != "" {
				to := s
				to.node = j
				out = append(out, edge{to: to, kind: Sanitize, note: san, confidence: 1})
				continue
			}
			if w.resolvedInto(f, m.Call) {
				if e, ok := w.receiverEdge(f, s.node, m.Call, s); ok {
					e.to.node = j
					out = append(out, e)
				}
				continue // the path goes through the callee instead
			}
		}
		to := s
		to.node = j
		out = append(out, edge{to: to, kind: in.Kind, note: in.Note, confidence: 1})
	}
	w.moves = out
	return out
}

// receiverConfidence is the confidence that a method's value depends on the
// object it is called on.
const receiverConfidence = 0.7

// receiverEdge is the forward step from the value a method is called on
// (node from of f) to the value of call c, which the walk resolved into its
// callee: the callee reads its object through $this, which the walk does
// not follow, so without this step a slice would lose every use of an
// object by its methods ($order->total() for $order), and a flow from
// `return $this->inner->get($k)` would miss what the inner object holds and
// say complete: true. ok is false for c's own arguments, which reach the
// callee's parameters. Backwards the step is not taken: it would pull every
// object's construction into a value's slice (one of WordPress's fixture
// slices grew past 500 nodes); a flow backwards still meets the object's
// state through its property stores.
func (w *walker) receiverEdge(f *Func, from, c int, s state) (edge, bool) {
	if slices.Contains(f.Calls[c].Args, from) {
		return edge{}, false
	}
	return edge{to: s, kind: CallEdge, note: "receiver", derived: true, confidence: receiverConfidence}, true
}

// propPeers links property node n of f to the nodes of the same property in
// its file: a store to every load (loads true, forwards), a load to every
// store (backwards), derived with propAlias's confidence.
func (w *walker) propPeers(f *Func, n *Node, s state, loads bool) []edge {
	kind := Store
	if loads {
		kind = Load
	}
	var out []edge
	for _, g := range w.siblingsOf(f) {
		for j := range g.Nodes {
			m := &g.Nodes[j]
			if m.Loc.Kind != Prop || (m.Kind == "load") != loads {
				continue
			}
			if conf := propAlias(m.Loc.Name, n.Loc.Name); conf > 0 && computedOK(f, n.Loc.Name, g, m.Loc.Name) {
				if !w.entered(f, f) || !w.entered(g, f) {
					break
				}
				out = append(out, edge{to: state{fn: g.ID, node: j, crossd: s.crossd}, kind: kind, derived: true, confidence: conf})
			}
		}
	}
	return out
}

// propAlias is the confidence that property locations a and b ("Class::$p"
// or "*::$p" for a receiver of unknown class) name the same property: 0.9
// for the same class, 0.6 when one class is unknown ($clone->p after
// `$clone = clone $this`), 0 otherwise.
func propAlias(a, b string) float64 {
	if a == b {
		return 0.9
	}
	ca, pa, oka := strings.Cut(a, "::$")
	cb, pb, okb := strings.Cut(b, "::$")
	if oka && okb && pa == pb && (ca == "*" || cb == "*") {
		return 0.6
	}
	if oka && okb && (pa == "*" || pb == "*") && ca == cb {
		return 0.5 // a property of computed name ($o->$name, (array) $o)
	}
	return 0
}

// resolvedInto reports whether call c of f has a callee whose IR is known,
// so its value is followed through the callee rather than passed through.
func (w *walker) resolvedInto(f *Func, c int) bool {
	for _, l := range w.targets(f, c) {
		if w.fn(l.Callee) != nil {
			return true
		}
	}
	return false
}

func (w *walker) siblingsOf(f *Func) []*Func {
	if gs, ok := w.siblings[f.Path]; ok {
		return gs
	}
	gs, err := w.env.Siblings(w.ctx, f)
	switch {
	case errors.Is(err, ErrMemory):
		w.stopped, w.memory = true, true
		w.cut("", 0, "budget: memory")
	case err != nil && w.err == nil:
		w.err = err
	}
	for _, g := range gs {
		if _, ok := w.funcs[g.ID]; !ok && g.Skipped == "" {
			w.funcs[g.ID] = g
		}
	}
	w.siblings[f.Path] = gs
	return gs
}

// backward lists the moves into s, as edges from s to the nodes it depends on.
func (w *walker) backward(s state) []edge {
	f := w.fn(s.fn)
	if f == nil {
		return nil
	}
	n := &f.Nodes[s.node]
	out := w.moves[:0] // valid until the next forward or backward: every caller is done with it by then
	if n.Kind == "param" {
		if rest, fr, ok := s.pop(); ok {
			if g := w.fn(fr.fn); g != nil {
				for _, a := range f.argsFor(g, &g.Calls[fr.call], s.node) {
					to := rest
					to.fn, to.node = g.ID, a
					out = append(out, edge{to: to, kind: ArgEdge, via: linkVia(g, fr.call, f.ID), confidence: 1})
				}
			}
		} else {
			for _, l := range w.callersOf(f.ID) {
				g := w.across(l.Caller, f, n.Line, s)
				if g == nil {
					continue
				}
				d, conf := derivedLink(l)
				for _, c := range sitesOf(g, l) {
					for _, a := range f.argsFor(g, &g.Calls[c], s.node) {
						to := state{fn: g.ID, node: a, crossd: s.crossd + 1}
						out = append(out, edge{to: to, kind: ArgEdge, via: linkVia(g, c, f.ID), derived: d, confidence: conf})
					}
				}
				if len(f.Params) > 1 && f.Params[1] == s.node {
					for _, j := range magicSites(f, g, l) {
						to := state{fn: g.ID, node: j, crossd: s.crossd + 1}
						out = append(out, edge{to: to, kind: ArgEdge, via: &Via{CallPath: g.Path, CallLine: l.Line, Callee: f.ID}, derived: d, confidence: conf})
					}
				}
			}
		}
	}
	resolved := false
	san := ""
	if n.Kind == "call" && n.Call >= 0 {
		san = w.env.Models.sanitizer(&f.Calls[n.Call])
	}
	// a sanitizer's value comes through the sanitize step, not its body
	// (as forwards), even when the project defines it
	if n.Kind == "call" && n.Call >= 0 && san == "" {
		c := &f.Calls[n.Call]
		for _, l := range w.targets(f, n.Call) {
			g := w.fn(l.Callee)
			if g == nil {
				continue
			}
			resolved = true
			if s.crossd >= w.budget.Depth {
				es, enter := w.summaryBackward(f, n, s, g, l)
				out = append(out, es...)
				if !enter {
					continue
				}
			}
			d, conf := derivedLink(l)
			for _, r := range g.Returns {
				to := s.push(frame{fn: f.ID, call: n.Call})
				to.fn, to.node, to.crossd = g.ID, r, s.crossd+1
				out = append(out, edge{to: to, kind: Ret, via: linkVia(f, n.Call, g.ID), derived: d, confidence: conf})
			}
		}
		if !resolved && (c.Dynamic || c.Method) {
			w.cut(f.Path, n.Line, "unresolved call")
		}
	}
	if n.Kind == "load" && n.Loc.Kind == Prop && w.acc != nil {
		w.acc.open = true // a summary does not follow it (as forwards)
	} else if n.Kind == "load" && n.Loc.Kind == Prop {
		out = append(out, w.propPeers(f, n, s, false)...)
		out = append(out, w.magicGetMoves(f, n, s)...)
		out = append(out, w.magicAccessMoves(f, n, s, false)...)
	}
	out = append(out, w.magicAccessSites(f, n, s, false)...)
	w.sessionCut(f, n, false)
	if (n.Kind == RefArg || n.Kind == Thrown) && n.Call >= 0 {
		out = append(out, w.refArgMoves(f, n, s)...)
	}
	for _, in := range n.In {
		if in.Kind == CallEdge && resolved {
			continue
		}
		to := s
		to.node = in.From
		e := edge{to: to, kind: in.Kind, note: in.Note, confidence: 1}
		if in.Kind == CallEdge && san != "" {
			e.kind, e.note = Sanitize, san
		}
		out = append(out, e)
	}
	w.moves = out
	return out
}

func (w *walker) step(s state, e *edge) Step {
	f := w.fn(s.fn)
	var st Step
	if s.node < 0 {
		c := &f.Conds[-s.node-1]
		st = Step{Path: f.Path, Line: c.Line, Kind: "condition", Location: c.Kind, Function: f.ID, Provenance: "stated", Confidence: 1}
	} else {
		n := &f.Nodes[s.node]
		st = Step{Path: f.Path, Line: n.Line, Kind: n.Kind, Location: n.Loc.String(), Function: f.ID, Provenance: "stated", Confidence: 1}
	}
	if e != nil {
		st.Edge, st.Via = e.kind, e.via
		if e.derived {
			st.Provenance, st.Confidence = "derived", e.confidence
		} else if e.confidence < 1 {
			st.Provenance, st.Confidence = "derived", e.confidence
		}
		if e.kind == Sanitize && e.note != "" {
			st.Sanitizers = []string{e.note}
		}
	}
	return st
}

func (w *walker) cutList() []Cut {
	out := make([]Cut, 0, len(w.cuts))
	for c := range w.cuts {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Reason < b.Reason
	})
	return out
}
