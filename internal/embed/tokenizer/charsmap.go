// charsmap.go reads sentencepiece's precompiled_charsmap (the Precompiled
// normaliser of tokenizer.json) and applies it as Hugging Face does; the
// other normalisers are in normalize.go.
//
// The blob is [u32 LE trie size in bytes][trie: darts-clone double-array
// units, u32 LE each][replacement pool: NUL-terminated UTF-8 strings]. A trie
// key is the UTF-8 of a character sequence, its value the offset of the
// replacement in the pool.
package tokenizer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// charsmap is a parsed precompiled_charsmap.
type charsmap struct {
	units []uint32
	pool  []byte
}

// Unit layout of darts-clone: bits 0-7 the label, bit 8 "has a leaf child",
// bit 9 selects the offset's scale, bits 10-30 the offset; a leaf (value)
// unit has bit 31 set and holds the value in bits 0-30.
func unitLabel(u uint32) uint32  { return u & (1<<31 | 0xFF) }
func unitHasLeaf(u uint32) bool  { return (u>>8)&1 == 1 }
func unitValue(u uint32) uint32  { return u & (1<<31 - 1) }
func unitOffset(u uint32) uint32 { return (u >> 10) << ((u & (1 << 9)) >> 6) }

func parseCharsmap(b []byte) (*charsmap, error) {
	if len(b) < 4 {
		return nil, errors.New("precompiled_charsmap shorter than its header")
	}
	size := binary.LittleEndian.Uint32(b)
	if size%4 != 0 || uint64(size) > uint64(len(b)-4) {
		return nil, errors.New("precompiled_charsmap: trie size does not fit the blob")
	}
	cm := &charsmap{units: make([]uint32, size/4), pool: b[4+size:]}
	for i := range cm.units {
		cm.units[i] = binary.LittleEndian.Uint32(b[4+4*i:])
	}
	if !utf8.Valid(cm.pool) {
		return nil, errors.New("precompiled_charsmap: replacement pool is not UTF-8")
	}
	return cm, nil
}

// firstPrefix is the value of the shortest trie key that is a prefix of key
// (darts-clone's commonPrefixSearch, first result; a NUL byte ends the key
// as in C). Indices out of range end the search, so a corrupt trie cannot
// make it panic.
func (cm *charsmap) firstPrefix(key string) (uint32, bool) {
	if len(cm.units) == 0 {
		return 0, false
	}
	pos := unitOffset(cm.units[0])
	for i := 0; i < len(key); i++ {
		c := uint32(key[i])
		if c == 0 {
			break
		}
		pos ^= c
		if pos >= uint32(len(cm.units)) {
			return 0, false
		}
		u := cm.units[pos]
		if unitLabel(u) != c {
			return 0, false
		}
		pos ^= unitOffset(u)
		if unitHasLeaf(u) {
			if pos >= uint32(len(cm.units)) {
				return 0, false
			}
			return unitValue(cm.units[pos]), true
		}
	}
	return 0, false
}

// transform is the replacement of chunk: the rule of the shortest key that
// is a prefix of it replaces all of chunk (spm_precompiled's transform, which
// every tokenizer.json consumer follows).
func (cm *charsmap) transform(chunk string) (string, bool) {
	v, ok := cm.firstPrefix(chunk)
	if !ok || int(v) > len(cm.pool) {
		return "", false
	}
	rest := cm.pool[v:]
	if i := bytes.IndexByte(rest, 0); i >= 0 {
		rest = rest[:i]
	}
	// the pool is valid UTF-8 but v may point inside a character
	if !utf8.Valid(rest) {
		return "", false
	}
	return string(rest), true
}

// normalize applies the charsmap: each extended grapheme cluster shorter
// than 6 bytes is looked up whole; otherwise, or when it has no rule, each of
// its characters is looked up alone and kept when it has none.
func (cm *charsmap) normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	state := -1
	for len(s) > 0 {
		var cluster string
		cluster, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		if len(cluster) < 6 {
			if r, ok := cm.transform(cluster); ok {
				b.WriteString(r)
				continue
			}
		}
		for i := 0; i < len(cluster); {
			_, n := utf8.DecodeRuneInString(cluster[i:])
			part := cluster[i : i+n]
			if r, ok := cm.transform(part); ok {
				b.WriteString(r)
			} else {
				b.WriteString(part)
			}
			i += n
		}
	}
	return b.String()
}
