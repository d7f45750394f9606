// This file is the reference walk's flow-sensitive typing of variables: what
// assignments, inline @var tags, branches (if, try, switch, match), loops and
// instanceof narrowing leave in each variable, met where ways join. How a
// statement ends and the branches of an if come from statements.go, which
// the data-flow lowering shares.

package php

import (
	"maps"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/typ"
)

func (r *refWalker) assign(n *sitter.Node) {
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if right != nil {
		r.visit(right)
	}
	if left == nil {
		return
	}
	r.propAssign(n)
	if k := r.narrowKey(left); strings.HasPrefix(k, "this->") {
		delete(r.env, k) // a narrowed property is narrowed no more
		r.touch(k)
	}
	if g := globalsKey(r, left); g != "" {
		if right != nil {
			r.emitN(fact.RefGlobal, left, g, r.exprDesc(right), "")
		}
		r.visit(left)
		return
	}
	if left.Kind() != "variable_name" {
		if left.Kind() == "member_access_expression" {
			r.lhs, r.lhsAccess = left, fact.AccessWrite
		}
		r.visit(left)
		r.lhs = nil
		return
	}
	name := strings.TrimPrefix(r.text(left), "$")
	if right != nil && (!r.inFunc || r.globals[name]) {
		if d := r.exprDesc(right); d.Known() {
			r.emitN(fact.RefGlobal, left, name, d, "")
		}
	}
	if ln, ok := r.pinned[name]; ok && ln >= line(n.StartPosition())-1 {
		return
	}
	if right == nil {
		return
	}
	r.touch(name)
	if d := r.exprDesc(right); d.Known() {
		r.env[name] = d
	} else {
		delete(r.env, name)
	}
}

// touch records that variable name was assigned (see touched).
func (r *refWalker) touch(name string) {
	if r.touched != nil {
		r.touched[name] = true
	}
}

// inlineVar applies `/** @var Foo $x */` (or @psalm-var, @phpstan-var) inside
// a body.
func (r *refWalker) inlineVar(n *sitter.Node) {
	t := r.text(n)
	if !strings.HasPrefix(t, "/**") || !strings.Contains(t, "var") { // @var, @psalm-var, @phpstan-var
		return
	}
	ln := line(n.StartPosition())
	end := endLine(n)
	for _, tag := range docTags(t) {
		if tag.tag == "shape" {
			r.docType(tag.typ, false, r.docRefs(ln+tag.line))
		}
		if tag.tag != "var" {
			continue
		}
		d := r.docType(tag.typ, false, r.docRefs(ln+tag.line))
		name := tag.name
		if name == "" {
			// `/** @var Foo */ $x = …`: the next statement's assigned variable
			next := n.NextNamedSibling()
			if next == nil || next.Kind() != "expression_statement" {
				continue
			}
			if k := r.named(next); len(k) == 1 && k[0].Kind() == "assignment_expression" {
				if l := k[0].ChildByFieldName("left"); l != nil && l.Kind() == "variable_name" {
					name = strings.TrimPrefix(r.text(l), "$")
				}
			}
		}
		if name != "" && d.Known() {
			r.env[name] = d
			r.pinned[name] = end
		}
	}
}

func (r *refWalker) ifStmt(n *sitter.Node) {
	cond := n.ChildByFieldName("condition")
	if cond != nil {
		r.visit(cond)
	}
	// each branch runs from the variables as they were before the if, with
	// what its condition narrows; past the if a variable holds what any
	// branch that does not leave left in it (merge)
	branch := func(c, body *sitter.Node) func() ending {
		return func() ending {
			narrowed := map[string]typ.Desc{}
			if c != nil {
				r.instanceofs(c, narrowed)
			}
			r.narrowFor(narrowed, func() { r.visit(body) })
			return endOf(body, r.src)
		}
	}
	var runs []func() ending
	branches, hasElse := ifBranches(n)
	for i, b := range branches {
		switch {
		case i == 0:
			if b.body != nil {
				runs = append(runs, branch(cond, b.body))
			}
		case b.clause.Kind() == "else_clause":
			body := b.body
			if body == nil {
				body = b.clause
			}
			runs = append(runs, func() ending { r.visit(b.clause); return endOf(body, r.src) })
		case b.cond == nil || b.body == nil:
			runs = append(runs, func() ending { r.visit(b.clause); return fallsThrough })
		default:
			// `elseif ($v instanceof C)` narrows its own body as an if does
			runs = append(runs, func() ending { r.visit(b.cond); return branch(b.cond, b.body)() })
		}
	}
	// the path where no branch runs: `if (!$v instanceof C) { … }` without
	// else or elseif leaves $v a C there
	var none map[string]typ.Desc
	if !hasElse {
		none = maps.Clone(r.env)
		if len(runs) == 1 && cond != nil {
			if v, d := r.negatedInstanceof(cond); v != "" {
				none[v] = d
			}
		}
	}
	r.merge(runs, none)
}

