// This file defines the repo_map operation: files and definition signatures
// ranked by PageRank over the reference graph (personalised by focus), cut
// to fit a token budget counted with cl100k_base. Bodies are never shown.

package facade

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/ragraf/ragraf/internal/fact"
)

// RepoMapArgs sets the budget and the focus.
type RepoMapArgs struct {
	BudgetTokens int      `json:"budget_tokens,omitempty" jsonschema:"size of the map text in cl100k_base tokens (100-100000, default 1000)"`
	Focus        []string `json:"focus,omitempty" jsonschema:"file paths or node ids to rank around, e.g. [\"src/Cart.php\"]"`
	Output
}

// MapSymbol is one definition shown in the map.
type MapSymbol struct {
	ID        string  `json:"id"`
	Kind      string  `json:"kind"`
	QName     string  `json:"qname"`
	Signature string  `json:"signature"`
	Path      string  `json:"path"`
	Line      int     `json:"line"`
	EndLine   int     `json:"end_line"`
	Rank      float64 `json:"rank"`
	// the ranking's inputs: arcs of the reference graph into the definition
	// (calls, references, instantiations, extends and the like; membership
	// not counted) and its share of the personalisation (×1000, as rank:
	// uniform without focus, shared among the focused nodes with it)
	InDegree int     `json:"in_degree"`
	Personal float64 `json:"personal"`
}

// MapFile is one file of the map with its shown definitions in line order.
type MapFile struct {
	Path    string      `json:"path"`
	Line    int         `json:"line"`
	Rank    float64     `json:"rank"`
	Symbols []MapSymbol `json:"symbols"`
}

// RepoMapResult is the map: the structured files and the rendered text whose
// tokens are counted.
type RepoMapResult struct {
	BudgetTokens int       `json:"budget_tokens"`
	Tokens       int       `json:"tokens"`
	Tokenizer    string    `json:"tokenizer"`
	Files        []MapFile `json:"files"`
	Text         string    `json:"text"`
}

var mapKinds = []fact.NodeKind{fact.File, fact.Class, fact.Interface, fact.Trait, fact.Enum, fact.Function,
	fact.Method, fact.Constant, fact.Property}

// rankGraph is the part of a revision repo_map ranks; built once per revision.
type rankGraph struct {
	nodes  []fact.Node // by id
	index  map[string]int
	out    [][]arc // by source index
	byPath map[string][]int
	inDeg  []int // reference arcs into each node

	globalOnce sync.Once // context's ranks without focus (context.go)
	global     []float64
}

type arc struct {
	to int
	w  float64
}

// rankGraph returns the rank graph of snap, built once per open revision
// (revcache.go).
func (s *Service) rankGraph(ctx context.Context, snap *snapshot) (*rankGraph, error) {
	return cached(ctx, snap, "rank", func(ctx context.Context) (*rankGraph, error) { return buildRankGraph(ctx, snap) })
}

// referenceWeight, attributeWeight and containWeight weigh the arcs. A use
// says much more about importance than membership, which only lets a class
// collect a little rank from its members so that structure ranks above loose
// members, and a class shares a little of its rank with its members. An
// attribute (#[Assert\NotBlank], #[ORM\Entity(repositoryClass: …)]) is a
// declaration about the code, not a use: at full weight an entity whose only
// references are its attributes handed all its rank to the constraint it
// names, which then ranked above the entity every controller uses.
const (
	referenceWeight = 1.0
	attributeWeight = 0.1
	containWeight   = 0.1
)

