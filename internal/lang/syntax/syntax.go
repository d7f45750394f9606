// Package syntax parses source text with tree-sitter and hands back the whole
// tree as Go values. One cgo call per file parses and flattens the tree
// (flatten.c); walking it afterwards costs no cgo call and allocates nothing,
// which is where the time of a naive binding goes. Trees hold only Go memory:
// there is nothing to Close.
//
// Node mirrors the method set of go-tree-sitter's Node that extractors use,
// so code written against one reads the same against the other.
package syntax

/*
#include "flatten.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Point is a zero-based row and byte column.
type Point struct {
	Row    uint
	Column uint
}

// Language is a grammar with its node kind and field names.
type Language struct {
	ptr    unsafe.Pointer
	kinds  []string
	fields []string
	fieldN map[string]uint16
}

var allocOnce sync.Once

// NewLanguage wraps a grammar pointer such as tree_sitter_php.LanguagePHP().
func NewLanguage(ptr unsafe.Pointer) *Language {
	l := sitter.NewLanguage(ptr)
	lang := &Language{ptr: ptr, fieldN: map[string]uint16{}}
	for i := uint32(0); i < l.NodeKindCount(); i++ {
		lang.kinds = append(lang.kinds, l.NodeKindForId(uint16(i)))
	}
	lang.fields = append(lang.fields, "")
	for i := uint32(1); i <= l.FieldCount(); i++ {
		name := l.FieldNameForId(uint16(i))
		lang.fields = append(lang.fields, name)
		lang.fieldN[name] = uint16(i)
	}
	return lang
}

// Parser parses files of one language; it is not safe for concurrent use.
type Parser struct {
	p    *C.TSParser // made through tree-sitter's C API, freed by Close
	lang *Language
	// buf is C memory the flattened nodes of each parse are written to;
	// spare is a tree handed back by Recycle, whose memory the next parse
	// reuses; counts is scratch for build.
	buf    *C.rg_buf
	spare  *Tree
	counts []int32
	peak   int64 // Peak
}

// UseLibcAllocator routes tree-sitter's allocations to libc (counted per
// thread for the memory budget). It runs once per process, before the first
// tree: a package that parses through go-tree-sitter directly calls it
// before its first parse, so no tree is freed by another allocator than the
// one that made it.
func UseLibcAllocator() {
	allocOnce.Do(func() { C.rg_use_libc_allocator() })
}

// NewParser returns a parser for lang.
func NewParser(lang *Language) (*Parser, error) {
	UseLibcAllocator()
	p := C.ts_parser_new()
	if !C.ts_parser_set_language(p, (*C.TSLanguage)(lang.ptr)) {
		C.ts_parser_delete(p)
		return nil, fmt.Errorf("loading grammar: ABI version %d is not one this tree-sitter reads", sitter.NewLanguage(lang.ptr).AbiVersion())
	}
	return &Parser{p: p, lang: lang, buf: (*C.rg_buf)(C.calloc(1, C.sizeof_rg_buf))}, nil
}

// Close frees the parser.
func (p *Parser) Close() {
	C.ts_parser_delete(p.p)
	C.rg_buf_free(p.buf)
	C.free(unsafe.Pointer(p.buf))
	p.buf = nil
}

// ErrParse means tree-sitter returned no tree.
var ErrParse = errors.New("parser returned no tree")

// BudgetError means a parse was halted for taking more memory or time than
// SetBudget allows.
type BudgetError struct {
	Kind  string // "memory" or "time"
	Limit int64  // MB for memory, milliseconds for time
}

func (e *BudgetError) Error() string {
	if e.Kind == "memory" {
		return fmt.Sprintf("budget: memory: parsing needed more than %d MB", e.Limit)
	}
	return fmt.Sprintf("budget: time: parsing took more than %d ms", e.Limit)
}

// SetBudget limits each later parse to maxBytes of tree-sitter's memory and
// maxMS milliseconds; zero means no limit. A parse over budget returns a
// *BudgetError.
func (p *Parser) SetBudget(maxBytes, maxMS int64) {
	p.buf.max_bytes, p.buf.max_ms = C.int64_t(maxBytes), C.int64_t(maxMS)
}

// Peak is the most memory tree-sitter held during the last parse, in bytes,
// as sampled while it ran.
func (p *Parser) Peak() int64 { return p.peak }

// Parse parses src. The returned tree keeps src for Utf8Text.
func (p *Parser) Parse(ctx context.Context, src []byte) (*Tree, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// tree-sitter reads src during the call only and keeps no pointer to
	// it, so the Go bytes are passed as they are (cgo pins them).
	var cs *C.char
	if len(src) > 0 {
		cs = (*C.char)(unsafe.Pointer(unsafe.SliceData(src)))
	}
	p.buf.cancel = 0
	stop := context.AfterFunc(ctx, func() { p.buf.cancel = 1 })
	n := C.rg_parse(p.p, p.buf, cs, C.uint32_t(len(src)))
	stop()
	p.peak = int64(p.buf.peak_bytes)
	if n < 0 {
		switch p.buf.halted {
		case C.RG_HALT_CANCEL:
			return nil, ctx.Err()
		case C.RG_HALT_MEMORY:
			return nil, &BudgetError{Kind: "memory", Limit: int64(p.buf.max_bytes) >> 20}
		case C.RG_HALT_TIME:
			return nil, &BudgetError{Kind: "time", Limit: int64(p.buf.max_ms)}
		}
		return nil, ErrParse
	}
	t := p.build(src, unsafe.Slice(p.buf.nodes, int(n)))
	if int(p.buf.max_depth) >= MaxDepth {
		t.reshape()
	}
	return t, nil
}

// Recycle hands t back to p: the next Parse reuses its memory instead of
// allocating a tree's worth (the flattened trees are a quarter of what a
// build allocates). Neither t nor any node of it may be used afterwards;
// strings taken from them (Utf8Text) stay valid.
func (p *Parser) Recycle(t *Tree) {
	if t != nil && t.lang == p.lang && (p.spare == nil || cap(t.nodes) > cap(p.spare.nodes)) {
		p.spare = t
	}
}

// Tree is a parsed file.
type Tree struct {
	lang  *Language
	src   []byte
	nodes []Node
	kids  []int32 // children of every node, grouped by parent
	named []int32 // named children of every node, grouped by parent
	shape Shape   // what reshape changed (depth.go)
}

// Node is one syntax node. Pointers to nodes stay valid as long as the tree.
type Node struct {
	t         *Tree
	idx       int32
	parent    int32
	kidsAt    int32 // offset of this node's children in t.kids
	nkids     int32
	namedAt   int32
	nnamed    int32
	pos       int32 // index among the parent's children
	namedPos  int32 // index among the parent's named children, -1 if unnamed
	startByte uint32
	endByte   uint32
	startRow  uint32
	startCol  uint32
	endRow    uint32
	endCol    uint32
	symbol    uint16
	field     uint16
	flags     uint8
}

const (
	flagNamed    = 1
	flagMissing  = 2
	flagExtra    = 4
	flagHasError = 8
	flagError    = 16
)

// build turns the flattened nodes into a Tree, in p.spare's memory when
// there is one.
func (p *Parser) build(src []byte, raw []C.rg_node) *Tree {
	t := p.spare
	p.spare = nil
	if t == nil {
		t = &Tree{}
	}
	t.lang, t.src, t.shape = p.lang, src, Shape{}
	t.nodes = grow(t.nodes, len(raw))
	p.counts = grow(p.counts, 2*len(raw))
	counts, namedCounts := p.counts[:len(raw)], p.counts[len(raw):]
	clear(p.counts)
	for i := range raw {
		r := &raw[i]
		n := &t.nodes[i]
		*n = Node{
			t: t, idx: int32(i), parent: int32(r.parent), namedPos: -1,
			startByte: uint32(r.start_byte), endByte: uint32(r.end_byte),
			startRow: uint32(r.start_row), startCol: uint32(r.start_col),
			endRow: uint32(r.end_row), endCol: uint32(r.end_col),
			symbol: uint16(r.symbol), field: uint16(r.field), flags: uint8(r.flags),
		}
		if p := n.parent; p >= 0 {
			counts[p]++
			if n.flags&flagNamed != 0 {
				namedCounts[p]++
			}
		}
	}
	var off, noff int32
	for i := range t.nodes {
		t.nodes[i].kidsAt, t.nodes[i].namedAt = off, noff
		off += counts[i]
		noff += namedCounts[i]
	}
	t.kids = grow(t.kids, int(off))
	t.named = grow(t.named, int(noff))
	// preorder visits children in order, so appending keeps them sorted
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.parent < 0 {
			continue
		}
		p := &t.nodes[n.parent]
		n.pos = p.nkids
		t.kids[p.kidsAt+p.nkids] = int32(i)
		p.nkids++
		if n.flags&flagNamed != 0 {
			n.namedPos = p.nnamed
			t.named[p.namedAt+p.nnamed] = int32(i)
			p.nnamed++
		}
	}
	return t
}

// grow returns s with length n, reusing its array when it is large enough.
// The elements are not cleared.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// RootNode returns the root.
func (t *Tree) RootNode() *Node { return &t.nodes[0] }

// Source returns the text the tree was parsed from.
func (t *Tree) Source() []byte { return t.src }

// Len is the number of nodes.
func (t *Tree) Len() int { return len(t.nodes) }

// Kind is the node's grammar kind, e.g. "class_declaration".
func (n *Node) Kind() string {
	if int(n.symbol) < len(n.t.lang.kinds) {
		return n.t.lang.kinds[n.symbol]
	}
	if n.flags&flagError != 0 {
		return "ERROR"
	}
	return ""
}

// KindID is the grammar's symbol id.
func (n *Node) KindID() uint16 { return n.symbol }

// Id is unique among the nodes of one tree.
func (n *Node) Id() uintptr { return uintptr(n.idx) }

// IsNamed reports whether the node is named in the grammar.
func (n *Node) IsNamed() bool { return n.flags&flagNamed != 0 }

// IsMissing reports a node inserted by error recovery.
func (n *Node) IsMissing() bool { return n.flags&flagMissing != 0 }

// IsExtra reports an extra such as a comment.
func (n *Node) IsExtra() bool { return n.flags&flagExtra != 0 }

// IsError reports an ERROR node.
func (n *Node) IsError() bool { return n.flags&flagError != 0 }

// HasError reports an error anywhere in the subtree.
func (n *Node) HasError() bool { return n.flags&(flagHasError|flagError) != 0 }

// StartByte is the offset of the first byte.
func (n *Node) StartByte() uint { return uint(n.startByte) }

// EndByte is the offset just past the last byte.
func (n *Node) EndByte() uint { return uint(n.endByte) }

// StartPosition is the zero-based row and column of the start.
func (n *Node) StartPosition() Point {
	return Point{Row: uint(n.startRow), Column: uint(n.startCol)}
}

// EndPosition is the zero-based row and column just past the end.
func (n *Node) EndPosition() Point {
	return Point{Row: uint(n.endRow), Column: uint(n.endCol)}
}

// Utf8Text returns the node's text in src.
func (n *Node) Utf8Text(src []byte) string { return string(src[n.startByte:n.endByte]) }

// ChildCount counts all children.
func (n *Node) ChildCount() uint { return uint(n.nkids) }

// NamedChildCount counts named children.
func (n *Node) NamedChildCount() uint { return uint(n.nnamed) }

// Child returns child i, or nil.
func (n *Node) Child(i uint) *Node {
	if i >= uint(n.nkids) {
		return nil
	}
	return &n.t.nodes[n.t.kids[n.kidsAt+int32(i)]]
}

// NamedChild returns named child i, or nil.
func (n *Node) NamedChild(i uint) *Node {
	if i >= uint(n.nnamed) {
		return nil
	}
	return &n.t.nodes[n.t.named[n.namedAt+int32(i)]]
}

// ChildByFieldName returns the first child in field name, or nil.
func (n *Node) ChildByFieldName(name string) *Node {
	id, ok := n.t.lang.fieldN[name]
	if !ok {
		return nil
	}
	for i := int32(0); i < n.nkids; i++ {
		c := &n.t.nodes[n.t.kids[n.kidsAt+i]]
		if c.field == id {
			return c
		}
	}
	return nil
}

// ChildrenByFieldName returns every child in field name.
func (n *Node) ChildrenByFieldName(name string) []*Node {
	id, ok := n.t.lang.fieldN[name]
	if !ok {
		return nil
	}
	var out []*Node
	for i := int32(0); i < n.nkids; i++ {
		c := &n.t.nodes[n.t.kids[n.kidsAt+i]]
		if c.field == id {
			out = append(out, c)
		}
	}
	return out
}

// FieldName is the name of the field this node fills in its parent, or "".
func (n *Node) FieldName() string { return n.t.lang.fields[n.field] }

// FieldNameForChild is the field name of child i, or "".
func (n *Node) FieldNameForChild(i uint32) string {
	if c := n.Child(uint(i)); c != nil {
		return c.FieldName()
	}
	return ""
}

// Parent returns the parent, or nil for the root.
func (n *Node) Parent() *Node {
	if n.parent < 0 {
		return nil
	}
	return &n.t.nodes[n.parent]
}

// NextSibling returns the next child of the parent, or nil.
func (n *Node) NextSibling() *Node {
	if p := n.Parent(); p != nil {
		return p.Child(uint(n.pos + 1))
	}
	return nil
}

// PrevSibling returns the previous child of the parent, or nil.
func (n *Node) PrevSibling() *Node {
	if p := n.Parent(); p != nil && n.pos > 0 {
		return p.Child(uint(n.pos - 1))
	}
	return nil
}

// NextNamedSibling returns the next named child of the parent, or nil.
func (n *Node) NextNamedSibling() *Node {
	for s := n.NextSibling(); s != nil; s = s.NextSibling() {
		if s.IsNamed() {
			return s
		}
	}
	return nil
}

// PrevNamedSibling returns the previous named child of the parent, or nil.
func (n *Node) PrevNamedSibling() *Node {
	for s := n.PrevSibling(); s != nil; s = s.PrevSibling() {
		if s.IsNamed() {
			return s
		}
	}
	return nil
}

// Descendants calls f for n and every node below it in preorder; f returns
// false to skip a node's subtree. Preorder is the array order, so this is a
// plain loop.
func (n *Node) Descendants(f func(*Node) bool) {
	end := n.subtreeEnd()
	for i := n.idx; i < end; {
		c := &n.t.nodes[i]
		if f(c) {
			i++
		} else {
			i = c.subtreeEnd()
		}
	}
}

// subtreeEnd is the index just past n's last descendant.
func (n *Node) subtreeEnd() int32 {
	m := n
	for m.nkids > 0 {
		m = &m.t.nodes[m.t.kids[m.kidsAt+m.nkids-1]]
	}
	return m.idx + 1
}
