// This file moves a query across by-reference parameters: the value a
// callee leaves in one (a RefOut node, lowered at each of its exits)
// becomes the caller's variable after the call (the RefArg node the caller
// made for that argument), forwards and backwards. query.go calls it.

package dataflow

// refArgs returns the RefArg nodes of call c of g for argument index i.
func refArgs(g *Func, c, i int) []int {
	var out []int
	for j := range g.Nodes {
		m := &g.Nodes[j]
		if m.Kind == RefArg && m.Call == c && m.Loc.Index == i {
			out = append(out, j)
		}
	}
	return out
}

// refOutMoves leaves callee f from RefOut node n (state s) for the
// caller's variable: the call it entered by, or every caller.
func (w *walker) refOutMoves(f *Func, n *Node, s state) []edge {
	var out []edge
	if rest, fr, ok := s.pop(); ok {
		if g := w.fn(fr.fn); g != nil {
			for _, j := range refArgs(g, fr.call, n.Loc.Index) {
				to := rest
				to.fn, to.node = g.ID, j
				out = append(out, edge{to: to, kind: Ret, via: linkVia(g, fr.call, f.ID), confidence: 1})
			}
		}
		return out
	}
	for _, l := range w.callersOf(f.ID) {
		g := w.fn(l.Caller)
		if g == nil {
			continue
		}
		if s.crossd >= w.budget.Depth {
			w.cut(f.Path, n.Line, "depth")
			continue
		}
		d, conf := derivedLink(l)
		for _, c := range sitesOf(g, l) {
			for _, j := range refArgs(g, c, n.Loc.Index) {
				to := state{fn: g.ID, node: j, crossd: s.crossd + 1}
				out = append(out, edge{to: to, kind: Ret, via: linkVia(g, c, f.ID), derived: d, confidence: conf})
			}
		}
	}
	return out
}

// refArgMoves enters the callees of RefArg node n of f (state s) at the
// RefOut nodes of the parameter it was passed to.
func (w *walker) refArgMoves(f *Func, n *Node, s state) []edge {
	var out []edge
	for _, l := range w.targets(f, n.Call) {
		g := w.fn(l.Callee)
		if g == nil {
			continue
		}
		if s.crossd >= w.budget.Depth {
			w.cut(f.Path, n.Line, "depth")
			continue
		}
		d, conf := derivedLink(l)
		for j := range g.Nodes {
			m := &g.Nodes[j]
			if m.Kind != RefOut || m.Loc.Index != n.Loc.Index {
				continue
			}
			to := s.push(frame{fn: f.ID, call: n.Call})
			to.fn, to.node, to.crossd = g.ID, j, s.crossd+1
			out = append(out, edge{to: to, kind: Ret, via: linkVia(f, n.Call, g.ID), derived: d, confidence: conf})
		}
	}
	return out
}
