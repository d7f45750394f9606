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
	"math"

	"github.com/ragraf/ragraf/internal/codec"

	"github.com/ragraf/ragraf/internal/extract/docs"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
	"github.com/ragraf/ragraf/internal/typ"
)

// encoder writes an encoding (package codec) with the entry's own path,
// which most facts of a file repeat, in one byte.
type encoder struct {
	codec.Writer
	path string
}

// pathStr writes 0 for the entry's path, else the string with its length
// plus one.
func (e *encoder) pathStr(s string) {
	if s == e.path {
		e.Uvarint(0)
		return
	}
	e.Uvarint(uint64(len(s)) + 1)
	e.Raw(s)
}

func (e *encoder) strList(ss []string) {
	e.Uvarint(uint64(len(ss)))
	for _, s := range ss {
		e.Str(s)
	}
}

func (e *encoder) props(m map[string]string) {
	e.Uvarint(uint64(len(m)))
	for k, v := range m {
		e.Str(k)
		e.Str(v)
	}
}

// decoder reads what an encoder wrote; the first error sticks and every
// later read returns a zero value.
type decoder struct {
	*codec.Reader
	path string
}

func newDecoder(b []byte) *decoder { return &decoder{Reader: codec.NewReader(b)} }

// desc reads a type descriptor written as its text form.
func (d *decoder) desc() typ.Desc {
	t, err := typ.Parse(d.Str())
	if err != nil {
		d.Fail()
	}
	return t
}

func (d *decoder) pathStr() string {
	n := d.Uvarint()
	if n == 0 {
		return d.path
	}
	return string(d.Next(n - 1))
}

func (d *decoder) strSlice() []string {
	n := d.Count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.Str()
	}
	return out
}

func (d *decoder) props() map[string]string {
	n := d.Count(2)
	if n == 0 {
		return nil
	}
	m := make(map[string]string, n)
	for range n {
		k := d.Str()
		m[k] = d.Str()
	}
	return m
}

// appendEntry appends the encoding of one cache entry.
func appendEntry(buf []byte, c *cacheEntry) []byte {
	r := &c.Row
	e := &encoder{Writer: codec.Writer{B: buf}}
	e.Str(r.Path)
	e.path = r.Path
	e.Str(r.Lang)
	e.Str(r.Status)
	e.Str(r.Reason)
	e.Varint(r.Size)
	e.Varint(int64(r.Lines))
	e.Str(r.Hash)
	e.Varint(r.MTime)
	e.Uvarint(uint64(len(c.Nodes)))
	for i := range c.Nodes {
		n := &c.Nodes[i]
		e.Str(n.ID)
		e.Str(string(n.Kind))
		e.Str(n.Name)
		e.Str(n.QName)
		e.pathStr(n.Path)
		e.Varint(int64(n.StartLine))
		e.Varint(int64(n.EndLine))
		e.Str(n.Lang)
		e.Str(n.Parent)
		e.Str(n.Signature)
		e.props(n.Props)
	}
	e.Uvarint(uint64(len(c.Edges)))
	for i := range c.Edges {
		ed := &c.Edges[i]
		e.Str(ed.ID)
		e.Str(string(ed.Kind))
		e.Str(ed.From)
		e.Str(ed.To)
		e.Str(string(ed.Provenance))
		e.Uvarint(math.Float64bits(ed.Confidence))
		e.pathStr(ed.EvidencePath)
		e.Varint(int64(ed.EvidenceLine))
		e.strList(ed.Sources)
		e.props(ed.Props)
	}
	e.Uvarint(uint64(len(c.Chunks)))
	for i := range c.Chunks {
		t := &c.Chunks[i]
		e.Str(t.ID)
		e.Str(t.NodeID)
		e.Str(t.Kind)
		e.pathStr(t.Path)
		e.Varint(int64(t.StartLine))
		e.Varint(int64(t.EndLine))
		e.Str(t.Text)
	}
	e.Uvarint(uint64(len(c.Refs)))
	for i := range c.Refs {
		f := &c.Refs[i]
		e.Str(string(f.Kind))
		e.Str(f.From)
		e.pathStr(f.Path)
		e.Varint(int64(f.Line))
		e.Varint(int64(f.Col))
		e.Str(f.Name)
		e.Str(f.Alt)
		e.Str(f.Recv.String())
		e.Str(f.Include)
		e.Str(f.Alias)
		e.Str(f.Qualifier)
		e.props(f.Props)
	}
	e.Uvarint(uint64(len(c.Mentions)))
	for i := range c.Mentions {
		m := &c.Mentions[i]
		e.Str(m.SectionID)
		e.Str(m.Text)
		e.Str(m.Kind)
		e.Varint(int64(m.Line))
	}
	e.OptBytes(c.Snapshot)
	e.OptBytes(c.Dataflow)
	return e.B
}

