// This file computes function summaries: what a function does with each
// parameter (reaches a return, is stored into a property, reaches a sink,
// escapes into what a summary does not follow) and where its return value
// comes from (parameters, sources, or elsewhere). A build computes them
// bottom-up over the strongly connected components of the call graph, with
// a fixpoint cap inside a component, and stores them per file; a query that
// has crossed its depth budget applies a callee's summary at the call
// instead of noting a `depth` cut point (summaryForward and
// summaryBackward). A summary is computed by the query's own walker, kept
// inside the function, with every call it makes applied through the
// callee's summary: the moves are the query's moves, so the two agree.

package dataflow

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Summary is one function's summary.
type Summary struct {
	Params []ParamSummary // by position in Func.Params
	Ret    RetSummary
	// Capped: the fixpoint cap stopped the function's component before it
	// settled; the summary is not exact and is not applied.
	Capped bool
	// Input fingerprints what the summary was computed from (the function's
	// lowering, its call edges, its callees' summaries and the models), so a
	// later build with the same input reuses it.
	Input uint64
}

// ParamSummary is what a function does with one parameter's value.
type ParamSummary struct {
	Return bool    // it reaches a return: the call's value
	Conf   float64 // confidence of that path (1: stated edges only)
	// Open: it also reaches what a summary does not follow (a property
	// store's loads, a global, a by-reference write, a throw, an unresolved
	// call, a cut point), so a walk that needs those must enter the body.
	Open   bool
	Stores []string // properties it is stored into (Class::$p)
	Sinks  []string // sink models it reaches, here or in a callee
}

// RetSummary is where a function's return value comes from.
type RetSummary struct {
	Params  []int     // positions of the parameters whose values reach a return
	Conf    []float64 // the confidence of each, as ParamSummary.Conf
	Sources []string  // source models whose values reach a return
	Open    bool      // it also depends on what a summary does not follow
}

// SummaryEdge is the edge kind of a step by a callee's summary, whose body
// the walk did not enter: an argument reaches the call's value (forwards),
// or the call's value comes from an argument (backwards).
const SummaryEdge EdgeKind = "summary"

// maxRounds caps the fixpoint inside one strongly connected component: at
// most this many walks per member.
const maxRounds = 8

// maxSummaryStates bounds one summary walk; past it the summary is open.
const maxSummaryStates = 20000

// sumAcc collects what one summary walk meets, when the walker summarises.
type sumAcc struct {
	store                  *sumStore // the summaries computed so far
	conf                   []float64 // marks
	queue                  []int
	open                   bool
	sinks, stores, sources map[string]bool
}

func (a *sumAcc) reset() {
	a.open = false
	if a.sinks == nil {
		a.sinks, a.stores, a.sources = map[string]bool{}, map[string]bool{}, map[string]bool{}
	}
	clear(a.sinks)
	clear(a.stores)
	clear(a.sources)
}

// marks returns n zeros, the confidence each node was reached with (0:
// not reached), reusing one buffer across walks.
func (a *sumAcc) marks(n int) []float64 {
	if cap(a.conf) < n {
		a.conf = make([]float64, n)
	}
	a.conf = a.conf[:n]
	clear(a.conf)
	return a.conf
}

func setList(m map[string]bool) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// paramPos returns the position of parameter node p in f.Params, or -1.
func (f *Func) paramPos(p int) int {
	return slices.Index(f.Params, p)
}

// param returns the summary of parameter node p of g, nil when it has none.
func (s *Summary) param(g *Func, p int) *ParamSummary {
	i := g.paramPos(p)
	if i < 0 || i >= len(s.Params) {
		return nil
	}
	return &s.Params[i]
}

// walkReset starts a summary walk: no cut points, no states counted.
func (w *walker) walkReset() {
	w.acc.reset()
	clear(w.cuts)
	w.states, w.stopped = 0, false
}

