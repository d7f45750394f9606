// This file holds the two queries the walker of query.go answers: Slice (what
// a value depends on, or reaches) and Flow (does a value get from a start to a
// goal: a sink, a source or given points).

package dataflow

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// Slice walks from the nodes at start backwards (the values they depend on)
// or forwards (what they reach), at most limit nodes.
func Slice(ctx context.Context, env Env, start []Point, forward bool, limit int, b Budget) (*SliceResult, error) {
	return slice(ctx, env, start, forward, false, limit, b)
}

// SliceControl is Slice with control dependence: every statement of the
// slice also depends on the conditions it runs under (edges of kind
// Control, from the condition), and they on what they read, backwards
// whatever the direction (control.go).
func SliceControl(ctx context.Context, env Env, start []Point, forward bool, limit int, b Budget) (*SliceResult, error) {
	return slice(ctx, env, start, forward, true, limit, b)
}

func slice(ctx context.Context, env Env, start []Point, forward, control bool, limit int, b Budget) (*SliceResult, error) {
	w := newWalker(ctx, env, b)
	type seen struct {
		fn   string
		node int
	}
	index := map[seen]int{}
	res := &SliceResult{}
	var queue []state
	visited := map[state]bool{}
	for _, p := range start {
		w.funcs[p.Func.ID] = p.Func
		s := state{fn: p.Func.ID, node: p.Node}
		if !visited[s] {
			visited[s] = true
			queue = append(queue, s)
		}
		k := seen{p.Func.ID, p.Node}
		if _, ok := index[k]; !ok {
			index[k] = len(res.Nodes)
			res.Nodes = append(res.Nodes, w.step(s, nil))
		}
		w.noteImprecise(p.Func)
	}
	fnSeen := map[string]bool{}
	deps := map[Dep]bool{}
	push := func(s state, es []edge) {
		from := index[seen{s.fn, s.node}]
		for i := range es {
			e := &es[i]
			// an edge found walking backwards runs from e.to to s
			back := !forward || s.back || s.node < 0 || e.kind == Control
			e.to.back = forward && back
			k := seen{e.to.fn, e.to.node}
			to, ok := index[k]
			if !ok {
				if len(res.Nodes) >= limit {
					res.Truncated = true
					w.stopped = true
					return
				}
				to = len(res.Nodes)
				index[k] = to
				res.Nodes = append(res.Nodes, w.step(e.to, e))
				if g := w.fn(e.to.fn); g != nil && !fnSeen[g.ID] {
					fnSeen[g.ID] = true
					w.noteImprecise(g)
				}
			}
			d := Dep{From: from, To: to, Kind: e.kind}
			if back {
				d.From, d.To = to, from
			}
			if !deps[d] && d.From != d.To {
				deps[d] = true
				res.Deps = append(res.Deps, d)
			}
			if !visited[e.to.key()] {
				if !w.tick() {
					res.Truncated = true // this state is not walked
					return
				}
				visited[e.to.key()] = true
				queue = append(queue, e.to)
			}
		}
	}
	// global moves wait until the rest is walked (globals.go): their scope
	// is wide, and most answers need none
	var deferred []state
	for (len(queue) > 0 || len(deferred) > 0) && !w.stopped {
		if len(queue) == 0 {
			pass := deferred
			deferred = nil
			for _, s := range pass {
				if w.stopped {
					break
				}
				if f := w.fn(s.fn); f != nil {
					push(s, w.globalMoves(f, s, forward && !s.back))
				}
			}
			continue
		}
		s := queue[0]
		queue = queue[1:]
		var es []edge
		switch {
		case s.node < 0:
			es = w.condMoves(s)
		case forward && !s.back:
			es = w.forward(s)
		default:
			es = w.backward(s)
		}
		if control && s.node >= 0 {
			es = append(es, w.ctrlMoves(s)...)
		}
		if f := w.fn(s.fn); f != nil && s.node >= 0 && w.hasGlobal(f, s, forward && !s.back) {
			deferred = append(deferred, s)
		}
		push(s, es)
	}
	if w.err != nil {
		return nil, w.err
	}
	if w.stopped && !res.Truncated && (len(queue) > 0 || len(deferred) > 0 || w.memory) {
		res.Truncated = true
	}
	if res.Truncated {
		w.cut("", 0, "budget")
	}
	for _, p := range start {
		fnSeen[p.Func.ID] = true
	}
	for id := range fnSeen {
		res.Functions = append(res.Functions, id)
	}
	sort.Strings(res.Functions)
	res.Cuts = w.cutList()
	return res, nil
}

// Goal says which nodes end a flow search (At); Sink or Source names the
// model it is, when it is one, so that summaries can say which callees
// lead there.
type Goal struct {
	At     func(f *Func, node int) bool
	Sink   string
	Source string
}

