package php

import (
	"bytes"
	"context"
	"strings"
	"testing"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
)

// FuzzExtract feeds arbitrary bytes to the extractor (normalised as the corpus
// reader does: no BOM, LF line ends). Properties: it never panics or fails;
// every node and chunk lies within the file's lines with start <= end; every
// node lies within its parent; no comment's text reaches a node's name,
// signature or props (FT-9); every comment is kept in a chunk over its lines.
// The seed corpus is testdata/fuzz/FuzzExtract.
func FuzzExtract(f *testing.F) {
	f.Add([]byte("<?php\nnamespace A;\n/** d */\nclass B { public function c(/* x */ $y) {} }\n"))
	x, err := New()
	if err != nil {
		f.Fatal(err)
	}
	defer x.Close()
	parser, err := sitter.NewParser(language())
	if err != nil {
		f.Fatal(err)
	}
	defer parser.Close()
	f.Fuzz(func(t *testing.T, data []byte) {
		src := bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
		src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
		res, err := x.File(context.Background(), "f.php", src)
		if err != nil {
			t.Fatalf("File: %v", err)
		}
		checkExtract(t, parser, src, res)
	})
}

// checkExtract asserts FuzzExtract's properties on one result.
func checkExtract(t *testing.T, parser *sitter.Parser, src []byte, res Result) {
	t.Helper()
	lines := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		lines++
	}
	byID := map[string]fact.Node{}
	for _, n := range res.Nodes {
		if o, dup := byID[n.ID]; dup {
			t.Errorf("node id %s repeated: %s %s line %d and %s %s line %d", n.ID, o.Kind, o.QName, o.StartLine, n.Kind, n.QName, n.StartLine)
		}
		byID[n.ID] = n
	}
	chunkIDs := map[string]fact.TextChunk{}
	for _, c := range res.Chunks {
		if o, dup := chunkIDs[c.ID]; dup {
			t.Errorf("chunk id %s repeated: %q line %d and %q line %d", c.ID, o.Text, o.StartLine, c.Text, c.StartLine)
		}
		chunkIDs[c.ID] = c
	}
	for _, n := range res.Nodes {
		if n.StartLine < 1 || n.StartLine > n.EndLine || n.EndLine > lines {
			t.Errorf("%s %s: lines %d-%d outside 1-%d or reversed", n.Kind, n.QName, n.StartLine, n.EndLine, lines)
		}
		if n.Parent == fact.FileNodeID("f.php") {
			continue
		}
		p, ok := byID[n.Parent]
		if !ok {
			t.Errorf("%s %s: parent %s is not a node of the file", n.Kind, n.QName, n.Parent)
			continue
		}
		if n.StartLine < p.StartLine || n.EndLine > p.EndLine {
			t.Errorf("%s %s [%d-%d] lies outside its parent %s %s [%d-%d]",
				n.Kind, n.QName, n.StartLine, n.EndLine, p.Kind, p.QName, p.StartLine, p.EndLine)
		}
	}
	for _, c := range res.Chunks {
		if c.StartLine < 1 || c.StartLine > c.EndLine || c.EndLine > lines {
			t.Errorf("chunk %q: lines %d-%d outside 1-%d or reversed", c.Text, c.StartLine, c.EndLine, lines)
		}
	}

	// Comment tokens, and the source with them blanked out: a comment whose
	// text also occurs in code may legitimately show in a value.
	tree, err := parser.Parse(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	var comments []*sitter.Node
	tree.RootNode().Descendants(func(n *sitter.Node) bool {
		if n.Kind() == "comment" {
			comments = append(comments, n)
			return false
		}
		return true
	})
	code := append([]byte(nil), src...)
	for _, c := range comments {
		for i := c.StartByte(); i < c.EndByte(); i++ {
			code[i] = ' '
		}
	}
	codeText := collapse(string(code))
	for _, c := range comments {
		text := collapse(c.Utf8Text(src))
		if !covered(res.Chunks, c, text) {
			t.Errorf("comment %q at line %d is in no chunk", text, line(c.StartPosition()))
		}
		if strings.Contains(codeText, text) {
			continue
		}
		for _, n := range res.Nodes {
			values := []string{n.Name, n.QName, n.Signature}
			for _, v := range n.Props {
				values = append(values, v)
			}
			for _, v := range values {
				if strings.Contains(collapse(v), text) {
					t.Errorf("%s %s carries comment text %q in %q", n.Kind, n.QName, text, v)
				}
			}
		}
	}
}

// covered reports whether some chunk over c's lines holds its text.
func covered(chunks []fact.TextChunk, c *sitter.Node, text string) bool {
	for _, ch := range chunks {
		if ch.StartLine <= line(c.StartPosition()) && endLine(c) <= ch.EndLine && strings.Contains(collapse(ch.Text), text) {
			return true
		}
	}
	return false
}
