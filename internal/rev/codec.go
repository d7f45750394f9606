// This file is the binary form of the extraction cache entries and of
// rows.digest. Both are read at the start of every reindex and written at
// its end, and encoding/gob spent a quarter of a small reindex's CPU on them.
// The format is plain: varints, strings as a varint length and bytes (a path
// equal to the entry's own as one byte), maps as key/value pairs in map
// order (readers build maps again, so order carries nothing), each cache
// entry length-prefixed so entries decode on several cores. codec_test.go
// fills every field of every encoded type, so a field added to a fact type
// and forgotten here fails the round trip.

package rev

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"

	"github.com/ragraf/ragraf/internal/extract/docs"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
	"github.com/ragraf/ragraf/internal/typ"
)

// errCorrupt is returned for bytes that are not a valid encoding.
var errCorrupt = errors.New("corrupt binary encoding")

// encoder appends to buf. path is the entry's own path, which most facts
// of a file repeat.
type encoder struct {
	buf  []byte
	path string
}

func (e *encoder) uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *encoder) int(v int64)   { e.buf = binary.AppendVarint(e.buf, v) }

func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

// pathStr writes 0 for the entry's path, else the string with its length
// plus one.
func (e *encoder) pathStr(s string) {
	if s == e.path {
		e.uint(0)
		return
	}
	e.uint(uint64(len(s)) + 1)
	e.buf = append(e.buf, s...)
}

func (e *encoder) bytes(b []byte) {
	if b == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(len(b)) + 1)
	e.buf = append(e.buf, b...)
}

func (e *encoder) strList(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *encoder) props(m map[string]string) {
	e.uint(uint64(len(m)))
	for k, v := range m {
		e.str(k)
		e.str(v)
	}
}

// decoder reads what an encoder wrote; the first error sticks and every
// later read returns a zero value.
type decoder struct {
	b    []byte
	path string
	err  error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a length and checks it against what remains, at least min
// bytes per element, so corrupt input cannot ask for huge allocations.
func (d *decoder) count(min int) int {
	n := d.uint()
	if n > uint64(len(d.b)/max(min, 1)+1) {
		d.fail()
		return 0
	}
	return int(n)
}

// desc reads a type descriptor written as its text form.
func (d *decoder) desc() typ.Desc {
	t, err := typ.Parse(d.str())
	if err != nil {
		d.fail()
	}
	return t
}

func (d *decoder) str() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) pathStr() string {
	n := d.uint()
	if n == 0 {
		return d.path
	}
	n--
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) bytes() []byte {
	n := d.uint()
	if n == 0 {
		return nil
	}
	n--
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	b := slices.Clone(d.b[:n])
	d.b = d.b[n:]
	return b
}

func (d *decoder) strSlice() []string {
	n := d.count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *decoder) props() map[string]string {
	n := d.count(2)
	if n == 0 {
		return nil
	}
	m := make(map[string]string, n)
	for range n {
		k := d.str()
		m[k] = d.str()
	}
	return m
}

// appendEntry appends the encoding of one cache entry.
func appendEntry(buf []byte, c *cacheEntry) []byte {
	r := &c.Row
	e := &encoder{buf: buf}
	e.str(r.Path)
	e.path = r.Path
	e.str(r.Lang)
	e.str(r.Status)
	e.str(r.Reason)
	e.int(r.Size)
	e.int(int64(r.Lines))
	e.str(r.Hash)
	e.int(r.MTime)
	e.uint(uint64(len(c.Nodes)))
	for i := range c.Nodes {
		n := &c.Nodes[i]
		e.str(n.ID)
		e.str(string(n.Kind))
		e.str(n.Name)
		e.str(n.QName)
		e.pathStr(n.Path)
		e.int(int64(n.StartLine))
		e.int(int64(n.EndLine))
		e.str(n.Lang)
		e.str(n.Parent)
		e.str(n.Signature)
		e.props(n.Props)
	}
	e.uint(uint64(len(c.Edges)))
	for i := range c.Edges {
		ed := &c.Edges[i]
		e.str(ed.ID)
		e.str(string(ed.Kind))
		e.str(ed.From)
		e.str(ed.To)
		e.str(string(ed.Provenance))
		e.uint(math.Float64bits(ed.Confidence))
		e.pathStr(ed.EvidencePath)
		e.int(int64(ed.EvidenceLine))
		e.strList(ed.Sources)
		e.props(ed.Props)
	}
	e.uint(uint64(len(c.Chunks)))
	for i := range c.Chunks {
		t := &c.Chunks[i]
		e.str(t.ID)
		e.str(t.NodeID)
		e.str(t.Kind)
		e.pathStr(t.Path)
		e.int(int64(t.StartLine))
		e.int(int64(t.EndLine))
		e.str(t.Text)
	}
	e.uint(uint64(len(c.Refs)))
	for i := range c.Refs {
		f := &c.Refs[i]
		e.str(string(f.Kind))
		e.str(f.From)
		e.pathStr(f.Path)
		e.int(int64(f.Line))
		e.int(int64(f.Col))
		e.str(f.Name)
		e.str(f.Alt)
		e.str(f.Recv.String())
		e.str(f.Include)
		e.str(f.Alias)
		e.str(f.Qualifier)
		e.props(f.Props)
	}
	e.uint(uint64(len(c.Mentions)))
	for i := range c.Mentions {
		m := &c.Mentions[i]
		e.str(m.SectionID)
		e.str(m.Text)
		e.str(m.Kind)
		e.int(int64(m.Line))
	}
	e.bytes(c.Snapshot)
	e.bytes(c.Dataflow)
	return e.buf
}

