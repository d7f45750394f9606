// This file moves a query across by-reference parameters: the value a
// callee leaves in one (a RefOut node, lowered at each of its exits)
// becomes the caller's variable after the call (the RefArg node the caller
// made for that argument), forwards and backwards; and likewise what a
// callee throws (Throw) becomes what its call raised in a try block
// (Thrown). query.go calls it.

package dataflow

// callerSide is the node kind in a caller a callee's node of kind k
// reaches (RefOut -> RefArg, Throw -> Thrown), and calleeSide the reverse.
func callerSide(k string) string {
	if k == Throw {
		return Thrown
	}
	return RefArg
}

func calleeSide(k string) string {
	if k == Thrown {
		return Throw
	}
	return RefOut
}

// refArgs returns the nodes of kind kind of call c of g for index i.
func refArgs(g *Func, c, i int, kind string) []int {
	var out []int
	for j := range g.Nodes {
		m := &g.Nodes[j]
		if m.Kind == kind && m.Call == c && m.Loc.Index == i {
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
			for _, j := range refArgs(g, fr.call, n.Loc.Index, callerSide(n.Kind)) {
				to := rest
				to.fn, to.node = g.ID, j
				out = append(out, edge{to: to, kind: Ret, via: linkVia(g, fr.call, f.ID), confidence: 1})
			}
		}
		return out
	}
	for _, l := range w.callersOf(f.ID) {
		g := w.across(l.Caller, f, n.Line, s)
		if g == nil {
			continue
		}
		d, conf := derivedLink(l)
		for _, c := range sitesOf(g, l) {
			for _, j := range refArgs(g, c, n.Loc.Index, callerSide(n.Kind)) {
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
		g := w.across(l.Callee, f, n.Line, s)
		if g == nil {
			continue
		}
		d, conf := derivedLink(l)
		for j := range g.Nodes {
			m := &g.Nodes[j]
			if m.Kind != calleeSide(n.Kind) || m.Loc.Index != n.Loc.Index {
				continue
			}
			to := s.push(frame{fn: f.ID, call: n.Call})
			to.fn, to.node, to.crossd = g.ID, j, s.crossd+1
			out = append(out, edge{to: to, kind: Ret, via: linkVia(f, n.Call, g.ID), derived: d, confidence: conf})
		}
	}
	return out
}
