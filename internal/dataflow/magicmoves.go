// This file moves a query through PHP's magic methods, which run where no
// call is written: __call and __callStatic take a missing method's
// arguments as an array (their second parameter), __set takes the value
// stored to a missing or inaccessible property, and what __get returns is
// the value of such a property read. The graph links each access to the
// magic method (calls_heuristic at the access's line); query.go calls these.

package dataflow

import "strings"

// magicCall reports whether name is __call or __callStatic.
func magicCall(name string) bool {
	return strings.EqualFold(name, "__call") || strings.EqualFold(name, "__callStatic")
}

// linkMatches reports whether link l resolves call c: by its name, or to a
// magic __call of a method call.
func linkMatches(l Link, c *Call) bool {
	if l.Line != c.Line {
		return false
	}
	return strings.EqualFold(l.Name, c.Name) || (c.Method && magicCall(l.Name))
}

// linksAt returns f's call edges at line to a callee named name.
func (w *walker) linksAt(f *Func, line int, name string) []Link {
	ls, ok := w.callees[f.ID]
	if !ok {
		var err error
		ls, err = w.env.Callees(w.ctx, f.ID)
		if err != nil && w.err == nil {
			w.err = err
		}
		w.callees[f.ID] = ls
	}
	var out []Link
	for _, l := range ls {
		if l.Line == line && strings.EqualFold(l.Name, name) {
			out = append(out, l)
		}
	}
	return out
}

// magicSetMoves: a store to property node n of f reaches the value
// parameter of the __set the graph links the store to.
func (w *walker) magicSetMoves(f *Func, n *Node, s state) []edge {
	var out []edge
	for _, l := range w.linksAt(f, n.Line, "__set") {
		g := w.fn(l.Callee)
		if g == nil || len(g.Params) < 2 {
			continue
		}
		if s.crossd >= w.budget.Depth {
			w.cut(f.Path, n.Line, "depth")
			continue
		}
		d, conf := derivedLink(l)
		to := state{fn: g.ID, node: g.Params[1], crossd: s.crossd + 1}
		out = append(out, edge{to: to, kind: ArgEdge, via: &Via{CallPath: f.Path, CallLine: n.Line, Callee: g.ID}, derived: d, confidence: conf})
	}
	return out
}

// magicGetMoves: a load of property node n of f is what the __get the
// graph links the load to returns (backwards).
func (w *walker) magicGetMoves(f *Func, n *Node, s state) []edge {
	var out []edge
	for _, l := range w.linksAt(f, n.Line, "__get") {
		g := w.across(l.Callee, f, n.Line, s)
		if g == nil {
			continue
		}
		d, conf := derivedLink(l)
		for _, r := range g.Returns {
			to := state{fn: g.ID, node: r, crossd: s.crossd + 1}
			out = append(out, edge{to: to, kind: Ret, via: &Via{CallPath: f.Path, CallLine: n.Line, Callee: g.ID}, derived: d, confidence: conf})
		}
	}
	return out
}

// magicSites returns the property nodes of caller g at link l's line that
// magic method f (__set: stores, __get: loads) runs for; nil for any other f.
func magicSites(f, g *Func, l Link) []int {
	var loads bool
	switch {
	case strings.EqualFold(f.Name, "__set"):
	case strings.EqualFold(f.Name, "__get"):
		loads = true
	default:
		return nil
	}
	var out []int
	for j := range g.Nodes {
		m := &g.Nodes[j]
		if m.Line == l.Line && m.Loc.Kind == Prop && (m.Kind == "load") == loads {
			out = append(out, j)
		}
	}
	return out
}

// accessMagic returns the magic method PHP runs for an access from outside
// the class to a property it does not declare public: __set for a store,
// __get for a load.
func accessMagic(load bool) string {
	if load {
		return "__get"
	}
	return "__set"
}

// inaccessible reports whether property location loc ("C::$p", "*::$p"),
// accessed in f, may be one magic method g of the same file runs for: g's
// class (or an unknown class) and a property g's class does not declare
// public, from outside that class.
func inaccessible(loc string, f, g *Func) bool {
	cls, p, ok := strings.Cut(loc, "::$")
	if !ok || p == "*" || g.Public == nil || f.Class == g.Class || (cls != "*" && cls != g.Class) {
		return false
	}
	for _, q := range g.Public {
		if q == p {
			return false
		}
	}
	return true
}

