// This file defines the IR a language lowers a function into; the lowering
// of PHP is internal/lang/php/dataflow.go, the queries over it query.go and slice_flow.go.

package dataflow

import (
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// LocKind names what a location is.
type LocKind string

// Location kinds.
const (
	Local       LocKind = "local"       // $x
	Param       LocKind = "param"       // parameter Index of the function
	Return      LocKind = "return"      // the function's return value
	Prop        LocKind = "property"    // Class::$p ($this->p bound to the class), or *::$p
	Elem        LocKind = "element"     // $x['k'] (Key "*" for a computed key)
	Superglobal LocKind = "superglobal" // $_GET['k']
	Global      LocKind = "global"      // a variable declared global
	CallResult  LocKind = "call"        // the value of a call
	Arg         LocKind = "arg"         // argument Index of a call
	Output      LocKind = "output"      // echo, print, include and similar statements
)

// Loc is one location; Name is a variable's name without `$`, a property's
// Class::$p, a call's callee name or an output statement's keyword.
type Loc struct {
	Kind  LocKind `json:"kind"`
	Name  string  `json:"name"`
	Key   string  `json:"key,omitempty"`
	Index int     `json:"index,omitempty"`
}

// String renders l as PHP-like text: $x, $x['k'], Class::$p, $_GET['k'],
// foo(), arg 1 of foo(), return.
func (l Loc) String() string {
	switch l.Kind {
	case Local, Global:
		return "$" + l.Name
	case Param:
		return "$" + l.Name + " (param " + strconv.Itoa(l.Index) + ")"
	case Return:
		return "return"
	case Prop:
		return l.Name
	case Elem, Superglobal:
		k := l.Key
		if k != "*" {
			k = "'" + k + "'"
		}
		return "$" + l.Name + "[" + k + "]"
	case CallResult:
		if strings.HasPrefix(l.Name, "(") {
			return l.Name // a cast
		}
		return l.Name + "()"
	case Arg:
		return "arg " + strconv.Itoa(l.Index) + " of " + l.Name + "()"
	case Output:
		return l.Name
	}
	return l.Name
}

// Var is the variable name a location is about, for matching a criterion's
// variable ("" for calls, returns and outputs).
func (l Loc) Var() string {
	switch l.Kind {
	case Local, Global, Param, Elem, Superglobal:
		return l.Name
	case Prop:
		if i := strings.Index(l.Name, "::$"); i >= 0 {
			return l.Name[i+3:]
		}
	}
	return ""
}

// EdgeKind names how a value reaches a node.
type EdgeKind string

// Edge kinds.
const (
	Assign     EdgeKind = "assign"   // copied ($a = $b, ??, ?:, foreach, destructuring, use)
	Concat     EdgeKind = "concat"   // part of a string (., .=, interpolation)
	ArgEdge    EdgeKind = "arg"      // argument -> parameter of the callee
	Ret        EdgeKind = "ret"      // return -> call result in the caller
	Store      EdgeKind = "store"    // into a property or array element
	Load       EdgeKind = "load"     // out of a property or array element
	Sanitize   EdgeKind = "sanitize" // through a cast or a configured sanitizer
	CallEdge   EdgeKind = "call"     // argument -> result of a call not followed (library or unresolved)
	Operand    EdgeKind = "operand"  // an operand of arithmetic or comparison
	GlobalEdge EdgeKind = "global"   // a global variable's write -> a read elsewhere (another function, an included file)
	Control    EdgeKind = "control"  // a condition -> a statement that runs only as it decides (slice, on request)
)

// In is one incoming edge: the value of node From (in the same function)
// reaches the node, by Kind; Note names a cast for Sanitize edges.
type In struct {
	From int
	Kind EdgeKind
	Note string
}

// Node is one definition at a line. Kind says which statement made it:
// assign, param, return, call, arg, source, load, foreach, output, global,
// use, include.
type Node struct {
	Line int
	Kind string
	Loc  Loc
	In   []In
	Call int // for arg and call nodes: index of the call in Func.Calls; -1 otherwise
	// Ctrl is 1 + the index in Func.Conds of the innermost condition the
	// node runs under (0: none); the conditions it is under are that one
	// and, through Cond.Ctrl, the ones enclosing it.
	Ctrl int
}

// Cond is a condition statements run under: the test of an if, elseif,
// while, do, for, foreach, switch, case, match arm or ternary at Line
// (Kind names which), with the values it reads as a node's In, and Ctrl
// as Node.Ctrl for the condition it runs under itself. Queries see
// conditions only when a slice asks for control dependence.
type Cond struct {
	Line int
	Kind string
	In   []In
	Ctrl int
}

// Call is one call site. Name is the callee's short name (function or
// method); Receiver the variable or class it is called on ("" for a plain
// function); Dynamic is set when the callee is computed ($f(), $o->$m()).
type Call struct {
	Line     int
	Name     string
	Receiver string
	Method   bool
	Dynamic  bool
	Literal  string // the first argument when it is a string literal (php://input)
	Args     []int  // node ids of the arguments, in order
	Result   int    // node id of the call's value
}

// Func is one function's IR; a file's top-level code is a Func with
// TopLevel set. Lines are 1-based and inclusive.
type Func struct {
	ID        string // the graph node id, set by whoever loads it
	Path      string
	Name      string // function or method name; "" for the top level
	Class     string // the class of a method
	StartLine int
	EndLine   int
	TopLevel  bool
	Params    []int // node ids, in order
	// RestParam: the last of Params takes every argument from its index on
	// (a variadic parameter, or what func_get_args() reads)
	RestParam bool
	Returns   []int // node ids of return statements
	Nodes     []Node
	Calls     []Call
	Conds     []Cond // see Node.Ctrl
	// Imprecise lists why the lowering cannot be exact (references,
	// global, $$, extract, compact); the function's variables are then
	// treated as memory and the answer says so.
	Imprecise []string
	// Skipped says why the function was not lowered (TooLarge); it then
	// has no nodes, and a query that reaches it reports a cut point.
	Skipped string
	// Public is set on the methods PHP calls only for isset/empty
	// (__isset) or unset (__unset) of a property the caller cannot see:
	// the class's public properties, which never call them (magic.go).
	Public []string

	out [][]int // reverse of In, built by Out or Prepare
}

// Spread is Loc.Key of an argument unpacked into the parameters (f(...$a)).
const Spread = "..."

// paramsFor returns the parameter nodes argument i of a call reaches: its
// own, the rest parameter's past the declared ones, and for a spread
// argument every parameter from i on. f may be nil.
func (f *Func) paramsFor(i int, spread bool) []int {
	if f == nil {
		return nil
	}
	var out []int
	if magicCall(f.Name) {
		// __call($name, $arguments): every argument is an element of the second
		if len(f.Params) > 1 {
			out = append(out, f.Params[1])
		}
		return out
	}
	switch {
	case i < len(f.Params):
		out = append(out, f.Params[i])
	case f.RestParam && len(f.Params) > 0:
		out = append(out, f.Params[len(f.Params)-1])
	}
	if spread {
		for j := i + 1; j < len(f.Params); j++ {
			out = append(out, f.Params[j])
		}
	}
	return out
}

// argsFor returns the argument nodes of call c (made in g) that reach
// parameter node p of f: the argument at its index, every later one for
// the rest parameter, and a spread argument at or before it.
func (f *Func) argsFor(g *Func, c *Call, p int) []int {
	idx := f.Nodes[p].Loc.Index
	rest := f.RestParam && len(f.Params) > 0 && f.Params[len(f.Params)-1] == p
	var out []int
	if magicCall(f.Name) {
		if len(f.Params) > 1 && f.Params[1] == p {
			out = append(out, c.Args...)
		}
		return out
	}
	for i, a := range c.Args {
		switch {
		case i == idx, rest && i > idx:
			out = append(out, a)
		case i < idx && g.Nodes[a].Loc.Key == Spread:
			out = append(out, a)
		}
	}
	return out
}

// TooLarge is Func.Skipped for a function over the lowering's size limit.
const TooLarge = "too_large"

// Prepare builds what queries derive from f lazily (Out), so that f can be
// shared by concurrent queries, which then only read it.
func (f *Func) Prepare() {
	if f.out == nil && len(f.Nodes) > 0 {
		f.Out(0)
	}
}

// Size estimates the bytes f holds, for caches bounded in memory.
func (f *Func) Size() int64 {
	const (
		nodeSize = 104 // Node without its slices' contents
		inSize   = 32
		callSize = 112
	)
	n := int64(256 + len(f.Path) + len(f.Name) + len(f.Class) + 8*(len(f.Params)+len(f.Returns)))
	for i := range f.Nodes {
		nd := &f.Nodes[i]
		n += nodeSize + int64(len(nd.Loc.Name)+len(nd.Loc.Key)) + inSize*int64(len(nd.In))
		n += 8 * int64(len(nd.In)) // the reverse edges of Out
	}
	n += 24 * int64(len(f.Nodes))
	for i := range f.Conds {
		n += 56 + int64(len(f.Conds[i].Kind)) + inSize*int64(len(f.Conds[i].In))
	}
	for i := range f.Calls {
		c := &f.Calls[i]
		n += callSize + int64(len(c.Name)+len(c.Receiver)+len(c.Literal)) + 8*int64(len(c.Args))
	}
	return n
}

// Out returns the nodes node i flows into.
func (f *Func) Out(i int) []int {
	if f.out == nil {
		f.out = make([][]int, len(f.Nodes))
		for j := range f.Nodes {
			for _, in := range f.Nodes[j].In {
				f.out[in.From] = append(f.out[in.From], j)
			}
		}
	}
	return f.out[i]
}

// edgeTo returns the kind of the edge from node from to node to.
func (f *Func) edgeTo(from, to int) In {
	for _, in := range f.Nodes[to].In {
		if in.From == from {
			return in
		}
	}
	return In{From: from, Kind: Assign}
}

// Contains reports whether line is inside the function.
func (f *Func) Contains(line int) bool { return f.StartLine <= line && line <= f.EndLine }

// Dump renders f one node a line, for tests and debugging:
// `3 L12 assign $x <- 1:assign 2:concat`.
func (f *Func) Dump() string {
	var b strings.Builder
	b.WriteString(f.Name)
	if len(f.Imprecise) > 0 {
		b.WriteString(" imprecise=" + strings.Join(f.Imprecise, ","))
	}
	b.WriteByte('\n')
	for i, n := range f.Nodes {
		b.WriteString(strconv.Itoa(i) + " L" + strconv.Itoa(n.Line) + " " + n.Kind + " " + n.Loc.String())
		if len(n.In) > 0 {
			b.WriteString(" <-")
			for _, in := range n.In {
				b.WriteString(" " + strconv.Itoa(in.From) + ":" + string(in.Kind))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Node kinds of by-reference parameters: a RefOut node (Loc a Param) is the
// value a function leaves in a by-reference parameter when it returns; a
// RefArg node (Loc the caller's Local, Loc.Index the argument's index) is
// the caller's variable after a call that may write it through one.
const (
	RefOut = "refout"
	RefArg = "refarg"
)

// DumpCtrl renders f's conditions and what runs under each, for tests:
// `c1 L3 if <- 0:operand` for a condition (c1 under c0 adds ` under c0`),
// then `n5 c1` for every node under condition 1.
func (f *Func) DumpCtrl() string {
	var b strings.Builder
	for i, c := range f.Conds {
		b.WriteString("c" + strconv.Itoa(i+1) + " L" + strconv.Itoa(c.Line) + " " + c.Kind)
		if c.Ctrl > 0 {
			b.WriteString(" under c" + strconv.Itoa(c.Ctrl))
		}
		if len(c.In) > 0 {
			b.WriteString(" <-")
			for _, in := range c.In {
				b.WriteString(" " + strconv.Itoa(in.From) + ":" + string(in.Kind))
			}
		}
		b.WriteByte('\n')
	}
	for i, n := range f.Nodes {
		if n.Ctrl > 0 {
			b.WriteString("n" + strconv.Itoa(i) + " c" + strconv.Itoa(n.Ctrl) + "\n")
		}
	}
	return b.String()
}

// Node kinds of exceptions, moved like RefOut and RefArg: a Throw node is
// what `throw` raises in a function; a Thrown node is what the callee of a
// call made inside a try block with a catch may raise out of it (its Call).
const (
	Throw  = "throw"
	Thrown = "thrown"
)

// Def is a function or method of the graph that a lowered function may be.
type Def struct {
	ID, Name string
	Line     int // start line
}

// DefsOf returns the functions and methods among nodes, for NameFuncs.
func DefsOf(nodes []fact.Node) []Def {
	var out []Def
	for _, n := range nodes {
		if n.Kind == fact.Function || n.Kind == fact.Method {
			out = append(out, Def{ID: n.ID, Name: n.Name, Line: n.StartLine})
		}
	}
	return out
}

// NameFuncs sets the graph id of the functions of one file (fs as lowered:
// the top level first): the top level is the file's node fileID, every other
// function the def of its start line and name (PHP names are
// case-insensitive), or path#line when the graph knows none, which then has
// no call edges. It returns the names of the defs matched, by id.
func NameFuncs(fs []*Func, fileID string, defs []Def) map[string]string {
	names := map[string]string{}
	if len(fs) == 0 {
		return names
	}
	fs[0].ID = fileID
	byLine := map[int][]Def{}
	for _, d := range defs {
		byLine[d.Line] = append(byLine[d.Line], d)
	}
	for _, f := range fs[1:] {
		f.ID = ""
		for _, d := range byLine[f.StartLine] {
			if strings.EqualFold(d.Name, f.Name) {
				f.ID = d.ID
				names[d.ID] = d.Name
				break
			}
		}
		if f.ID == "" {
			f.ID = f.Path + "#" + strconv.Itoa(f.StartLine)
		}
	}
	return names
}
