// This file defines the context operation: one call that tells an agent what
// it needs before changing a symbol (its signature, docblock, container,
// callers and callees ranked by PageRank, implementations, the impact summary,
// data-flow facts and its code), most important first, within a budget of
// cl100k_base tokens counted over the whole answer as the transports render
// it. It also holds reach, the impact summary changes.go shares: what a set
// of definitions reaches backwards, with the entry points, tables and test
// files on the way.

package facade

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/secrets"
)

// ContextArgs names the symbol and the budget.
type ContextArgs struct {
	ID           string `json:"id,omitempty" jsonschema:"node id of the definition, from an earlier answer"`
	QName        string `json:"qname,omitempty" jsonschema:"a name (addItem, Cart::addItem), qualified name or path:line instead of id"`
	Near         string `json:"near,omitempty" jsonschema:"your file: picks among same-named definitions"`
	Path         string `json:"path,omitempty" jsonschema:"a file, with line: the innermost definition around that line"`
	Line         int    `json:"line,omitempty" jsonschema:"1-based line in path (as indexed)"`
	BudgetTokens int    `json:"budget_tokens,omitempty" jsonschema:"size of the whole answer in cl100k_base tokens (300-50000, default 2000); never exceeded"`
	Output
}

// ContextDoc is the docblock of the target as indexed.
type ContextDoc struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	Text    string `json:"text"`
}

// ContextCall is one caller or callee with its first call site.
type ContextCall struct {
	ID         string     `json:"id"`
	Kind       string     `json:"kind"`
	QName      string     `json:"qname"`
	Path       string     `json:"path"`
	Line       int        `json:"line"`
	SitePath   string     `json:"site_path"`
	SiteLine   int        `json:"site_line"`
	Sites      int        `json:"sites"` // call sites between the two
	Provenance string     `json:"provenance"`
	Rank       float64    `json:"rank"` // PageRank ×1000 over the revision's reference graph
	Stale      *StaleMark `json:"stale,omitempty"`
	siteEdge   string
}

// ReachItem is one definition, entry point or table reached from a change.
type ReachItem struct {
	ID         string     `json:"id"`
	Kind       string     `json:"kind"`
	QName      string     `json:"qname"`
	Signature  string     `json:"signature,omitempty"`
	Path       string     `json:"path"`
	Line       int        `json:"line"`
	Relation   string     `json:"relation,omitempty"` // the first edge's kind
	Depth      int        `json:"depth,omitempty"`
	Provenance string     `json:"provenance,omitempty"` // stated: a chain of proven edges; derived: any other
	Stale      *StaleMark `json:"stale,omitempty"`
	chain      []Step
}

// ReachFile is one test file reached, with the first reached definition's line.
type ReachFile struct {
	Path       string     `json:"path"`
	Line       int        `json:"line"`
	Symbols    int        `json:"symbols"`
	Provenance string     `json:"provenance"`
	Stale      *StaleMark `json:"stale,omitempty"`
}

// ContextImpact summarises what a change of the target may break (as the
// impact operation at depth 3): counts of definitions reached over stated
// chains (hard) and the others (soft), and the entry points, tables and
// test files reached.
type ContextImpact struct {
	Depth       int         `json:"depth"`
	Hard        int         `json:"hard_symbols"`
	Soft        int         `json:"soft_symbols"`
	Files       int         `json:"files"`
	EntryPoints []ReachItem `json:"entry_points,omitempty"`
	Tables      []ReachItem `json:"tables,omitempty"`
	Tests       []ReachFile `json:"tests,omitempty"`
}

// ContextDataflow says whether data-flow facts are part of the answer.
type ContextDataflow struct {
	Status string `json:"status"` // available | unavailable
	Reason string `json:"reason,omitempty"`
}

// ContextCode is the target's lines as indexed, cut to the budget.
type ContextCode struct {
	Path    string     `json:"path"`
	Line    int        `json:"line"`
	EndLine int        `json:"end_line"`
	Text    string     `json:"text"`
	Stale   *StaleMark `json:"stale,omitempty"`
}

