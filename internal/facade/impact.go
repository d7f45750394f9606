// This file defines the impact operation (what may break when a definition
// or file changes) and closure, the reverse walk over edges that impact,
// callers and implementations share. A closure over stated edges only gives
// the hard answer; the walk over every edge minus that gives the soft one
// (FT-18).

package facade

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// Step is one edge of an evidence chain: From uses To at Path:Line.

// ImpactArgs names what changes.
type ImpactArgs struct {
	ID    string `json:"id,omitempty" jsonschema:"definition id"`
	QName string `json:"qname,omitempty" jsonschema:"add, Cart::add, a qualified name or path:line"`
	Near  string `json:"near,omitempty" jsonschema:"your file, to pick among same names"`
	Path  string `json:"path,omitempty" jsonschema:"a changed file"`
	Line  int    `json:"line,omitempty" jsonschema:"with path: the changed line"`
	Depth int    `json:"depth,omitempty" jsonschema:"1-5, default 3"`
	Mode  string `json:"mode,omitempty" jsonschema:"hard or all (default)"`
	List  string `json:"list,omitempty" jsonschema:"page symbols (default), files, entry_points or tables"`
	Data  bool   `json:"data,omitempty" jsonschema:"add what reads the changed values"`
	// Blocks keeps only the named blocks of the answer (targets always).
	Blocks []string `json:"blocks,omitempty" jsonschema:"only symbols, files, entry_points, tables, tests, co_changed, data"`
	DataBudget
	Page
	Output
}

// ImpactItem is one definition that may break, with the chain of edges
// leading from it to the change.
type ImpactItem struct {
	Symbol
	Depth int    `json:"depth"`
	Chain []Step `json:"chain"`
}

// ImpactFile is one file holding impacted definitions; Line is the first of them.
type ImpactFile struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Symbols int    `json:"symbols"`
}

// ImpactBlock groups impacted items. EntryPoints are the routes, commands
// and jobs whose handles edge reaches the change; Tables are the tables the
// changed and impacted code queries or references, each with the chain that
// reaches it (its first step is the queries or references_table edge).
// Files list those with the most impacted definitions first. Each list is
// paged across the hard block, then the soft one: the list the request
// names (symbols by default) is the page the envelope's limits describe; in
// an answer paging symbols, files, entry points and tables show their first
// page and ImpactResult.Cursors holds the cursor of the next page of each
// that was cut; in an answer paging another list only that list is filled.
// The totals count each whole list.
type ImpactBlock struct {
	Symbols          []ImpactItem `json:"symbols"`
	SymbolsTotal     int          `json:"symbols_total"`
	Files            []ImpactFile `json:"files"`
	FilesTotal       int          `json:"files_total"`
	EntryPoints      []ImpactItem `json:"entry_points"`
	EntryPointsTotal int          `json:"entry_points_total"`
	Tables           []ImpactItem `json:"tables"`
	TablesTotal      int          `json:"tables_total"`
	// Tests are the test definitions of the change (impacttests.go), in
	// the answer that starts the symbols list.
	Tests []Symbol `json:"tests"`
}

// ImpactResult has the hard block (stated chains only) and the soft block.
type ImpactResult struct {
	Targets []Symbol    `json:"targets"`
	Depth   int         `json:"depth"`
	Mode    string      `json:"mode"`
	List    string      `json:"list"` // the list this answer pages ("" when blocks leave it out)
	Hard    ImpactBlock `json:"hard"`
	Soft    ImpactBlock `json:"soft"`
	// Cursors has, for each list an answer paging symbols cut after its
	// first page (files, entry_points, tables), the cursor of its next page.
	Cursors map[string]string `json:"cursors,omitempty"`
	// CoChanged is what changed in the same commits as the target
	// (cochanged.go), in the answer that starts the symbols list; nil
	// without a target.
	CoChanged *CoChanged `json:"co_changed,omitempty"`
	// Data is what reads the changed values downstream (impactdata.go),
	// asked for with data: true; in the answer that starts the symbols list.
	Data *ImpactData `json:"data,omitempty"`
}

// impactLists are the lists impact pages; a cursor names one.
var impactLists = []string{"symbols", "files", "entry_points", "tables"}

