// This file builds the graph views from facade answers: a symbol's call
// neighbourhood (callers at depth up to 3, callees walked as far), a type's
// hierarchy (supertypes and implementations), an entry point's path to its
// handlers and the tables their code touches, and the database schema with
// the code that touches each table. The pages draw the same data and list it.

package ui

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/facade"
)

// maxNodes bounds a graph: past it the view says it is cut and the list
// beside it still has every item the facade returned.
const maxNodes = 1000

// builder collects nodes and edges without duplicates.
type builder struct {
	g     Graph
	index map[string]int
	edges map[string]bool
}

func newBuilder(title string) *builder {
	return &builder{g: Graph{Title: title, Nodes: []GNode{}, Edges: []GEdge{}}, index: map[string]int{}, edges: map[string]bool{}}
}

func symURL(qname, id string) string {
	if qname == "" {
		return "/symbol?id=" + url.QueryEscape(id)
	}
	return "/symbol?name=" + url.QueryEscape(qname)
}

func fileURL(p string, line int) string {
	u := "/file?path=" + url.QueryEscape(p)
	if line > 0 {
		u += "#L" + strconv.Itoa(line)
	}
	return u
}

// node adds a node unless it is there or the graph is full; it reports
// whether the node is in the graph.
func (b *builder) node(id, kind, qname, p string, line, level int, stale bool) bool {
	if _, ok := b.index[id]; ok {
		return true
	}
	if len(b.g.Nodes) >= maxNodes {
		b.g.Truncated = true
		return false
	}
	lbl := label(qname)
	if lbl == "" {
		lbl = id
	}
	u := symURL(qname, id)
	if kind == "table" || kind == "web_route" || kind == "http_endpoint" || kind == "cli_command" || kind == "cron_job" {
		u = fileURL(p, line)
	}
	b.index[id] = len(b.g.Nodes)
	b.g.Nodes = append(b.g.Nodes, GNode{ID: id, Label: lbl, QName: qname, Kind: kind, Cluster: cluster(qname, p),
		Path: p, Line: line, Level: level, URL: u, Stale: stale})
	return true
}

func (b *builder) sym(s facade.Symbol, level int) bool {
	return b.node(s.ID, s.Kind, s.QName, s.Path, s.Line, level, s.Stale != nil)
}

func (b *builder) edge(from, to, kind, prov string) {
	_, okf := b.index[from]
	_, okt := b.index[to]
	key := from + "\x00" + to + "\x00" + kind
	if !okf || !okt || b.edges[key] {
		return
	}
	b.edges[key] = true
	b.g.Edges = append(b.g.Edges, GEdge{Source: from, Target: to, Kind: kind, Provenance: prov})
}

func (b *builder) done() *Graph {
	layout(&b.g)
	return &b.g
}

// grouped groups the graph's nodes past groupAt (group.go), then lays it out.
func (b *builder) grouped(r *http.Request) *Graph {
	group(&b.g, openArg(r), *r.URL)
	return b.done()
}

// depthArg reads depth= between 1 and 3 (default def).
func depthArg(r *http.Request, def int) (int, error) {
	v := r.URL.Query().Get("depth")
	if v == "" {
		return def, nil
	}
	d, err := strconv.Atoi(v)
	if err != nil || d < 1 || d > 3 {
		return 0, &facade.Error{Code: facade.ErrBadInput, Message: "depth must be 1, 2 or 3"}
	}
	return d, nil
}

// one resolves the page's target to one definition.
func (s *Server) one(r *http.Request) (facade.Symbol, error) {
	_, syms, _, err := s.target(r)
	if err != nil {
		return facade.Symbol{}, err
	}
	if len(syms) == 0 {
		return facade.Symbol{}, &facade.Error{Code: facade.ErrUnknownID, Message: "no definition named " + strconv.Quote(r.URL.Query().Get("name")+r.URL.Query().Get("id"))}
	}
	return syms[0], nil
}

// callsGraph is the call neighbourhood of name= (or id=) to depth=.
func (s *Server) callsGraph(r *http.Request) (*Graph, error) {
	depth, err := depthArg(r, 1)
	if err != nil {
		return nil, err
	}
	t, err := s.one(r)
	if err != nil {
		return nil, err
	}
	return s.calls(r, t, depth)
}