// ContextResult is the answer, its fields in order of importance. Parts cut
// to fit the budget are counted in Omitted by section (code in lines).
type ContextResult struct {
	Target          Symbol           `json:"target"`
	BudgetTokens    int              `json:"budget_tokens"`
	Tokens          int              `json:"tokens"` // of the whole answer as the CLI prints it; MCP's compact rendering fits the budget too
	Doc             *ContextDoc      `json:"doc,omitempty"`
	Container       *Symbol          `json:"container,omitempty"`
	Impact          *ContextImpact   `json:"impact,omitempty"`
	Dataflow        *ContextDataflow `json:"dataflow,omitempty"`
	Callers         []ContextCall    `json:"callers,omitempty"`
	Callees         []ContextCall    `json:"callees,omitempty"`
	Implementations []ReachItem      `json:"implementations,omitempty"`
	Members         []ReachItem      `json:"members,omitempty"`
	Code            *ContextCode     `json:"code,omitempty"`
	Omitted         map[string]int   `json:"omitted,omitempty"`
	codeLines       []string
}

// Sections of a context answer, in the order parts are given up when the
// budget is short (the last first).
const (
	secDoc = iota
	secContainer
	secImpact
	secDataflow
	secCallers
	secCallees
	secImpls
	secEntry
	secTables
	secTests
	secMembers
	secCode
	numSections
)

var sectionNames = [numSections]string{"doc", "container", "impact", "dataflow", "callers", "callees", "implementations",
	"entry_points", "tables", "tests", "members", "code_lines"}

// Caps of each list before the budget is applied; Omitted counts past them too.
const (
	ctxCallCap    = 30
	ctxListCap    = 20
	ctxMemberCap  = 50
	ctxCodeCap    = 400
	ctxFirstItems = 5  // of each list, before any code
	ctxFirstCode  = 40 // code lines before the rest of the lists
	ctxDocLines   = 40
	ctxImpactDep  = 3
)

// Context returns one symbol's context within the token budget.
func (s *Service) Context(ctx context.Context, args ContextArgs) (*Envelope, error) {
	const op = "context"
	byPlace := args.Path != "" || args.Line != 0
	if byPlace {
		if args.ID != "" || args.QName != "" {
			return nil, badInput("pass id, qname, or path with line")
		}
		if args.Path == "" || args.Line < 1 {
			return nil, badInput("path and line (1-based) go together")
		}
	} else if (args.ID == "") == (args.QName == "") {
		return nil, badInput("pass id, qname, or path with line")
	}
	target := Target{ID: args.ID, QName: args.QName, Near: args.Near}
	if !byPlace {
		if err := target.check(); err != nil {
			return nil, err
		}
	}
	var p string
	if byPlace {
		c, err := s.cleanPath("path", args.Path)
		if err != nil {
			return nil, err
		}
		p = c
	}
	budget, err := checkRange("budget_tokens", args.BudgetTokens, 2000, 300, 50000)
	if err != nil {
		return nil, err
	}
	if _, err := encoder(); err != nil {
		return nil, &Error{Code: ErrInternal, Message: "loading the cl100k_base tokenizer: " + err.Error()}
	}
	c, err := s.begin(ctx, op, pager{})
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	env := c.env
	var t Symbol
	var ok bool
	if byPlace {
		if t, ok, err = s.symbolAt(ctx, snap, p, args.Line); err == nil && !ok {
			notFoundPath(env, p)
		}
	} else {
		t, ok, err = c.target(target)
	}
	if err != nil || !ok {
		return c.fail(ContextResult{BudgetTokens: budget}, err)
	}
	full, total, err := s.contextParts(ctx, snap, t)
	if err != nil {
		return nil, err
	}
	full.BudgetTokens = budget
	env.Result = full
	if _, err := s.done(ctx, env, snap, full.paths()); err != nil {
		return nil, err
	}
	full = env.Result.(ContextResult) // with stale marks
	return s.fitContext(env, full, total, budget)
}

