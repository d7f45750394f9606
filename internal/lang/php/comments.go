// This file turns a file's comments into text chunks: a docblock directly
// before a declaration is linked to it; any other comment is linked to the
// innermost declaration that contains it, or to the file.

package php

import (
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

// comments walks the tree once and emits every comment as a chunk.
func (w *walker) comments(root *sitter.Node) {
	var visit func(n *sitter.Node)
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
		w.chunk("comment", line(first.StartPosition()), endLine(last), strings.Join(parts, "\n"), "")
		pending = pending[:0]
	}
	visit = func(n *sitter.Node) {
		for i := uint(0); i < n.ChildCount(); i++ {
			c := n.Child(i)
			if c.Kind() != "comment" {
				if c.ChildCount() > 0 {
					visit(c)
				}
				continue
			}
			text := w.text(c)
			if owner, ok := w.docOwner[c.StartByte()]; ok {
				flush()
				w.chunk("docblock", line(c.StartPosition()), endLine(c), text, owner)
				continue
			}
			if isLineComment(text) {
				if len(pending) > 0 && line(c.StartPosition()) == endLine(pending[len(pending)-1])+1 {
					pending = append(pending, c)
					continue
				}
				flush()
				pending = append(pending, c)
				continue
			}
			flush()
			w.chunk("comment", line(c.StartPosition()), endLine(c), text, "")
		}
	}
	visit(root)
	flush()
}

func isLineComment(text string) bool {
	return strings.HasPrefix(text, "//") || strings.HasPrefix(text, "#")
}

// chunk records a text chunk; owner "" means the innermost declaration
// containing the lines, or the file.
func (w *walker) chunk(kind string, start, end int, text, owner string) {
	if owner == "" {
		owner = w.innermost(start, end)
	}
	w.chunks = append(w.chunks, fact.TextChunk{
		ID: fact.ChunkID(kind, w.path, start, owner), NodeID: owner, Kind: kind,
		Path: w.path, StartLine: start, EndLine: end, Text: text,
	})
}

func (w *walker) innermost(start, end int) string {
	best, bestLen := w.fileID, int(^uint(0)>>1)
	for _, s := range w.spans {
		if s.start <= start && end <= s.end && s.end-s.start < bestLen {
			best, bestLen = s.id, s.end-s.start
		}
	}
	return best
}