// SinkGoal ends a search at an operand of sink model name.
func (m *Models) SinkGoal(name string) (Goal, error) {
	sk, ok := m.Sinks[name]
	if !ok {
		return Goal{}, fmt.Errorf("unknown sink model %q (known: %s)", name, strings.Join(m.SinkNames(), ", "))
	}
	return Goal{At: func(f *Func, i int) bool { return sk.isSink(f, i) }, Sink: name}, nil
}

// SourceGoal ends a backward search at a read of source model name.
func (m *Models) SourceGoal(name string) (Goal, error) {
	src, ok := m.Sources[name]
	if !ok {
		return Goal{}, fmt.Errorf("unknown source model %q (known: %s)", name, strings.Join(m.SourceNames(), ", "))
	}
	return Goal{At: func(f *Func, i int) bool { return src.isSource(f, i) }, Source: name}, nil
}

// PointGoal ends a search at one of pts.
func PointGoal(pts []Point) Goal {
	return Goal{At: func(f *Func, i int) bool {
		for _, p := range pts {
			if p.Func.ID == f.ID && p.Node == i {
				return true
			}
		}
		return false
	}}
}

// Flow searches breadth-first from start for the nearest node goal accepts:
// forwards (start are sources) or backwards (start are sinks, and the path
// is returned from source to sink all the same).
func Flow(ctx context.Context, env Env, start []Point, goal Goal, forward bool, b Budget) (*FlowResult, error) {
	w := newWalker(ctx, env, b)
	w.flow, w.goal = true, goal
	type back struct {
		prev state
		e    edge
		root bool
	}
	parent := map[state]back{}
	var queue []state
	for _, p := range start {
		w.funcs[p.Func.ID] = p.Func
		s := state{fn: p.Func.ID, node: p.Node}
		if _, ok := parent[s]; !ok {
			parent[s] = back{root: true}
			queue = append(queue, s)
		}
	}
	res := &FlowResult{}
	var end *state
	fnSeen := map[string]bool{}
	// global moves wait until the rest is searched (globals.go): their
	// scope is wide, and most paths need none
	var deferred []state
	for (len(queue) > 0 || len(deferred) > 0) && end == nil && !w.stopped {
		var s state
		var es []edge
		if len(queue) == 0 {
			s, deferred = deferred[0], deferred[1:]
			f := w.fn(s.fn)
			if f == nil {
				continue
			}
			es = w.globalMoves(f, s, forward)
		} else {
			s = queue[0]
			queue = queue[1:]
			f := w.fn(s.fn)
			if f == nil {
				continue
			}
			if !fnSeen[f.ID] {
				fnSeen[f.ID] = true
				w.noteImprecise(f)
			}
			if goal.At(f, s.node) {
				end = &s
				break
			}
			if forward {
				es = w.forward(s)
			} else {
				es = w.backward(s)
			}
			if w.hasGlobal(f, s, forward) {
				deferred = append(deferred, s)
			}
		}
		for _, e := range es {
			k := e.to.key()
			if _, ok := parent[k]; ok {
				continue
			}
			if !w.tick() {
				break
			}
			parent[k] = back{prev: s.key(), e: e}
			queue = append(queue, e.to)
		}
	}
	if w.err != nil {
		return nil, w.err
	}
	res.States = w.states
	if end == nil {
		res.Truncated = w.stopped
		if w.stopped {
			w.cut("", 0, "budget")
		}
		res.Cuts = w.cutList()
		res.Complete = len(res.Cuts) == 0
		return res, nil
	}
	// rebuild the path from the goal back to a start
	type hop struct {
		s state
		e *edge
	}
	var hops []hop
	cur := end.key()
	for {
		b := parent[cur]
		if b.root {
			hops = append(hops, hop{s: cur})
			break
		}
		e := b.e
		hops = append(hops, hop{s: cur, e: &e})
		cur = b.prev
	}
	// hops runs goal -> start
	if forward {
		for i := len(hops) - 1; i >= 0; i-- {
			res.Path = append(res.Path, w.step(hops[i].s, hops[i].e))
		}
	} else {
		// backward: start is the sink; the edge stored on a hop led from
		// its predecessor (nearer the sink) to it, so it belongs on the
		// predecessor's step when read source -> sink
		for i := range hops {
			res.Path = append(res.Path, w.step(hops[i].s, nil))
		}
		for i := 0; i+1 < len(hops); i++ {
			e := hops[i].e
			st := w.step(hops[i+1].s, e)
			res.Path[i+1].Edge, res.Path[i+1].Via = st.Edge, st.Via
			res.Path[i+1].Provenance, res.Path[i+1].Confidence, res.Path[i+1].Sanitizers = st.Provenance, st.Confidence, st.Sanitizers
		}
	}
	res.Found = true
	res.Complete = true
	res.Cuts = w.cutList()
	return res, nil
}
