// This file lowers PHP into the data-flow IR (internal/dataflow): every
// function and method of a file and the file's top-level code, with the
// definitions reaching each use resolved while the tree is walked. Branches
// are walked from the same state and merged; a loop's body is walked once
// and every use in it also gets the definitions the body makes (the back
// edge). Expressions are lowered in dataflow_expr.go.

package php

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/dataflow"
	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// Dataflow lowers the file at path: its top-level code first, then every
// function and method in the order they start. A function or method longer
// than maxLines lines (0: no limit) is not lowered: it is returned without
// nodes, Skipped "too_large" (NFR-8).
func (x *Extractor) Dataflow(ctx context.Context, path string, src []byte, maxLines int) ([]*dataflow.Func, error) {
	tree, parser, err := x.parse(ctx, src)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", path, err)
	}
	defer parser.Recycle(tree)
	return lowerTree(path, src, tree.RootNode(), maxLines), nil
}

// SetDataflow makes File lower the file into Result.Dataflow as well, from
// the tree it parsed (maxLines as for Dataflow).
func (x *Extractor) SetDataflow(on bool, maxLines int) {
	x.dataflow, x.dataflowLines = on, maxLines
}

// lowerSafe is lowerTree for File: a lowering bug loses the file's data
// flow (nil: a query lowers it on demand), not its facts.
func lowerSafe(path string, src []byte, root *sitter.Node, maxLines int) (fs []*dataflow.Func) {
	defer func() {
		if p := recover(); p != nil {
			fs = nil
		}
	}()
	return lowerTree(path, src, root, maxLines)
}

// lowerTree lowers the parsed file: its top level, then every function and
// method in the order they start.
func lowerTree(path string, src []byte, root *sitter.Node, maxLines int) []*dataflow.Func {
	top := &dataflow.Func{Path: path, TopLevel: true, StartLine: 1, EndLine: endLine(root)}
	out := []*dataflow.Func{top}
	byRef := byRefParams(src, root)
	lw := newLowering(path, src, top, "")
	lw.byRef = byRef
	lw.scanImprecise(root)
	lw.stmts(root)
	// every function and method, found without recursion
	type item struct {
		n, decl *sitter.Node // decl: the class declaration n is in
		class   string
	}
	stack := []item{{n: root}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := it.n
		class, decl := it.class, it.decl
		switch n.Kind() {
		case "function_definition", "method_declaration":
			if body := n.ChildByFieldName("body"); body != nil {
				f := lowerFunc(path, src, n, class, maxLines, byRef)
				if n.Kind() == "method_declaration" && (isPropertyMagic(f.Name) || isAccessMagic(f.Name)) {
					f.Public = publicProps(decl, src)
				}
				out = append(out, f)
			}
		case "class_declaration", "trait_declaration", "enum_declaration", "interface_declaration":
			if nm := n.ChildByFieldName("name"); nm != nil {
				class = nm.Utf8Text(src)
			}
			decl = n
		}
		for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
			stack = append(stack, item{n: n.NamedChild(uint(i)), class: class, decl: decl})
		}
	}
	sort.SliceStable(out[1:], func(i, j int) bool { return out[1+i].StartLine < out[1+j].StartLine })
	return out
}

func lowerFunc(path string, src []byte, n *sitter.Node, class string, maxLines int, byRef map[string][]bool) *dataflow.Func {
	f := &dataflow.Func{Path: path, Class: class, StartLine: line(n.StartPosition()), EndLine: endLine(n)}
	if nm := n.ChildByFieldName("name"); nm != nil {
		f.Name = nm.Utf8Text(src)
	}
	if maxLines > 0 && f.EndLine-f.StartLine+1 > maxLines {
		f.Skipped = dataflow.TooLarge
		return f
	}
	lw := newLowering(path, src, f, class)
	lw.byRef = byRef
	lw.scanImprecise(n)
	lw.params(n.ChildByFieldName("parameters"), true)
	body := n.ChildByFieldName("body")
	lw.stmts(body)
	lw.atExit(body)
	return f
}

