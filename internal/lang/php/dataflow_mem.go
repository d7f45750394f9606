// This file lowers what makes PHP variables memory rather than values:
// references (`$a = &$b` both ways, `foreach ($xs as &$x)`, `use (&$m)`, a
// property or element bound to a variable, by-reference parameters),
// `static` variables, variable variables, compact, extract and the
// one-argument parse_str. Each is modelled with plain nodes and edges, so a
// function using them stays precise; only what is not modelled here marks
// the function imprecise (scanImprecise in dataflow.go).

package php

import (
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/dataflow"
	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// wildVar is the env entry of writes to a variable whose name is not known
// (`$$n = …` with a computed name, extract of an array of unknown keys,
// parse_str($s)): every later read of any variable may read them.
const wildVar = "*"

// alias is what a write to a variable also writes: another variable (v),
// an element of an array variable (elem, `foreach ($xs as &$x)`), a
// property (prop, `$o->p = &$x`), or a node that reads it later (feed, a
// closure's `use (&$m)`).
type alias struct {
	v, elem, prop string
	feed          int
}

// mem is the per-function state of this file's constructs.
type mem struct {
	aliases map[string][]alias
	consts  map[int]string // node -> the string literal it was assigned
	statics map[string]int // static variable -> its declaration node
	refOut  []int          // parameter index -> 1 for a by-reference parameter
	wild    bool           // a write of unknown name happened (a read then sees wildVar)
}

// aliasWrite propagates definition id of v to what v is bound to.
func (l *lowering) aliasWrite(v string, id int) {
	for _, a := range l.mem.aliases[v] {
		switch {
		case a.v != "":
			l.env[a.v] = appendUniq(l.env[a.v], id)
		case a.feed >= 0:
			if nd := &l.f.Nodes[a.feed]; !hasIn(nd, id) {
				nd.In = append(nd.In, dataflow.In{From: id, Kind: dataflow.Assign})
			}
		case a.elem != "":
			e := l.nodeAtLine(l.f.Nodes[id].Line, "assign", dataflow.Loc{Kind: dataflow.Elem, Name: a.elem, Key: "*"}, []dataflow.In{{From: id, Kind: dataflow.Store}})
			l.env[a.elem] = appendUniq(l.env[a.elem], e)
		case a.prop != "":
			l.nodeAtLine(l.f.Nodes[id].Line, "assign", dataflow.Loc{Kind: dataflow.Prop, Name: a.prop}, []dataflow.In{{From: id, Kind: dataflow.Store}})
		}
	}
}

// nodeAtLine adds a node made of other nodes (no variable read).
func (l *lowering) nodeAtLine(line int, kind string, loc dataflow.Loc, ins []dataflow.In) int {
	id := len(l.f.Nodes)
	l.f.Nodes = append(l.f.Nodes, dataflow.Node{Line: line, Kind: kind, Loc: loc, In: ins, Call: -1, Ctrl: l.ctrl})
	return id
}

func (l *lowering) addAlias(v string, a alias) {
	if l.mem.aliases == nil {
		l.mem.aliases = map[string][]alias{}
	}
	l.mem.aliases[v] = append(l.mem.aliases[v], a)
}

// bindVars makes a and b one variable from here on: a write to either (or to
// a variable already bound to b) writes the other.
func (l *lowering) bindVars(a, b string) {
	if a == b {
		return
	}
	group := []string{b}
	for _, x := range l.mem.aliases[b] {
		if x.v != "" && x.v != a {
			group = append(group, x.v)
		}
	}
	for _, g := range group {
		l.addAlias(a, alias{v: g, feed: -1})
		l.addAlias(g, alias{v: a, feed: -1})
	}
}

// refAssign lowers `$a = &$b` (and `$o->p = &$b`, `X::$p = &$b`,
// `$a = &$b['k']`): the left takes the right's value now, and later writes
// to the variable on the right reach it. It reports false for the forms
// left to the general case (the function is imprecise for them).
func (l *lowering) refAssign(left, right *sitter.Node) ([]src, bool) {
	if left == nil || right == nil {
		return nil, false
	}
	vals := l.expr(right)
	var rv, relem string
	switch right.Kind() {
	case "variable_name":
		rv = varName(l.text(right))
	case "subscript_expression":
		if b, _ := subscript(right); b != nil && b.Kind() == "variable_name" {
			relem = varName(l.text(b))
		}
	}
	if superglobals[rv] || superglobals[relem] || rv == "this" {
		rv, relem = "", ""
	}
	id := l.assignTo(left, vals, "assign")
	switch left.Kind() {
	case "variable_name":
		lv := varName(l.text(left))
		if rv != "" {
			l.bindVars(lv, rv)
		} else if relem != "" {
			l.addAlias(lv, alias{elem: relem, feed: -1})
		}
	case "member_access_expression", "nullsafe_member_access_expression", "scoped_property_access_expression":
		if p, ok := l.propName(left); ok && rv != "" {
			l.addAlias(rv, alias{prop: p, feed: -1})
		}
	}
	if id < 0 {
		return vals, true
	}
	return []src{{from: id, kind: dataflow.Assign}}, true
}

// refForeach binds `foreach ($xs as &$x)`'s $x to the elements of $xs.
func (l *lowering) refForeach(coll, target *sitter.Node) {
	if target != nil && target.Kind() == "pair" && target.NamedChildCount() == 2 {
		target = target.NamedChild(1)
	}
	if coll == nil || target == nil || target.Kind() != "by_ref" || coll.Kind() != "variable_name" || target.NamedChildCount() == 0 {
		return
	}
	x := target.NamedChild(0)
	if x.Kind() != "variable_name" {
		return
	}
	if xs := varName(l.text(coll)); !superglobals[xs] && xs != "this" {
		l.addAlias(varName(l.text(x)), alias{elem: xs, feed: -1})
	}
}

// staticVar records `static $v = …;` (declaration node id): the value the
// function leaves in $v is the value the next call starts with.
func (l *lowering) staticVar(v string, id int) {
	if l.mem.statics == nil {
		l.mem.statics = map[string]int{}
	}
	l.mem.statics[v] = id
}

// atExit is called where the function ends (its body's end, a return):
// static variables carry their values to the declaration (the next call),
// and by-reference parameters hand theirs back to the caller's argument.
func (l *lowering) atExit(at *sitter.Node) {
	if l.closure > 0 {
		return
	}
	for v, decl := range l.mem.statics {
		nd := &l.f.Nodes[decl]
		for _, d := range l.env[v] {
			if d != decl && !hasIn(nd, d) {
				nd.In = append(nd.In, dataflow.In{From: d, Kind: dataflow.Assign})
			}
		}
	}
	for i, by := range l.mem.refOut {
		if by == 0 || i >= len(l.f.Params) {
			continue
		}
		p := l.f.Nodes[l.f.Params[i]].Loc
		var ins []dataflow.In
		for _, d := range l.env[p.Name] {
			ins = append(ins, dataflow.In{From: d, Kind: dataflow.Assign})
		}
		if len(ins) > 0 {
			l.nodeAtLine(line(at.EndPosition()), dataflow.RefOut, p, ins)
		}
	}
}

// byRefParam notes that parameter idx is taken by reference.
func (l *lowering) byRefParam(p *sitter.Node, idx int) {
	for i := uint(0); i < p.NamedChildCount(); i++ {
		if p.NamedChild(i).Kind() == "reference_modifier" {
			for len(l.mem.refOut) <= idx {
				l.mem.refOut = append(l.mem.refOut, 0)
			}
			l.mem.refOut[idx] = 1
			return
		}
	}
}

// refArgs defines, after a call, each bare variable argument the callee may
// write through a by-reference parameter: when the file declares a function
// or method of that name taking it by reference, or when the variable had no
// value before the call (an out parameter). The definition is weak; the
// query links it to the callee's dataflow.RefOut nodes.
func (l *lowering) refArgs(ci int, name string, argNodes []*sitter.Node, line int) {
	byRef := l.byRef[strings.ToLower(name)]
	for i, a := range argNodes {
		v := firstNamed(a)
		if v == nil || v.Kind() != "variable_name" {
			continue
		}
		nm := varName(l.text(v))
		if nm == "this" || superglobals[nm] {
			continue
		}
		declared := i < len(byRef) && byRef[i]
		if !declared && !l.unsetBefore(nm, line) {
			continue
		}
		id := l.nodeAtLine(line, dataflow.RefArg, dataflow.Loc{Kind: dataflow.Local, Name: nm, Index: i}, nil)
		l.f.Nodes[id].Call = ci
		l.define(nm, id, true)
	}
}

// unsetBefore reports whether v had no definition before the call at line:
// none, or only the global read a file's top level made of it at that line.
func (l *lowering) unsetBefore(v string, line int) bool {
	for _, d := range l.env[v] {
		if n := &l.f.Nodes[d]; n.Kind != "global" || n.Line != line || !l.f.TopLevel {
			return false
		}
	}
	return true
}

// byRefParams maps each function and method name the file declares
// (lower case) to which of its parameters are taken by reference.
func byRefParams(src []byte, root *sitter.Node) map[string][]bool {
	if !strings.Contains(string(src), "&$") {
		return nil
	}
	out := map[string][]bool{}
	root.Descendants(func(d *sitter.Node) bool {
		switch d.Kind() {
		case "function_definition", "method_declaration":
			nm, ps := d.ChildByFieldName("name"), d.ChildByFieldName("parameters")
			if nm == nil || ps == nil {
				return true
			}
			var by []bool
			any := false
			for i := uint(0); i < ps.NamedChildCount(); i++ {
				p := ps.NamedChild(i)
				ref := false
				for j := uint(0); j < p.NamedChildCount(); j++ {
					if p.NamedChild(j).Kind() == "reference_modifier" {
						ref = true
					}
				}
				by = append(by, ref)
				any = any || ref
			}
			if any {
				out[strings.ToLower(nm.Utf8Text(src))] = by
			}
		}
		return true
	})
	return out
}

// constOf returns the string literal every definition in ds was assigned,
// or false.
func (l *lowering) constOf(ds []int) (string, bool) {
	s, ok := "", false
	for _, d := range ds {
		c, has := l.mem.consts[d]
		if !has || (ok && c != s) {
			return "", false
		}
		s, ok = c, true
	}
	return s, ok
}

// noteConst remembers that node id was assigned the string literal n.
func (l *lowering) noteConst(id int, n *sitter.Node) {
	if n == nil || (n.Kind() != "string" && n.Kind() != "encapsed_string") {
		return
	}
	if s, ok := stringLiteral(l.text(n), n.Kind()); ok && !strings.Contains(s, "$") {
		if l.mem.consts == nil {
			l.mem.consts = map[int]string{}
		}
		l.mem.consts[id] = s
	}
}

// varVarName returns the name `$$n` or `${'x'}` names when it is known.
func (l *lowering) varVarName(n *sitter.Node) (string, bool) {
	c := firstNamed(n)
	if c == nil {
		return "", false
	}
	switch c.Kind() {
	case "string", "encapsed_string":
		if s, ok := stringLiteral(l.text(c), c.Kind()); ok && !strings.Contains(s, "$") {
			return s, true
		}
	case "variable_name":
		return l.constOf(l.env[varName(l.text(c))])
	}
	return "", false
}

// readVarVar reads `$$n`: the variable it names, or every variable.
func (l *lowering) readVarVar(n *sitter.Node) []src {
	if v, ok := l.varVarName(n); ok {
		return l.read(v, dataflow.Assign)
	}
	l.note("variable variable")
	out := withKind(l.children(n), dataflow.Assign)
	for _, v := range l.vars() {
		for _, d := range l.env[v] {
			out = append(out, src{from: d, kind: dataflow.Assign, v: v})
		}
	}
	return out
}

// vars returns the variables with a definition, sorted: a lowering that
// reads them all is the same bytes on every run (FT-13).
func (l *lowering) vars() []string {
	out := make([]string, 0, len(l.env))
	for v := range l.env {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// writeVarVar writes `$$n = …`: the variable it names, or any variable.
func (l *lowering) writeVarVar(t *sitter.Node, ins []src, kind string) int {
	if v, ok := l.varVarName(t); ok {
		id := l.node(t, kind, dataflow.Loc{Kind: dataflow.Local, Name: v}, ins)
		l.define(v, id, false)
		return id
	}
	l.note("variable variable")
	l.children(t)
	return l.wildWrite(t, ins)
}

// wildWrite defines a variable of unknown name from ins.
func (l *lowering) wildWrite(at *sitter.Node, ins []src) int {
	id := l.node(at, "assign", dataflow.Loc{Kind: dataflow.Local, Name: wildVar}, ins)
	l.env[wildVar] = appendUniq(l.env[wildVar], id)
	l.mem.wild = true
	return id
}

// note records a reason the lowering is not exact, once.
func (l *lowering) note(r string) {
	for _, x := range l.f.Imprecise {
		if x == r {
			return
		}
	}
	l.f.Imprecise = append(l.f.Imprecise, r)
}

// memCall lowers what compact, extract and parse_str($s) do to the
// function's variables; res is the call's value node.
func (l *lowering) memCall(name string, argNodes []*sitter.Node, args []int, res int) {
	switch strings.ToLower(name) {
	case "compact":
		// the value's elements are the named variables
		known := true
		var names []string
		for _, a := range argNodes {
			v := firstNamed(a)
			ns, ok := l.literalNames(v)
			if !ok {
				known = false
				continue
			}
			names = append(names, ns...)
		}
		nd := &l.f.Nodes[res]
		add := func(d int) {
			if !hasIn(nd, d) {
				nd.In = append(nd.In, dataflow.In{From: d, Kind: dataflow.Store})
			}
		}
		for _, v := range names {
			for _, s := range l.read(v, dataflow.Store) {
				if s.from >= 0 {
					add(s.from)
				}
			}
		}
		if !known {
			for _, v := range l.vars() {
				for _, d := range l.env[v] {
					add(d)
				}
			}
		}
	case "extract":
		if len(argNodes) == 0 {
			return
		}
		arr := firstNamed(argNodes[0])
		at := argNodes[0]
		line := l.f.Nodes[args[0]].Line
		if arr != nil && arr.Kind() == "variable_name" && !superglobals[varName(l.text(arr))] {
			var unknown []src
			for _, d := range l.env[varName(l.text(arr))] {
				loc := l.f.Nodes[d].Loc
				if loc.Kind == dataflow.Elem && loc.Key != "*" && loc.Key != dataflow.Spread && validName(loc.Key) {
					id := l.nodeAtLine(line, "assign", dataflow.Loc{Kind: dataflow.Local, Name: loc.Key}, []dataflow.In{{From: d, Kind: dataflow.Load}})
					l.define(loc.Key, id, true)
					continue
				}
				unknown = append(unknown, src{from: d, kind: dataflow.Load})
			}
			if len(unknown) > 0 {
				l.wildWrite(at, unknown)
			}
			return
		}
		l.wildWrite(at, []src{{from: args[0], kind: dataflow.Load}})
	case "parse_str", "mb_parse_str":
		if len(argNodes) == 1 {
			l.wildWrite(argNodes[0], []src{{from: args[0], kind: dataflow.CallEdge}})
		}
	default:
		l.effectCall(name, args, res)
	}
}

// literalNames reads compact's argument: a name, or an array of names.
func (l *lowering) literalNames(v *sitter.Node) ([]string, bool) {
	if v == nil {
		return nil, false
	}
	switch v.Kind() {
	case "string", "encapsed_string":
		if s, ok := stringLiteral(l.text(v), v.Kind()); ok && !strings.Contains(s, "$") {
			return []string{s}, true
		}
	case "array_creation_expression":
		var out []string
		for i := uint(0); i < v.NamedChildCount(); i++ {
			el := v.NamedChild(i)
			if el.NamedChildCount() != 1 {
				return nil, false
			}
			ns, ok := l.literalNames(el.NamedChild(0))
			if !ok {
				return nil, false
			}
			out = append(out, ns...)
		}
		return out, true
	}
	return nil, false
}

// modelledRef reports whether reference node d (a reference assignment or
// a by_ref) is one of the forms this file models.
func modelledRef(d *sitter.Node) bool {
	switch d.Kind() {
	case "reference_assignment_expression":
		left, right := d.ChildByFieldName("left"), d.ChildByFieldName("right")
		if left == nil || right == nil {
			return false
		}
		switch left.Kind() {
		case "variable_name", "member_access_expression", "nullsafe_member_access_expression", "scoped_property_access_expression":
		default:
			return false
		}
		switch right.Kind() {
		case "variable_name":
			return true
		case "subscript_expression":
			b, _ := subscript(right)
			return b != nil && b.Kind() == "variable_name" && left.Kind() == "variable_name"
		}
		return false
	case "by_ref":
		p := d.Parent()
		if p == nil {
			return false
		}
		switch p.Kind() {
		case "anonymous_function_use_clause":
			return true
		case "foreach_statement":
			c := firstNamed(p)
			return c != nil && c.Kind() == "variable_name"
		case "pair":
			// foreach ($xs as $k => &$v)
			if gp := p.Parent(); gp != nil && gp.Kind() == "foreach_statement" {
				c := firstNamed(gp)
				return c != nil && c.Kind() == "variable_name"
			}
		}
	}
	return false
}