// decodeEntry decodes what appendEntry wrote, all of b.
func decodeEntry(b []byte) (*cacheEntry, error) {
	d := &decoder{b: b}
	c := &cacheEntry{}
	d.path = d.str()
	c.Row = graph.File{Path: d.path, Lang: d.str(), Status: d.str(), Reason: d.str(), Size: d.int(),
		Lines: int(d.int()), Hash: d.str(), MTime: d.int()}
	if n := d.count(11); n > 0 {
		c.Nodes = make([]fact.Node, n)
		for i := range c.Nodes {
			c.Nodes[i] = fact.Node{ID: d.str(), Kind: fact.NodeKind(d.str()), Name: d.str(), QName: d.str(), Path: d.pathStr(),
				StartLine: int(d.int()), EndLine: int(d.int()), Lang: d.str(), Parent: d.str(), Signature: d.str(), Props: d.props()}
		}
	}
	if n := d.count(10); n > 0 {
		c.Edges = make([]fact.Edge, n)
		for i := range c.Edges {
			c.Edges[i] = fact.Edge{ID: d.str(), Kind: fact.EdgeKind(d.str()), From: d.str(), To: d.str(),
				Provenance: fact.Provenance(d.str()), Confidence: math.Float64frombits(d.uint()), EvidencePath: d.pathStr(),
				EvidenceLine: int(d.int()), Sources: d.strSlice(), Props: d.props()}
		}
	}
	if n := d.count(7); n > 0 {
		c.Chunks = make([]fact.TextChunk, n)
		for i := range c.Chunks {
			c.Chunks[i] = fact.TextChunk{ID: d.str(), NodeID: d.str(), Kind: d.str(), Path: d.pathStr(),
				StartLine: int(d.int()), EndLine: int(d.int()), Text: d.str()}
		}
	}
	if n := d.count(12); n > 0 {
		c.Refs = make([]fact.Ref, n)
		for i := range c.Refs {
			c.Refs[i] = fact.Ref{Kind: fact.RefKind(d.str()), From: d.str(), Path: d.pathStr(), Line: int(d.int()), Col: int(d.int()),
				Name: d.str(), Alt: d.str(), Recv: d.desc(), Include: d.str(), Alias: d.str(), Qualifier: d.str(), Props: d.props()}
		}
	}
	if n := d.count(4); n > 0 {
		c.Mentions = make([]docs.Mention, n)
		for i := range c.Mentions {
			c.Mentions[i] = docs.Mention{SectionID: d.str(), Text: d.str(), Kind: d.str(), Line: int(d.int())}
		}
	}
	c.Snapshot = d.bytes()
	c.Dataflow = d.bytes()
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	return c, d.err
}

// appendDigestMap appends a key -> digest map.
func appendDigestMap(e *encoder, m map[string]uint64) {
	e.uint(uint64(len(m)))
	for k, v := range m {
		e.str(k)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, v)
	}
}

func decodeDigestMap(d *decoder) map[string]uint64 {
	n := d.count(9)
	m := make(map[string]uint64, n)
	for range n {
		l := d.uint()
		if l+8 > uint64(len(d.b)) {
			d.fail()
			return m
		}
		k := string(d.b[:l])
		m[k] = binary.LittleEndian.Uint64(d.b[l:])
		d.b = d.b[l+8:]
	}
	return m
}