func buildRankGraph(ctx context.Context, snap *snapshot) (*rankGraph, error) {
	snap.rankBuilds.Add(1)
	nodes, err := snap.graph.AllNodes(ctx, mapKinds...)
	if err != nil {
		return nil, storeError(err)
	}
	g := &rankGraph{nodes: nodes, index: make(map[string]int, len(nodes)), out: make([][]arc, len(nodes)), byPath: map[string][]int{},
		inDeg: make([]int, len(nodes))}
	for i, n := range nodes {
		g.index[n.ID] = i
		g.byPath[n.Path] = append(g.byPath[n.Path], i)
	}
	edges, err := snap.graph.EdgesOfKinds(ctx, impactKinds)
	if err != nil {
		return nil, storeError(err)
	}
	for _, e := range edges {
		src, ok1 := g.index[e.From]
		dst, ok2 := g.index[e.To]
		if !ok1 || !ok2 || src == dst {
			continue
		}
		w := referenceWeight
		if e.Props["use"] == "attribute" {
			w = attributeWeight
		}
		g.out[src] = append(g.out[src], arc{dst, w * e.Confidence})
		g.inDeg[dst]++
	}
	for i, n := range nodes {
		if p, ok := g.index[n.Parent]; ok && n.Kind != fact.File {
			g.out[i] = append(g.out[i], arc{p, containWeight})
			if nodes[p].Kind != fact.File { // a file's rank stays with the focus
				g.out[p] = append(g.out[p], arc{i, containWeight})
			}
		}
	}
	return g, nil
}

// rankOrder is the ranks of a graph for one focus, the rank of each file
// (the sum of its nodes'), and the definitions best first. It is only read
// once made.
type rankOrder struct {
	personal []float64
	rank     []float64
	fileRank map[string]float64
	defs     []int
}

// order ranks the graph for personal and orders its definitions by rank,
// then path, line and id (a total order, so any sort gives the same).
func (g *rankGraph) order(personal []float64) rankOrder {
	rank := g.pagerank(personal)
	fileRank := map[string]float64{}
	var defs []int
	for i, nd := range g.nodes {
		fileRank[nd.Path] += rank[i]
		if nd.Kind != fact.File {
			defs = append(defs, i)
		}
	}
	slices.SortFunc(defs, func(x, y int) int {
		if rank[x] != rank[y] {
			if rank[x] > rank[y] {
				return -1
			}
			return 1
		}
		nx, ny := &g.nodes[x], &g.nodes[y]
		if c := strings.Compare(nx.Path, ny.Path); c != 0 {
			return c
		}
		if c := cmp.Compare(nx.StartLine, ny.StartLine); c != 0 {
			return c
		}
		return strings.Compare(nx.ID, ny.ID)
	})
	return rankOrder{personal: personal, rank: rank, fileRank: fileRank, defs: defs}
}

// pagerank runs the power method with damping 0.85 and a fixed number of
// iterations, so the same graph and focus give the same ranks bit for bit.
func (g *rankGraph) pagerank(personal []float64) []float64 {
	n := len(g.nodes)
	rank := append([]float64(nil), personal...)
	wsum := make([]float64, n)
	for i, as := range g.out {
		for _, a := range as {
			wsum[i] += a.w
		}
	}
	next := make([]float64, n)
	for it := 0; it < 40; it++ {
		dangling := 0.0
		for i := range next {
			next[i] = 0
		}
		for i, as := range g.out {
			if wsum[i] == 0 {
				dangling += rank[i]
				continue
			}
			for _, a := range as {
				next[a.to] += 0.85 * rank[i] * a.w / wsum[i]
			}
		}
		for i := range next {
			next[i] += (0.15 + 0.85*dangling) * personal[i]
		}
		rank, next = next, rank
	}
	return rank
}

var (
	tokOnce sync.Once
	tokEnc  *tiktoken.Tiktoken
	tokErr  error
)

// encoder returns cl100k_base, loaded from the BPE ranks embedded in the
// binary; nothing is downloaded.
func encoder() (*tiktoken.Tiktoken, error) {
	tokOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		tokEnc, tokErr = tiktoken.GetEncoding("cl100k_base")
	})
	return tokEnc, tokErr
}

// CountTokens counts text in cl100k_base tokens.
func CountTokens(text string) (int, error) {
	enc, err := encoder()
	if err != nil {
		return 0, err
	}
	return len(enc.EncodeOrdinary(text)), nil
}