// lowering is the state of one function's walk.
type lowering struct {
	path  string
	src   []byte
	f     *dataflow.Func
	class string
	env   map[string][]int // variable -> definitions reaching here
	loops []*loopFrame
	// closure > 0 inside a closure's body: its returns are not the function's
	closure   int
	imprecise bool
	// ctrl is Node.Ctrl for the nodes made now: the innermost condition
	// deciding whether they run (dataflow_ctrl.go)
	ctrl int
	// replacing holds, per enclosing try whose finally always returns,
	// the closure depth it is at: a return in its try or catch blocks
	// does not leave the function with its own value
	replacing []int
	mem       mem     // references, static, variable variables (dataflow_mem.go)
	fx        effects // output buffering, the last error (dataflow_effects.go)
	// closures (dataflow_callback.go): each closure value's parameters and
	// returns; the returns and parameters of the closure being lowered
	tries   [][]int // per enclosing try with a catch: its throw and thrown nodes (dataflow_throw.go)
	cls     map[int]*closureInfo
	crets   []int
	cparams []int
	byRef   map[string][]bool // the file's functions with by-reference parameters
}

// loopFrame collects the uses made inside one loop's body, to add the
// definitions of the body that reach them around the back edge.
type loopFrame struct {
	first int // first node id made inside the loop
	uses  []loopUse
}

type loopUse struct {
	node int // a node, or (< 0) condition -node (dataflow_ctrl.go)
	v    string
	kind dataflow.EdgeKind
}

// src is a value flowing into the node being built: a node of the function,
// or (from < 0) a read of a variable with no definition yet; v names the
// variable read, for loops.
type src struct {
	from int
	kind dataflow.EdgeKind
	note string
	v    string
	ctrl int // a ternary or match arm choosing the value (dataflow_ctrl.go)
}

func newLowering(path string, b []byte, f *dataflow.Func, class string) *lowering {
	return &lowering{path: path, src: b, f: f, class: class, env: map[string][]int{}}
}

// scanImprecise flags what makes the function's variables memory.
func (l *lowering) scanImprecise(n *sitter.Node) {
	seen := map[string]bool{}
	flag := func(r string) {
		if !seen[r] {
			seen[r] = true
			l.f.Imprecise = append(l.f.Imprecise, r)
		}
	}
	n.Descendants(func(d *sitter.Node) bool {
		switch d.Kind() {
		case "reference_assignment_expression", "by_ref":
			if !modelledRef(d) {
				flag("imprecise: reference")
			}
		case "function_definition", "method_declaration", "class_declaration":
			return d == n // nested declarations are lowered on their own
		}
		return true
	})
	sort.Strings(l.f.Imprecise)
	l.imprecise = len(l.f.Imprecise) > 0
}

