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
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/secrets"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// ContextArgs names the symbol and the budget.
type ContextArgs struct {
	ID           string `json:"id,omitempty" jsonschema:"node id of the definition, from an earlier answer"`
	QName        string `json:"qname,omitempty" jsonschema:"qualified name instead of id, e.g. App\\Cart::addItem"`
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
	if err := checkID("id", args.ID); err != nil {
		return nil, err
	}
	if err := checkName("qname", args.QName, false); err != nil {
		return nil, err
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
	snap, release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	env := s.envelope(op, snap)
	var t Symbol
	var ok bool
	if byPlace {
		t, ok, err = s.symbolAt(ctx, snap, p, args.Line)
	} else {
		t, ok, err = s.target(ctx, snap, args.ID, args.QName)
	}
	if err != nil {
		return nil, err
	}
	if !ok {
		env.Result = ContextResult{BudgetTokens: budget}
		if byPlace {
			notFoundPath(env, p)
		} else {
			notFound(env, args.QName)
		}
		return s.done(ctx, env, snap, nil)
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
	if res.Callers, total[secCallers], err = s.contextCalls(ctx, snap, in, false, rankOf); err != nil {
		return res, total, err
	}
	if res.Callees, total[secCallees], err = s.contextCalls(ctx, snap, out, true, rankOf); err != nil {
		return res, total, err
	}
	// implementations
	impls, err := s.closure(ctx, snap, []string{t.ID}, hierarchyKinds, hierarchyDepth, false, map[string][]fact.Edge{})
	if err != nil {
		return res, total, err
	}
	places, err := g.Places(ctx, reachedIDs(impls))
	if err != nil {
		return res, total, storeError(err)
	}
	impls = byPlace(impls, places)
	total[secImpls] = len(impls)
	if res.Implementations, err = s.reachItems(ctx, snap, hardFirst(impls[:min(len(impls), ctxListCap)], nil), true); err != nil {
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
	r, err := s.reach(ctx, snap, append(start, desc...), ctxImpactDep, !startsAtTable([]Symbol{t}))
	if err != nil {
		return res, total, err
	}
	imp := &ContextImpact{Depth: ctxImpactDep, Hard: len(r.hard), Soft: len(r.soft), Files: r.files()}
	ep, tb := r.entryPoints(), r.tables()
	total[secEntry], total[secTables] = len(ep), len(tb)
	if imp.EntryPoints, err = s.reachItems(ctx, snap, ep[:min(len(ep), ctxListCap)], false); err != nil {
		return res, total, err
	}
	if imp.Tables, err = s.reachItems(ctx, snap, tb[:min(len(tb), ctxListCap)], false); err != nil {
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

// contextCalls groups call edges by the other end (callers: From; callees:
// To), keeps the first site of each, and orders stated before derived, then
// by rank, then by place.
func (s *Service) contextCalls(ctx context.Context, snap *snapshot, edges []fact.Edge, forward bool, rankOf func(string) float64) ([]ContextCall, int, error) {
	other := func(e fact.Edge) string {
		if forward {
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

// reachResult is what a set of changed definitions reaches backwards, each
// list ordered by depth and place.
type reachResult struct {
	hard, soft   []reached // definitions
	hardT, softT []reached // tables
	hardE, softE []reached // entry points
	places       map[string]graph.Place
}

// reach walks impact's edges back from start up to depth, then attaches the
// tables the code touches (unless tables is false: a change to a table does
// not reach the other tables its users touch) and the entry points that
// handle any of it, as the impact operation does.
func (s *Service) reach(ctx context.Context, snap *snapshot, start []string, depth int, tables bool) (*reachResult, error) {
	r := &reachResult{}
	if len(start) == 0 {
		r.places = map[string]graph.Place{}
		return r, nil
	}
	var err error
	if r.hard, r.soft, err = s.hardSoft(ctx, snap, start, impactKinds, depth, true); err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	for _, id := range start {
		skip[id] = true
	}
	from := origins(start, r.hard, r.soft)
	if tables {
		if r.hardT, r.softT, err = s.attach(ctx, snap, from, tableKinds, true, false, skip); err != nil {
			return nil, err
		}
	}
	if r.hardE, r.softE, err = s.attach(ctx, snap, from, handlesKinds, false, true, skip); err != nil {
		return nil, err
	}
	all := slices.Concat(r.hard, r.soft, r.hardT, r.softT, r.hardE, r.softE)
	if r.places, err = snap.graph.Places(ctx, reachedIDs(all)); err != nil {
		return nil, storeError(err)
	}
	r.hard, r.soft = byPlace(r.hard, r.places), byPlace(r.soft, r.places)
	r.hardT, r.softT = byPlace(r.hardT, r.places), byPlace(r.softT, r.places)
	r.hardE, r.softE = byPlace(r.hardE, r.places), byPlace(r.softE, r.places)
	return r, nil
}

// hardFirst is the hard list then the soft one, each reached item marked.
func hardFirst(hard, soft []reached) []reachedAs {
	out := make([]reachedAs, 0, len(hard)+len(soft))
	for _, r := range hard {
		out = append(out, reachedAs{r, true})
	}
	for _, r := range soft {
		out = append(out, reachedAs{r, false})
	}
	return out
}

type reachedAs struct {
	reached
	hard bool
}

func (r *reachResult) entryPoints() []reachedAs { return hardFirst(r.hardE, r.softE) }
func (r *reachResult) tables() []reachedAs      { return hardFirst(r.hardT, r.softT) }

// files counts the files of the definitions reached.
func (r *reachResult) files() int {
	seen := map[string]bool{}
	for _, x := range slices.Concat(r.hard, r.soft) {
		seen[r.places[x.id].Path] = true
	}
	return len(seen)
}

// tests groups the reached definitions that live in test files by file:
// files reached over stated chains first, then by path.
func (r *reachResult) tests() []ReachFile {
	by := map[string]*ReachFile{}
	for _, x := range hardFirst(r.hard, r.soft) {
		p := r.places[x.id]
		if !isTestPath(p.Path) {
			continue
		}
		f := by[p.Path]
		if f == nil {
			f = &ReachFile{Path: p.Path, Line: p.Line, Provenance: string(fact.Derived)}
			by[p.Path] = f
		}
		f.Symbols++
		f.Line = min(f.Line, p.Line)
		if x.hard {
			f.Provenance = string(fact.Stated)
		}
	}
	out := make([]ReachFile, 0, len(by))
	for _, p := range slices.Sorted(maps.Keys(by)) {
		out = append(out, *by[p])
	}
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].Provenance == string(fact.Stated) && out[j].Provenance != string(fact.Stated)
	})
	return out
}

// isTestPath reports whether a file holds tests by the usual conventions of
// the indexed languages: a tests directory; a name ending in Test or Tests
// (PHPUnit, JUnit, NUnit), _test (Go, Python), _spec (RSpec), .test or
// .spec (Jest, Vitest, Jasmine); test_*.py (pytest).
func isTestPath(p string) bool {
	for _, seg := range strings.Split(path.Dir(p), "/") {
		switch strings.ToLower(seg) {
		case "test", "tests", "spec", "specs", "__tests__":
			return true
		}
	}
	base := strings.TrimSuffix(path.Base(p), path.Ext(p))
	for _, suf := range []string{"Test", "Tests", "_test", ".test", "_spec", ".spec"} {
		if strings.HasSuffix(base, suf) {
			return true
		}
	}
	return strings.HasPrefix(base, "test_") && path.Ext(p) == ".py"
}

// reachItems loads the items of rs; hier marks implementations (their
// provenance is that of the chain, and the relation its first edge).
func (s *Service) reachItems(ctx context.Context, snap *snapshot, list []reachedAs, hier bool) ([]ReachItem, error) {
	ids := make([]string, len(list))
	for i, r := range list {
		ids[i] = r.id
	}
	syms, err := s.symbolsOf(ctx, snap, ids)
	if err != nil {
		return nil, err
	}
	out := make([]ReachItem, 0, len(list))
	for _, r := range list {
		sym := syms[r.id]
		if sym == nil {
			continue
		}
		ch := steps(r.chain)
		it := ReachItem{ID: sym.ID, Kind: sym.Kind, QName: sym.QName, Path: sym.Path, Line: sym.Line, Depth: r.depth, chain: ch}
		if it.QName == "" {
			it.QName = sym.Name
		}
		if len(ch) > 0 {
			it.Relation = ch[0].Kind
		}
		switch {
		case hier:
			it.Provenance = chainProvenance(ch)
		case r.hard:
			it.Provenance = string(fact.Stated)
		default:
			it.Provenance = string(fact.Derived)
		}
		out = append(out, it)
	}
	return out, nil
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

// countAnswer counts the envelope in cl100k_base tokens as the CLI prints it
// (indented) and as MCP sends it (compact), and returns the larger.
func countAnswer(env *Envelope) (int, error) {
	n := 0
	for _, enc := range []func(any) ([]byte, error){EncodeJSON, EncodeCompactJSON} {
		b, err := enc(env)
		if err != nil {
			return 0, err
		}
		c, err := CountTokens(string(b))
		if err != nil {
			return 0, err
		}
		n = max(n, c)
	}
	return n, nil
}

// fitContext keeps the longest prefix of the parts, in contextOrder, whose
// whole answer fits the budget. Stale warnings are kept for the paths the
// kept parts cite.
//
// Counting is the cost (a count of a 2,000-token answer takes about 2 ms):
// the search narrows the prefix by the answer's bytes, at the tokens per
// byte of a first probe, and counts exactly only within 5 % of the budget. It
// counts the indented rendering, which has the more tokens, and checks the
// compact one on the answer it keeps.
func (s *Service) fitContext(env *Envelope, full ContextResult, total [numSections]int, budget int) (*Envelope, error) {
	seq := contextOrder(full, total)
	warnings := env.StaleWarnings
	var limitTotal int
	for _, n := range total {
		limitTotal += n
	}
	set := func(k, tokens int) {
		r := full.cut(seq[:k], total)
		r.Tokens = tokens
		env.Result = r
		cited := map[string]bool{}
		for _, p := range r.paths() {
			cited[p] = true
		}
		env.StaleWarnings = []StaleWarning{}
		for _, w := range warnings {
			if cited[w.Path] {
				env.StaleWarnings = append(env.StaleWarnings, w)
			}
		}
		env.Limits = Limits{Limit: budget, Returned: k + 1, Total: limitTotal + 1, Truncated: k < len(seq)}
	}
	size := func(k int) (int, error) { // bytes of the indented answer
		set(k, budget)
		b, err := EncodeJSON(env)
		return len(b), err
	}
	exactAt := func(k, tokens int) (int, error) { // tokens of the indented answer
		set(k, tokens)
		b, err := EncodeJSON(env)
		if err != nil {
			return 0, err
		}
		return CountTokens(string(b))
	}
	exact := func(k int) (int, error) { return exactAt(k, budget) }
	internal := func(err error) error { return &Error{Code: ErrInternal, Message: "counting tokens: " + err.Error()} }
	n := len(seq)
	// the last k whose estimate at perByte is at most bound (0 if none)
	lastUnder := func(perByte, bound float64) (int, error) {
		if b, err := size(n); err != nil || float64(b)*perByte <= bound {
			return n, err
		}
		lo, hi := 0, n
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			b, err := size(mid)
			if err != nil {
				return 0, err
			}
			if float64(b)*perByte <= bound {
				lo = mid
			} else {
				hi = mid
			}
		}
		return lo, nil
	}
	counted := map[int]int{}
	count := func(k int) (int, error) {
		if t, ok := counted[k]; ok {
			return t, nil
		}
		t, err := exact(k)
		counted[k] = t
		return t, err
	}
	tooSmall := func(t int) error {
		return badInput("budget_tokens %d is below the %d tokens the smallest answer about %s takes; pass at least %d", budget, t, full.Target.QName, t)
	}
	// a first guess of cl100k tokens per byte of indented JSON, then the
	// ratio measured on the answer it picks
	k1, err := lastUnder(0.3, float64(budget))
	if err != nil {
		return nil, internal(err)
	}
	t1, err := count(k1)
	if err != nil {
		return nil, internal(err)
	}
	k := k1
	if k1 < n || t1 > budget {
		b1, err := size(k1)
		if err != nil {
			return nil, internal(err)
		}
		perByte := float64(t1) / float64(max(b1, 1))
		lo, err := lastUnder(perByte, float64(budget)*0.95)
		if err != nil {
			return nil, internal(err)
		}
		hi, err := lastUnder(perByte, float64(budget)*1.05)
		if err != nil {
			return nil, internal(err)
		}
		hi = min(hi+1, n)
		// widen the window where the estimate was wrong, until lo fits
		// and hi does not (or hi = n fits: the whole answer)
		for {
			t, err := count(lo)
			if err != nil {
				return nil, internal(err)
			}
			if t <= budget {
				break
			}
			if lo == 0 {
				return nil, tooSmall(t)
			}
			hi, lo = lo, lo/2
		}
		whole := false
		for {
			t, err := count(hi)
			if err != nil {
				return nil, internal(err)
			}
			if t > budget {
				break
			}
			if lo = hi; hi == n {
				whole = true
				break
			}
			hi = min(n, hi+(n-hi+1)/2)
		}
		for !whole && hi-lo > 1 {
			mid := (lo + hi) / 2
			t, err := count(mid)
			if err != nil {
				return nil, internal(err)
			}
			if t <= budget {
				lo = mid
			} else {
				hi = mid
			}
		}
		k = lo
	}
	// the exact count, stated in the answer it counts, of both renderings;
	// should the compact one ever have more tokens and not fit, a part less
	for ; ; k-- {
		tokens, t := budget, 0
		for range 4 {
			if t, err = exactAt(k, tokens); err != nil {
				return nil, internal(err)
			}
			if t == tokens {
				break
			}
			tokens = t
		}
		if t <= budget {
			b, err := EncodeCompactJSON(env)
			if err != nil {
				return nil, internal(err)
			}
			c, err := CountTokens(string(b))
			if err != nil {
				return nil, internal(err)
			}
			if c <= budget {
				return env, nil
			}
		}
		if k == 0 {
			return nil, tooSmall(t)
		}
	}
}