// tryStmt runs the try body and each catch as branches of merge, then
// finally. A catch starts from the variables as the try body left them:
// `try { $route = $request->route(); … } catch (E $e) { $route->… }` is the
// usual shape, though the throw may come before an assignment.
func (r *refWalker) tryStmt(n *sitter.Node) {
	var runs []func() ending
	var finally *sitter.Node
	var tried map[string]typ.Desc
	for _, c := range r.named(n) {
		switch c.Kind() {
		case "compound_statement":
			runs = append(runs, func() ending {
				r.visit(c)
				tried = maps.Clone(r.env)
				return endOf(c, r.src)
			})
		case "catch_clause":
			body := c.ChildByFieldName("body")
			runs = append(runs, func() ending {
				if tried != nil {
					r.env = maps.Clone(tried)
				}
				r.visit(c)
				if body == nil {
					return fallsThrough
				}
				return endOf(body, r.src)
			})
		case "finally_clause":
			finally = c
		default:
			r.visit(c)
		}
	}
	r.merge(runs, nil)
	if finally != nil {
		r.visit(finally)
	}
}

// elementFuncs are PHP's functions that return an element of the array they
// are given (or false, which adds no class).
var elementFuncs = map[string]bool{
	"array_shift": true, "array_pop": true, "reset": true, "end": true, "current": true,
}

// switchStmt runs each case as a branch of merge: past the switch a
// variable holds what any case that reaches the end (by break or by running
// out) left in it, or what it held before when there is no default. A case
// that falls into the next is taken on its own.
func (r *refWalker) switchStmt(n *sitter.Node) {
	if c := n.ChildByFieldName("condition"); c != nil {
		r.visit(c)
	}
	body := n.ChildByFieldName("body")
	if body == nil {
		return
	}
	var runs []func() ending
	hasDefault := false
	for _, c := range r.named(body) {
		switch c.Kind() {
		case "case_statement", "default_statement":
			hasDefault = hasDefault || c.Kind() == "default_statement"
			runs = append(runs, func() ending {
				r.children(c)
				return endOf(c, r.src)
			})
		default:
			r.visit(c)
		}
	}
	var none map[string]typ.Desc
	if !hasDefault {
		none = maps.Clone(r.env)
	}
	r.switchBlock(func() { r.merge(runs, none) }) // a break leaves the switch
}

// flow is the variables one way through a statement leaves, with those it
// assigned (a variable a way leaves unknown may have been assigned so).
type flow struct {
	env     map[string]typ.Desc
	touched map[string]bool
}

// merge runs each branch from the current variables and leaves in r.env,
// for every variable, what the branches that run out and the fall-through
// path (nil when there is none) agree it may hold (union). A branch that
// ends in break hands its variables to the loop or switch it leaves.
func (r *refWalker) merge(runs []func() ending, none map[string]typ.Desc) {
	before, outer := r.env, r.touched
	var outs []flow
	for _, run := range runs {
		r.env, r.touched = maps.Clone(before), map[string]bool{}
		switch run() {
		case fallsThrough:
			outs = append(outs, flow{r.env, r.touched})
		case breaks:
			if r.breaks != nil {
				*r.breaks = append(*r.breaks, flow{r.env, r.touched})
			}
		}
		if outer != nil {
			maps.Copy(outer, r.touched)
		}
	}
	r.touched = outer
	if none != nil {
		outs = append(outs, flow{env: none})
	}
	if len(outs) == 0 {
		r.env = before // nothing runs past this statement
		return
	}
	r.env = meet(before, outs)
}

