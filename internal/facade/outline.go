// This file defines the outline operation: a file's definitions as a tree
// with line ranges and signatures, never bodies.

package facade

import (
	"context"

	"github.com/ragraf/ragraf/internal/fact"
)

// OutlineArgs names the file.
type OutlineArgs struct {
	Path string `json:"path" jsonschema:"file path relative to the project root, e.g. src/Cart.php"`
	Output
}

// OutlineItem is one definition of the file with its members.
type OutlineItem struct {
	ID        string        `json:"id"`
	Kind      string        `json:"kind"`
	Name      string        `json:"name"`
	QName     string        `json:"qname"`
	Signature string        `json:"signature"`
	Path      string        `json:"path"`
	Line      int           `json:"line"`
	EndLine   int           `json:"end_line"`
	Children  []OutlineItem `json:"children"`
	Stale     *StaleMark    `json:"stale,omitempty"` // its lines changed since the revision
}

// OutlineResult is the file's tree.
type OutlineResult struct {
	Path    string        `json:"path"`
	Lang    string        `json:"lang"`
	Status  string        `json:"status"`
	Lines   int           `json:"lines"`
	Symbols []OutlineItem `json:"symbols"`
}

// Outline returns a file's definitions as a tree.
func (s *Service) Outline(ctx context.Context, args OutlineArgs) (*Envelope, error) {
	const op = "outline"
	path, err := s.cleanPath("path", args.Path)
	if err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, op, pager{})
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	env := c.env
	f, ok, err := snap.graph.File(ctx, path)
	if err != nil {
		return nil, storeError(err)
	}
	res := OutlineResult{Path: path, Symbols: []OutlineItem{}}
	if !ok {
		env.Result = res
		notFoundPath(env, path)
		return c.done(env.Result)
	}
	res.Lang, res.Status, res.Lines = f.Lang, f.Status, f.Lines
	nodes, err := snap.graph.NodesInFile(ctx, path)
	if err != nil {
		return nil, storeError(err)
	}
	res.Symbols = outlineTree(nodes)
	env.Result = res
	n := countItems(res.Symbols)
	env.Limits = Limits{Limit: n, Returned: n, Total: n}
	if n == 0 {
		env.NotFound = true
		env.Suggest = append(env.Suggest, Suggestion{Op: "code", Args: map[string]any{"path": path}, Why: "the file defines nothing; its indexed source"})
	}
	c.cite([]string{path}...)
	return c.done(env.Result)
}

// outlineTree nests nodes under their parents; nodes whose parent is the
// file (or outside it) are roots. Namespaces are flattened away: their
// members are listed at the top with the namespace in their qname.
func outlineTree(nodes []fact.Node) []OutlineItem {
	in := map[string]bool{}
	for _, n := range nodes {
		if n.Kind != fact.File && n.Kind != fact.Namespace {
			in[n.ID] = true
		}
	}
	kids := map[string][]fact.Node{}
	var roots []fact.Node
	for _, n := range nodes {
		if !in[n.ID] {
			continue
		}
		if in[n.Parent] {
			kids[n.Parent] = append(kids[n.Parent], n)
		} else {
			roots = append(roots, n)
		}
	}
	var build func(ns []fact.Node) []OutlineItem
	build = func(ns []fact.Node) []OutlineItem {
		out := make([]OutlineItem, 0, len(ns))
		for _, n := range ns {
			out = append(out, OutlineItem{ID: n.ID, Kind: string(n.Kind), Name: n.Name, QName: n.QName, Signature: n.Signature,
				Path: n.Path, Line: n.StartLine, EndLine: n.EndLine, Children: build(kids[n.ID])})
		}
		return out
	}
	return build(roots)
}

func countItems(items []OutlineItem) int {
	n := len(items)
	for _, it := range items {
		n += countItems(it.Children)
	}
	return n
}