// decodeEntry decodes what appendEntry wrote, all of b.
func decodeEntry(b []byte) (*cacheEntry, error) {
	d := newDecoder(b)
	c := &cacheEntry{}
	d.path = d.Str()
	c.Row = graph.File{Path: d.path, Lang: d.Str(), Status: d.Str(), Reason: d.Str(), Size: d.Varint(),
		Lines: int(d.Varint()), Hash: d.Str(), MTime: d.Varint()}
	if n := d.Count(11); n > 0 {
		c.Nodes = make([]fact.Node, n)
		for i := range c.Nodes {
			c.Nodes[i] = fact.Node{ID: d.Str(), Kind: fact.NodeKind(d.Str()), Name: d.Str(), QName: d.Str(), Path: d.pathStr(),
				StartLine: int(d.Varint()), EndLine: int(d.Varint()), Lang: d.Str(), Parent: d.Str(), Signature: d.Str(), Props: d.props()}
		}
	}
	if n := d.Count(10); n > 0 {
		c.Edges = make([]fact.Edge, n)
		for i := range c.Edges {
			c.Edges[i] = fact.Edge{ID: d.Str(), Kind: fact.EdgeKind(d.Str()), From: d.Str(), To: d.Str(),
				Provenance: fact.Provenance(d.Str()), Confidence: math.Float64frombits(d.Uvarint()), EvidencePath: d.pathStr(),
				EvidenceLine: int(d.Varint()), Sources: d.strSlice(), Props: d.props()}
		}
	}
	if n := d.Count(7); n > 0 {
		c.Chunks = make([]fact.TextChunk, n)
		for i := range c.Chunks {
			c.Chunks[i] = fact.TextChunk{ID: d.Str(), NodeID: d.Str(), Kind: d.Str(), Path: d.pathStr(),
				StartLine: int(d.Varint()), EndLine: int(d.Varint()), Text: d.Str()}
		}
	}
	if n := d.Count(12); n > 0 {
		c.Refs = make([]fact.Ref, n)
		for i := range c.Refs {
			c.Refs[i] = fact.Ref{Kind: fact.RefKind(d.Str()), From: d.Str(), Path: d.pathStr(), Line: int(d.Varint()), Col: int(d.Varint()),
				Name: d.Str(), Alt: d.Str(), Recv: d.desc(), Include: d.Str(), Alias: d.Str(), Qualifier: d.Str(), Props: d.props()}
		}
	}
	if n := d.Count(4); n > 0 {
		c.Mentions = make([]docs.Mention, n)
		for i := range c.Mentions {
			c.Mentions[i] = docs.Mention{SectionID: d.Str(), Text: d.Str(), Kind: d.Str(), Line: int(d.Varint())}
		}
	}
	c.Snapshot = d.OptBytes()
	c.Dataflow = d.OptBytes()
	if d.Err() == nil && d.Len() != 0 {
		d.Fail()
	}
	return c, d.Err()
}

// appendDigestMap appends a key -> digest map.
func appendDigestMap(e *encoder, m map[string]uint64) {
	e.Uvarint(uint64(len(m)))
	for k, v := range m {
		e.Str(k)
		e.Fixed64(v)
	}
}

func decodeDigestMap(d *decoder) map[string]uint64 {
	n := d.Count(9)
	m := make(map[string]uint64, n)
	for range n {
		k := d.Str()
		v := d.Fixed64()
		if d.Err() != nil {
			return m
		}
		m[k] = v
	}
	return m
}
