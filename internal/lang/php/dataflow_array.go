// This file gives array literals and element stores their keys as PHP
// computes them, so that an element read depends on that element only:
// positional elements numbered 0, 1, … (after the largest integer key so
// far), `$a[] = …` continuing the count while it is known, and a store to a
// literal key replacing the earlier stores of that key. The rest of the
// expression lowering is in dataflow_expr.go.

package php

import (
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/dataflow"
	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// arrayElem is one element of an array literal: its key ("*" when it is
// computed or follows one) and its key and value nodes.
type arrayElem struct {
	el, key, val *sitter.Node
	k            string
}

// arrayElems returns the elements of array literal n with their keys. A
// computed key, or a spread element, makes the keys of the positional
// elements after it unknown ("*"), as the count then depends on run time.
func (l *lowering) arrayElems(n *sitter.Node) []arrayElem {
	var out []arrayElem
	next := int64(0) // next positional key; -1 unknown
	for i := uint(0); i < n.NamedChildCount(); i++ {
		el := n.NamedChild(i)
		cnt := el.NamedChildCount()
		if el.Kind() != "array_element_initializer" || cnt == 0 {
			continue
		}
		e := arrayElem{el: el, val: el.NamedChild(cnt - 1)}
		switch {
		case cnt == 2:
			e.key = el.NamedChild(0)
			e.k = l.key(e.key)
			if v, ok := intKey(e.k); ok {
				if next >= 0 && v >= next {
					next = v + 1
				}
			} else if e.k == "*" {
				next = -1
			}
		case e.val.Kind() == "variadic_unpacking":
			e.k, next = "*", -1
		case next >= 0:
			e.k = strconv.FormatInt(next, 10)
			next++
		default:
			e.k = "*"
		}
		out = append(out, e)
	}
	return out
}

// intKey reports whether key k (as key() renders it) is an integer key.
func intKey(k string) (int64, bool) {
	v, err := strconv.ParseInt(k, 10, 64)
	if err != nil || strconv.FormatInt(v, 10) != k {
		return 0, false
	}
	return v, true
}

// normInt renders an integer literal (0x1F, 0o17, 017, 1_000) as the
// decimal key PHP uses, or "*" when it does not fit.
func normInt(s string) string {
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return "*"
	}
	return strconv.FormatInt(v, 10)
}

// literalElem lowers `[…][k]` with a literal key k: only the elements with
// that key (or an unknown one) reach the value.
func (l *lowering) literalElem(arr *sitter.Node, k string) []src {
	var out []src
	for _, e := range l.arrayElems(arr) {
		if e.key != nil && e.k == "*" {
			l.expr(e.key)
		}
		vals := l.expr(e.val)
		if e.k == k || e.k == "*" {
			out = append(out, withKind(vals, dataflow.Load)...)
		}
	}
	return out
}

// appendKey returns the key `$v[] = …` stores at: one past the largest
// integer key of v's reaching definitions when all of them are elements
// with literal keys, "*" otherwise (inside a loop the count changes with
// every iteration).
func (l *lowering) appendKey(v string) string {
	ds := l.env[v]
	if len(ds) == 0 || len(l.loops) > 0 || l.imprecise {
		return "*"
	}
	next := int64(0)
	for _, d := range ds {
		loc := l.f.Nodes[d].Loc
		if loc.Kind != dataflow.Elem || loc.Key == "*" || loc.Name != v {
			return "*"
		}
		if i, ok := intKey(loc.Key); ok && i >= next {
			next = i + 1
		}
	}
	return strconv.FormatInt(next, 10)
}

// defineElem makes element store id of v reach later reads: with a literal
// key it replaces the earlier stores of that key (a strong update), with
// "*" it joins them.
func (l *lowering) defineElem(v string, id int, k string) {
	if k == "*" || l.imprecise {
		l.define(v, id, true)
		return
	}
	var keep []int
	for _, d := range l.env[v] {
		loc := l.f.Nodes[d].Loc
		if loc.Kind == dataflow.Elem && loc.Name == v && loc.Key == k {
			continue
		}
		keep = append(keep, d)
	}
	l.env[v] = append(keep, id)
}

// rekeying are the built-ins that reorder or renumber the array they take
// by reference (their first argument), and whether their other arguments
// go into it.
var rekeying = map[string]bool{
	"sort": false, "rsort": false, "usort": false, "uasort": false, "uksort": false,
	"asort": false, "arsort": false, "ksort": false, "krsort": false, "natsort": false,
	"natcasesort": false, "shuffle": false, "array_multisort": false, "array_shift": false,
	"array_pop": false, "array_push": true, "array_unshift": true, "array_splice": true,
}

// rekeyArg lowers a call of a rekeying built-in: its array argument $v is
// defined anew from what it held (and the values added), as a whole array,
// so that no element read keeps a key the call moved.
func (l *lowering) rekeyArg(name string, args []*sitter.Node, argIDs []int) {
	adds, ok := rekeying[strings.ToLower(name)]
	if !ok || len(args) == 0 {
		return
	}
	v := firstNamed(args[0])
	if v == nil || v.Kind() != "variable_name" {
		return
	}
	name = varName(l.text(v))
	if name == "this" || superglobals[name] {
		return
	}
	ins := l.read(name, dataflow.Assign)
	if adds {
		for _, a := range argIDs[1:] {
			ins = append(ins, src{from: a, kind: dataflow.Store})
		}
	}
	l.define(name, l.node(args[0], "assign", dataflow.Loc{Kind: dataflow.Local, Name: name}, ins), false)
}