// magicAccessMoves links property node n of f to the __set or __get of its
// file that PHP runs for it (inaccessible): forwards a store reaches
// __set's value parameter, backwards a load reaches __get's returns;
// derived, 0.6.
func (w *walker) magicAccessMoves(f *Func, n *Node, s state, forward bool) []edge {
	load := n.Kind == "load"
	if forward == load {
		return nil // a load's value does not enter __get, __set's does not come back
	}
	var out []edge
	for _, g := range w.siblingsOf(f) {
		if !strings.EqualFold(g.Name, accessMagic(load)) || !inaccessible(n.Loc.Name, f, g) {
			continue
		}
		via := &Via{CallPath: f.Path, CallLine: n.Line, Callee: g.ID}
		if !load && len(g.Params) > 1 {
			out = append(out, edge{to: state{fn: g.ID, node: g.Params[1], crossd: s.crossd}, kind: ArgEdge, via: via, derived: true, confidence: 0.6})
		}
		if load {
			for _, r := range g.Returns {
				out = append(out, edge{to: state{fn: g.ID, node: r, crossd: s.crossd}, kind: Ret, via: via, derived: true, confidence: 0.6})
			}
		}
	}
	return out
}

// magicAccessSites is the other direction of magicAccessMoves, from magic
// method g's node n: forwards a return of __get reaches the loads it runs
// for, backwards __set's value parameter the stores.
func (w *walker) magicAccessSites(g *Func, n *Node, s state, forward bool) []edge {
	var load bool
	switch {
	case forward && n.Kind == "return" && strings.EqualFold(g.Name, "__get"):
		load = true
	case !forward && n.Kind == "param" && strings.EqualFold(g.Name, "__set") && len(g.Params) > 1 && g.Params[1] == s.node:
	default:
		return nil
	}
	var out []edge
	for _, f := range w.siblingsOf(g) {
		for j := range f.Nodes {
			m := &f.Nodes[j]
			if m.Loc.Kind != Prop || (m.Kind == "load") != load || !inaccessible(m.Loc.Name, f, g) {
				continue
			}
			kind := Ret
			if !load {
				kind = ArgEdge
			}
			via := &Via{CallPath: f.Path, CallLine: m.Line, Callee: g.ID}
			out = append(out, edge{to: state{fn: f.ID, node: j, crossd: s.crossd}, kind: kind, via: via, derived: true, confidence: 0.6})
		}
	}
	return out
}

// lateApplies reports whether a late-static-binding link into g can be
// taken from state s: not when s's function was entered by a call written
// on another class (`A::test()` runs static::who() as A::who, not as the
// override g in B).
func (w *walker) lateApplies(s state, g *Func) bool {
	if s.ncs == 0 {
		return true
	}
	fr := s.cs[s.ncs-1]
	h := w.fn(fr.fn)
	if h == nil {
		return true
	}
	c := &h.Calls[fr.call]
	if !strings.Contains(h.Nodes[c.Result].Loc.Name, "::") {
		return true // called on an object: its class is not known here
	}
	switch strings.ToLower(c.Receiver) {
	case "static", "self", "parent":
		return true
	}
	return strings.EqualFold(c.Receiver, g.Class)
}

// computedOK reports whether property locations a (of f) and b (of g) may
// meet when one has a computed name (`$this->$name`, "C::$*"): in __get or
// __set such an access reads or writes only the properties PHP runs them
// for, never one the class declares public.
func computedOK(f *Func, a string, g *Func, b string) bool {
	return computedIn(f, a, b) && computedIn(g, b, a)
}

func computedIn(f *Func, loc, other string) bool {
	_, p, _ := strings.Cut(loc, "::$")
	_, q, _ := strings.Cut(other, "::$")
	if p != "*" || q == "*" || f.Public == nil || !(strings.EqualFold(f.Name, "__get") || strings.EqualFold(f.Name, "__set")) {
		return true
	}
	for _, x := range f.Public {
		if x == q {
			return false
		}
	}
	return true
}
