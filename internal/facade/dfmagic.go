// This file adds the call links of the data-flow engine that the graph has
// no edge for, both ways: a call of X::__toString that the PHP lowering
// made where an object of class X is echoed (dataflow_object.go), and the
// methods that override the target of a `static::m()` call, which late
// static binding may run instead. Both are derived.

package facade

import (
	"context"
	"strings"

	"github.com/ragraf/ragraf/internal/dataflow"
	"github.com/ragraf/ragraf/internal/fact"
)

// Confidences of the links made here.
const (
	toStringConfidence = 0.8
	lateStaticConf     = 0.7
)

// extraCallees returns the links from caller's calls that the graph does
// not state (ls are the ones it does).
func (d *dfEnv) extraCallees(ctx context.Context, caller string, ls []dataflow.Link) ([]dataflow.Link, error) {
	f, err := d.fn(ctx, caller)
	if err != nil || f == nil {
		return nil, err
	}
	var out []dataflow.Link
	for i := range f.Calls {
		c := &f.Calls[i]
		switch {
		case c.Method && c.Name == "__toString" && c.Receiver != "":
			ms, err := d.methodsByClassName(ctx, c.Receiver, "__tostring")
			if err != nil {
				return nil, err
			}
			for _, m := range ms {
				out = append(out, dataflow.Link{Caller: caller, Callee: m, Line: c.Line, Name: c.Name, Provenance: string(fact.Derived), Confidence: toStringConfidence})
			}
		case c.Method && strings.EqualFold(c.Receiver, "static"):
			for _, l := range ls {
				if l.Line != c.Line || !strings.EqualFold(l.Name, c.Name) {
					continue
				}
				_, down, err := d.snap.graph.Overrides(ctx, l.Callee)
				if err != nil {
					return nil, storeError(err)
				}
				for _, m := range down {
					out = append(out, dataflow.Link{Caller: caller, Callee: m, Line: c.Line, Name: l.Name, Provenance: string(fact.Derived), Confidence: lateStaticConf, Late: true})
				}
			}
		}
	}
	return out, nil
}

// extraCallers returns the links into callee that extraCallees makes:
// echoes of its class's objects in the files the query has loaded (a
// __toString), and `static::` calls of the methods it overrides.
func (d *dfEnv) extraCallers(ctx context.Context, callee string) ([]dataflow.Link, error) {
	n, ok, err := d.snap.graph.Node(ctx, callee)
	if err != nil {
		return nil, storeError(err)
	}
	if !ok || n.Kind != fact.Method {
		return nil, nil
	}
	var out []dataflow.Link
	if strings.EqualFold(n.Name, "__toString") && n.Parent != "" {
		cls, ok, err := d.snap.graph.Node(ctx, n.Parent)
		if err != nil {
			return nil, storeError(err)
		}
		for _, fs := range d.files {
			for _, f := range fs {
				for i := range f.Calls {
					c := &f.Calls[i]
					if ok && c.Method && c.Name == "__toString" && strings.EqualFold(c.Receiver, cls.Name) {
						out = append(out, dataflow.Link{Caller: f.ID, Callee: callee, Line: c.Line, Name: c.Name, Provenance: string(fact.Derived), Confidence: toStringConfidence})
					}
				}
			}
		}
	}
	up, _, err := d.snap.graph.Overrides(ctx, callee)
	if err != nil {
		return nil, storeError(err)
	}
	if len(up) == 0 {
		return out, nil
	}
	es, err := d.snap.graph.EdgesToAny(ctx, up, callKinds)
	if err != nil {
		return nil, storeError(err)
	}
	for _, e := range es {
		f, err := d.fn(ctx, e.From)
		if err != nil {
			return nil, err
		}
		if f == nil {
			continue
		}
		for i := range f.Calls {
			c := &f.Calls[i]
			if c.Line == e.EvidenceLine && c.Method && strings.EqualFold(c.Receiver, "static") && strings.EqualFold(c.Name, n.Name) {
				out = append(out, dataflow.Link{Caller: e.From, Callee: callee, Line: c.Line, Name: n.Name, Provenance: string(fact.Derived), Confidence: lateStaticConf, Late: true})
				break
			}
		}
	}
	return out, nil
}

// methodsByClassName returns the method named lower (lower case) that
// objects of the classes named name run: declared or inherited.
func (d *dfEnv) methodsByClassName(ctx context.Context, name, lower string) ([]string, error) {
	ns, err := d.snap.graph.NodesByName(ctx, name)
	if err != nil {
		return nil, storeError(err)
	}
	var out []string
	for _, n := range ns {
		if n.Kind != fact.Class {
			continue
		}
		m, err := d.methodOf(ctx, n.ID, lower, 0)
		if err != nil {
			return nil, err
		}
		if m != "" {
			out = append(out, m)
		}
	}
	return out, nil
}

// methodOf returns the id of method lower of class, declared or inherited
// along extends (at most maxCtorDepth classes up, which also ends a cycle),
// or "".
func (d *dfEnv) methodOf(ctx context.Context, class, lower string, depth int) (string, error) {
	g := d.snap.graph
	kids, err := g.EdgesFrom(ctx, class, []fact.EdgeKind{fact.Contains})
	if err != nil {
		return "", storeError(err)
	}
	var ids []string
	for _, e := range kids {
		ids = append(ids, e.To)
	}
	if len(ids) > 0 {
		byID, err := g.NodesByID(ctx, ids)
		if err != nil {
			return "", storeError(err)
		}
		for _, id := range ids {
			if n := byID[id]; n.Kind == fact.Method && fact.Lower(n.Name) == lower {
				return id, nil
			}
		}
	}
	if depth >= maxCtorDepth {
		return "", nil
	}
	parents, err := g.EdgesFrom(ctx, class, []fact.EdgeKind{fact.Extends})
	if err != nil {
		return "", storeError(err)
	}
	for _, p := range parents {
		if m, err := d.methodOf(ctx, p.To, lower, depth+1); err != nil || m != "" {
			return m, err
		}
	}
	return "", nil
}
