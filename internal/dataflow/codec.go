// This file is the binary form of a file's lowered functions, as a build
// stores it per file (graph.sqlite's dataflow table) so a query decodes a
// file instead of parsing and lowering it again. Plain varints; strings as a
// length and bytes; the file's path once. IDs are not stored: the reader
// names functions by the revision's graph nodes.

package dataflow

import (
	"encoding/binary"
	"errors"
)

// codecVersion is the first byte of every encoding; Decode refuses others.
const codecVersion = 6

// ErrCodec is returned for bytes that are not an encoding of this version.
var ErrCodec = errors.New("dataflow: not an IR encoding of this version")

type enc struct{ b []byte }

func (e *enc) int(v int)    { e.b = binary.AppendVarint(e.b, int64(v)) }
func (e *enc) str(s string) { e.int(len(s)); e.b = append(e.b, s...) }
func (e *enc) ints(v []int) {
	e.int(len(v))
	for _, x := range v {
		e.int(x)
	}
}
func (e *enc) ins(v []In) {
	e.int(len(v))
	for _, in := range v {
		e.int(in.From)
		e.str(string(in.Kind))
		e.str(in.Note)
	}
}
func (e *enc) bool(v bool) {
	var b byte
	if v {
		b = 1
	}
	e.b = append(e.b, b)
}
func (e *enc) strs(v []string) {
	e.int(len(v))
	for _, s := range v {
		e.str(s)
	}
}

// Encode returns the functions of one file (all with the same Path) as bytes.
func Encode(fs []*Func) []byte {
	e := &enc{b: []byte{codecVersion}}
	path := ""
	if len(fs) > 0 {
		path = fs[0].Path
	}
	e.str(path)
	e.int(len(fs))
	for _, f := range fs {
		e.str(f.Name)
		e.str(f.Class)
		e.int(f.StartLine)
		e.int(f.EndLine)
		e.bool(f.TopLevel)
		e.bool(f.RestParam)
		e.ints(f.Params)
		e.ints(f.Returns)
		e.strs(f.Imprecise)
		e.str(f.Skipped)
		e.bool(f.Public != nil)
		e.strs(f.Public)
		e.int(len(f.Nodes))
		for i := range f.Nodes {
			n := &f.Nodes[i]
			e.int(n.Line)
			e.str(n.Kind)
			e.str(string(n.Loc.Kind))
			e.str(n.Loc.Name)
			e.str(n.Loc.Key)
			e.int(n.Loc.Index)
			e.int(n.Call)
			e.int(n.Ctrl)
			e.ins(n.In)
		}
		e.int(len(f.Conds))
		for i := range f.Conds {
			c := &f.Conds[i]
			e.int(c.Line)
			e.str(c.Kind)
			e.ins(c.In)
			e.int(c.Ctrl)
		}
		e.int(len(f.Calls))
		for i := range f.Calls {
			c := &f.Calls[i]
			e.int(c.Line)
			e.str(c.Name)
			e.str(c.Receiver)
			e.bool(c.Method)
			e.bool(c.Dynamic)
			e.str(c.Literal)
			e.ints(c.Args)
			e.int(c.Result)
		}
	}
	return e.b
}

type dec struct {
	b   []byte
	err bool
	// strings repeat (kinds, names): one copy each per file
	interned map[string]string
}

func (d *dec) int() int {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

// count reads a length no larger than what is left to read.
func (d *dec) count() int {
	n := d.int()
	if n < 0 || n > len(d.b) {
		d.err, d.b = true, nil
		return 0
	}
	return n
}

func (d *dec) str() string {
	n := d.count()
	if d.err {
		return ""
	}
	raw := d.b[:n]
	d.b = d.b[n:]
	if s, ok := d.interned[string(raw)]; ok {
		return s
	}
	s := string(raw)
	d.interned[s] = s
	return s
}

func (d *dec) bool() bool {
	if len(d.b) == 0 {
		d.err = true
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}

func (d *dec) ints() []int {
	n := d.count()
	if n == 0 || d.err {
		return nil
	}
	out := make([]int, n)
	for i := range out {
		out[i] = d.int()
	}
	return out
}

func (d *dec) ins() []In {
	k := d.count()
	if k == 0 || d.err {
		return nil
	}
	out := make([]In, k)
	for x := range out {
		out[x] = In{From: d.int(), Kind: EdgeKind(d.str()), Note: d.str()}
	}
	return out
}

func (d *dec) strs() []string {
	n := d.count()
	if n == 0 || d.err {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

// Decode reads what Encode wrote. Node and call references are checked, so
// a query never indexes past a function's nodes.
func Decode(b []byte) ([]*Func, error) {
	if len(b) == 0 || b[0] != codecVersion {
		return nil, ErrCodec
	}
	d := &dec{b: b[1:], interned: map[string]string{}}
	path := d.str()
	out := make([]*Func, d.count())
	for i := range out {
		f := &Func{Path: path}
		f.Name, f.Class = d.str(), d.str()
		f.StartLine, f.EndLine = d.int(), d.int()
		f.TopLevel = d.bool()
		f.RestParam = d.bool()
		f.Params, f.Returns = d.ints(), d.ints()
		f.Imprecise = d.strs()
		f.Skipped = d.str()
		if magic, pub := d.bool(), d.strs(); magic {
			f.Public = append([]string{}, pub...)
		}
		if n := d.count(); n > 0 {
			f.Nodes = make([]Node, n)
		}
		for j := range f.Nodes {
			n := &f.Nodes[j]
			n.Line = d.int()
			n.Kind = d.str()
			n.Loc = Loc{Kind: LocKind(d.str()), Name: d.str(), Key: d.str(), Index: d.int()}
			n.Call = d.int()
			n.Ctrl = d.int()
			n.In = d.ins()
		}
		if n := d.count(); n > 0 {
			f.Conds = make([]Cond, n)
		}
		for j := range f.Conds {
			c := &f.Conds[j]
			c.Line, c.Kind = d.int(), d.str()
			c.In = d.ins()
			c.Ctrl = d.int()
		}
		if n := d.count(); n > 0 {
			f.Calls = make([]Call, n)
		}
		for j := range f.Calls {
			c := &f.Calls[j]
			c.Line, c.Name, c.Receiver = d.int(), d.str(), d.str()
			c.Method, c.Dynamic = d.bool(), d.bool()
			c.Literal = d.str()
			c.Args = d.ints()
			c.Result = d.int()
		}
		if d.err || !f.valid() {
			return nil, ErrCodec
		}
		out[i] = f
	}
	if d.err || len(d.b) != 0 {
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