// RepoMap returns the ranked map that fits the budget.
func (s *Service) RepoMap(ctx context.Context, args RepoMapArgs) (*Envelope, error) {
	const op = "repo_map"
	budget, err := checkRange("budget_tokens", args.BudgetTokens, 1000, 100, 100000)
	if err != nil {
		return nil, err
	}
	if len(args.Focus) > 100 {
		return nil, badInput("focus takes at most 100 entries, got %d", len(args.Focus))
	}
	var focusIDs, focusPaths []string
	for _, f := range args.Focus {
		if idRE.MatchString(f) {
			focusIDs = append(focusIDs, f)
			continue
		}
		p, err := s.cleanPath("focus", f)
		if err != nil {
			return nil, err
		}
		focusPaths = append(focusPaths, p)
	}
	enc, err := encoder()
	if err != nil {
		return nil, &Error{Code: ErrInternal, Message: "loading the cl100k_base tokenizer: " + err.Error()}
	}
	c, err := s.begin(ctx, op, pager{})
	if err != nil {
		return nil, err
	}
	defer c.release()
	snap := c.snap
	g, err := s.rankGraph(ctx, snap)
	if err != nil {
		return nil, err
	}
	env := c.env
	res := RepoMapResult{BudgetTokens: budget, Tokenizer: "cl100k_base", Files: []MapFile{}}
	n := len(g.nodes)
	personal := make([]float64, n)
	var focus []int
	for _, id := range focusIDs {
		i, ok := g.index[id]
		if !ok {
			return nil, &Error{Code: ErrUnknownID, Message: "no node " + id + " in " + snap.name + " among files and definitions"}
		}
		focus = append(focus, i)
	}
	missing := []string{}
	for _, p := range focusPaths {
		if len(g.byPath[p]) == 0 {
			missing = append(missing, p)
		}
		focus = append(focus, g.byPath[p]...)
	}
	if len(focus) > 0 {
		for _, i := range focus {
			personal[i] = 1 / float64(len(focus))
		}
	} else {
		for i := range personal {
			personal[i] = 1 / float64(max(n, 1))
		}
	}
	if n == 0 || (len(args.Focus) > 0 && len(focus) == 0) {
		env.Result = res
		if len(missing) > 0 {
			notFoundPath(env, missing[0])
		} else {
			env.NotFound = true
		}
		return c.done(env.Result)
	}
	ro := rankOrder{}
	if len(focus) == 0 { // the same ranks for every unfocused map of the revision
		if ro, err = cached(ctx, snap, "rank/unfocused", func(context.Context) (rankOrder, error) { return g.order(personal), nil }); err != nil {
			return nil, err
		}
	} else {
		ro = g.order(personal)
	}
	build := func(context.Context) (mapAnswer, error) { return g.mapFor(enc, ro, budget), nil }
	var m mapAnswer
	key := "map/" + strconv.Itoa(budget)
	if len(focus) == 0 && (snap.isCached(key) || snap.cacheCount("map/") < maxCachedMaps) {
		// an unfocused map depends on the revision and the budget alone
		if m, err = cached(ctx, snap, key, build); err != nil {
			return nil, err
		}
	} else {
		m, _ = build(ctx)
	}
	// the cached answer is shared: each call gets its own slices
	res.Text, res.Tokens, res.Files = m.text, m.tokens, make([]MapFile, len(m.files))
	for i, f := range m.files {
		f.Symbols = slices.Clone(f.Symbols)
		res.Files[i] = f
	}
	env.Result = res
	env.Limits = Limits{Limit: budget, Returned: m.returned, Total: m.total, Truncated: m.returned < m.total}
	paths := make([]string, 0, len(res.Files))
	for _, f := range res.Files {
		paths = append(paths, f.Path)
	}
	c.cite(paths...)
	return c.done(env.Result)
}

// maxCachedMaps bounds the unfocused maps kept per revision (one per budget).
const maxCachedMaps = 32

// mapAnswer is a map's text, files and counts.
type mapAnswer struct {
	text            string
	files           []MapFile
	tokens          int
	returned, total int
}