// summarize computes f's summary with the summaries in w.acc.store for
// its callees.
func (w *walker) summarize(f *Func) *Summary {
	s := &Summary{Params: make([]ParamSummary, len(f.Params))}
	for i, p := range f.Params {
		s.Params[i] = w.paramSummary(f, p)
	}
	s.Ret = w.retSummary(f)
	if len(f.Imprecise) > 0 {
		// weak updates: what its walk found is not all it may do
		for i := range s.Params {
			s.Params[i].Open = true
		}
		s.Ret.Open = true
	}
	return s
}

// sinksAt notes the sink models node i of f is an operand of.
func (w *walker) sinksAt(f *Func, i int) {
	for name, sk := range w.env.Models.Sinks {
		if sk.isSink(f, i) {
			w.acc.sinks[name] = true
		}
	}
}

func (w *walker) sourcesAt(f *Func, i int) {
	for name, src := range w.env.Models.Sources {
		if src.isSource(f, i) {
			w.acc.sources[name] = true
		}
	}
}

// paramSummary walks forwards from parameter node p within f.
func (w *walker) paramSummary(f *Func, p int) ParamSummary {
	w.walkReset()
	var ps ParamSummary
	conf := w.acc.marks(len(f.Nodes))
	conf[p] = 1
	queue := append(w.acc.queue[:0], p)
	for k := 0; k < len(queue); k++ {
		i := queue[k]
		n := &f.Nodes[i]
		if n.Loc.Kind == Arg || n.Loc.Kind == Output {
			w.sinksAt(f, i)
		}
		w.lateOpen(f, n)
		switch n.Kind {
		case "return":
			ps.Return = true
			ps.Conf = max(ps.Conf, conf[i])
			continue
		case RefOut, Throw:
			w.acc.open = true
			continue
		}
		if n.Loc.Kind == Prop && n.Kind != "load" {
			w.acc.stores[n.Loc.Name] = true
			w.acc.open = true
		}
		queue = w.inside(f, i, true, conf, queue)
	}
	w.acc.queue = queue[:0]
	ps.Open = w.acc.open || w.stopped || len(w.cuts) > 0
	ps.Stores, ps.Sinks = setList(w.acc.stores), setList(w.acc.sinks)
	return ps
}

// inside queues the nodes of f that node i's moves (forwards or backwards)
// reach first, each with the confidence of the way there (conf); a move that
// leaves f, or a global, makes the walked value open.
func (w *walker) inside(f *Func, i int, forward bool, conf []float64, queue []int) []int {
	s := state{fn: f.ID, node: i}
	if w.hasGlobal(f, s, forward) {
		w.acc.open = true
	}
	var es []edge
	if forward {
		es = w.forward(s)
	} else {
		es = w.backward(s)
	}
	for _, e := range es {
		if e.to.fn != f.ID || e.to.ncs != 0 || e.to.node < 0 {
			w.acc.open = true
			continue
		}
		if conf[e.to.node] > 0 {
			continue
		}
		if !w.tick() {
			break
		}
		conf[e.to.node] = conf[i] * edgeConf(e)
		queue = append(queue, e.to.node)
	}
	return queue
}

// lateOpen makes the walk open at an argument or value of a `static::`
// call: a query also follows the overrides late static binding may run
// (the facade adds those links), which the build's links do not hold.
func (w *walker) lateOpen(f *Func, n *Node) {
	if n.Call >= 0 && (n.Kind == "arg" || n.Kind == "call") && strings.EqualFold(f.Calls[n.Call].Receiver, "static") {
		w.acc.open = true
	}
}

func edgeConf(e edge) float64 {
	if e.confidence <= 0 {
		return 1
	}
	return e.confidence
}

// retSummary walks backwards from f's returns within f.
func (w *walker) retSummary(f *Func) RetSummary {
	w.walkReset()
	var rs RetSummary
	conf := w.acc.marks(len(f.Nodes))
	queue := w.acc.queue[:0]
	for _, r := range f.Returns {
		if conf[r] == 0 {
			conf[r] = 1
			queue = append(queue, r)
		}
	}
	params := make([]float64, len(f.Params))
	for k := 0; k < len(queue); k++ {
		i := queue[k]
		n := &f.Nodes[i]
		if n.Loc.Kind == Superglobal || n.Loc.Kind == CallResult {
			w.sourcesAt(f, i)
		}
		w.lateOpen(f, n)
		if n.Kind == "param" {
			if pos := f.paramPos(i); pos >= 0 {
				params[pos] = max(params[pos], conf[i])
			}
			continue
		}
		queue = w.inside(f, i, false, conf, queue)
	}
	w.acc.queue = queue[:0]
	for pos, c := range params {
		if c > 0 {
			rs.Params = append(rs.Params, pos)
			rs.Conf = append(rs.Conf, c)
		}
	}
	rs.Open = w.acc.open || w.stopped || len(w.cuts) > 0
	rs.Sources = setList(w.acc.sources)
	return rs
}

