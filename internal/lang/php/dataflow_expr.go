// This file lowers PHP expressions into the data-flow IR: what values an
// expression is made of (reads, calls, loads), and assignments to variables,
// array elements, properties and destructuring targets. Statements are in
// dataflow.go.

package php

import (
	"strings"

	"github.com/ragraf/ragraf/internal/dataflow"
	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// superglobals are read as sources, never as locals.
var superglobals = map[string]bool{
	"_GET": true, "_POST": true, "_REQUEST": true, "_COOKIE": true, "_FILES": true,
	"_SERVER": true, "_ENV": true, "_SESSION": true, "GLOBALS": true,
}

// output lowers an operand of echo, print or include.
func (l *lowering) output(n *sitter.Node, name string) {
	vals := l.expr(n)
	if name == "echo" || name == "print" {
		vals = append(vals, l.toStringCalls(n, vals)...)
	}
	id := l.node(n, "output", dataflow.Loc{Kind: dataflow.Output, Name: name}, vals)
	l.fx.outs = append(l.fx.outs, id)
}

// key returns the literal key of a subscript, or "*".
func (l *lowering) key(n *sitter.Node) string {
	if n == nil {
		return "*"
	}
	switch n.Kind() {
	case "string", "encapsed_string":
		if s, ok := stringLiteral(l.text(n), n.Kind()); ok && !strings.ContainsAny(s, "$") {
			return s
		}
	case "integer":
		return normInt(l.text(n))
	}
	return "*"
}

// subscript splits `$a['k']` into its base and key node (nil for `$a[]`).
func subscript(n *sitter.Node) (base, key *sitter.Node) {
	if n.NamedChildCount() == 0 {
		return nil, nil
	}
	base = n.NamedChild(0)
	if n.NamedChildCount() > 1 {
		key = n.NamedChild(1)
	}
	return base, key
}

// propName is the property location of `$this->p`, `$o->p` or `X::$p`.
func (l *lowering) propName(n *sitter.Node) (string, bool) {
	switch n.Kind() {
	case "member_access_expression", "nullsafe_member_access_expression":
		obj, nm := n.ChildByFieldName("object"), n.ChildByFieldName("name")
		if nm == nil {
			return "", false
		}
		cls := "*"
		if obj != nil && l.text(obj) == "$this" && l.class != "" {
			cls = l.class
		}
		if nm.Kind() != "name" {
			return cls + "::$*", true // $o->$name: any property (propAlias)
		}
		return cls + "::$" + l.text(nm), true
	case "scoped_property_access_expression":
		sc, nm := n.ChildByFieldName("scope"), n.ChildByFieldName("name")
		if sc == nil || nm == nil || nm.Kind() != "variable_name" {
			return "", false
		}
		cls := lastName(l.text(sc))
		if (cls == "self" || cls == "static") && l.class != "" {
			cls = l.class
		}
		return cls + "::" + l.text(nm), true
	}
	return "", false
}

// assignTo defines target with the values ins (kind names the statement).
func (l *lowering) assignTo(t *sitter.Node, ins []src, kind string) int {
	switch t.Kind() {
	case "by_ref":
		if t.NamedChildCount() > 0 {
			return l.assignTo(t.NamedChild(0), ins, kind)
		}
	case "variable_name":
		v := varName(l.text(t))
		if v == "this" {
			return -1
		}
		if superglobals[v] {
			return l.node(t, kind, dataflow.Loc{Kind: dataflow.Superglobal, Name: v, Key: "*"}, ins)
		}
		id := l.node(t, kind, dataflow.Loc{Kind: dataflow.Local, Name: v}, ins)
		l.define(v, id, false)
		return id
	case "subscript_expression":
		base, key := subscript(t)
		k := l.key(key)
		if key != nil && k == "*" {
			l.expr(key)
		}
		// find the variable at the bottom of $a['x']['y']
		b := base
		for b != nil && b.Kind() == "subscript_expression" {
			b, _ = subscript(b)
		}
		if b != nil && b.Kind() == "variable_name" {
			v := varName(l.text(b))
			if superglobals[v] {
				return l.node(t, kind, dataflow.Loc{Kind: dataflow.Superglobal, Name: v, Key: k}, withKind(ins, dataflow.Store))
			}
			if base.Kind() != "variable_name" {
				k = "*"
			} else if key == nil {
				k = l.appendKey(v)
			}
			id := l.node(t, kind, dataflow.Loc{Kind: dataflow.Elem, Name: v, Key: k}, withKind(ins, dataflow.Store))
			l.defineElem(v, id, k) // an element store keeps the rest of the array
			return id
		}
		if b != nil {
			if p, ok := l.propName(b); ok {
				return l.node(t, kind, dataflow.Loc{Kind: dataflow.Prop, Name: p}, withKind(ins, dataflow.Store))
			}
		}
	case "member_access_expression", "nullsafe_member_access_expression", "scoped_property_access_expression":
		if p, ok := l.propName(t); ok {
			return l.node(t, kind, dataflow.Loc{Kind: dataflow.Prop, Name: p}, withKind(ins, dataflow.Store))
		}
		l.expr(t)
	case "list_literal", "array_creation_expression":
		// destructuring: each target loads from the right-hand side; a
		// literal key narrows nothing yet (the value is one location)
		for i := uint(0); i < t.NamedChildCount(); i++ {
			c := t.NamedChild(i)
			if c.Kind() == "array_element_initializer" {
				if c.NamedChildCount() == 2 {
					l.assignTo(c.NamedChild(1), withKind(ins, dataflow.Load), kind)
				} else if c.NamedChildCount() == 1 {
					l.assignTo(c.NamedChild(0), withKind(ins, dataflow.Load), kind)
				}
			} else if c.Kind() == "pair" && c.NamedChildCount() == 2 {
				l.assignTo(c.NamedChild(1), withKind(ins, dataflow.Load), kind)
			} else {
				l.assignTo(c, withKind(ins, dataflow.Load), kind)
			}
		}
	case "dynamic_variable_name":
		return l.writeVarVar(t, ins, kind)
	default:
		l.expr(t)
	}
	return -1
}

// expr lowers an expression and returns the values it is made of.
func (l *lowering) expr(n *sitter.Node) []src {
	if n == nil {
		return nil
	}
	switch n.Kind() {
	case "variable_name":
		v := varName(l.text(n))
		if v == "this" {
			return nil
		}
		if superglobals[v] {
			return []src{{from: l.node(n, "source", dataflow.Loc{Kind: dataflow.Superglobal, Name: v, Key: "*"}, nil), kind: dataflow.Assign}}
		}
		if len(l.env[v]) == 0 && l.f.TopLevel && l.closure == 0 {
			// a file's code reading a variable it never set reads a global:
			// the includer's, or one a function set (query.go's global edges)
			l.define(v, l.node(n, "global", dataflow.Loc{Kind: dataflow.Global, Name: v}, nil), false)
		}
		return l.read(v, dataflow.Assign)
	case "dynamic_variable_name":
		return l.readVarVar(n)
	case "string", "integer", "float", "boolean", "null", "name", "qualified_name", "nowdoc",
		"class_constant_access_expression", "comment", "string_content", "escape_sequence":
		return nil
	case "parenthesized_expression":
		return l.children(n)
	case "assignment_expression":
		if out, ok := l.keyedArray(n.ChildByFieldName("left"), n.ChildByFieldName("right")); ok {
			return out
		}
		right := l.expr(n.ChildByFieldName("right"))
		id := -1
		if left := n.ChildByFieldName("left"); left != nil {
			id = l.assignTo(left, right, "assign")
		}
		if id >= 0 {
			l.noteConst(id, n.ChildByFieldName("right"))
		}
		if id < 0 {
			return right
		}
		return []src{{from: id, kind: dataflow.Assign}}
	case "reference_assignment_expression":
		if out, ok := l.refAssign(n.ChildByFieldName("left"), n.ChildByFieldName("right")); ok {
			return out
		}
		right := l.expr(n.ChildByFieldName("right"))
		if left := n.ChildByFieldName("left"); left != nil {
			if id := l.assignTo(left, right, "assign"); id >= 0 {
				return []src{{from: id, kind: dataflow.Assign}}
			}
		}
		return right
	case "augmented_assignment_expression":
		left := n.ChildByFieldName("left")
		right := l.expr(n.ChildByFieldName("right"))
		op := ""
		if o := n.ChildByFieldName("operator"); o != nil {
			op = l.text(o)
		}
		kind := dataflow.Operand
		switch op {
		case ".=":
			kind = dataflow.Concat
		case "??=":
			kind = dataflow.Assign
		}
		if left == nil {
			return right
		}
		ins := append(withKind(l.expr(left), kind), withKind(right, kind)...)
		if id := l.assignTo(left, ins, "assign"); id >= 0 {
			return []src{{from: id, kind: dataflow.Assign}}
		}
		return ins
	case "update_expression":
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			ins := withKind(l.expr(c), dataflow.Operand)
			if id := l.assignTo(c, ins, "assign"); id >= 0 {
				return []src{{from: id, kind: dataflow.Operand}}
			}
		}
		return nil
	case "binary_expression":
		op := ""
		if o := n.ChildByFieldName("operator"); o != nil {
			op = l.text(o)
		}
		a, b := l.expr(n.ChildByFieldName("left")), l.expr(n.ChildByFieldName("right"))
		switch op {
		case ".":
			return append(withKind(a, dataflow.Concat), withKind(b, dataflow.Concat)...)
		case "??", "?:":
			return append(withKind(a, dataflow.Assign), withKind(b, dataflow.Assign)...)
		}
		return append(withKind(a, dataflow.Operand), withKind(b, dataflow.Operand)...)
	case "unary_op_expression":
		return withKind(l.children(n), dataflow.Operand)
	case "conditional_expression":
		return l.ternary(n)
	case "encapsed_string", "heredoc", "heredoc_body", "shell_command_expression":
		ins := withKind(l.children(n), dataflow.Concat)
		if n.Kind() == "shell_command_expression" {
			l.node(n, "output", dataflow.Loc{Kind: dataflow.Output, Name: "backtick"}, ins)
		}
		return ins
	case "cast_expression":
		val := l.expr(n.ChildByFieldName("value"))
		typ := ""
		if t := n.ChildByFieldName("type"); t != nil {
			typ = strings.ToLower(l.text(t))
		}
		switch typ {
		case "int", "integer", "float", "double", "bool", "boolean", "real":
			note := "(" + typ + ")"
			ins := withKind(val, dataflow.Sanitize)
			for i := range ins {
				ins[i].note = note
			}
			return []src{{from: l.node(n, "cast", dataflow.Loc{Kind: dataflow.CallResult, Name: note}, ins), kind: dataflow.Assign}}
		case "array":
			return l.arrayCast(n, val)
		}
		return val
	case "subscript_expression":
		base, key := subscript(n)
		k := l.key(key)
		if key != nil && k == "*" {
			l.expr(key)
		}
		if base != nil && base.Kind() == "variable_name" {
			v := varName(l.text(base))
			if superglobals[v] {
				out := []src{{from: l.node(n, "source", dataflow.Loc{Kind: dataflow.Superglobal, Name: v, Key: k}, nil), kind: dataflow.Assign}}
				if v == "GLOBALS" {
					out = append(out, l.topGlobal(k)...)
				}
				return out
			}
			return l.readElem(v, k)
		}
		if base != nil && base.Kind() == "array_creation_expression" && k != "*" {
			return l.literalElem(base, k)
		}
		return withKind(l.expr(base), dataflow.Load)
	case "member_access_expression", "nullsafe_member_access_expression", "scoped_property_access_expression":
		if p, ok := l.propName(n); ok {
			var ins []src
			if obj := n.ChildByFieldName("object"); obj != nil && l.text(obj) != "$this" {
				ins = withKind(l.expr(obj), dataflow.Load)
			}
			return []src{{from: l.node(n, "load", dataflow.Loc{Kind: dataflow.Prop, Name: p}, ins), kind: dataflow.Assign}}
		}
		return withKind(l.children(n), dataflow.Load)
	case "function_call_expression", "member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression", "object_creation_expression":
		return l.call(n)
	case "include_expression", "include_once_expression", "require_expression", "require_once_expression":
		name := strings.TrimSuffix(n.Kind(), "_expression")
		l.output(firstNamed(n), name)
		return nil
	case "print_intrinsic":
		l.output(firstNamed(n), "print")
		return nil
	case "yield_expression":
		return l.yield(n)
	case "throw_expression":
		return l.throw(n)
	case "anonymous_function":
		return l.closureValue(n, true)
	case "arrow_function":
		return l.closureValue(n, false)
	case "match_expression":
		return l.matchExpr(n)
	case "array_creation_expression":
		var out []src
		for i := uint(0); i < n.NamedChildCount(); i++ {
			el := n.NamedChild(i)
			cnt := el.NamedChildCount()
			if cnt == 0 {
				continue
			}
			if cnt == 2 {
				l.expr(el.NamedChild(0))
			}
			out = append(out, withKind(l.expr(el.NamedChild(cnt-1)), dataflow.Store)...)
		}
		return out
	}
	return withKind(l.children(n), dataflow.Assign)
}