// impactBlocks are the blocks an impact answer can be cut to.
var impactBlocks = []string{"symbols", "files", "entry_points", "tables", "tests", "co_changed", "data"}

// checkBlocks validates a block selection; nil means every block.
func checkBlocks(bs []string) (map[string]bool, error) {
	if len(bs) == 0 {
		return nil, nil
	}
	want := map[string]bool{}
	for _, b := range bs {
		if !slices.Contains(impactBlocks, b) {
			return nil, badInput("unknown block %q; valid blocks: %s", b, strings.Join(impactBlocks, ", "))
		}
		want[b] = true
	}
	return want, nil
}

// keepBlocks empties the blocks of res that want does not name.
func keepBlocks(res *ImpactResult, want map[string]bool) {
	if want == nil {
		return
	}
	for _, b := range []*ImpactBlock{&res.Hard, &res.Soft} {
		if !want["symbols"] {
			b.Symbols, b.SymbolsTotal = []ImpactItem{}, 0
		}
		if !want["files"] {
			b.Files, b.FilesTotal = []ImpactFile{}, 0
		}
		if !want["entry_points"] {
			b.EntryPoints, b.EntryPointsTotal = []ImpactItem{}, 0
		}
		if !want["tables"] {
			b.Tables, b.TablesTotal = []ImpactItem{}, 0
		}
		if !want["tests"] {
			b.Tests = []Symbol{}
		}
	}
	for l := range res.Cursors {
		if !want[l] {
			delete(res.Cursors, l)
		}
	}
	if len(res.Cursors) == 0 {
		res.Cursors = nil
	}
	if !want["co_changed"] {
		res.CoChanged = nil
	}
	if !want["data"] {
		res.Data = nil
	}
}

// blocksEmpty says whether every block an answer cut by keepBlocks holds is
// empty.
func blocksEmpty(res ImpactResult) bool {
	n := 0
	for _, b := range []ImpactBlock{res.Hard, res.Soft} {
		n += b.SymbolsTotal + b.FilesTotal + b.EntryPointsTotal + b.TablesTotal + len(b.Tests)
	}
	if cc := res.CoChanged; cc != nil {
		n += len(cc.Symbols) + len(cc.Files)
	}
	if res.Data != nil {
		n += res.Data.Total
	}
	return n == 0
}

// impactPager validates the list, limit and cursor of an impact request. A
// cursor names its list ("impact" for symbols, "impact.<list>" otherwise).
func impactPager(args ImpactArgs) (pager, string, error) {
	list, err := checkEnum("list", args.List, "", impactLists...)
	if err != nil {
		return pager{}, "", err
	}
	if list == "" && args.Cursor != "" {
		if c, ok := decodeCursor(args.Cursor); ok && strings.HasPrefix(c.list, "impact.") {
			list = strings.TrimPrefix(c.list, "impact.")
		}
	}
	if list == "" {
		list = "symbols"
	}
	name := "impact"
	if list != "symbols" {
		name += "." + list
	}
	pg, err := paging(name, args.Limit, args.Cursor, defaultLimit, maxLimit, args)
	return pg, list, err
}

// split cuts one page, limit items from offset, across a then b as one list.
func split[T any](a, b []T, limit, offset int) ([]T, []T) {
	pa, pb := window(a, limit, offset), []T{}
	if rest := limit - len(pa); rest > 0 {
		pb = window(b, rest, max(offset-len(a), 0))
	}
	return pa, pb
}