// contextParts gathers every part of the answer before the budget cuts it;
// total has each section's size before the caps.
func (s *Service) contextParts(ctx context.Context, snap *snapshot, t Symbol) (ContextResult, [numSections]int, error) {
	var total [numSections]int
	res := ContextResult{Target: t}
	g := snap.graph
	// docblock
	chunks, err := snap.lex.ChunksOf(ctx, t.ID)
	if err != nil {
		return res, total, storeError(err)
	}
	for _, c := range chunks {
		if c.Kind != "docblock" {
			continue
		}
		text := c.Text
		if ls := splitLines(text); len(ls) > ctxDocLines {
			text = strings.Join(ls[:ctxDocLines], "") + "…\n"
		}
		res.Doc = &ContextDoc{Path: c.Path, Line: c.StartLine, EndLine: c.EndLine, Text: text}
		total[secDoc] = 1
		break
	}
	// container
	if t.ContainerID != "" {
		if n, ok, err := g.Node(ctx, t.ContainerID); err != nil {
			return res, total, storeError(err)
		} else if ok && n.Kind != fact.File {
			cs, err := symbols(ctx, g, []fact.Node{n})
			if err != nil {
				return res, total, err
			}
			res.Container = &cs[0]
			total[secContainer] = 1
		}
	}
	rg, err := s.rankGraph(ctx, snap)
	if err != nil {
		return res, total, err
	}
	rank := rg.globalRank()
	rankOf := func(id string) float64 {
		if i, ok := rg.index[id]; ok {
			return round6(rank[i] * 1000)
		}
		return 0
	}
	// callers and callees: one entry per definition, stated before derived,
	// then by rank
	in, err := g.EdgeLinksToAny(ctx, []string{t.ID}, callKinds)
	if err != nil {
		return res, total, storeError(err)
	}
	out, err := g.EdgesFrom(ctx, t.ID, callKinds)
	if err != nil {
		return res, total, storeError(err)
	}
	if res.Callers, total[secCallers], err = s.contextCalls(ctx, snap, in, callersSide, rankOf); err != nil {
		return res, total, err
	}
	if res.Callees, total[secCallees], err = s.contextCalls(ctx, snap, out, calleesSide, rankOf); err != nil {
		return res, total, err
	}
	// implementations
	impls, err := s.closure(ctx, snap, []string{t.ID}, hierarchyKinds, hierarchyDepth, anyEdges, map[string][]fact.Edge{})
	if err != nil {
		return res, total, err
	}
	places, err := g.Places(ctx, reachedIDs(impls))
	if err != nil {
		return res, total, storeError(err)
	}
	impls = byPlace(impls, places)
	total[secImpls] = len(impls)
	if res.Implementations, err = s.reachItems(ctx, snap, hardFirst(impls[:min(len(impls), ctxListCap)], nil), implementationItems); err != nil {
		return res, total, err
	}
	// members of a type
	if fact.NodeKind(t.Kind).IsType() {
		kids, err := g.Children(ctx, t.ID)
		if err != nil {
			return res, total, storeError(err)
		}
		total[secMembers] = len(kids)
		for _, k := range kids[:min(len(kids), ctxMemberCap)] {
			res.Members = append(res.Members, ReachItem{ID: k.ID, Kind: string(k.Kind), QName: k.QName, Signature: oneLine(k.Signature), Path: k.Path, Line: k.StartLine})
		}
	}
	// impact summary
	start := []string{t.ID}
	desc, err := s.descendants(ctx, snap, t.ID)
	if err != nil {
		return res, total, err
	}
	r, err := s.reach(ctx, snap, append(start, desc...), ctxImpactDep, tableReach(!startsAtTable([]Symbol{t})))
	if err != nil {
		return res, total, err
	}
	imp := &ContextImpact{Depth: ctxImpactDep, Hard: len(r.hard), Soft: len(r.soft), Files: r.files()}
	ep, tb := r.entryPoints(), r.tables()
	total[secEntry], total[secTables] = len(ep), len(tb)
	if imp.EntryPoints, err = s.reachItems(ctx, snap, ep[:min(len(ep), ctxListCap)], reachedItems); err != nil {
		return res, total, err
	}
	if imp.Tables, err = s.reachItems(ctx, snap, tb[:min(len(tb), ctxListCap)], reachedItems); err != nil {
		return res, total, err
	}
	tests := r.tests()
	total[secTests] = len(tests)
	imp.Tests = tests[:min(len(tests), ctxListCap)]
	res.Impact = imp
	total[secImpact] = 1
	res.Dataflow = dataflowOf(snap)
	total[secDataflow] = 1
	// code as indexed, redacted as code serves it
	if err := s.checkExcluded(t.Path); err == nil && t.Line > 0 {
		content, ok, err := g.Snapshot(ctx, t.Path)
		if err != nil {
			return res, total, storeError(err)
		}
		if ok {
			content, _ = secrets.Redact(content)
			lines := splitLines(string(content))
			end := min(t.EndLine, len(lines))
			if t.Line <= end {
				total[secCode] = end - t.Line + 1
				res.codeLines = lines[t.Line-1 : min(end, t.Line-1+ctxCodeCap)]
				res.Code = &ContextCode{Path: t.Path, Line: t.Line, EndLine: t.Line + len(res.codeLines) - 1, Text: strings.Join(res.codeLines, "")}
			}
		}
	}
	return res, total, nil
}

