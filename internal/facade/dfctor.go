// This file links object creation to constructors for the data-flow engine:
// the graph states `new X(...)` as an instantiates edge to class X, while
// the engine follows arguments into a callee's parameters, so the edge is
// read as a call of X's constructor (declared in X or inherited).

package facade

import (
	"context"

	"github.com/ragraf/ragraf/internal/dataflow"
	"github.com/ragraf/ragraf/internal/fact"
)

// maxCtorDepth bounds the walk up the extends chain to a constructor.
const maxCtorDepth = 8

// ctorLinks turns instantiates edges into links to the constructors they
// run; a class without a constructor in its chain gives no link.
func (d *dfEnv) ctorLinks(ctx context.Context, es []fact.Edge) ([]dataflow.Link, error) {
	var out []dataflow.Link
	for _, e := range es {
		ctor, err := d.ctorOf(ctx, e.To)
		if err != nil {
			return nil, err
		}
		if ctor == "" {
			continue
		}
		out = append(out, dataflow.Link{Caller: e.From, Callee: ctor, Line: e.EvidenceLine, Name: "__construct",
			Provenance: string(e.Provenance), Confidence: e.Confidence})
	}
	return out, nil
}

// ctorOf returns the id of the constructor that `new` of class runs
// (declared or inherited: methodOf), or "", remembered per query.
func (d *dfEnv) ctorOf(ctx context.Context, class string) (string, error) {
	if c, ok := d.ctors[class]; ok {
		return c, nil
	}
	c, err := d.methodOf(ctx, class, "__construct", 0)
	if err != nil {
		return "", err
	}
	if d.ctors == nil {
		d.ctors = map[string]string{}
	}
	d.ctors[class] = c
	return c, nil
}

// ctorCallers are the links into constructor ctor from every `new` of its
// class and of the subclasses that inherit it (the ones ctorOf maps to ctor).
func (d *dfEnv) ctorCallers(ctx context.Context, ctor string) ([]dataflow.Link, error) {
	g := d.snap.graph
	n, ok, err := g.Node(ctx, ctor)
	if err != nil {
		return nil, storeError(err)
	}
	if !ok || n.Kind != fact.Method || fact.Lower(n.Name) != "__construct" || n.Parent == "" {
		return nil, nil
	}
	classes, seen := []string{n.Parent}, map[string]bool{n.Parent: true}
	for i := 0; i < len(classes); i++ {
		subs, err := g.EdgesToAny(ctx, []string{classes[i]}, []fact.EdgeKind{fact.Extends})
		if err != nil {
			return nil, storeError(err)
		}
		for _, e := range subs {
			if seen[e.From] {
				continue
			}
			seen[e.From] = true
			if c, err := d.ctorOf(ctx, e.From); err != nil {
				return nil, err
			} else if c == ctor {
				classes = append(classes, e.From)
			}
		}
	}
	es, err := g.EdgesToAny(ctx, classes, []fact.EdgeKind{fact.Instantiates})
	if err != nil {
		return nil, storeError(err)
	}
	return d.ctorLinks(ctx, es)
}