func firstNamed(n *sitter.Node) *sitter.Node {
	if n.NamedChildCount() == 0 {
		return nil
	}
	return n.NamedChild(0)
}

// children lowers every named child and joins their values.
func (l *lowering) children(n *sitter.Node) []src {
	var out []src
	for i := uint(0); i < n.NamedChildCount(); i++ {
		out = append(out, l.expr(n.NamedChild(i))...)
	}
	return out
}

// keyedArray lowers `$v = [ … ]`: one element definition per element, at
// its own line, keyed as arrayElems computes, so that $v['k'] and $v[1]
// depend on that element's value only (a computed key is "*" and reaches
// every read). Anything else is left to the general case.
func (l *lowering) keyedArray(left, right *sitter.Node) ([]src, bool) {
	if left == nil || right == nil || left.Kind() != "variable_name" || right.Kind() != "array_creation_expression" {
		return nil, false
	}
	v := varName(l.text(left))
	if v == "this" || superglobals[v] {
		return nil, false
	}
	els := l.arrayElems(right)
	if len(els) == 0 {
		return nil, false
	}
	var out []src
	for i, e := range els {
		if e.key != nil && e.k == "*" {
			l.expr(e.key)
		}
		vals := l.expr(e.val)
		id := l.node(e.el, "assign", dataflow.Loc{Kind: dataflow.Elem, Name: v, Key: e.k}, withKind(vals, dataflow.Store))
		l.define(v, id, i > 0) // the first replaces the array, the others join it
		out = append(out, src{from: id, kind: dataflow.Assign})
	}
	return out, true
}