// switchBlock visits a switch and then meets the variables of the paths
// that left it by break with those of the path that ran out.
func (r *refWalker) switchBlock(visit func()) {
	before, prev := maps.Clone(r.env), r.breaks
	var got []flow
	r.breaks = &got
	visit()
	r.breaks = prev
	if len(got) > 0 {
		r.env = meet(before, append(got, flow{env: r.env}))
	}
}

// loop visits a loop. Its body runs from what the variables held before the
// loop or at the end of the body's previous run: a first, dry walk of the
// body (its references dropped) finds what the body leaves, which meets the
// variables from before, and the walk that emits starts from that. Past the
// loop a variable holds what a path that left it by break, the path that ran
// out and, unless the body runs at least once (mayskip false: do-while),
// the path that skipped it agree on. Inside a dry walk, nested loops are
// walked once, which keeps the walks linear in the nesting depth.
func (r *refWalker) loop(visit func(), mayskip bool) {
	before, prev := maps.Clone(r.env), r.breaks
	if !r.dry {
		saved := r.save()
		var ignored []flow
		r.breaks, r.touched, r.dry = &ignored, map[string]bool{}, true
		visit()
		end := flow{env: r.env, touched: r.touched}
		r.restore(saved)
		r.env = meet(before, []flow{{env: maps.Clone(before)}, end})
	}
	var got []flow
	r.breaks = &got
	visit()
	r.breaks = prev
	outs := append(got, flow{env: r.env})
	if mayskip {
		outs = append(outs, flow{env: before})
	}
	if len(outs) > 1 {
		r.env = meet(before, outs)
	}
}

// walkState is what a dry walk may change and must leave as it found.
type walkState struct {
	refs      int
	env       map[string]typ.Desc
	pinned    map[string]int
	touched   map[string]bool
	breaks    *[]flow
	callbacks map[uint]bool
	globals   map[string]bool
	dry       bool
}

func (r *refWalker) save() walkState {
	return walkState{refs: len(r.refs), env: maps.Clone(r.env), pinned: maps.Clone(r.pinned), touched: r.touched,
		breaks: r.breaks, callbacks: maps.Clone(r.callbacks), globals: maps.Clone(r.globals), dry: r.dry}
}

func (r *refWalker) restore(s walkState) {
	r.refs = r.refs[:s.refs]
	r.env, r.pinned, r.touched, r.breaks = s.env, s.pinned, s.touched, s.breaks
	r.callbacks, r.globals, r.dry = s.callbacks, s.globals, s.dry
}

// meet is what the ways agree a variable may hold: one type, or one of
// several (a strict group, typed only when each is). A variable a way leaves
// unknown, known before or assigned there, is unknown; one unknown before
// and not assigned on a way takes the others' types, as a walk in source
// order did.
func meet(before map[string]typ.Desc, outs []flow) map[string]typ.Desc {
	merged := map[string]typ.Desc{}
	keys := map[string]bool{}
	for _, o := range outs {
		for k := range o.env {
			keys[k] = true
		}
	}
	for k := range keys {
		_, known := before[k]
		var val typ.Desc
		typed := true
		for _, o := range outs {
			v, ok := o.env[k]
			switch {
			case !ok && (known || o.touched[k]):
				typed = false // this path made it unknown
			case !ok:
				// unknown before and untouched on this path
			case !val.Known():
				val = v
			default:
				val = either(val, v)
			}
		}
		if typed && val.Known() {
			merged[k] = val
		}
	}
	return merged
}

// narrowFor runs visit with the variables of narrowed narrowed, then puts
// back the previous value of each one visit did not assign.
func (r *refWalker) narrowFor(narrowed map[string]typ.Desc, visit func()) {
	saved := map[string]typ.Desc{}
	had := map[string]bool{}
	for v, d := range narrowed {
		saved[v], had[v] = r.env[v], r.env[v].Known()
		r.env[v] = d
	}
	visit()
	for v, d := range narrowed {
		if !r.env[v].Equal(d) {
			continue // assigned in the branch
		}
		if had[v] {
			r.env[v] = saved[v]
		} else {
			delete(r.env, v)
		}
	}
}