// Revision is what summaries are computed over: the functions to
// summarise by graph id, with the file each is in, and the call edges
// between them (as Env gives them). Env.Func may lower or decode a function
// when asked and forget it later: a summary walk holds only its component's
// functions and their callees'.
type Revision struct {
	Env Env
	// IDs are the functions to summarise; components are first walked in
	// this order (by file keeps a file's functions together).
	IDs  []string
	Path func(id string) string
	// Callees returns the links out of a function (as Env.Callees).
	Callees func(id string) []Link
	// File returns the bytes of a file's stored lowering, which a summary's
	// input fingerprint covers.
	File func(path string) []byte
	// Prev returns a summary an earlier build stored for id, reused when
	// its Input matches; nil when none.
	Prev func(id string) *Summary
}

// SummaryStats counts what Summarize did.
type SummaryStats struct {
	Functions  int // summaries made
	Reused     int // taken from Prev
	Components int // strongly connected components of more than one function or with a self call
	Capped     int // functions of components the fixpoint cap stopped
}

// Summarize computes the summaries of r.Funcs bottom-up over the strongly
// connected components of the call graph: a component's callees outside it
// are summarised first, and inside it the summaries are recomputed until
// none changes (at most maxRounds rounds; past that its functions are
// Capped). A component whose input fingerprint equals the one its
// summaries were stored with in r.Prev is not walked again. Components
// whose callees are done run in parallel, one walker per core; each result
// depends only on its callees', so the summaries do not depend on the
// order.
func Summarize(ctx context.Context, r Revision) (map[string]*Summary, SummaryStats, error) {
	var st SummaryStats
	known := make(map[string]bool, len(r.IDs))
	var ids []string
	for _, id := range r.IDs {
		if !known[id] {
			known[id] = true
			ids = append(ids, id)
		}
	}
	succ := func(id string) []string {
		var out []string
		for _, l := range r.Callees(id) {
			if known[l.Callee] {
				out = append(out, l.Callee)
			}
		}
		return out
	}
	comps := components(ids, succ)
	compOf := make(map[string]int, len(ids))
	for k, comp := range comps {
		for _, id := range comp {
			compOf[id] = k
		}
	}
	// dependents[j]: the components calling into j; pending[k]: the
	// components k calls into that are not done
	dependents := make([][]int, len(comps))
	pending := make([]int, len(comps))
	for k, comp := range comps {
		seen := map[int]bool{}
		for _, id := range comp {
			for _, v := range succ(id) {
				if j := compOf[v]; j != k && !seen[j] {
					seen[j] = true
					dependents[j] = append(dependents[j], k)
					pending[k]++
				}
			}
		}
	}
	store := &sumStore{sums: make(map[string]*Summary, len(ids)), hashes: make(map[string]uint64, len(ids))}
	models := r.Env.Models.Fingerprint()
	fileHash := map[string]uint64{}
	for _, id := range ids {
		if p := r.Path(id); r.File != nil {
			if _, ok := fileHash[p]; !ok {
				h := fnv.New64a()
				h.Write(r.File(p))
				fileHash[p] = h.Sum64()
			}
		}
	}
	ready := make(chan int, len(comps))
	for k := range comps {
		if pending[k] == 0 {
			ready <- k
		}
	}
	var mu sync.Mutex // pending, st, firstErr
	var firstErr error
	left := len(comps)
	if left == 0 {
		return store.sums, st, nil
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(comps)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newWalker(ctx, r.Env, Budget{MaxStates: maxSummaryStates, MaxMS: 1 << 30})
			w.budget.Depth = 0 // every call is applied through its callee's summary
			w.acc = &sumAcc{store: store}
			for k := range ready {
				one, err := w.component(comps[k], r, fileHash, models, succ)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				st.Functions += one.Functions
				st.Reused += one.Reused
				st.Components += one.Components
				st.Capped += one.Capped
				for _, d := range dependents[k] {
					if pending[d]--; pending[d] == 0 {
						ready <- d
					}
				}
				if left--; left == 0 {
					close(ready)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, st, firstErr
	}
	return store.sums, st, nil
}

// sumStore holds the summaries made so far, shared by the walkers.
type sumStore struct {
	mu     sync.RWMutex
	sums   map[string]*Summary
	hashes map[string]uint64 // output fingerprint of every summary done
}

func (s *sumStore) get(id string) *Summary {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.sums[id]
}

func (s *sumStore) put(id string, sum *Summary, done bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sums[id] = sum
	if done {
		s.hashes[id] = outputHash(sum)
	}
}

func (s *sumStore) hash(id string) uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.hashes[id]
}

// component summarises one strongly connected component, or takes its
// stored summaries when its input is unchanged.
func (w *walker) component(comp []string, r Revision, fileHash map[string]uint64, models uint64, succ func(string) []string) (SummaryStats, error) {
	var st SummaryStats
	if err := w.ctx.Err(); err != nil {
		return st, err
	}
	store := w.acc.store
	in := componentInput(comp, r, fileHash, store, models)
	st.Functions = len(comp)
	if reused := reuse(comp, in, r.Prev); reused != nil {
		for i, id := range comp {
			store.put(id, reused[i], true)
		}
		st.Reused = len(comp)
		return st, nil
	}
	byID := map[string]*Func{}
	var members []string
	for _, id := range comp {
		if f := w.fn(id); f != nil {
			byID[id] = f
			members = append(members, id)
		}
	}
	clear(w.cuts) // a callee not lowered, noted while loading
	comp = members
	st.Functions = len(comp)
	if len(comp) == 0 {
		return st, w.err
	}
	recursive := len(comp) > 1 || slices.Contains(succ(comp[0]), comp[0])
	if recursive {
		st.Components = 1
		for _, id := range comp {
			store.put(id, &Summary{Params: make([]ParamSummary, len(byID[id].Params))}, false)
		}
	}
	// a worklist: a member whose summary changed queues its callers in
	// the component; at most maxRounds walks per member in all
	callersIn := map[string][]string{}
	for _, id := range comp {
		for _, v := range succ(id) {
			if slices.Contains(comp, v) && !slices.Contains(callersIn[v], id) {
				callersIn[v] = append(callersIn[v], id)
			}
		}
	}
	queue := slices.Clone(comp)
	queued := map[string]bool{}
	for _, id := range comp {
		queued[id] = true
	}
	for budget := maxRounds * len(comp); len(queue) > 0 && budget > 0; budget-- {
		id := queue[0]
		queue = queue[1:]
		queued[id] = false
		s := w.summarize(byID[id])
		if old := store.get(id); old != nil && sameSummary(old, s) {
			continue
		}
		store.put(id, s, false)
		if !recursive {
			continue
		}
		for _, c := range callersIn[id] {
			if !queued[c] {
				queued[c] = true
				queue = append(queue, c)
			}
		}
	}
	settled := len(queue) == 0
	for _, id := range comp {
		s := store.get(id)
		s.Capped = !settled
		s.Input = in
		if !settled {
			st.Capped++
		}
		store.put(id, s, true)
	}
	return st, w.err
}

// reuse returns the stored summaries of comp when every one was computed
// from input in.
func reuse(comp []string, in uint64, prev func(string) *Summary) []*Summary {
	if prev == nil {
		return nil
	}
	out := make([]*Summary, len(comp))
	for i, id := range comp {
		s := prev(id)
		if s == nil || s.Input != in {
			return nil
		}
		out[i] = s
	}
	return out
}

// componentInput fingerprints what comp's summaries depend on: the models,
// each member's id and its file's lowering, its call edges, and the
// summaries of the callees outside comp (done, in store).
func componentInput(comp []string, r Revision, fileHash map[string]uint64, store *sumStore, models uint64) uint64 {
	h := fnv.New64a()
	var buf []byte
	buf = binary.LittleEndian.AppendUint64(buf, models)
	for _, id := range comp {
		buf = append(buf, id...)
		buf = append(buf, 0)
		buf = binary.LittleEndian.AppendUint64(buf, fileHash[r.Path(id)])
		ls := slices.Clone(r.Callees(id))
		slices.SortFunc(ls, compareLinks)
		for _, l := range ls {
			buf = append(buf, l.Callee...)
			buf = append(buf, 0)
			buf = binary.AppendVarint(buf, int64(l.Line))
			buf = append(buf, l.Name...)
			buf = append(buf, 0)
			buf = append(buf, l.Provenance...)
			buf = append(buf, 0)
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(l.Confidence))
			if l.Late {
				buf = append(buf, 1)
			}
			if !slices.Contains(comp, l.Callee) {
				buf = binary.LittleEndian.AppendUint64(buf, store.hash(l.Callee)) // 0 for a callee without an IR
			}
		}
		h.Write(buf)
		buf = buf[:0]
	}
	return h.Sum64()
}