func lastName(s string) string {
	if i := strings.LastIndexByte(s, '\\'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func (l *lowering) text(n *sitter.Node) string { return n.Utf8Text(l.src) }

// node adds a node with the values ins flowing in, and returns its id.
func (l *lowering) node(at *sitter.Node, kind string, loc dataflow.Loc, ins []src) int {
	id := len(l.f.Nodes)
	nd := dataflow.Node{Line: line(at.StartPosition()), Kind: kind, Loc: loc, Call: -1, Ctrl: l.ctrl}
	seen := map[int]bool{}
	for _, s := range ins {
		if s.ctrl > nd.Ctrl {
			nd.Ctrl = s.ctrl
		}
		if s.v != "" {
			for _, fr := range l.loops {
				fr.uses = append(fr.uses, loopUse{node: id, v: s.v, kind: s.kind})
			}
		}
		if s.from >= 0 && !seen[s.from] {
			seen[s.from] = true
			nd.In = append(nd.In, dataflow.In{From: s.from, Kind: s.kind, Note: s.note})
		}
	}
	l.f.Nodes = append(l.f.Nodes, nd)
	return id
}

// define makes v's definitions be only id (or adds id, in an imprecise
// function, where a write may not replace what an alias wrote).
func (l *lowering) define(v string, id int, weak bool) {
	if weak || l.imprecise {
		l.env[v] = appendUniq(l.env[v], id)
	} else {
		l.env[v] = []int{id}
	}
	if l.mem.aliases != nil {
		l.aliasWrite(v, id)
	}
}

func appendUniq(s []int, id int) []int {
	for _, x := range s {
		if x == id {
			return s
		}
	}
	return append(append([]int(nil), s...), id)
}

// read returns the definitions of v reaching here.
func (l *lowering) read(v string, kind dataflow.EdgeKind) []src {
	ds := l.env[v]
	if l.mem.wild && v != wildVar {
		ds = append(append([]int(nil), ds...), l.env[wildVar]...)
	}
	if len(ds) == 0 {
		return []src{{from: -1, kind: kind, v: v}}
	}
	out := make([]src, len(ds))
	for i, d := range ds {
		out[i] = src{from: d, kind: kind, v: v}
	}
	return out
}

func withKind(ss []src, k dataflow.EdgeKind) []src {
	out := make([]src, len(ss))
	for i, s := range ss {
		s.kind = k
		s.note = ""
		out[i] = s
	}
	return out
}

func (l *lowering) copyEnv() map[string][]int {
	m := make(map[string][]int, len(l.env))
	for k, v := range l.env {
		m[k] = v
	}
	return m
}

// merge unions the definitions of several branch ends.
func merge(envs []map[string][]int) map[string][]int {
	out := map[string][]int{}
	for _, e := range envs {
		for k, ds := range e {
			for _, d := range ds {
				out[k] = appendUniq(out[k], d)
			}
		}
	}
	return out
}

// params defines the parameters of a function (or closure) node list.
func (l *lowering) params(ps *sitter.Node, record bool) {
	if ps == nil {
		return
	}
	idx := 0
	for i := uint(0); i < ps.NamedChildCount(); i++ {
		p := ps.NamedChild(i)
		switch p.Kind() {
		case "simple_parameter", "variadic_parameter", "property_promotion_parameter":
		default:
			continue
		}
		nm := p.ChildByFieldName("name")
		if nm == nil {
			continue
		}
		v := varName(l.text(nm))
		id := l.node(p, "param", dataflow.Loc{Kind: dataflow.Param, Name: v, Index: idx}, nil)
		if record {
			l.f.Params = append(l.f.Params, id)
		}
		if p.Kind() == "property_promotion_parameter" && l.class != "" {
			l.node(p, "assign", dataflow.Loc{Kind: dataflow.Prop, Name: l.class + "::$" + v}, []src{{from: id, kind: dataflow.Store}})
		}
		l.env[v] = []int{id}
		if record {
			l.byRefParam(p, idx)
		}
		idx++
		if record && p.Kind() == "variadic_parameter" {
			l.f.RestParam = true
		}
	}
}

func varName(s string) string { return strings.TrimPrefix(s, "$") }

// stmts lowers the statements under n in order.
func (l *lowering) stmts(n *sitter.Node) {
	if n == nil {
		return
	}
	saved := l.ctrl // a guard's condition holds to the end of its block
	l.stmtsFrom(n, 0, l.gotoTargets(n))
	l.ctrl = saved
}

// stmt lowers one statement.
func (l *lowering) stmt(n *sitter.Node) {
	switch n.Kind() {
	case "function_definition", "method_declaration", "class_declaration", "interface_declaration",
		"trait_declaration", "enum_declaration", "comment", "text", "php_tag", "text_interpolation",
		"namespace_use_declaration", "const_declaration", "use_declaration":
		return
	case "namespace_definition":
		l.stmts(n.ChildByFieldName("body"))
	case "compound_statement", "colon_block", "declare_statement":
		l.stmts(n)
	case "expression_statement":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			l.expr(n.NamedChild(i))
		}
	case "echo_statement":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			if c.Kind() == "sequence_expression" {
				for j := uint(0); j < c.NamedChildCount(); j++ {
					l.output(c.NamedChild(j), "echo")
				}
				continue
			}
			l.output(c, "echo")
		}
	case "return_statement":
		var ins []src
		for i := uint(0); i < n.NamedChildCount(); i++ {
			ins = append(ins, l.expr(n.NamedChild(i))...)
		}
		if k := len(l.replacing); k > 0 && l.replacing[k-1] == l.closure {
			// a finally that returns replaces this value
			l.node(n, "replaced_return", dataflow.Loc{Kind: dataflow.Return}, ins)
			return
		}
		l.atExit(n)
		if l.closure > 0 {
			l.closureReturnNode(n, ins)
			break
		}
		id := l.node(n, "return", dataflow.Loc{Kind: dataflow.Return}, ins)
		l.f.Returns = append(l.f.Returns, id)
	case "if_statement":
		branches, hasElse := ifBranches(n)
		c := l.cond(n, "if", l.expr(branches[0].cond))
		pre := l.copyEnv()
		var ends []map[string][]int
		l.under(c, func() { l.stmt(branches[0].body) })
		ends = append(ends, l.env)
		leaving := endOf(branches[0].body, l.src) != fallsThrough
		for _, b := range branches[1:] {
			l.env = copyOf(pre)
			if b.clause.Kind() == "else_clause" {
				l.under(c, func() { l.stmt(b.body) })
			} else {
				// else_if_clause: its condition runs when the earlier ones failed
				l.under(c, func() { c = l.cond(b.clause, "elseif", l.expr(b.cond)) })
				pre = l.copyEnv()
				l.under(c, func() { l.stmt(b.body) })
			}
			leaving = leaving || endOf(b.body, l.src) != fallsThrough
			ends = append(ends, l.env)
		}
		if !hasElse {
			ends = append(ends, pre)
		}
		l.env = merge(ends)
		if leaving {
			l.ctrl = c // what follows runs only as the conditions decided
		}
	case "while_statement", "do_statement":
		pre := l.copyEnv()
		l.loop(func() {
			c := l.cond(n, strings.TrimSuffix(n.Kind(), "_statement"), l.expr(n.ChildByFieldName("condition")))
			l.under(c, func() { l.stmt(n.ChildByFieldName("body")) })
		})
		l.env = merge([]map[string][]int{pre, l.env})
	case "for_statement":
		for _, c := range n.ChildrenByFieldName("initialize") {
			l.expr(c)
		}
		pre := l.copyEnv()
		l.loop(func() {
			var ins []src
			for _, c := range n.ChildrenByFieldName("condition") {
				ins = append(ins, withKind(l.expr(c), dataflow.Operand)...)
			}
			l.under(l.cond(n, "for", ins), func() {
				for _, c := range n.ChildrenByFieldName("body") {
					l.stmt(c)
				}
				for _, c := range n.ChildrenByFieldName("update") {
					l.expr(c)
				}
			})
		})
		l.env = merge([]map[string][]int{pre, l.env})
	case "foreach_statement":
		l.foreach(n)
	case "switch_statement":
		subject := l.expr(n.ChildByFieldName("condition"))
		sw := l.cond(n, "switch", subject)
		saved := l.ctrl
		pre := l.copyEnv()
		ends := []map[string][]int{pre}
		if body := n.ChildByFieldName("body"); body != nil {
			// a case falls through to the next: walk them in order, each
			// also reachable from the switch itself
			for i := uint(0); i < body.NamedChildCount(); i++ {
				c := body.NamedChild(i)
				l.env = merge([]map[string][]int{pre, l.env})
				l.ctrl = sw
				for j := uint(0); j < c.NamedChildCount(); j++ {
					k := c.NamedChild(j)
					if k.FieldName() == "value" {
						ins := append(append([]src(nil), subject...), withKind(l.expr(k), dataflow.Operand)...)
						l.ctrl = l.cond(c, "case", ins)
						continue
					}
					l.stmt(k)
				}
				ends = append(ends, l.env)
			}
		}
		l.ctrl = saved
		l.env = merge(ends)
	case "try_statement":
		endReplace := l.replaceReturns(n)
		pre := l.copyEnv()
		endTry := l.enterTry(n)
		l.stmt(n.ChildByFieldName("body"))
		thrown := endTry()
		ends := []map[string][]int{l.env}
		after := merge([]map[string][]int{pre, l.env})
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			switch c.Kind() {
			case "catch_clause":
				l.env = copyOf(after)
				if nm := c.ChildByFieldName("name"); nm != nil {
					l.define(varName(l.text(nm)), l.node(nm, "assign", dataflow.Loc{Kind: dataflow.Local, Name: varName(l.text(nm))}, caught(thrown)), false)
				}
				l.stmt(c.ChildByFieldName("body"))
				ends = append(ends, l.env)
			case "finally_clause":
				endReplace()
				l.env = merge(ends)
				l.stmt(c.ChildByFieldName("body"))
				ends = []map[string][]int{l.env}
			}
		}
		l.env = merge(ends)
	case "global_declaration":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			if c.Kind() == "variable_name" {
				v := varName(l.text(c))
				l.define(v, l.node(c, "global", dataflow.Loc{Kind: dataflow.Global, Name: v}, nil), true)
			}
		}
	case "function_static_declaration":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			if c.Kind() != "static_variable_declaration" {
				continue
			}
			nm := c.ChildByFieldName("name")
			if nm == nil {
				continue
			}
			var ins []src
			if val := c.ChildByFieldName("value"); val != nil {
				ins = withKind(l.expr(val), dataflow.Assign)
			}
			v := varName(l.text(nm))
			id := l.node(c, "assign", dataflow.Loc{Kind: dataflow.Local, Name: v}, ins)
			l.define(v, id, false)
			l.staticVar(v, id)
		}
	case "exit_statement":
		if c := firstNamed(n); c != nil {
			l.output(c, "exit")
		}
	case "unset_statement":
		l.unset(n)
	case "break_statement", "continue_statement", "goto_statement", "named_label_statement", "empty_statement":
		return
	default:
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			if strings.HasSuffix(c.Kind(), "_statement") || c.Kind() == "compound_statement" {
				l.stmt(c)
			} else {
				l.expr(c)
			}
		}
	}
}

