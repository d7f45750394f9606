// This file defines the docs operation: the documentation sections that
// document a symbol, file or table (documented_by edges from
// resolve/domain.go), or the sections of a documentation file.

package facade

import (
	"context"
	"sort"

	"github.com/ragraf/ragraf/internal/fact"
)

// DocsArgs names what the documentation is about.
type DocsArgs struct {
	ID   string `json:"id,omitempty" jsonschema:"node id of a symbol, table or file, from an earlier answer"`
	Path string `json:"path,omitempty" jsonschema:"a source file or a documentation file"`
	Page
	Output
}

// DocSection is one documentation section.
type DocSection struct {
	ID         string  `json:"id"`
	Title      string  `json:"title"`
	Path       string  `json:"path"`
	Line       int     `json:"line"`
	EndLine    int     `json:"end_line"`
	About      string  `json:"about,omitempty"`   // the node id it documents
	Mention    string  `json:"mention,omitempty"` // the text naming it
	MentionAt  int     `json:"mention_line,omitempty"`
	Provenance string  `json:"provenance,omitempty"`
	Confidence float64 `json:"confidence,omitempty"`
}

// DocsResult lists one page of sections in path and line order (a section
// that documents two nodes of a file is listed once for each).
type DocsResult struct {
	Sections []DocSection `json:"sections"`
}

// Docs finds the documentation of a node or file.
func (s *Service) Docs(ctx context.Context, args DocsArgs) (*Envelope, error) {
	const op = "docs"
	if (args.ID == "") == (args.Path == "") {
		return nil, badInput("give exactly one of id and path")
	}
	path := ""
	if args.Path != "" {
		p, err := s.cleanPath("path", args.Path)
		if err != nil {
			return nil, err
		}
		path = p
	}
	pg, err := args.page(op, args)
	if err != nil {
		return nil, err
	}
	c, err := s.begin(ctx, op, pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	env := c.env
	res := DocsResult{Sections: []DocSection{}}
	var about []string
	if args.ID != "" {
		if _, ok, err := snap.graph.Node(ctx, args.ID); err != nil {
			return nil, storeError(err)
		} else if !ok {
			return nil, &Error{Code: ErrUnknownID, Message: "no node " + args.ID + " in " + snap.name}
		}
		about = []string{args.ID}
	} else {
		nodes, err := snap.graph.NodesInFile(ctx, path)
		if err != nil {
			return nil, storeError(err)
		}
		for _, n := range nodes {
			if n.Kind == fact.DocSection || n.Kind == fact.Doc && len(nodes) == 1 {
				res.Sections = append(res.Sections, DocSection{ID: n.ID, Title: n.Name, Path: n.Path, Line: n.StartLine, EndLine: n.EndLine})
				continue
			}
			if n.Kind != fact.Doc {
				about = append(about, n.ID)
			}
		}
	}
	var es []fact.Edge
	for _, id := range about {
		e, err := snap.graph.EdgesFrom(ctx, id, []fact.EdgeKind{fact.DocumentedBy})
		if err != nil {
			return nil, storeError(err)
		}
		es = append(es, e...)
	}
	if len(es) > 0 {
		ids := make([]string, len(es))
		for i, e := range es {
			ids[i] = e.To
		}
		secs, err := snap.graph.NodesByID(ctx, ids)
		if err != nil {
			return nil, storeError(err)
		}
		for _, e := range es {
			n, ok := secs[e.To]
			if !ok {
				continue
			}
			res.Sections = append(res.Sections, DocSection{ID: n.ID, Title: n.Name, Path: n.Path, Line: n.StartLine, EndLine: n.EndLine,
				About: e.From, Mention: e.Props["text"], MentionAt: e.EvidenceLine, Provenance: string(e.Provenance), Confidence: e.Confidence})
		}
	}
	sort.SliceStable(res.Sections, func(i, j int) bool {
		a, b := res.Sections[i], res.Sections[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.MentionAt != b.MentionAt {
			return a.MentionAt < b.MentionAt
		}
		if a.About != b.About {
			return a.About < b.About
		}
		return a.ID < b.ID
	})
	n := len(res.Sections)
	res.Sections = pageOf(pg, res.Sections)
	env.Result = res
	env.Limits = pg.limits(snap, len(res.Sections), n)
	paths := []string{path}
	for _, sct := range res.Sections {
		paths = append(paths, sct.Path)
	}
	if n == 0 {
		env.NotFound = true
		env.Suggest = append(env.Suggest, Suggestion{Op: "search", Args: map[string]any{"query": lastName(args.ID + path), "kind": "doc_section"}, Why: "lexical search over documentation text"})
	}
	c.cite(paths...)
	return c.done(env.Result)
}
