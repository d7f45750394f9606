// This file turns a file's comments into text chunks: a docblock directly
// before a declaration is linked to it; any other comment is linked to the
// innermost declaration that contains it, or to the file.

package php

import (
	"cmp"
	"slices"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
)

// linkDoc remembers that the docblock right before decl documents id. PHP
// attaches a `/** */` comment to the declaration that follows it; attributes
// and modifiers belong to the declaration, so the comment is its previous sibling.
func (w *walker) linkDoc(decl *sitter.Node, id string) {
	prev := decl.PrevSibling()
	if prev == nil || prev.Kind() != "comment" {
		return
	}
	if !strings.HasPrefix(w.text(prev), "/**") {
		return
	}
	if _, taken := w.docOwner[prev.StartByte()]; !taken {
		w.docOwner[prev.StartByte()] = id
	}
}

// comments walks the tree once and emits every comment as a chunk. The
// walk is the tree's preorder, a plain loop (no recursion, however deep the
// tree), which meets the comments in the order of the text.
func (w *walker) comments(root *sitter.Node) {
	var pending []*sitter.Node // consecutive `//` line comments merge into one chunk
	flush := func() {
		if len(pending) == 0 {
			return
		}
		first, last := pending[0], pending[len(pending)-1]
		var parts []string
		for _, c := range pending {
			parts = append(parts, w.text(c))
		}
		w.chunk("comment", first, endLine(last), strings.Join(parts, "\n"), "")
		pending = pending[:0]
	}
	w.owners = newOwners(w.spans)
	root.Descendants(func(c *sitter.Node) bool {
		if c.Kind() != "comment" {
			return true
		}
		text := w.text(c)
		if owner, ok := w.docOwner[c.StartByte()]; ok {
			flush()
			w.chunk("docblock", c, endLine(c), text, owner)
			return false
		}
		if isLineComment(text) {
			if len(pending) > 0 && line(c.StartPosition()) == endLine(pending[len(pending)-1])+1 {
				pending = append(pending, c)
				return false
			}
			flush()
			pending = append(pending, c)
			return false
		}
		flush()
		w.chunk("comment", c, endLine(c), text, "")
		return false
	})
	flush()
}

func isLineComment(text string) bool {
	return strings.HasPrefix(text, "//") || strings.HasPrefix(text, "#")
}

// chunk records a text chunk that begins with the comment first; owner ""
// means the innermost declaration containing the lines, or the file.
func (w *walker) chunk(kind string, first *sitter.Node, end int, text, owner string) {
	start := line(first.StartPosition())
	if owner == "" {
		owner = w.innermost(start, end)
	}
	w.chunks = append(w.chunks, fact.TextChunk{
		ID: fact.ChunkID(kind, w.path, start, int(first.StartPosition().Column), owner), NodeID: owner, Kind: kind,
		Path: w.path, StartLine: start, EndLine: end, Text: text,
	})
	w.clk.charge(chunkCost(&w.chunks[len(w.chunks)-1]))
}

// owners finds the innermost declaration around each chunk. Chunks come in
// the order of the text, so one sweep over the declarations sorted by start
// line serves them all: a stack holds the declarations open at the chunk's
// start, innermost on top. Declarations that overlap without nesting (a
// recovered function) make the sweep fall back to a scan per chunk.
type owners struct {
	spans  []span // by start line; an outer one before an inner one
	next   int    // first span not yet pushed
	stack  []span
	nested bool
	all    []span // as declared, for the scan
}

func newOwners(spans []span) *owners {
	idx := make([]int, len(spans))
	for i := range idx {
		idx[i] = i
	}
	// outer first; of equal ranges the first declared ends on top, as the scan picks it
	slices.SortStableFunc(idx, func(a, b int) int {
		sa, sb := spans[a], spans[b]
		if sa.start != sb.start {
			return cmp.Compare(sa.start, sb.start)
		}
		if la, lb := sa.end-sa.start, sb.end-sb.start; la != lb {
			return cmp.Compare(lb, la)
		}
		return cmp.Compare(b, a)
	})
	o := &owners{all: spans, nested: true}
	for _, i := range idx {
		o.spans = append(o.spans, spans[i])
	}
	var open []span
	for _, s := range o.spans {
		for len(open) > 0 && open[len(open)-1].end < s.start {
			open = open[:len(open)-1]
		}
		if len(open) > 0 && s.end > open[len(open)-1].end {
			o.nested = false
			break
		}
		open = append(open, s)
	}
	return o
}

// innermost returns the id of the smallest declaration containing lines
// start..end, or the file's.
func (w *walker) innermost(start, end int) string {
	o := w.owners
	if o == nil || !o.nested {
		return scanInnermost(w.spans, w.fileID, start, end)
	}
	for o.next < len(o.spans) && o.spans[o.next].start <= start {
		s := o.spans[o.next]
		for len(o.stack) > 0 && o.stack[len(o.stack)-1].end < s.start {
			o.stack = o.stack[:len(o.stack)-1]
		}
		o.stack = append(o.stack, s)
		o.next++
	}
	for len(o.stack) > 0 && o.stack[len(o.stack)-1].end < end {
		o.stack = o.stack[:len(o.stack)-1]
	}
	if len(o.stack) == 0 {
		return w.fileID
	}
	return o.stack[len(o.stack)-1].id
}

func scanInnermost(spans []span, fileID string, start, end int) string {
	best, bestLen := fileID, int(^uint(0)>>1)
	for _, s := range spans {
		if s.start <= start && end <= s.end && s.end-s.start < bestLen {
			best, bestLen = s.id, s.end-s.start
		}
	}
	return best
}