func compareLinks(a, b Link) int {
	if c := strings.Compare(a.Callee, b.Callee); c != 0 {
		return c
	}
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	if c := strings.Compare(a.Provenance, b.Provenance); c != 0 {
		return c
	}
	if a.Confidence != b.Confidence {
		if a.Confidence < b.Confidence {
			return -1
		}
		return 1
	}
	if a.Late != b.Late {
		if a.Late {
			return 1
		}
		return -1
	}
	return 0
}

// outputHash fingerprints what s says, not what it was made from (Input):
// a caller's input changes only when its callee's summary does.
func outputHash(s *Summary) uint64 {
	c := *s
	c.Input = 0
	h := fnv.New64a()
	h.Write(encodeSummary(nil, "", &c))
	return h.Sum64()
}

func sameSummary(a, b *Summary) bool {
	return string(encodeSummary(nil, "", a)) == string(encodeSummary(nil, "", b))
}

// components returns the strongly connected components of the graph over
// ids that succ gives, callees before callers (Tarjan's algorithm, whose
// output order is a reverse topological order of the components), with
// an explicit stack so a long call chain cannot overflow anything.
func components(ids []string, succ func(string) []string) [][]string {
	index := make(map[string]int, len(ids))
	low := make(map[string]int, len(ids))
	onStack := map[string]bool{}
	var stack []string
	var out [][]string
	next := 0
	type frame struct {
		id   string
		succ []string
		i    int
	}
	for _, root := range ids {
		if _, ok := index[root]; ok {
			continue
		}
		work := []frame{{id: root, succ: succ(root)}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(work) > 0 {
			fr := &work[len(work)-1]
			if fr.i < len(fr.succ) {
				v := fr.succ[fr.i]
				fr.i++
				if _, ok := index[v]; !ok {
					index[v], low[v] = next, next
					next++
					stack = append(stack, v)
					onStack[v] = true
					work = append(work, frame{id: v, succ: succ(v)})
				} else if onStack[v] {
					low[fr.id] = min(low[fr.id], index[v])
				}
				continue
			}
			id := fr.id
			work = work[:len(work)-1]
			if len(work) > 0 {
				p := work[len(work)-1].id
				low[p] = min(low[p], low[id])
			}
			if low[id] == index[id] {
				var comp []string
				for {
					v := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[v] = false
					comp = append(comp, v)
					if v == id {
						break
					}
				}
				sort.Strings(comp)
				out = append(out, comp)
			}
		}
	}
	return out
}

// summaryOf returns g's summary: while summarising, the one computed so
// far (nil for a callee not summarised yet); in a query, the stored one,
// nil when there is none or it is Capped.
func (w *walker) summaryOf(g *Func) *Summary {
	if w.acc != nil {
		if s := w.acc.store.get(g.ID); s != nil && !s.Capped {
			return s
		}
		return nil
	}
	if w.env.Summary == nil {
		return nil
	}
	if s, ok := w.sums[g.ID]; ok {
		return s
	}
	s, err := w.env.Summary(w.ctx, g.ID)
	if err != nil && w.err == nil {
		w.err = err
	}
	if s != nil && (s.Capped || len(s.Params) != len(g.Params)) {
		s = nil
	}
	w.sums[g.ID] = s
	return s
}

// summaryForward applies callee g's summary to argument node n of f (state
// s), which reaches g's parameter nodes ps through link l, when the walk
// may not enter g (its depth budget is spent): a move to the call's value
// when a parameter reaches a return, and a `depth` cut point only when a
// parameter also goes where the summary does not follow. enter is true
// when the summary says a parameter reaches the sink the flow looks for:
// the walk then enters g after all, to give the path step by step.
func (w *walker) summaryForward(f *Func, n *Node, s state, g *Func, l Link, ps []int) (out []edge, enter bool) {
	sum := w.summaryOf(g)
	if sum == nil {
		w.cut(f.Path, n.Line, "depth")
		return nil, false
	}
	d, conf := derivedLink(l)
	ret, open, best := false, false, 0.0
	for _, p := range ps {
		x := sum.param(g, p)
		if x == nil {
			open = true
			continue
		}
		if x.Return {
			ret, best = true, max(best, x.Conf)
		}
		open = open || x.Open
		if w.goal.Sink != "" && slices.Contains(x.Sinks, w.goal.Sink) {
			enter = true
		}
		if w.acc != nil {
			for _, k := range x.Sinks {
				w.acc.sinks[k] = true
			}
			for _, k := range x.Stores {
				w.acc.stores[k] = true
			}
		}
	}
	if enter {
		return nil, true
	}
	if w.acc == nil {
		w.noteImprecise(g)
	}
	if ret {
		to := s
		to.node = f.Calls[n.Call].Result
		c := conf * best
		out = append(out, edge{to: to, kind: SummaryEdge, via: linkVia(f, n.Call, g.ID), derived: d || c < 1, confidence: c})
	}
	if open || w.listsBodies() {
		w.cut(f.Path, n.Line, "depth")
	}
	return out, false
}

// listsBodies reports whether the query's answer is about statements a
// summary hides: a slice lists the nodes inside the callees it crosses, and
// a flow to a place may end inside a callee, so a summary applied there
// still leaves a depth cut point; a flow to a model does not (the summary
// says whether the callee reaches it).
func (w *walker) listsBodies() bool {
	return w.acc == nil && (!w.flow || w.goal.Sink == "" && w.goal.Source == "")
}

// summaryBackward applies callee g's summary to call node n of f (state s),
// reached through link l, when the walk may not enter g: moves to the
// arguments whose parameters reach a return, and a `depth` cut point only
// when the return also depends on what the summary does not follow. enter
// is true when the return carries the source the flow looks for.
func (w *walker) summaryBackward(f *Func, n *Node, s state, g *Func, l Link) (out []edge, enter bool) {
	sum := w.summaryOf(g)
	if sum == nil {
		w.cut(f.Path, n.Line, "depth")
		return nil, false
	}
	if w.goal.Source != "" && slices.Contains(sum.Ret.Sources, w.goal.Source) {
		return nil, true
	}
	if w.acc != nil {
		for _, k := range sum.Ret.Sources {
			w.acc.sources[k] = true
		}
	} else {
		w.noteImprecise(g)
	}
	d, conf := derivedLink(l)
	c := &f.Calls[n.Call]
	for k, pos := range sum.Ret.Params {
		if pos >= len(g.Params) {
			continue
		}
		cf := conf * sum.Ret.Conf[k]
		for _, a := range g.argsFor(f, c, g.Params[pos]) {
			to := s
			to.node = a
			out = append(out, edge{to: to, kind: SummaryEdge, via: linkVia(f, n.Call, g.ID), derived: d || cf < 1, confidence: cf})
		}
	}
	if sum.Ret.Open || w.listsBodies() {
		w.cut(f.Path, n.Line, "depth")
	}
	return out, false
}