// readElem reads $v['k']: the stores of that key or of any key, and the
// definitions of the whole array.
func (l *lowering) readElem(v, k string) []src {
	var out []src
	ds := l.env[v]
	if l.mem.wild {
		ds = append(append([]int(nil), ds...), l.env[wildVar]...)
	}
	for _, d := range ds {
		loc := l.f.Nodes[d].Loc
		if loc.Kind == dataflow.Elem && k != "*" && loc.Key != "*" && loc.Key != k {
			continue
		}
		out = append(out, src{from: d, kind: dataflow.Load, v: v})
	}
	if len(out) == 0 {
		out = []src{{from: -1, kind: dataflow.Load, v: v}}
	}
	return out
}

// call lowers a call: one node per argument and one for the value, which
// depends on the arguments (edge kind call) until a query follows the call
// into its callee.
func (l *lowering) call(n *sitter.Node) []src {
	c := dataflow.Call{Line: line(n.StartPosition())}
	var args *sitter.Node
	var recvVals []src // the receiver's value, for a method call
	var fnVals []src   // the callee's value, for a dynamic call
	switch n.Kind() {
	case "function_call_expression":
		fn := n.ChildByFieldName("function")
		if fn != nil {
			switch fn.Kind() {
			case "name", "qualified_name", "relative_name":
				c.Name = lastName(l.text(fn))
			default:
				c.Dynamic = true
				c.Name = "?"
				fnVals = l.expr(fn)
				if m, _, _, ok := l.namedCallable(fn); ok && fn.Kind() == "array_creation_expression" {
					// [$obj, 'm'](…): the graph links it by the method's name
					c.Dynamic, c.Method, c.Name = false, true, m
				}
			}
		}
		args = n.ChildByFieldName("arguments")
	case "member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression":
		c.Method = true
		recv := n.ChildByFieldName("object")
		if recv == nil {
			recv = n.ChildByFieldName("scope")
		}
		if recv != nil {
			switch recv.Kind() {
			case "variable_name":
				c.Receiver = varName(l.text(recv))
				recvVals = l.expr(recv)
			case "name", "qualified_name", "relative_scope":
				c.Receiver = lastName(l.text(recv))
			default:
				recvVals = l.expr(recv)
			}
		}
		if nm := n.ChildByFieldName("name"); nm != nil && nm.Kind() == "name" {
			c.Name = l.text(nm)
		} else {
			c.Dynamic = true
			c.Name = "?"
		}
		args = n.ChildByFieldName("arguments")
	case "object_creation_expression":
		c.Method = true
		c.Name = "__construct"
		for i := uint(0); i < n.NamedChildCount(); i++ {
			ch := n.NamedChild(i)
			switch ch.Kind() {
			case "name", "qualified_name":
				c.Receiver = lastName(l.text(ch))
			case "arguments":
				args = ch
			}
		}
	}
	var argNodes []*sitter.Node
	if args != nil {
		for i := uint(0); i < args.NamedChildCount(); i++ {
			a := args.NamedChild(i)
			if a.Kind() == "argument" || a.Kind() == "variadic_placeholder" {
				argNodes = append(argNodes, a)
			}
		}
	}
	// reserve the call's slot first: calls nested in the arguments come after
	ci := len(l.f.Calls)
	l.f.Calls = append(l.f.Calls, dataflow.Call{})
	loc := dataflow.Loc{Kind: dataflow.CallResult, Name: c.Name}
	if c.Method && c.Receiver != "" {
		loc.Name = c.Receiver + "->" + c.Name
		if n.Kind() == "scoped_call_expression" {
			loc.Name = c.Receiver + "::" + c.Name
		}
	}
	var res []src
	for i, a := range argNodes {
		if i == 0 {
			if v := firstNamed(a); v != nil && (v.Kind() == "string" || v.Kind() == "encapsed_string") {
				if s, ok := stringLiteral(l.text(v), v.Kind()); ok {
					c.Literal = s
				}
			}
		}
		vals := l.expr(a)
		al := dataflow.Loc{Kind: dataflow.Arg, Name: loc.Name, Index: i}
		if v := firstNamed(a); v != nil && v.Kind() == "variadic_unpacking" {
			al.Key = dataflow.Spread
		}
		id := l.node(a, "arg", al, vals)
		l.f.Nodes[id].Call = ci
		c.Args = append(c.Args, id)
		res = append(res, src{from: id, kind: dataflow.CallEdge})
	}
	// The receiver's value reaches the result of a call whose callee is not
	// known ($date->format(), $stmt->fetchAll()); the walk passes a resolved
	// call's inputs through its callee instead.
	for _, v := range recvVals {
		res = append(res, src{from: v.from, kind: dataflow.CallEdge})
	}
	if !c.Method && !c.Dynamic && l.closure == 0 && !l.f.TopLevel && (strings.EqualFold(c.Name, "func_get_args") || strings.EqualFold(c.Name, "func_get_arg")) {
		// the arguments the call received, declared or not
		for _, p := range l.f.Params {
			res = append(res, src{from: p, kind: dataflow.Assign})
		}
		if !l.f.RestParam {
			id := l.node(n, "param", dataflow.Loc{Kind: dataflow.Param, Name: "func_get_args()", Index: len(l.f.Params)}, nil)
			l.f.Params = append(l.f.Params, id)
			l.f.RestParam = true
			res = append(res, src{from: id, kind: dataflow.Assign})
		}
	}
	c.Result = l.node(n, "call", loc, res)
	l.f.Nodes[c.Result].Call = ci
	l.f.Calls[ci] = c
	if !c.Method && !c.Dynamic {
		l.rekeyArg(c.Name, argNodes, c.Args)
	}
	if !c.Dynamic {
		if !c.Method {
			l.memCall(c.Name, argNodes, c.Args, c.Result)
			l.callbackCall(ci, c.Name, argNodes)
		}
		l.refArgs(ci, c.Name, argNodes, c.Line)
		l.thrownBy(ci, c.Line)
	} else if len(fnVals) > 0 {
		l.closureCall(ci, fnVals)
	}
	if o, ok := outArgs[strings.ToLower(c.Name)]; ok && !c.Method && o.out < len(argNodes) && o.in < len(c.Args) {
		if v := firstNamed(argNodes[o.out]); v != nil && v.Kind() == "variable_name" {
			name := varName(l.text(v))
			id := l.node(argNodes[o.out], "assign", dataflow.Loc{Kind: dataflow.Local, Name: name}, []src{{from: c.Args[o.in], kind: dataflow.CallEdge}})
			l.define(name, id, false)
		}
	}
	return []src{{from: c.Result, kind: dataflow.Assign}}
}