func (s *Server) calls(r *http.Request, t facade.Symbol, depth int) (*Graph, error) {
	ctx := r.Context()
	b := newBuilder("Calls of " + t.QName)
	b.g.Center = t.ID
	b.sym(t, 0)
	env, callers, err := call[facade.CallsResult](ctx, s, "callers", facade.CallersArgs{Target: facade.Target{ID: t.ID}, Depth: depth, Page: facade.Page{Limit: listLimit}})
	if err != nil {
		return nil, err
	}
	if env.Limits.Truncated {
		b.g.Truncated = true
	}
	all := slices.Concat(callers.Stated, callers.Derived)
	slices.SortStableFunc(all, func(a, c facade.Call) int { return a.Depth - c.Depth })
	for _, c := range all {
		b.sym(c.Symbol, -c.Depth)
	}
	for _, c := range all {
		if len(c.Chain) == 0 {
			b.edge(c.ID, t.ID, c.Kind, c.Provenance)
			continue
		}
		for _, st := range c.Chain {
			b.edge(st.From, st.To, st.Kind, st.Provenance)
		}
	}
	// callees, level by level
	frontier := []facade.Symbol{t}
	for level := 1; level <= depth && len(frontier) > 0; level++ {
		var callable []facade.Symbol
		for _, f := range frontier {
			if isCallable(f.Kind) || f.Kind == "file" {
				callable = append(callable, f)
			}
		}
		if frontier, err = b.callees(ctx, s, callable, level, 200); err != nil {
			return nil, err
		}
	}
	return b.grouped(r), nil
}

// callees adds the callees of every symbol of frontier at level (at most
// limit each) and returns those not in the graph before, the next frontier.
func (b *builder) callees(ctx context.Context, s *Server, frontier []facade.Symbol, level, limit int) ([]facade.Symbol, error) {
	var next []facade.Symbol
	for _, f := range frontier {
		_, callees, err := call[facade.CallsResult](ctx, s, "callees", facade.CalleesArgs{Target: facade.Target{ID: f.ID}, Page: facade.Page{Limit: limit}})
		if err != nil {
			return nil, err
		}
		for _, c := range slices.Concat(callees.Stated, callees.Derived) {
			_, seen := b.index[c.ID]
			if !b.sym(c.Symbol, level) {
				break
			}
			b.edge(f.ID, c.ID, c.Kind, c.Provenance)
			if !seen {
				next = append(next, c.Symbol)
			}
		}
	}
	return next, nil
}

// hierarchyGraph is what name= derives from (left) and what derives from it (right).
func (s *Server) hierarchyGraph(r *http.Request) (*Graph, error) {
	t, err := s.one(r)
	if err != nil {
		return nil, err
	}
	ctx := r.Context()
	b := newBuilder("Hierarchy of " + t.QName)
	b.g.Center = t.ID
	b.sym(t, 0)
	env, err := s.svc.Supertypes(ctx, facade.SupertypesArgs{ID: t.ID})
	if err != nil {
		return nil, err
	}
	sup, _ := env.Result.(facade.SupertypesResult)
	for _, im := range sup.Supertypes {
		b.sym(im.Symbol, -im.Depth)
	}
	for _, im := range sup.Supertypes {
		for _, st := range im.Chain {
			b.edge(st.From, st.To, st.Kind, st.Provenance)
		}
	}
	env, impls, err := call[facade.ImplementationsResult](ctx, s, "implementations", facade.ImplementationsArgs{Target: facade.Target{ID: t.ID}, Page: facade.Page{Limit: listLimit}})
	if err != nil {
		return nil, err
	}
	b.g.Truncated = b.g.Truncated || env.Limits.Truncated
	for _, im := range impls.Implementations {
		b.sym(im.Symbol, im.Depth)
	}
	for _, im := range impls.Implementations {
		for _, st := range im.Chain {
			b.edge(st.From, st.To, st.Kind, st.Provenance)
		}
	}
	return b.grouped(r), nil
}