// dataflowOf reads the data-flow capability of the revision.
func dataflowOf(snap *snapshot) *ContextDataflow {
	c := snap.info.Capability
	if c.Dataflow {
		return &ContextDataflow{Status: "available"}
	}
	reason := "the revision holds no data-flow facts"
	for _, part := range strings.Split(c.Reason, "; ") {
		if strings.Contains(strings.ToLower(part), "data-flow") || strings.Contains(strings.ToLower(part), "dataflow") {
			reason = part
			break
		}
	}
	return &ContextDataflow{Status: "unavailable", Reason: reason}
}

// callSide is which end of a call edge contextCalls groups by.
type callSide bool

const (
	callersSide callSide = false // the edge's From
	calleesSide callSide = true  // the edge's To
)

// contextCalls groups call edges by the other end (callers: From; callees:
// To), keeps the first site of each, and orders stated before derived, then
// by rank, then by place.
func (s *Service) contextCalls(ctx context.Context, snap *snapshot, edges []fact.Edge, side callSide, rankOf func(string) float64) ([]ContextCall, int, error) {
	other := func(e fact.Edge) string {
		if side == calleesSide {
			return e.To
		}
		return e.From
	}
	by := map[string]*ContextCall{}
	var ids []string
	for _, e := range edges {
		id := other(e)
		c := by[id]
		if c == nil {
			c = &ContextCall{ID: id, SitePath: e.EvidencePath, SiteLine: e.EvidenceLine, Provenance: string(e.Provenance),
				siteEdge: e.ID}
			by[id] = c
			ids = append(ids, id)
		}
		c.Sites++
		if e.Provenance == fact.Stated && c.Provenance != string(fact.Stated) {
			c.Provenance, c.SitePath, c.SiteLine, c.siteEdge = string(e.Provenance), e.EvidencePath, e.EvidenceLine, e.ID
		}
	}
	nodes, err := snap.graph.NodesByID(ctx, ids)
	if err != nil {
		return nil, 0, storeError(err)
	}
	out := make([]ContextCall, 0, len(ids))
	for _, id := range ids {
		n, ok := nodes[id]
		if !ok {
			continue
		}
		c := by[id]
		c.Kind, c.QName, c.Path, c.Line, c.Rank = string(n.Kind), n.QName, n.Path, n.StartLine, rankOf(id)
		out = append(out, *c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Provenance == string(fact.Stated)) != (b.Provenance == string(fact.Stated)) {
			return a.Provenance == string(fact.Stated)
		}
		if a.Rank != b.Rank {
			return a.Rank > b.Rank
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.ID < b.ID
	})
	return out[:min(len(out), ctxCallCap)], len(out), nil
}

// globalRank is PageRank over the whole rank graph (no focus), computed once
// per revision.
func (g *rankGraph) globalRank() []float64 {
	g.globalOnce.Do(func() {
		n := len(g.nodes)
		personal := make([]float64, n)
		for i := range personal {
			personal[i] = 1 / float64(max(n, 1))
		}
		g.global = g.pagerank(personal)
	})
	return g.global
}

// paths are the files the answer cites.
func (r ContextResult) paths() []string {
	ps := []string{r.Target.Path}
	if r.Doc != nil {
		ps = append(ps, r.Doc.Path)
	}
	if r.Container != nil {
		ps = append(ps, r.Container.Path)
	}
	for _, l := range [][]ContextCall{r.Callers, r.Callees} {
		for _, c := range l {
			ps = append(ps, c.Path, c.SitePath)
		}
	}
	items := slices.Concat(r.Implementations, r.Members)
	if r.Impact != nil {
		items = slices.Concat(items, r.Impact.EntryPoints, r.Impact.Tables)
		for _, f := range r.Impact.Tests {
			ps = append(ps, f.Path)
		}
	}
	for _, it := range items {
		if !strings.HasPrefix(it.Path, "db:") {
			ps = append(ps, it.Path)
		}
		for _, st := range it.chain {
			ps = append(ps, st.Path)
		}
	}
	if r.Code != nil {
		ps = append(ps, r.Code.Path)
	}
	return ps
}