// mapFor fits the definitions of ro, best first, into budget tokens.
func (g *rankGraph) mapFor(enc *tiktoken.Tiktoken, ro rankOrder, budget int) mapAnswer {
	rank, fileRank, defs := ro.rank, ro.fileRank, ro.defs
	depth := func(i int) int { // nesting below the file's top-level definitions
		d := 0
		for p, ok := g.index[g.nodes[i].Parent]; ok && g.nodes[p].Kind != fact.File; p, ok = g.index[g.nodes[p].Parent] {
			d++
		}
		return d
	}
	line := func(i int) string {
		nd := g.nodes[i]
		sig := nd.Signature
		if sig == "" {
			sig = string(nd.Kind) + " " + nd.QName
		}
		return strings.Repeat("  ", depth(i)+1) + strconv.Itoa(nd.StartLine) + ": " + oneLine(sig) + "\n"
	}
	header := func(path string) string { return path + "\n" }
	// greedy by rank with per-line token estimates, then an exact count of
	// the rendered text; lines that do not fit are skipped, so smaller
	// definitions further down can still fill the budget.
	chosen := map[int]bool{}
	shownFile := map[string]bool{}
	used, misses := 0, 0
	for _, i := range defs {
		if budget-used < 4 || misses > 200 {
			break
		}
		cost := len(enc.EncodeOrdinary(line(i)))
		p := g.nodes[i].Path
		if !shownFile[p] {
			cost += len(enc.EncodeOrdinary(header(p)))
		}
		if used+cost > budget {
			misses++
			continue
		}
		used += cost
		chosen[i] = true
		shownFile[p] = true
	}
	order := make([]int, 0, len(chosen))
	for _, i := range defs {
		if chosen[i] {
			order = append(order, i)
		}
	}
	render := func(sel []int) (string, []MapFile) {
		byFile := map[string][]int{}
		for _, i := range sel {
			byFile[g.nodes[i].Path] = append(byFile[g.nodes[i].Path], i)
		}
		paths := slices.Sorted(maps.Keys(byFile))
		sort.SliceStable(paths, func(a, b int) bool { return fileRank[paths[a]] > fileRank[paths[b]] })
		var sb strings.Builder
		files := make([]MapFile, 0, len(paths))
		for _, p := range paths {
			is := byFile[p]
			sort.Slice(is, func(a, b int) bool {
				x, y := g.nodes[is[a]], g.nodes[is[b]]
				if x.StartLine != y.StartLine {
					return x.StartLine < y.StartLine
				}
				return x.ID < y.ID
			})
			sb.WriteString(header(p))
			mf := MapFile{Path: p, Line: 1, Rank: round6(fileRank[p] * 1000), Symbols: make([]MapSymbol, 0, len(is))}
			for _, i := range is {
				nd := g.nodes[i]
				sb.WriteString(line(i))
				mf.Symbols = append(mf.Symbols, MapSymbol{ID: nd.ID, Kind: string(nd.Kind), QName: nd.QName, Signature: nd.Signature,
					Path: nd.Path, Line: nd.StartLine, EndLine: nd.EndLine, Rank: round6(rank[i] * 1000),
					InDegree: g.inDeg[i], Personal: round6(ro.personal[i] * 1000)})
			}
			files = append(files, mf)
		}
		return sb.String(), files
	}
	text, files := render(order)
	tokens := len(enc.EncodeOrdinary(text))
	for tokens > budget && len(order) > 0 { // estimates were low: drop the lowest-ranked
		order = order[:len(order)-1]
		text, files = render(order)
		tokens = len(enc.EncodeOrdinary(text))
	}
	return mapAnswer{text: text, files: files, tokens: tokens, returned: len(order), total: len(defs)}
}

// oneLine folds a multi-line signature onto one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\t") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// RepoMapConcise is the map as a model reads it: the text and its size in
// tokens; the files with their ids and ranking inputs are the detailed form.
type RepoMapConcise struct {
	Tokens int    `json:"tokens"`
	Text   string `json:"text"`
}

func (r RepoMapResult) concise() any { return RepoMapConcise{Tokens: r.Tokens, Text: r.Text} }
