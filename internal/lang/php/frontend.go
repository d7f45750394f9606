// This file puts the PHP extractor behind the front-end interface (package
// lang): FrontEnd is what a build registers, and the parser it makes is an
// Extractor with the project's budget and data-flow settings.

package php

import (
	"context"

	"github.com/ragraf/ragraf/internal/lang"
)

// FrontEnd is PHP's lang.FrontEnd.
type FrontEnd struct{}

// Name is Lang.
func (FrontEnd) Name() string { return Lang }

// New returns an Extractor set up with opts.
func (FrontEnd) New(opts lang.Options) (lang.Parser, error) {
	x, err := New()
	if err != nil {
		return nil, err
	}
	x.SetBudget(Budget{MaxWork: opts.MaxFileWork, MaxBytes: opts.MaxFileBytes})
	x.SetDataflow(opts.Dataflow, opts.DataflowLines)
	return frontParser{x}, nil
}

// frontParser is an Extractor as a lang.Parser.
type frontParser struct{ x *Extractor }

func (p frontParser) Close() { p.x.Close() }

func (p frontParser) File(ctx context.Context, path string, src []byte) (lang.Facts, error) {
	r, err := p.x.File(ctx, path, src)
	if err != nil {
		return lang.Facts{}, err
	}
	return lang.Facts{Nodes: r.Nodes, Edges: r.Edges, Refs: r.Refs, Chunks: r.Chunks, Dataflow: r.Dataflow,
		Domain: r.Domain, Partial: r.Partial, Reason: r.Error}, nil
}