// Impact lists what may break when a definition or file changes.
func (s *Service) Impact(ctx context.Context, args ImpactArgs) (*Envelope, error) {
	const op = "impact"
	set := 0
	for _, v := range []string{args.ID, args.QName, args.Path} {
		if v != "" {
			set++
		}
	}
	if set != 1 {
		return nil, badInput("pass exactly one of id, qname and path")
	}
	target := Target{ID: args.ID, QName: args.QName, Near: args.Near}
	if args.Path == "" {
		if err := target.check(); err != nil {
			return nil, err
		}
	}
	if args.Line < 0 || (args.Line > 0 && args.Path == "") {
		return nil, badInput("line (at least 1) goes with path")
	}
	var path string
	if args.Path != "" {
		p, err := s.cleanPath("path", args.Path)
		if err != nil {
			return nil, err
		}
		path = p
	}
	depth, err := checkRange("depth", args.Depth, 3, 1, 5)
	if err != nil {
		return nil, err
	}
	mode, err := checkEnum("mode", args.Mode, "all", "hard", "all")
	if err != nil {
		return nil, err
	}
	budget, err := checkBudget(args.DataBudget, depth)
	if err != nil {
		return nil, err
	}
	pg, list, err := impactPager(args)
	if err != nil {
		return nil, err
	}
	want, err := checkBlocks(args.Blocks)
	if err != nil {
		return nil, err
	}
	if want != nil && !want[list] && (args.List != "" || args.Cursor != "") {
		return nil, badInput("blocks must name the list %s that the request pages", list)
	}
	wantData := args.Data || want["data"]
	limit, offset := pg.limit, pg.offset
	c, err := s.begin(ctx, op, pg)
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	env := c.env
	res := ImpactResult{Targets: []Symbol{}, Depth: depth, Mode: mode, List: list, Hard: emptyBlock(), Soft: emptyBlock()}
	var start []string
	var lineDef *Symbol // path with line: the innermost definition around it
	if path != "" && args.Line > 0 {
		t, ok, err := s.symbolAt(ctx, snap, path, args.Line)
		if err != nil {
			return nil, err
		}
		if ok && t.Kind != string(fact.File) { // top-level code changes the file
			lineDef = &t
		}
	}
	if path != "" && lineDef == nil {
		nodes, err := snap.graph.NodesInFile(ctx, path)
		if err != nil {
			return nil, storeError(err)
		}
		for _, n := range nodes {
			start = append(start, n.ID)
			if n.Kind == fact.File {
				res.Targets = append(res.Targets, toSymbol(n, fact.Node{}))
			}

		}
	} else {
		t, ok, err := Symbol{}, false, error(nil)
		if lineDef != nil {
			t, ok = *lineDef, true
		} else if t, ok, err = c.target(target); err != nil || !ok {
			return c.fail(res, err)
		}
		res.Targets = append(res.Targets, t)
		start = append(start, t.ID)
		// a change to a type or namespace reaches the users of its members
		desc, err := s.descendants(ctx, snap, t.ID)
		if err != nil {
			return nil, err
		}
		start = append(start, desc...)
	}
	if len(start) == 0 {
		notFoundPath(env, path)
		return c.fail(res, nil)
	}
	hard, soft, err := s.hardSoft(ctx, snap, start, impactKinds, depth, walkWant(mode == "all"))
	if err != nil {
		return nil, err
	}
	if mode != "all" {
		soft = nil
	}
	skip := map[string]bool{}
	for _, id := range start {
		skip[id] = true
	}
	from := origins(start, hard, soft)
	// the tables the changed and impacted code touches; a changed table does
	// not impact the other tables its users touch
	var hardT, softT []reached
	if !startsAtTable(res.Targets) {
		if hardT, softT, err = s.attach(ctx, snap, from, attachOpts{kinds: tableKinds, forward: true, skip: skip}); err != nil {
			return nil, err
		}
	}
	hardE, softE, err := s.attach(ctx, snap, from, attachOpts{kinds: handlesKinds, again: true, skip: skip})
	if err != nil {
		return nil, err
	}
	if mode != "all" {
		softT, softE = nil, nil
	}
	// order everything by place, cut the pages, then load the symbols of
	// what the answer shows
	all := append(append(append(append(append(append([]reached(nil), hard...), soft...), hardT...), softT...), hardE...), softE...)
	places, err := snap.graph.Places(ctx, reachedIDs(all))
	if err != nil {
		return nil, storeError(err)
	}
	hard, soft = byPlace(hard, places), byPlace(soft, places)
	hardT, softT, hardE, softE = byPlace(hardT, places), byPlace(softT, places), byPlace(hardE, places), byPlace(softE, places)
	hardF, softF := impactFiles(hard, places), impactFiles(soft, places)
	res.Hard.SymbolsTotal, res.Soft.SymbolsTotal = len(hard), len(soft)
	res.Hard.FilesTotal, res.Soft.FilesTotal = len(hardF), len(softF)
	res.Hard.EntryPointsTotal, res.Soft.EntryPointsTotal = len(hardE), len(softE)
	res.Hard.TablesTotal, res.Soft.TablesTotal = len(hardT), len(softT)
	// the page of the list asked for; with symbols, the first page of the
	// others and the cursors of their next pages
	var pageHard, pageSoft, pageHT, pageST, pageHE, pageSE []reached
	var pageHF, pageSF []ImpactFile
	var total, returned int
	switch list {
	case "symbols":
		pageHard, pageSoft = split(hard, soft, limit, offset)
		pageHF, pageSF = split(hardF, softF, limit, 0)
		pageHT, pageST = split(hardT, softT, limit, 0)
		pageHE, pageSE = split(hardE, softE, limit, 0)
		for _, l := range []struct {
			name  string
			total int
		}{{"files", len(hardF) + len(softF)}, {"entry_points", len(hardE) + len(softE)}, {"tables", len(hardT) + len(softT)}} {
			if l.total > limit {
				if res.Cursors == nil {
					res.Cursors = map[string]string{}
				}
				res.Cursors[l.name] = pager{list: op + "." + l.name, key: pg.key}.cursor(snap, limit)
			}
		}
		total, returned = len(hard)+len(soft), len(pageHard)+len(pageSoft)
	case "files":
		pageHF, pageSF = split(hardF, softF, limit, offset)
		total, returned = len(hardF)+len(softF), len(pageHF)+len(pageSF)
	case "entry_points":
		pageHE, pageSE = split(hardE, softE, limit, offset)
		total, returned = len(hardE)+len(softE), len(pageHE)+len(pageSE)
	case "tables":
		pageHT, pageST = split(hardT, softT, limit, offset)
		total, returned = len(hardT)+len(softT), len(pageHT)+len(pageST)
	}
	if pageHF != nil {
		res.Hard.Files, res.Soft.Files = pageHF, pageSF
	}
	shown := append(append(append(append(append(append([]reached(nil), pageHard...), pageSoft...), pageHT...), pageST...), pageHE...), pageSE...)
	syms, err := s.symbolsOf(ctx, snap, reachedIDs(shown))
	if err != nil {
		return nil, err
	}
	res.Hard.Symbols, res.Soft.Symbols = impactItems(pageHard, syms), impactItems(pageSoft, syms)
	res.Hard.EntryPoints, res.Soft.EntryPoints = impactItems(pageHE, syms), impactItems(pageSE, syms)
	res.Hard.Tables, res.Soft.Tables = impactItems(pageHT, syms), impactItems(pageST, syms)
	if list == "symbols" && offset == 0 {
		if want == nil || want["tests"] {
			if res.Hard.Tests, res.Soft.Tests, err = s.impactTests(ctx, snap, res.Targets, hard, soft, places); err != nil {
				return nil, err
			}
		}
		if len(res.Targets) > 0 && (want == nil || want["co_changed"]) {
			if res.CoChanged, err = s.coChanged(ctx, snap, res.Targets[0]); err != nil {
				return nil, err
			}
		}
	}
	if list == "symbols" && offset == 0 && wantData {
		dt := dataTarget{path: path, line: args.Line}
		if args.Line == 0 && len(res.Targets) > 0 {
			dt.sym = res.Targets[0]
		}
		if res.Data, err = s.impactData(ctx, snap, dt, budget, limit, mode == "hard"); err != nil {
			return nil, err
		}
		switch {
		case !res.Data.Truncated || len(res.Data.Changed) == 0:
		case dt.sym.Kind == string(fact.Property):
			// its loads are its references; slice starts at a line
			env.Suggest = append(env.Suggest, Suggestion{Op: "references", Args: map[string]any{"id": dt.sym.ID}, Why: "every use of the property, paged"})
		default:
			c := res.Data.Changed[0]
			a := map[string]any{"path": c.Path, "line": c.Line, "direction": "forward"}
			if c.Kind == ChangeParameter {
				a["variable"] = c.Name
			}
			env.Suggest = append(env.Suggest, Suggestion{Op: "slice", Args: a, Why: "every place " + c.Name + " reaches, paged"})
		}
	}
	keepBlocks(&res, want)
	if want != nil && !want[list] {
		// the paged list is not shown: nothing to page
		returned, total, res.List = 0, 0, ""
	}
	env.Result = res
	env.Limits = pg.limits(snap, returned, total)
	if empty := len(hard)+len(soft) == 0 && (res.Data == nil || res.Data.Total == 0); want == nil && empty || want != nil && blocksEmpty(res) {
		env.NotFound = true
		env.Suggest = append(env.Suggest, Suggestion{Op: "search", Args: map[string]any{"query": lastName(firstQName(res.Targets))}, Why: "text mentions the graph does not link"})
	}
	var paths []string
	for _, t := range res.Targets {
		paths = append(paths, t.Path)
	}
	paths = append(paths, res.Data.paths()...)
	for _, b := range []ImpactBlock{res.Hard, res.Soft} {
		for _, f := range b.Files {
			paths = append(paths, f.Path)
		}
		for _, t := range b.Tests {
			paths = append(paths, t.Path)
		}
		for _, l := range [][]ImpactItem{b.Symbols, b.EntryPoints, b.Tables} {
			for _, it := range l {
				if !strings.HasPrefix(it.Path, "db:") {
					paths = append(paths, it.Path)
				}
				for _, st := range it.Chain {
					paths = append(paths, st.Path)
				}
			}
		}
	}
	if cc := res.CoChanged; cc != nil {
		for _, f := range cc.Files {
			paths = append(paths, f.Path)
		}
		for _, x := range cc.Symbols {
			paths = append(paths, x.Path)
		}
	}
	c.cite(paths...)
	return c.done(env.Result)
}

