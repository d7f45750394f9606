// This file lowers calls of callables: a closure called through a variable
// (`$f($x)`, `$make('a')($x)`), and the built-ins that call a callback
// (array_map, array_walk, array_filter, usort, call_user_func(_array),
// preg_replace_callback, …). A closure is lowered where it is written
// (closureBody in dataflow_expr.go), so its parameters and returns are
// nodes of the enclosing function and a call of it is linked there; a
// callable named by a string or an array becomes a call of its own at the
// name's line, which the graph's calls_heuristic edge resolves.

package php

import (
	"strings"

	"github.com/ragraf/ragraf/internal/dataflow"
	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// closureKind is the node kind of a closure's value; closureReturn the kind
// of a closure's return (a function's own returns are "return").
const (
	closureKind   = "closure"
	closureReturn = "closure_return"
)

// closureInfo is a closure lowered in the function: its parameter nodes in
// order and its return nodes.
type closureInfo struct {
	params []int
	rets   []int
}

// closureValue lowers a closure and returns its value, a node the calls of
// it are resolved by.
func (l *lowering) closureValue(n *sitter.Node, explicit bool) []src {
	savedRets := l.crets
	l.crets = nil
	l.closureBody(n, explicit)
	info := &closureInfo{rets: l.crets, params: l.cparams}
	l.crets = savedRets
	id := l.node(n, closureKind, dataflow.Loc{Kind: dataflow.CallResult, Name: "(closure)"}, nil)
	if l.cls == nil {
		l.cls = map[int]*closureInfo{}
	}
	l.cls[id] = info
	return []src{{from: id, kind: dataflow.Assign}}
}

// closureReturnNode records a closure's return (arrow function bodies too).
func (l *lowering) closureReturnNode(at *sitter.Node, ins []src) int {
	id := l.node(at, closureReturn, dataflow.Loc{Kind: dataflow.Return}, ins)
	l.crets = append(l.crets, id)
	return id
}

// closuresOf follows values back through copies to the closures they
// hold; all is false when some value is not known to be a closure.
func (l *lowering) closuresOf(ss []src) (out []*closureInfo, all bool) {
	all = true
	seen := map[int]bool{}
	var stack []int
	for _, s := range ss {
		if s.from < 0 {
			all = false
			continue
		}
		stack = append(stack, s.from)
	}
	for steps := 0; len(stack) > 0 && steps < 64; steps++ {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		if ci, ok := l.cls[id]; ok {
			out = append(out, ci)
			continue
		}
		nd := &l.f.Nodes[id]
		follow := false
		switch nd.Kind {
		case "assign", "use", "global", "arg", closureReturn:
			follow = true
		case "call":
			follow = nd.Call >= 0 && l.f.Calls[nd.Call].Name == "{closure}"
		}
		if !follow || len(nd.In) == 0 {
			all = false
			continue
		}
		for _, in := range nd.In {
			switch in.Kind {
			case dataflow.Assign, dataflow.Ret, dataflow.ArgEdge:
				stack = append(stack, in.From)
			}
		}
	}
	if len(stack) > 0 {
		all = false
	}
	return out, all
}

// linkClosure passes args (node ids; each arg[j] feeds parameter j, a
// spread one every parameter from j on) into closure ci and its returns
// into node res.
func (l *lowering) linkClosure(ci *closureInfo, args [][]int, spread int, res int) {
	feed := func(to, from int, kind dataflow.EdgeKind) {
		if nd := &l.f.Nodes[to]; !hasIn(nd, from) {
			nd.In = append(nd.In, dataflow.In{From: from, Kind: kind})
		}
	}
	for j, p := range ci.params {
		if j < len(args) {
			for _, a := range args[j] {
				feed(p, a, dataflow.ArgEdge)
			}
		}
		if spread >= 0 && j >= spread {
			for _, a := range args[spread] {
				feed(p, a, dataflow.ArgEdge)
			}
		}
	}
	if res >= 0 {
		for _, r := range ci.rets {
			feed(res, r, dataflow.Ret)
		}
	}
}

// closureCall links a dynamic call `$f(…)` of call index ci to the closures
// its callee expression holds; when it holds nothing else the call is no
// longer dynamic (named "{closure}").
func (l *lowering) closureCall(ci int, fnVals []src) {
	cs, all := l.closuresOf(fnVals)
	if len(cs) == 0 {
		return
	}
	c := &l.f.Calls[ci]
	args := make([][]int, len(c.Args))
	spread := -1
	for i, a := range c.Args {
		args[i] = []int{a}
		if l.f.Nodes[a].Loc.Key == dataflow.Spread && spread < 0 {
			spread = i
		}
	}
	for _, info := range cs {
		l.linkClosure(info, args, spread, c.Result)
	}
	if all {
		c.Dynamic = false
		c.Name = "{closure}"
	}
}

// callbackSpec says how a built-in calls its callback: the callback's
// argument index, and for each of the callback's parameters the built-in's
// arguments that feed it (elements of an array, or the value itself).
type callbackSpec struct {
	cb     int
	params [][]int // params[j]: argument indices feeding parameter j
	rest   int     // parameter j ≥ len(params) takes argument rest+j (call_user_func), -1 none
	spread int     // the argument whose elements spread over the parameters, -1 none
	result bool    // the callback's return reaches the built-in's value
}

var callbackSpecs = map[string]callbackSpec{
	"array_map":                 {cb: 0, rest: 1, spread: -1, result: true},
	"array_walk":                {cb: 1, params: [][]int{{0}, {0}, {2}}, rest: -1, spread: -1},
	"array_walk_recursive":      {cb: 1, params: [][]int{{0}, {0}, {2}}, rest: -1, spread: -1},
	"array_filter":              {cb: 1, params: [][]int{{0}, {0}}, rest: -1, spread: -1},
	"usort":                     {cb: 1, params: [][]int{{0}, {0}}, rest: -1, spread: -1},
	"uasort":                    {cb: 1, params: [][]int{{0}, {0}}, rest: -1, spread: -1},
	"uksort":                    {cb: 1, params: [][]int{{0}, {0}}, rest: -1, spread: -1},
	"array_reduce":              {cb: 1, params: [][]int{{2}, {0}}, rest: -1, spread: -1, result: true},
	"preg_replace_callback":     {cb: 1, params: [][]int{{2}}, rest: -1, spread: -1, result: true},
	"call_user_func":            {cb: 0, rest: 1, spread: -1, result: true},
	"forward_static_call":       {cb: 0, rest: 1, spread: -1, result: true},
	"call_user_func_array":      {cb: 0, rest: -1, spread: 1, result: true},
	"forward_static_call_array": {cb: 0, rest: -1, spread: 1, result: true},
}

// callbackCall lowers built-in call ci (its argument syntax argNodes) when
// it calls a callback: a closure is linked here, a named callable becomes a
// call of its own, any other callable a dynamic call (a cut point).
func (l *lowering) callbackCall(ci int, name string, argNodes []*sitter.Node) {
	spec, ok := callbackSpecs[strings.ToLower(name)]
	if !ok {
		return
	}
	c := l.f.Calls[ci]
	if spec.cb >= len(c.Args) {
		return
	}
	argFor := func(j int) []int {
		var out []int
		var idx []int
		switch {
		case j < len(spec.params):
			idx = spec.params[j]
		case spec.rest >= 0:
			idx = []int{spec.rest + j}
		}
		for _, i := range idx {
			if i < len(c.Args) && i != spec.cb {
				out = append(out, c.Args[i])
			}
		}
		return out
	}
	nParams := len(spec.params)
	if spec.rest >= 0 {
		nParams = len(c.Args) - spec.rest
	}
	// a closure, written in place or held by a variable
	cbVals := srcsOf(l.f.Nodes[c.Args[spec.cb]].In)
	if cs, _ := l.closuresOf(cbVals); len(cs) > 0 {
		args := make([][]int, nParams)
		for j := range args {
			args[j] = argFor(j)
		}
		spread := -1
		if spec.spread >= 0 && spec.spread < len(c.Args) {
			args = [][]int{{c.Args[spec.spread]}}
			spread = 0
		}
		res := -1
		if spec.result {
			res = c.Result
		}
		for _, info := range cs {
			l.linkClosure(info, args, spread, res)
		}
		return
	}
	// a named callable: its own call at the name's line, as the graph links it
	sc := dataflow.Call{Name: "?", Dynamic: true, Line: c.Line}
	cbNode := firstNamed(argNodes[spec.cb])
	if cbNode != nil {
		if m, recv, at, ok := l.namedCallable(cbNode); ok {
			sc = dataflow.Call{Name: m, Receiver: recv, Method: recv != "", Line: line(at.StartPosition())}
		}
	}
	sci := len(l.f.Calls)
	l.f.Calls = append(l.f.Calls, sc)
	label := sc.Name
	if sc.Receiver != "" {
		label = sc.Receiver + "::" + sc.Name
	}
	var res []dataflow.In
	addArg := func(j int, from []int, key string) {
		ins := make([]dataflow.In, 0, len(from))
		for _, a := range from {
			ins = append(ins, dataflow.In{From: a, Kind: dataflow.Load})
		}
		id := l.nodeAtLine(sc.Line, "arg", dataflow.Loc{Kind: dataflow.Arg, Name: label, Index: j, Key: key}, ins)
		l.f.Nodes[id].Call = sci
		l.f.Calls[sci].Args = append(l.f.Calls[sci].Args, id)
		res = append(res, dataflow.In{From: id, Kind: dataflow.CallEdge})
	}
	if spec.spread >= 0 {
		if spec.spread < len(c.Args) {
			addArg(0, []int{c.Args[spec.spread]}, dataflow.Spread)
		}
	} else {
		for nParams > 0 && len(argFor(nParams-1)) == 0 {
			nParams-- // no argument feeds the last parameters
		}
		for j := 0; j < nParams; j++ {
			addArg(j, argFor(j), "")
		}
	}
	r := l.nodeAtLine(sc.Line, "call", dataflow.Loc{Kind: dataflow.CallResult, Name: label}, res)
	l.f.Nodes[r].Call = sci
	l.f.Calls[sci].Result = r
	if spec.result {
		nd := &l.f.Nodes[c.Result]
		nd.In = append(nd.In, dataflow.In{From: r, Kind: dataflow.Assign})
	}
}

func srcsOf(ins []dataflow.In) []src {
	out := make([]src, len(ins))
	for i, in := range ins {
		out[i] = src{from: in.From, kind: in.Kind}
	}
	return out
}

// namedCallable reads a callable written as 'f', 'C::m', [$o, 'm'] or
// ['C', 'm']: the function or method name, the class or receiver ("" for a
// function), and the node of the name (whose line the graph's edge has).
func (l *lowering) namedCallable(n *sitter.Node) (name, recv string, at *sitter.Node, ok bool) {
	switch n.Kind() {
	case "string", "encapsed_string":
		s, ok := stringLiteral(l.text(n), n.Kind())
		if !ok || s == "" || strings.Contains(s, "$") {
			return "", "", nil, false
		}
		s = strings.TrimPrefix(s, `\`)
		if cls, m, ok := strings.Cut(s, "::"); ok {
			return m, lastName(cls), n, validName(m)
		}
		return lastName(s), "", n, validName(lastName(s))
	case "array_creation_expression":
		if n.NamedChildCount() != 2 {
			return "", "", nil, false
		}
		a, b := firstNamed(n.NamedChild(0)), firstNamed(n.NamedChild(1))
		if a == nil || b == nil || (b.Kind() != "string" && b.Kind() != "encapsed_string") {
			return "", "", nil, false
		}
		m, ok := stringLiteral(l.text(b), b.Kind())
		if !ok || !validName(m) {
			return "", "", nil, false
		}
		recv := "?"
		switch a.Kind() {
		case "variable_name":
			recv = varName(l.text(a))
		case "string", "encapsed_string":
			if s, ok := stringLiteral(l.text(a), a.Kind()); ok {
				recv = lastName(s)
			}
		}
		return m, recv, b, true
	}
	return "", "", nil, false
}
