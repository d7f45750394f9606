// Package tpl is what the template front ends (twig, blade) share: a
// builder of the facts of one template file (its blocks and macros as nodes
// below the file node, the references to other templates, routes, functions
// and components) and a line index.
package tpl

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
)

// Source names the template front ends in edge provenance.
const Source = "template"

// Lines maps byte offsets of a source to 1-based lines.
type Lines []int

// NewLines indexes the line starts of src.
func NewLines(src []byte) Lines {
	ls := Lines{0}
	for i, c := range src {
		if c == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

// At returns the line and 0-based column of offset off.
func (ls Lines) At(off int) (int, int) {
	i := sort.SearchInts(ls, off+1) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, off - ls[i]
}

// Builder collects the facts of one template file.
type Builder struct {
	path, lang, fileID string
	facts              lang.Facts
	seen               map[string]int
	open               []openNode
}

type openNode struct {
	idx  int    // index in facts.Nodes
	kind string // what closes it: "block", "macro", "embed", ...
}

// New returns the builder of the template at path in language lng.
func New(path, lng string) *Builder {
	return &Builder{path: path, lang: lng, fileID: fact.FileNodeID(path), seen: map[string]int{}}
}

// From is the id of the innermost open node, else the file's.
func (b *Builder) From() string {
	for i := len(b.open) - 1; i >= 0; i-- {
		if o := b.open[i]; o.idx >= 0 {
			return b.facts.Nodes[o.idx].ID
		}
	}
	return b.fileID
}

// Node adds a declaration of kind k named name from line start to end
// (0: still open, closed by Close with closer), below the innermost open
// node. It returns the node's index.
func (b *Builder) Node(k fact.NodeKind, name, sig string, start, end int, closer string) int {
	qname := b.path + "#" + name
	key := string(k) + "\x00" + qname
	dis := b.seen[key]
	b.seen[key]++
	id := fact.NodeID(k, qname, b.path, dis)
	parent := b.From()
	if parent == b.fileID {
		parent = "" // the build hangs it below the file node
	} else {
		b.facts.Edges = append(b.facts.Edges, fact.Edge{
			ID: fact.EdgeID(fact.Contains, parent, id, b.path, start), Kind: fact.Contains, From: parent, To: id,
			Provenance: fact.Stated, Confidence: 1, EvidencePath: b.path, EvidenceLine: start, Sources: []string{Source},
		})
	}
	b.facts.Nodes = append(b.facts.Nodes, fact.Node{
		ID: id, Kind: k, Name: name, QName: qname, Path: b.path, StartLine: start, EndLine: end,
		Lang: b.lang, Parent: parent, Signature: sig,
	})
	idx := len(b.facts.Nodes) - 1
	if end == 0 {
		b.open = append(b.open, openNode{idx: idx, kind: closer})
	}
	return idx
}

// Push opens a construct that holds no node (an embed, a component) but
// must be closed by closer.
func (b *Builder) Push(closer string) { b.open = append(b.open, openNode{idx: -1, kind: closer}) }

// Close ends the innermost open construct closed by closer at line; false
// when none is open (a stray end tag), noted as a problem.
func (b *Builder) Close(closer string, line int) bool {
	for i := len(b.open) - 1; i >= 0; i-- {
		if b.open[i].kind != closer {
			continue
		}
		for _, o := range b.open[i:] {
			if o.idx >= 0 {
				b.facts.Nodes[o.idx].EndLine = line
			}
		}
		b.open = b.open[:i]
		return true
	}
	b.Problem(line, "end of "+closer+" without its start")
	return false
}

// Ref adds a domain reference from the innermost open node.
func (b *Builder) Ref(kind fact.RefKind, name string, line, col int, props map[string]string) {
	b.facts.Domain.Refs = append(b.facts.Domain.Refs, fact.Ref{
		Kind: kind, From: b.From(), Path: b.path, Line: line, Col: col, Name: name, Props: props,
	})
}

// Problem marks the file partial; the first problem is the reason.
func (b *Builder) Problem(line int, msg string) {
	if !b.facts.Partial {
		b.facts.Partial = true
		b.facts.Reason = "line " + strconv.Itoa(line) + ": " + msg
	}
}

// Facts closes what is still open at lastLine (a problem: the end tag is
// missing) and returns the file's facts.
func (b *Builder) Facts(lastLine int) lang.Facts {
	for i := len(b.open) - 1; i >= 0; i-- {
		o := b.open[i]
		start := lastLine
		if o.idx >= 0 {
			b.facts.Nodes[o.idx].EndLine = lastLine
			start = b.facts.Nodes[o.idx].StartLine
		}
		b.Problem(start, fmt.Sprintf("%s not closed", o.kind))
	}
	b.open = nil
	return b.facts
}

// Parser is a template language's lang.Parser: Parse scans one file's
// source into the builder, noting what it could not read as partial with
// the line; what was read is kept.
type Parser struct {
	Lang  string
	Parse func(b *Builder, src []byte)
}

// Close releases nothing: a template scanner holds no resources.
func (Parser) Close() {}

// File reads one template.
func (p Parser) File(ctx context.Context, path string, src []byte) (lang.Facts, error) {
	if err := ctx.Err(); err != nil {
		return lang.Facts{}, err
	}
	b := New(path, p.Lang)
	p.Parse(b, src)
	return b.Facts(bytes.Count(src, []byte("\n")) + 1), nil
}