// outArgs are PHP functions that write a by-reference argument (out) from
// another (in): parse_str($query, $vars), preg_match($re, $subject, $m).
var outArgs = map[string]struct{ out, in int }{
	"parse_str":      {1, 0},
	"preg_match":     {2, 1},
	"preg_match_all": {2, 1},
	"mb_parse_str":   {1, 0},
}

// closureBody lowers a closure inside the function that creates it: its
// parameters are definitions with no caller, `use` copies the outer
// definitions (arrow functions see every outer variable), and what the
// closure defines stays inside it.
func (l *lowering) closureBody(n *sitter.Node, explicit bool) {
	outer := l.env
	var refUses []alias
	if explicit {
		l.env = map[string][]int{}
		for i := uint(0); i < n.NamedChildCount(); i++ {
			c := n.NamedChild(i)
			if c.Kind() != "anonymous_function_use_clause" {
				continue
			}
			c.Descendants(func(d *sitter.Node) bool {
				if d.Kind() == "by_ref" && d.NamedChildCount() > 0 && d.NamedChild(0).Kind() == "variable_name" {
					// use (&$m): the closure reads $m as it is when it runs
					v := varName(l.text(d.NamedChild(0)))
					id := l.node(d, "use", dataflow.Loc{Kind: dataflow.Local, Name: v}, withKind(readFrom(outer, v), dataflow.Assign))
					l.env[v] = []int{id}
					refUses = append(refUses, alias{v: v, feed: id})
					return false
				}
				if d.Kind() == "variable_name" {
					v := varName(l.text(d))
					id := l.node(d, "use", dataflow.Loc{Kind: dataflow.Local, Name: v}, withKind(readFrom(outer, v), dataflow.Assign))
					l.env[v] = []int{id}
					return false
				}
				return true
			})
		}
	} else {
		l.env = copyOf(outer)
	}
	l.closure++
	p0 := len(l.f.Nodes)
	l.params(n.ChildByFieldName("parameters"), false)
	var params []int
	for i := p0; i < len(l.f.Nodes); i++ {
		if l.f.Nodes[i].Kind == "param" {
			params = append(params, i)
		}
	}
	if body := n.ChildByFieldName("body"); body != nil {
		if explicit {
			l.stmt(body)
		} else {
			l.closureReturnNode(body, l.expr(body))
		}
	}
	l.cparams = params
	l.closure--
	l.env = outer
	for _, u := range refUses {
		l.addAlias(u.v, alias{feed: u.feed})
	}
}

func readFrom(env map[string][]int, v string) []src {
	var out []src
	for _, d := range env[v] {
		out = append(out, src{from: d, kind: dataflow.Assign, v: v})
	}
	return out
}