// narrow gives the variables of narrowed their narrowed types and returns
// the function that puts the previous ones back.
func (r *refWalker) narrow(narrowed map[string]typ.Desc) func() {
	saved := map[string]typ.Desc{}
	for v, d := range narrowed {
		saved[v] = r.env[v]
		r.env[v] = d
	}
	return func() {
		for v, old := range saved {
			if !old.Known() {
				delete(r.env, v)
			} else {
				r.env[v] = old
			}
		}
	}
}

// negatedInstanceof returns the narrowed variable and type of a condition
// `!$v instanceof C` or `!($v instanceof C)`.
func (r *refWalker) negatedInstanceof(c *sitter.Node) (string, typ.Desc) {
	for c.Kind() == "parenthesized_expression" && c.NamedChildCount() == 1 {
		c = c.NamedChild(0)
	}
	if c.Kind() != "unary_op_expression" {
		return "", typ.Desc{}
	}
	op, arg := c.ChildByFieldName("operator"), c.ChildByFieldName("argument")
	if op == nil || arg == nil || r.text(op) != "!" {
		return "", typ.Desc{}
	}
	m := map[string]typ.Desc{}
	for arg.Kind() == "parenthesized_expression" && arg.NamedChildCount() == 1 {
		arg = arg.NamedChild(0)
	}
	if arg.Kind() != "binary_expression" {
		return "", typ.Desc{}
	}
	if o := arg.ChildByFieldName("operator"); o == nil || fact.Lower(r.text(o)) != "instanceof" {
		return "", typ.Desc{}
	}
	r.instanceofs(arg, m)
	for v, d := range m {
		return v, d
	}
	return "", typ.Desc{}
}

// narrowKey names what an instanceof test can narrow: a variable, or a
// property of $this (kept in env as `this->p`).
func (r *refWalker) narrowKey(e *sitter.Node) string {
	switch e.Kind() {
	case "variable_name":
		return strings.TrimPrefix(r.text(e), "$")
	case "member_access_expression":
		obj, nm := e.ChildByFieldName("object"), e.ChildByFieldName("name")
		if obj != nil && nm != nil && obj.Kind() == "variable_name" && r.text(obj) == "$this" && nm.Kind() == "name" {
			return "this->" + r.text(nm)
		}
	}
	return ""
}

// instanceofs collects `$v instanceof C` conjuncts of a condition.
func (r *refWalker) instanceofs(c *sitter.Node, out map[string]typ.Desc) {
	switch c.Kind() {
	case "parenthesized_expression":
		if k := r.named(c); len(k) == 1 {
			r.instanceofs(k[0], out)
		}
	case "binary_expression":
		op := c.ChildByFieldName("operator")
		if op == nil {
			return
		}
		l, rt := c.ChildByFieldName("left"), c.ChildByFieldName("right")
		switch fact.Lower(r.text(op)) {
		case "&&", "and":
			if l != nil {
				r.instanceofs(l, out)
			}
			if rt != nil {
				r.instanceofs(rt, out)
			}
		case "instanceof":
			if l != nil && rt != nil && isNameKind(rt.Kind()) {
				if v, fq := r.narrowKey(l), r.classRef(rt); v != "" && fq != "" {
					out[v] = typ.NewClass(fq)
				}
			}
		}
	}
}

func (r *refWalker) foreach(n *sitter.Node) {
	kids := r.named(n)
	if len(kids) == 0 {
		return
	}
	d := r.exprDesc(kids[0])
	r.visit(kids[0])
	if len(kids) > 1 {
		v := kids[1]
		if v.Kind() == "pair" {
			if pk := r.named(v); len(pk) == 2 {
				v = pk[1]
			}
		}
		if v.Kind() == "by_ref" {
			if k := r.named(v); len(k) == 1 {
				v = k[0]
			}
		}
		if v.Kind() == "variable_name" {
			name := strings.TrimPrefix(r.text(v), "$")
			if ln, ok := r.pinned[name]; !ok || ln < line(n.StartPosition())-1 {
				r.touch(name)
				if e := step(d, typ.Step{Kind: typ.Elem}); e.Known() {
					r.env[name] = e
				} else {
					delete(r.env, name)
				}
			}
		} else {
			r.visit(v)
		}
	}
	for _, c := range kids[2:] {
		r.visit(c)
	}
}
