// Package markdown is the documentation front end: Markdown and
// reStructuredText files (package extract/docs) as documents, sections and
// text chunks, with the names they mention.
package markdown

import (
	"context"

	"github.com/ragraf/ragraf/internal/extract/docs"
	"github.com/ragraf/ragraf/internal/lang"
)

// Lang is the language name of documentation files.
const Lang = "markdown"

// FrontEnd is the documentation lang.FrontEnd.
type FrontEnd struct{}

// Name is Lang.
func (FrontEnd) Name() string { return Lang }

// New returns a parser with the chunk budget and table prefixes of opts.
func (FrontEnd) New(opts lang.Options) (lang.Parser, error) {
	return parser{docs.Options{ChunkTokens: opts.ChunkTokens, TablePrefixes: opts.TablePrefixes}}, nil
}

type parser struct{ opts docs.Options }

func (parser) Close() {}

func (p parser) File(_ context.Context, path string, src []byte) (lang.Facts, error) {
	r := docs.ExtractWith(path, src, p.opts)
	return lang.Facts{Nodes: r.Nodes, Edges: r.Edges, Chunks: r.Chunks, Mentions: r.Mentions}, nil
}
