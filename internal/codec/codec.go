// Package codec is the plain binary form the stored encodings share (the
// extraction cache and row digests in rev, the lowered IR and summaries in
// dataflow): varints, fixed 64-bit words, one-byte booleans, and strings and
// byte slices as a length and their bytes. A Writer appends; a Reader
// checks every length against what is left, so corrupt input is an error,
// never a panic or a huge allocation. The first error sticks: every later
// read returns a zero value and Err reports it.
//
// Two length forms exist because two formats were written before this
// package: Str writes its length as an unsigned varint (rev), IntStr
// as a signed one (dataflow). Each format keeps its own so the bytes on disk
// stay the same.
package codec

import (
	"encoding/binary"
	"errors"
	"slices"
)

// ErrCorrupt is the error of a Reader that met bytes that are not a valid
// encoding.
var ErrCorrupt = errors.New("codec: corrupt encoding")

// Writer appends an encoding to B.
type Writer struct{ B []byte }

// Uvarint writes v as an unsigned varint.
func (w *Writer) Uvarint(v uint64) { w.B = binary.AppendUvarint(w.B, v) }

// Varint writes v as a signed (zig-zag) varint.
func (w *Writer) Varint(v int64) { w.B = binary.AppendVarint(w.B, v) }

// Int writes v as a signed varint.
func (w *Writer) Int(v int) { w.Varint(int64(v)) }

// Fixed64 writes v as eight little-endian bytes.
func (w *Writer) Fixed64(v uint64) { w.B = binary.LittleEndian.AppendUint64(w.B, v) }

// Bool writes one byte, 1 for true.
func (w *Writer) Bool(v bool) {
	var b byte
	if v {
		b = 1
	}
	w.B = append(w.B, b)
}

// Raw appends s as it is, without a length.
func (w *Writer) Raw(s string) { w.B = append(w.B, s...) }

// Str writes s as its length (unsigned varint) and bytes.
func (w *Writer) Str(s string) {
	w.Uvarint(uint64(len(s)))
	w.Raw(s)
}

// IntStr writes s as its length (signed varint) and bytes.
func (w *Writer) IntStr(s string) {
	w.Int(len(s))
	w.Raw(s)
}

// OptBytes writes b as its length plus one (unsigned varint) and bytes,
// and nil as 0, so a nil slice and an empty one read back apart.
func (w *Writer) OptBytes(b []byte) {
	if b == nil {
		w.Uvarint(0)
		return
	}
	w.Uvarint(uint64(len(b)) + 1)
	w.B = append(w.B, b...)
}

// Reader reads what a Writer wrote.
type Reader struct {
	b   []byte
	err error
	// interned holds one copy of each string read, when enabled
	interned map[string]string
}

// NewReader reads b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Intern makes the Reader return one copy of each distinct string it reads
// (kinds and names repeat within an encoding).
func (r *Reader) Intern() *Reader {
	r.interned = map[string]string{}
	return r
}

// Err is the first error met, nil if none.
func (r *Reader) Err() error { return r.err }

// Len is the number of bytes not read yet.
func (r *Reader) Len() int { return len(r.b) }

// Fail marks the input corrupt: a caller's own check failed.
func (r *Reader) Fail() {
	if r.err == nil {
		r.err = ErrCorrupt
	}
	r.b = nil
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.Fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.Fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Int reads a signed varint as an int.
func (r *Reader) Int() int { return int(r.Varint()) }

// Fixed64 reads eight little-endian bytes.
func (r *Reader) Fixed64() uint64 {
	if len(r.b) < 8 {
		r.Fail()
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

// Bool reads one byte; 1 is true, any other value false.
func (r *Reader) Bool() bool {
	if len(r.b) == 0 {
		r.Fail()
		return false
	}
	v := r.b[0] == 1
	r.b = r.b[1:]
	return v
}

// Count reads an unsigned varint count of elements that take at least min
// bytes each, and checks it against what is left, so corrupt input cannot
// ask for a huge allocation.
func (r *Reader) Count(min int) int {
	n := r.Uvarint()
	if n > uint64(len(r.b)/max(min, 1)+1) {
		r.Fail()
		return 0
	}
	return int(n)
}

// IntCount reads a signed varint count no larger than the bytes left.
func (r *Reader) IntCount() int {
	n := r.Varint()
	if n < 0 || n > int64(len(r.b)) {
		r.Fail()
		return 0
	}
	return int(n)
}

// Next returns the next n bytes (not a copy), or nil and an error when
// fewer are left.
func (r *Reader) Next(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.Fail()
		return nil
	}
	b := r.b[:n:n]
	r.b = r.b[n:]
	return b
}

// str makes a string of raw, interned when enabled.
func (r *Reader) str(raw []byte) string {
	if r.interned == nil {
		return string(raw)
	}
	if s, ok := r.interned[string(raw)]; ok {
		return s
	}
	s := string(raw)
	r.interned[s] = s
	return s
}

// Str reads what Writer.Str wrote.
func (r *Reader) Str() string {
	raw := r.Next(r.Uvarint())
	if r.err != nil {
		return ""
	}
	return r.str(raw)
}

// IntStr reads what Writer.IntStr wrote.
func (r *Reader) IntStr() string {
	n := r.IntCount()
	if r.err != nil {
		return ""
	}
	return r.str(r.Next(uint64(n)))
}

// OptBytes reads what Writer.OptBytes wrote, as a copy.
func (r *Reader) OptBytes() []byte {
	n := r.Uvarint()
	if n == 0 || r.err != nil {
		return nil
	}
	return slices.Clone(r.Next(n - 1))
}