// tableMap returns, for the current revision, the tables each definition
// touches (from schema and table_usage), computed once per revision.
func (s *Server) tableMap(ctx context.Context) (map[string][]facade.TableUse, error) {
	env, sch, err := call[facade.SchemaResult](ctx, s, "schema", facade.SchemaArgs{Page: facade.Page{Limit: listLimit}})
	if err != nil {
		return nil, err
	}
	s.tablesMu.Lock()
	if m, ok := s.tables[env.IndexRev]; ok {
		s.tablesMu.Unlock()
		return m, nil
	}
	s.tablesMu.Unlock()
	m := map[string][]facade.TableUse{}
	seen := map[string]bool{}
	for _, t := range sch.Tables {
		if seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		_, tu, err := call[facade.TableUsageResult](ctx, s, "table_usage", facade.TableUsageArgs{Table: t.Name, Limit: 1000})
		if err != nil {
			return nil, err
		}
		for _, u := range tu.Uses {
			m[u.FromID] = append(m[u.FromID], u)
		}
	}
	s.tablesMu.Lock()
	s.tables = map[string]map[string][]facade.TableUse{env.IndexRev: m}
	s.tablesMu.Unlock()
	return m, nil
}

// entryGraph is an entry point (id=, path= its file), its handlers, what
// they call to depth 2, and the tables that code touches.
func (s *Server) entryGraph(r *http.Request) (*Graph, error) {
	q := r.URL.Query()
	id := q.Get("id")
	if id == "" {
		return nil, &facade.Error{Code: facade.ErrBadInput, Message: "id= of an entry point is required (see /entries)"}
	}
	ctx := r.Context()
	_, eps, err := call[facade.EntryPointsResult](ctx, s, "entry_points", facade.EntryPointsArgs{Path: q.Get("path"), Limit: 1000})
	if err != nil {
		return nil, err
	}
	var ep *facade.EntryPoint
	for i := range eps.EntryPoints {
		if eps.EntryPoints[i].ID == id {
			ep = &eps.EntryPoints[i]
		}
	}
	if ep == nil {
		return nil, &facade.Error{Code: facade.ErrUnknownID, Message: "no entry point " + strconv.Quote(id) + " in " + strconv.Quote(q.Get("path"))}
	}
	tables, err := s.tableMap(ctx)
	if err != nil {
		return nil, err
	}
	b := newBuilder("Entry point " + ep.Name)
	b.g.Center = ep.ID
	b.node(ep.ID, ep.Kind, ep.Kind+" "+ep.Name, ep.Path, ep.Line, 0, false)
	var frontier []facade.Symbol
	for _, h := range ep.Handlers {
		if b.node(h.ID, h.Kind, h.QName, h.Path, h.Line, 1, false) {
			b.edge(ep.ID, h.ID, "handles", h.Provenance)
			frontier = append(frontier, facade.Symbol{ID: h.ID, Kind: h.Kind, QName: h.QName, Path: h.Path, Line: h.Line})
		}
	}
	reached := slices.Clone(frontier)
	for level := 2; level <= 3 && len(frontier) > 0; level++ {
		next, err := b.callees(ctx, s, frontier, level, 100)
		if err != nil {
			return nil, err
		}
		reached = append(reached, next...)
		frontier = next
	}
	for _, f := range reached {
		for _, u := range tables[f.ID] {
			tid := "table:" + u.Table
			if b.node(tid, "table", u.Table, u.Path, u.Line, 4, false) {
				b.edge(f.ID, tid, u.Edge, u.Provenance)
			}
		}
	}
	if len(ep.Handlers) == 0 {
		b.g.Note = "no handler resolved: " + ep.Props["handler"]
	}
	return b.grouped(r), nil
}

// schemaGraph is the tables (right) with their foreign keys and the code
// that touches them (left), a few definitions per table.
func (s *Server) schemaGraph(r *http.Request) (*Graph, error) {
	g, _, err := s.schema(r.Context())
	return g, err
}

// perTable is how many definitions the schema graph draws per table; the
// list beside it has them all.
const perTable = 8

type tableRow struct {
	Table facade.SchemaTable
	Uses  []facade.TableUse
}

