// Package rowhash fingerprints store rows for incremental writes: FNV-1a
// over the row's fields joined by NUL bytes, computed field by field without
// building the joined string.
package rowhash

import "strconv"

const (
	offset64 = 14695981039346656037
	prime64  = 1099511628211
)

// Hash is a fingerprint being computed. The zero value is not ready; use New.
type Hash struct {
	h     uint64
	parts int
}

// New starts a fingerprint.
func New() Hash { return Hash{h: offset64} }

func (h *Hash) write(s string) {
	v := h.h
	for i := 0; i < len(s); i++ {
		v ^= uint64(s[i])
		v *= prime64
	}
	h.h = v
}

func (h *Hash) next() {
	if h.parts > 0 {
		h.h *= prime64 // the NUL separator: xor with 0, then multiply
	}
	h.parts++
}

// Str adds a field.
func (h *Hash) Str(s string) {
	h.next()
	h.write(s)
}

// Bytes adds a field given as bytes.
func (h *Hash) Bytes(b []byte) {
	h.next()
	v := h.h
	for _, c := range b {
		v ^= uint64(c)
		v *= prime64
	}
	h.h = v
}

// Int adds an integer field, in decimal.
func (h *Hash) Int(v int64) {
	var buf [24]byte
	h.next()
	h.write(string(strconv.AppendInt(buf[:0], v, 10)))
}

// Float adds a float field, formatted as strconv.FormatFloat(v, 'g', -1, 64).
func (h *Hash) Float(v float64) {
	var buf [32]byte
	h.next()
	h.write(string(strconv.AppendFloat(buf[:0], v, 'g', -1, 64)))
}

// Join adds one field made of ss joined by sep.
func (h *Hash) Join(ss []string, sep string) {
	h.next()
	for i, s := range ss {
		if i > 0 {
			h.write(sep)
		}
		h.write(s)
	}
}

// Sum is the fingerprint of the fields added so far.
func (h Hash) Sum() uint64 { return h.h }