// replaceReturns starts the try or catch blocks of try statement n: when
// its finally block leaves (return, throw, exit; endOf), their returns do not
// give the function's value. The returned function ends them (idempotent);
// the finally block itself is lowered after it.
func (l *lowering) replaceReturns(n *sitter.Node) func() {
	fin := (*sitter.Node)(nil)
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == "finally_clause" {
			fin = c.ChildByFieldName("body")
		}
	}
	if fin == nil || endOf(fin, l.src) != leaves {
		return func() {}
	}
	l.replacing = append(l.replacing, l.closure)
	k := len(l.replacing)
	return func() {
		if len(l.replacing) == k {
			l.replacing = l.replacing[:k-1]
		}
	}
}

func copyOf(m map[string][]int) map[string][]int {
	out := make(map[string][]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// loop lowers a loop body: after it, every use inside also depends on the
// definitions of its variable made inside (they reach it around the loop).
func (l *lowering) loop(body func()) {
	fr := &loopFrame{first: len(l.f.Nodes)}
	l.loops = append(l.loops, fr)
	body()
	l.loops = l.loops[:len(l.loops)-1]
	for _, u := range fr.uses {
		in := l.condIn(u.node)
		for _, d := range l.env[u.v] {
			if d < fr.first || d == u.node || inHas(*in, d) {
				continue
			}
			*in = append(*in, dataflow.In{From: d, Kind: u.kind})
		}
	}
	// an outer loop sees these uses too
	if n := len(l.loops); n > 0 {
		l.loops[n-1].uses = append(l.loops[n-1].uses, fr.uses...)
	}
}

func hasIn(n *dataflow.Node, from int) bool { return inHas(n.In, from) }

func inHas(ins []dataflow.In, from int) bool {
	for _, in := range ins {
		if in.From == from {
			return true
		}
	}
	return false
}

// foreach lowers `foreach ($xs as $k => $v)` as key and value loaded from
// the collection at every iteration.
func (l *lowering) foreach(n *sitter.Node) {
	var coll *sitter.Node
	var target *sitter.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		c := n.NamedChild(i)
		if c.FieldName() == "body" {
			continue
		}
		if coll == nil {
			coll = c
		} else if target == nil {
			target = c
		}
	}
	var from []src
	if coll != nil {
		from = withKind(l.expr(coll), dataflow.Load)
	}
	l.refForeach(coll, target)
	pre := l.copyEnv()
	l.loop(func() {
		saved := l.ctrl
		l.ctrl = l.cond(n, "foreach", withKind(from, dataflow.Operand))
		defer func() { l.ctrl = saved }()
		if target != nil {
			if target.Kind() == "pair" && target.NamedChildCount() == 2 {
				l.assignTo(target.NamedChild(0), from, "foreach")
				l.assignTo(target.NamedChild(1), from, "foreach")
			} else {
				l.assignTo(target, from, "foreach")
			}
		}
		l.stmt(n.ChildByFieldName("body"))
	})
	l.env = merge([]map[string][]int{pre, l.env})
}