func (s *Server) schema(ctx context.Context) (*Graph, []tableRow, error) {
	_, sch, err := call[facade.SchemaResult](ctx, s, "schema", facade.SchemaArgs{Page: facade.Page{Limit: listLimit}})
	if err != nil {
		return nil, nil, err
	}
	tables, err := s.tableMap(ctx)
	if err != nil {
		return nil, nil, err
	}
	byTable := map[string][]facade.TableUse{}
	for _, us := range tables {
		for _, u := range us {
			byTable[u.Table] = append(byTable[u.Table], u)
		}
	}
	b := newBuilder("Database schema")
	var rows []tableRow
	names := map[string]string{} // name -> node id
	for _, t := range sch.Tables {
		if _, ok := names[t.Name]; ok {
			continue
		}
		names[t.Name] = "table:" + t.Name
		b.node("table:"+t.Name, "table", t.Name, t.Path, t.Line, 1, false)
		b.g.Nodes[b.index["table:"+t.Name]].Cluster = path.Dir(t.Path)
		uses := byTable[t.Name]
		slices.SortFunc(uses, func(a, c facade.TableUse) int { return strings.Compare(a.FromQName, c.FromQName) })
		rows = append(rows, tableRow{Table: t, Uses: uses})
	}
	for _, t := range sch.Tables {
		for _, fk := range t.ForeignKeys {
			if to, ok := names[fk.Table]; ok {
				b.edge("table:"+t.Name, to, "foreign_key", "stated")
			}
		}
	}
	for _, row := range rows {
		n := 0
		for _, u := range row.Uses {
			if n >= perTable {
				break
			}
			if _, ok := b.index[u.FromID]; !ok {
				n++
			}
			if b.node(u.FromID, u.FromKind, u.FromQName, u.Path, u.Line, 0, false) {
				b.edge(u.FromID, "table:"+row.Table.Name, u.Edge, u.Provenance)
			}
		}
	}
	if len(sch.Tables) == 0 {
		b.g.Note = "the index holds no table definitions"
	}
	return b.done(), rows, nil
}

// graphPage is a graph view: the graph (drawn by the script from Data),
// the expansion API, the controls, and the list.
type graphPage struct {
	Graph   *Graph
	Data    string // the graph as JSON, for the script
	API     string // the API that expands a node ("" when nodes do not expand)
	View    string // calls | hierarchy | entry | schema
	Name    string
	ID      string
	Depth   int
	Tables  []tableRow
	Symbols []GNode // the list view: every node but the cluster boxes and groups
	Groups  []GNode // the group nodes drawn in place of their members
}

func newGraphPage(g *Graph, view, api string) graphPage {
	p := graphPage{Graph: g, View: view, API: api, Data: mustJSON(g)}
	for _, n := range g.Nodes {
		switch {
		case n.Kind == "group" && n.Group == "":
			p.Groups = append(p.Groups, n)
		case !n.IsBox:
			p.Symbols = append(p.Symbols, n)
		}
	}
	slices.SortFunc(p.Groups, func(a, b GNode) int { return cmp.Or(a.Level-b.Level, strings.Compare(a.QName, b.QName)) })
	slices.SortStableFunc(p.Symbols, func(a, b GNode) int { return a.Level - b.Level })
	return p
}

func (s *Server) callsPage(r *http.Request) (any, error) {
	g, err := s.callsGraph(r)
	if err != nil {
		return nil, err
	}
	p := newGraphPage(g, "calls", "/api/graph/calls")
	p.Name, p.ID = r.URL.Query().Get("name"), r.URL.Query().Get("id")
	p.Depth, _ = depthArg(r, 1)
	return p, nil
}

func (s *Server) hierarchyPage(r *http.Request) (any, error) {
	g, err := s.hierarchyGraph(r)
	if err != nil {
		return nil, err
	}
	p := newGraphPage(g, "hierarchy", "")
	p.Name = r.URL.Query().Get("name")
	return p, nil
}

func (s *Server) entryPage(r *http.Request) (any, error) {
	g, err := s.entryGraph(r)
	if err != nil {
		return nil, err
	}
	return newGraphPage(g, "entry", ""), nil
}

func (s *Server) schemaPage(r *http.Request) (any, error) {
	g, rows, err := s.schema(r.Context())
	if err != nil {
		return nil, err
	}
	p := newGraphPage(g, "schema", "")
	p.Tables = rows
	return p, nil
}

func mustJSON(v any) string {
	b, err := jsonMarshal(v)
	if err != nil {
		return fmt.Sprintf(`{"error":%q}`, err.Error())
	}
	return string(b)
}
