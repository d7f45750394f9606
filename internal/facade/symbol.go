// This file defines the symbol operation, which finds definitions by name or
// qualified name, and Symbol, the definition fact every navigation answer
// cites. The MCP tool ragraf_symbol and `ragraf query symbol` render it.

package facade

import (
	"context"
	"sort"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// Symbol is one definition as indexed: where it is and what it looks like.
type Symbol struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	Name        string `json:"name"`
	QName       string `json:"qname"`
	Signature   string `json:"signature"`
	Path        string `json:"path"`
	Line        int    `json:"line"`
	EndLine     int    `json:"end_line"`
	ContainerID string `json:"container_id"`
	Container   string `json:"container"` // qualified name of the containing node
	// Stale is set when the definition's lines changed since the revision
	// (or, for an item reached through a chain, a step of its chain did).
	Stale *StaleMark `json:"stale,omitempty"`
}

// SymbolArgs finds definitions.
type SymbolArgs struct {
	Name  string `json:"name,omitempty" jsonschema:"short name, e.g. addItem or Cart (case-insensitive)"`
	QName string `json:"qname,omitempty" jsonschema:"qualified name, e.g. App\\Cart::addItem"`
	Kind  string `json:"kind,omitempty" jsonschema:"node kind: class, interface, trait, enum, function, method, property, constant, namespace, file"`
	Path  string `json:"path,omitempty" jsonschema:"only definitions in this file (relative to the project root)"`
	Fuzzy bool   `json:"fuzzy,omitempty" jsonschema:"match names containing the text instead of equal to it"`
	Page
	Output
}

// SymbolResult lists matching definitions.
type SymbolResult struct {
	Symbols []Symbol `json:"symbols"`
}

var nodeKinds = []string{"file", "namespace", "class", "interface", "trait", "enum", "function", "method", "property",
	"constant", "table", "column", "web_route", "http_endpoint", "cli_command", "cron_job", "doc", "doc_section"}

// Symbol finds definitions by name or qualified name.
func (s *Service) Symbol(ctx context.Context, args SymbolArgs) (*Envelope, error) {
	const op = "symbol"
	if (args.Name == "") == (args.QName == "") {
		return nil, badInput("pass exactly one of name and qname")
	}
	if err := checkName("name", args.Name, optional); err != nil {
		return nil, err
	}
	if err := checkName("qname", args.QName, optional); err != nil {
		return nil, err
	}
	if _, err := checkEnum("kind", args.Kind, "", nodeKinds...); err != nil {
		return nil, err
	}
	var path string
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
	limit, offset := pg.limit, pg.offset
	c, err := s.begin(ctx, op, pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	g := snap.graph
	var nodes, pageNodes []fact.Node
	var total int
	text := args.Name + args.QName
	switch {
	case args.Fuzzy:
		// filtered, counted and cut in the store: a short text matches much
		pageNodes, total, err = g.NodesLike(ctx, text, args.Kind, path, limit, offset)
	case args.QName != "":
		nodes, err = g.NodesByQName(ctx, args.QName)
	default:
		nodes, err = g.NodesByName(ctx, args.Name)
	}
	if err != nil {
		return nil, storeError(err)
	}
	if !args.Fuzzy {
		var kept []fact.Node
		for _, n := range nodes {
			if (args.Kind == "" || string(n.Kind) == args.Kind) && (path == "" || n.Path == path) {
				kept = append(kept, n)
			}
		}
		sort.SliceStable(kept, func(i, j int) bool { return symbolLess(kept[i], kept[j]) })
		pageNodes, total = pageOf(pg, kept), len(kept)
	}
	syms, err := symbols(ctx, g, pageNodes)
	if err != nil {
		return nil, err
	}
	env := c.env
	env.Result = SymbolResult{Symbols: syms}
	env.Limits = pg.limits(snap, len(syms), total)
	if total == 0 {
		notFound(env, text)
	}
	c.cite(symbolPaths(syms)...)
	return c.done(env.Result)
}

// symbolLess orders definitions: types and functions before members, then by place.
func symbolLess(a, b fact.Node) bool {
	if ra, rb := kindRank(a.Kind), kindRank(b.Kind); ra != rb {
		return ra < rb
	}
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.StartLine != b.StartLine {
		return a.StartLine < b.StartLine
	}
	return a.ID < b.ID
}

func kindRank(k fact.NodeKind) int {
	switch {
	case k.IsType():
		return 0
	case k == fact.Function:
		return 1
	case k == fact.Method:
		return 2
	case k == fact.Constant || k == fact.Property:
		return 3
	case k == fact.File:
		return 5
	}
	return 4
}

// symbols turns nodes into Symbols, naming each container.
func symbols(ctx context.Context, g *graph.Store, nodes []fact.Node) ([]Symbol, error) {
	parents := make([]string, 0, len(nodes))
	for _, n := range nodes {
		if n.Parent != "" {
			parents = append(parents, n.Parent)
		}
	}
	byID, err := g.NodesByID(ctx, parents)
	if err != nil {
		return nil, storeError(err)
	}
	out := make([]Symbol, 0, len(nodes))
	for _, n := range nodes {
		out = append(out, toSymbol(n, byID[n.Parent]))
	}
	return out, nil
}

func toSymbol(n, parent fact.Node) Symbol {
	return Symbol{ID: n.ID, Kind: string(n.Kind), Name: n.Name, QName: n.QName, Signature: n.Signature,
		Path: n.Path, Line: n.StartLine, EndLine: n.EndLine, ContainerID: n.Parent, Container: parent.QName}
}

func symbolPaths(syms []Symbol) []string {
	ps := make([]string, 0, len(syms))
	for _, s := range syms {
		ps = append(ps, s.Path)
	}
	return ps
}
