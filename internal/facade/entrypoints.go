// This file defines the entry_points operation: web routes, HTTP endpoints,
// CLI commands and cron jobs with their handler symbols (lang/php routes.go
// finds them, resolve/domain.go links the handlers).

package facade

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// EntryPointsArgs filters the entry points.
type EntryPointsArgs struct {
	Kind   string `json:"kind,omitempty" jsonschema:"web_route, http_endpoint, cli_command, cron_job or event_listener; empty for all"`
	Path   string `json:"path,omitempty" jsonschema:"only those declared in this file or directory"`
	Limit  int    `json:"limit,omitempty" jsonschema:"page size (default 200, max 1000)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"limits.cursor of the last answer"`
	Output
}

// EntryPoint is one route, endpoint, command or job.
type EntryPoint struct {
	ID      string            `json:"id"`
	Kind    string            `json:"kind"`
	Name    string            `json:"name"`
	Path    string            `json:"path"`
	Line    int               `json:"line"`
	EndLine int               `json:"end_line"`
	Props   map[string]string `json:"props"`
	// Handlers are the symbols that handle it; empty when the handler is a
	// closure or could not be resolved (props.handler keeps the expression).
	Handlers []Handler `json:"handlers"`
}

// Handler is one handles edge with its target.
type Handler struct {
	ID         string  `json:"id"`
	Kind       string  `json:"kind"`
	QName      string  `json:"qname"`
	Path       string  `json:"path"`
	Line       int     `json:"line"`
	Provenance string  `json:"provenance"`
	Confidence float64 `json:"confidence"`
	Via        string  `json:"via,omitempty"`
	// Role is "permission" for a WordPress REST permission callback, empty for the handler itself
	Role string `json:"role,omitempty"`
}

// EntryPointsResult lists one page of entry points in path and line order;
// each carries all its handlers.
type EntryPointsResult struct {
	EntryPoints []EntryPoint `json:"entry_points"`
}

var entryKinds = []fact.NodeKind{fact.WebRoute, fact.HTTPEndpoint, fact.CLICommand, fact.CronJob, fact.EventListener}

// EntryPoints lists the project's entry points.
func (s *Service) EntryPoints(ctx context.Context, args EntryPointsArgs) (*Envelope, error) {
	const op = "entry_points"
	kinds := entryKinds
	if args.Kind != "" {
		kinds = nil
		for _, k := range entryKinds {
			if string(k) == args.Kind {
				kinds = []fact.NodeKind{k}
			}
		}
		if kinds == nil {
			return nil, badInput("kind %q: want web_route, http_endpoint, cli_command, cron_job or event_listener", args.Kind)
		}
	}
	prefix := ""
	if args.Path != "" {
		p, err := s.cleanPath("path", args.Path)
		if err != nil {
			return nil, err
		}
		prefix = p
	}
	pg, err := paging(op, args.Limit, args.Cursor, 200, 1000, args)
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
	all, err := s.allEntryPoints(ctx, snap)
	if err != nil {
		return nil, err
	}
	var sel []EntryPoint
	for _, e := range all {
		if !slices.Contains(kinds, fact.NodeKind(e.Kind)) {
			continue
		}
		if prefix == "" || e.Path == prefix || strings.HasPrefix(e.Path, strings.TrimSuffix(prefix, "/")+"/") {
			sel = append(sel, e)
		}
	}
	total := len(sel)
	sel = pageOf(pg, sel)
	res := EntryPointsResult{EntryPoints: append([]EntryPoint{}, sel...)}
	paths := []string{}
	for _, e := range sel {
		paths = append(paths, e.Path)
		for _, h := range e.Handlers {
			paths = append(paths, h.Path)
		}
	}
	env.Result = res
	env.Limits = pg.limits(snap, len(res.EntryPoints), total)
	if total == 0 {
		env.NotFound = true
		env.Suggest = append(env.Suggest, Suggestion{Op: "search", Args: map[string]any{"query": "route"}, Why: "lexical search for routing code"})
	}
	c.cite(paths...)
	return c.done(env.Result)
}

// allEntryPoints is every entry point of the revision with its handlers, in
// path and line order, computed once per revision (the handlers are an edge
// read each): callers must not modify it.
func (s *Service) allEntryPoints(ctx context.Context, snap *snapshot) ([]EntryPoint, error) {
	return cached(ctx, snap, "entry_points", func(ctx context.Context) ([]EntryPoint, error) {
		nodes, err := snap.graph.AllNodes(ctx, entryKinds...)
		if err != nil {
			return nil, storeError(err)
		}
		sort.Slice(nodes, func(i, j int) bool {
			a, b := nodes[i], nodes[j]
			if a.Path != b.Path {
				return a.Path < b.Path
			}
			if a.StartLine != b.StartLine {
				return a.StartLine < b.StartLine
			}
			return a.ID < b.ID
		})
		out := make([]EntryPoint, 0, len(nodes))
		for _, n := range nodes {
			hs, err := s.handlers(ctx, snap, n.ID)
			if err != nil {
				return nil, err
			}
			props := n.Props
			if props == nil {
				props = map[string]string{}
			}
			out = append(out, EntryPoint{ID: n.ID, Kind: string(n.Kind), Name: n.Name, Path: n.Path,
				Line: n.StartLine, EndLine: n.EndLine, Props: props, Handlers: hs})
		}
		return out, nil
	})
}

// handlers loads the handles edges of an entry point and their targets.
func (s *Service) handlers(ctx context.Context, snap *snapshot, id string) ([]Handler, error) {
	es, err := snap.graph.EdgesFrom(ctx, id, []fact.EdgeKind{fact.Handles})
	if err != nil {
		return nil, storeError(err)
	}
	out := []Handler{}
	if len(es) == 0 {
		return out, nil
	}
	ids := make([]string, 0, len(es))
	for _, e := range es {
		ids = append(ids, e.To)
	}
	byID, err := snap.graph.NodesByID(ctx, ids)
	if err != nil {
		return nil, storeError(err)
	}
	for _, e := range es {
		t, ok := byID[e.To]
		if !ok {
			continue
		}
		out = append(out, Handler{ID: t.ID, Kind: string(t.Kind), QName: t.QName, Path: t.Path, Line: t.StartLine,
			Provenance: string(e.Provenance), Confidence: e.Confidence, Via: e.Props["via"], Role: e.Props["role"]})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].QName < out[j].QName || out[i].QName == out[j].QName && out[i].ID < out[j].ID
	})
	return out, nil
}
