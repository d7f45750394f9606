// Package resolve links references across files: it turns the Refs that
// language extractors emit into edges with provenance, and keeps the ones it
// cannot link as Unresolved.
package resolve

import (
	"context"

	"github.com/ragraf/ragraf/internal/fact"
)

// Input is every node and reference of a build.
type Input struct {
	Nodes []fact.Node
	Refs  []fact.Ref
}

// Output is what resolution adds to the graph.
type Output struct {
	Edges      []fact.Edge
	Unresolved []fact.Unresolved
}

// Resolve links in.Refs to in.Nodes.
func Resolve(ctx context.Context, in Input) (Output, error) {
	return Output{}, ctx.Err()
}
