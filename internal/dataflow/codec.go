// This file is the binary form of a file's lowered functions, as a build
// stores it per file (graph.sqlite's dataflow table) so a query decodes a
// file instead of parsing and lowering it again. Plain varints; strings as a
// length and bytes; the file's path once. IDs are not stored: the reader
// names functions by the revision's graph nodes.

package dataflow

import (
	"errors"

	"github.com/ragraf/ragraf/internal/codec"
)

// codecVersion is the first byte of every encoding; Decode refuses others.
const codecVersion = 6

// ErrCodec is returned for bytes that are not an encoding of this version.
var ErrCodec = errors.New("dataflow: not an IR encoding of this version")

// enc writes the IR's parts; strings and lengths are signed varints.
type enc struct{ codec.Writer }

func (e *enc) ints(v []int) {
	e.Int(len(v))
	for _, x := range v {
		e.Int(x)
	}
}

func (e *enc) ins(v []In) {
	e.Int(len(v))
	for _, in := range v {
		e.Int(in.From)
		e.IntStr(string(in.Kind))
		e.IntStr(in.Note)
	}
}

func (e *enc) strs(v []string) {
	e.Int(len(v))
	for _, s := range v {
		e.IntStr(s)
	}
}

// Encode returns the functions of one file (all with the same Path) as bytes.
func Encode(fs []*Func) []byte {
	e := &enc{codec.Writer{B: []byte{codecVersion}}}
	path := ""
	if len(fs) > 0 {
		path = fs[0].Path
	}
	e.IntStr(path)
	e.Int(len(fs))
	for _, f := range fs {
		e.IntStr(f.Name)
		e.IntStr(f.Class)
		e.Int(f.StartLine)
		e.Int(f.EndLine)
		e.Bool(f.TopLevel)
		e.Bool(f.RestParam)
		e.ints(f.Params)
		e.ints(f.Returns)
		e.strs(f.Imprecise)
		e.IntStr(f.Skipped)
		e.Bool(f.Public != nil)
		e.strs(f.Public)
		e.Int(len(f.Nodes))
		for i := range f.Nodes {
			n := &f.Nodes[i]
			e.Int(n.Line)
			e.IntStr(n.Kind)
			e.IntStr(string(n.Loc.Kind))
			e.IntStr(n.Loc.Name)
			e.IntStr(n.Loc.Key)
			e.Int(n.Loc.Index)
			e.Int(n.Call)
			e.Int(n.Ctrl)
			e.ins(n.In)
		}
		e.Int(len(f.Conds))
		for i := range f.Conds {
			c := &f.Conds[i]
			e.Int(c.Line)
			e.IntStr(c.Kind)
			e.ins(c.In)
			e.Int(c.Ctrl)
		}
		e.Int(len(f.Calls))
		for i := range f.Calls {
			c := &f.Calls[i]
			e.Int(c.Line)
			e.IntStr(c.Name)
			e.IntStr(c.Receiver)
			e.Bool(c.Method)
			e.Bool(c.Dynamic)
			e.IntStr(c.Literal)
			e.ints(c.Args)
			e.Int(c.Result)
		}
	}
	return e.B
}

// dec reads what enc wrote; strings are interned (kinds and names repeat).
type dec struct{ *codec.Reader }

func newDec(b []byte) dec { return dec{codec.NewReader(b).Intern()} }

func (d dec) ints() []int {
	n := d.IntCount()
	if n == 0 || d.Err() != nil {
		return nil
	}
	out := make([]int, n)
	for i := range out {
		out[i] = d.Int()
	}
	return out
}

func (d dec) ins() []In {
	k := d.IntCount()
	if k == 0 || d.Err() != nil {
		return nil
	}
	out := make([]In, k)
	for x := range out {
		out[x] = In{From: d.Int(), Kind: EdgeKind(d.IntStr()), Note: d.IntStr()}
	}
	return out
}

func (d dec) strs() []string {
	n := d.IntCount()
	if n == 0 || d.Err() != nil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.IntStr()
	}
	return out
}

// Decode reads what Encode wrote. Node and call references are checked, so
// a query never indexes past a function's nodes.
func Decode(b []byte) ([]*Func, error) {
	if len(b) == 0 || b[0] != codecVersion {
		return nil, ErrCodec
	}
	d := newDec(b[1:])
	path := d.IntStr()
	out := make([]*Func, d.IntCount())
	for i := range out {
		f := &Func{Path: path}
		f.Name, f.Class = d.IntStr(), d.IntStr()
		f.StartLine, f.EndLine = d.Int(), d.Int()
		f.TopLevel = d.Bool()
		f.RestParam = d.Bool()
		f.Params, f.Returns = d.ints(), d.ints()
		f.Imprecise = d.strs()
		f.Skipped = d.IntStr()
		if magic, pub := d.Bool(), d.strs(); magic {
			f.Public = append([]string{}, pub...)
		}
		if n := d.IntCount(); n > 0 {
			f.Nodes = make([]Node, n)
		}
		for j := range f.Nodes {
			n := &f.Nodes[j]
			n.Line = d.Int()
			n.Kind = d.IntStr()
			n.Loc = Loc{Kind: LocKind(d.IntStr()), Name: d.IntStr(), Key: d.IntStr(), Index: d.Int()}
			n.Call = d.Int()
			n.Ctrl = d.Int()
			n.In = d.ins()
		}
		if n := d.IntCount(); n > 0 {
			f.Conds = make([]Cond, n)
		}
		for j := range f.Conds {
			c := &f.Conds[j]
			c.Line, c.Kind = d.Int(), d.IntStr()
			c.In = d.ins()
			c.Ctrl = d.Int()
		}
		if n := d.IntCount(); n > 0 {
			f.Calls = make([]Call, n)
		}
		for j := range f.Calls {
			c := &f.Calls[j]
			c.Line, c.Name, c.Receiver = d.Int(), d.IntStr(), d.IntStr()
			c.Method, c.Dynamic = d.Bool(), d.Bool()
			c.Literal = d.IntStr()
			c.Args = d.ints()
			c.Result = d.Int()
		}
		if d.Err() != nil || !f.valid() {
			return nil, ErrCodec
		}
		out[i] = f
	}
	if d.Err() != nil || d.Len() != 0 {
		return nil, ErrCodec
	}
	return out, nil
}

// valid reports whether every node and call reference of f is in range.
func (f *Func) valid() bool {
	nodes, calls := len(f.Nodes), len(f.Calls)
	in := func(v, n int) bool { return v >= 0 && v < n }
	for _, p := range f.Params {
		if !in(p, nodes) {
			return false
		}
	}
	for _, r := range f.Returns {
		if !in(r, nodes) {
			return false
		}
	}
	ctrl := func(c int) bool { return c >= 0 && c <= len(f.Conds) }
	ins := func(es []In) bool {
		for _, e := range es {
			if !in(e.From, nodes) {
				return false
			}
		}
		return true
	}
	for i := range f.Nodes {
		n := &f.Nodes[i]
		if n.Call != -1 && !in(n.Call, calls) || !ctrl(n.Ctrl) || !ins(n.In) {
			return false
		}
	}
	for i := range f.Conds {
		if c := &f.Conds[i]; !ctrl(c.Ctrl) || !ins(c.In) {
			return false
		}
	}
	for i := range f.Calls {
		c := &f.Calls[i]
		for _, a := range c.Args {
			if !in(a, nodes) {
				return false
			}
		}
		if !in(c.Result, nodes) {
			return false
		}
	}
	return true
}
