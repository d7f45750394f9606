package rowhash

import (
	"hash/fnv"
	"strconv"
	"strings"
	"testing"
)

// TestSameAsJoinedFNV: a Hash equals FNV-1a over the fields joined by NUL,
// which is what rows.digest files written before this package hold.
func TestSameAsJoinedFNV(t *testing.T) {
	ref := func(parts ...string) uint64 {
		h := fnv.New64a()
		h.Write([]byte(strings.Join(parts, "\x00")))
		return h.Sum64()
	}
	h := New()
	h.Str("method")
	h.Int(-42)
	h.Float(0.45)
	h.Join([]string{"php-resolve", "docs"}, ",")
	h.Str("")
	want := ref("method", "-42", strconv.FormatFloat(0.45, 'g', -1, 64), "php-resolve,docs", "")
	if h.Sum() != want {
		t.Fatalf("Sum = %x, want %x", h.Sum(), want)
	}
	e := New()
	if e.Sum() != ref() {
		t.Fatal("empty fingerprint differs")
	}
	a, b := New(), New()
	a.Str("ab")
	a.Str("c")
	b.Str("a")
	b.Str("bc")
	if a.Sum() == b.Sum() {
		t.Fatal("field boundaries are not part of the fingerprint")
	}
}

// TestBytesIsStr: a field added as bytes fingerprints as the same string.
func TestBytesIsStr(t *testing.T) {
	a, b := New(), New()
	a.Str("path")
	a.Bytes([]byte("<?php\n$x = 1;"))
	b.Str("path")
	b.Str("<?php\n$x = 1;")
	if a.Sum() != b.Sum() {
		t.Errorf("Bytes %x, Str %x", a.Sum(), b.Sum())
	}
}