// mark sets the stale marks of every fact in the answer.
func (r ContextResult) mark(v *StaleView) ContextResult {
	markSymbol(&r.Target, v)
	if r.Container != nil {
		markSymbol(r.Container, v)
	}
	for _, l := range [][]ContextCall{r.Callers, r.Callees} {
		for i := range l {
			c := &l[i]
			c.Stale = v.Chain(StaleStep{Path: c.Path, Start: c.Line}, StaleStep{Path: c.SitePath, Start: c.SiteLine, Edge: c.siteEdge})
		}
	}
	lists := [][]ReachItem{r.Implementations, r.Members}
	if r.Impact != nil {
		lists = append(lists, r.Impact.EntryPoints, r.Impact.Tables)
		for i := range r.Impact.Tests {
			f := &r.Impact.Tests[i]
			f.Stale = v.At(f.Path, f.Line, f.Line)
		}
	}
	for _, l := range lists {
		for i := range l {
			it := &l[i]
			it.Stale = v.Chain(chainSteps(Symbol{Path: it.Path, Line: it.Line}, it.chain)...)
		}
	}
	if r.Code != nil {
		r.Code.Stale = v.At(r.Code.Path, r.Code.Line, r.Code.EndLine)
	}
	return r
}

// contextOrder is the order parts enter the answer: the facts about the
// target itself, the first few of each list, the first lines of code, the
// rest of the lists, the rest of the code.
func contextOrder(full ContextResult, total [numSections]int) []int {
	var seq []int
	add := func(sec, n int) {
		for range n {
			seq = append(seq, sec)
		}
	}
	n := [numSections]int{}
	if full.Doc != nil {
		n[secDoc] = 1
	}
	if full.Container != nil {
		n[secContainer] = 1
	}
	if full.Impact != nil {
		n[secImpact] = 1
		n[secEntry], n[secTables], n[secTests] = len(full.Impact.EntryPoints), len(full.Impact.Tables), len(full.Impact.Tests)
	}
	if full.Dataflow != nil {
		n[secDataflow] = 1
	}
	n[secCallers], n[secCallees], n[secImpls], n[secMembers] = len(full.Callers), len(full.Callees), len(full.Implementations), len(full.Members)
	n[secCode] = len(full.codeLines)
	for _, sec := range []int{secDoc, secContainer, secImpact, secDataflow} {
		add(sec, n[sec])
	}
	lists := []int{secCallers, secCallees, secImpls, secEntry, secTables, secTests}
	for _, sec := range lists {
		add(sec, min(n[sec], ctxFirstItems))
	}
	add(secCode, min(n[secCode], ctxFirstCode))
	for _, sec := range append(lists, secMembers) {
		add(sec, n[sec]-min(n[sec], ctxFirstItems*boolInt(sec != secMembers)))
	}
	add(secCode, n[secCode]-min(n[secCode], ctxFirstCode))
	return seq
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// cut returns the answer with the parts in seq and Omitted counting the rest
// against total.
func (r ContextResult) cut(seq []int, total [numSections]int) ContextResult {
	var k [numSections]int
	for _, sec := range seq {
		k[sec]++
	}
	out := ContextResult{Target: r.Target, BudgetTokens: r.BudgetTokens, Tokens: r.Tokens}
	if k[secDoc] > 0 {
		out.Doc = r.Doc
	}
	if k[secContainer] > 0 {
		out.Container = r.Container
	}
	if k[secImpact] > 0 {
		imp := *r.Impact
		imp.EntryPoints, imp.Tables, imp.Tests = nilIfEmpty(imp.EntryPoints[:k[secEntry]]), nilIfEmpty(imp.Tables[:k[secTables]]), nilIfEmpty(imp.Tests[:k[secTests]])
		out.Impact = &imp
	}
	if k[secDataflow] > 0 {
		out.Dataflow = r.Dataflow
	}
	out.Callers, out.Callees = nilIfEmpty(r.Callers[:k[secCallers]]), nilIfEmpty(r.Callees[:k[secCallees]])
	out.Implementations, out.Members = nilIfEmpty(r.Implementations[:k[secImpls]]), nilIfEmpty(r.Members[:k[secMembers]])
	if k[secCode] > 0 {
		c := *r.Code
		c.EndLine = c.Line + k[secCode] - 1
		c.Text = strings.Join(r.codeLines[:k[secCode]], "")
		out.Code = &c
	}
	for sec := range numSections {
		if left := total[sec] - k[sec]; left > 0 {
			if out.Omitted == nil {
				out.Omitted = map[string]int{}
			}
			out.Omitted[sectionNames[sec]] = left
		}
	}
	return out
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}