// startsAtTable reports whether impact starts from a table (or a column).
func startsAtTable(ts []Symbol) bool {
	for _, t := range ts {
		if t.Kind == string(fact.Table) || t.Kind == string(fact.Column) {
			return true
		}
	}
	return false
}

func firstQName(ts []Symbol) string {
	if len(ts) == 0 {
		return ""
	}
	return ts[0].QName
}

func emptyBlock() ImpactBlock {
	return ImpactBlock{Symbols: []ImpactItem{}, Files: []ImpactFile{}, EntryPoints: []ImpactItem{}, Tables: []ImpactItem{}, Tests: []Symbol{}}
}

// descendants returns every node contained, directly or not, in id.
func (s *Service) descendants(ctx context.Context, snap *snapshot, id string) ([]string, error) {
	var out []string
	queue := []string{id}
	for len(queue) > 0 && len(out) < 10000 {
		kids, err := snap.graph.Children(ctx, queue[0])
		if err != nil {
			return nil, storeError(err)
		}
		queue = queue[1:]
		for _, k := range kids {
			out = append(out, k.ID)
			queue = append(queue, k.ID)
		}
	}
	return out, nil
}

func reachedIDs(rs []reached) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.id)
	}
	return out
}

func impactItems(rs []reached, syms map[string]*Symbol) []ImpactItem {
	out := make([]ImpactItem, 0, len(rs))
	for _, r := range rs {
		sym := syms[r.id]
		if sym == nil {
			continue // an edge to a node that does not exist; nothing to cite
		}
		out = append(out, ImpactItem{Symbol: *sym, Depth: r.depth, Chain: steps(r.chain)})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Depth != b.Depth {
			return a.Depth < b.Depth
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.ID < b.ID
	})
	return out
}

// impactFiles groups reached definitions by file, those with the most
// definitions first (then by path).
func impactFiles(rs []reached, places map[string]graph.Place) []ImpactFile {
	by := map[string]*ImpactFile{}
	for _, r := range rs {
		p := places[r.id]
		f := by[p.Path]
		if f == nil {
			f = &ImpactFile{Path: p.Path, Line: p.Line}
			by[p.Path] = f
		}
		f.Symbols++
		f.Line = min(f.Line, p.Line)
	}
	out := make([]ImpactFile, 0, len(by))
	for _, p := range slices.Sorted(maps.Keys(by)) {
		out = append(out, *by[p])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Symbols > out[j].Symbols })
	return out
}
