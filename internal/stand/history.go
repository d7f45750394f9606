// This file replays real history in the scratch tree: for each commit after
// the indexed one it measures M2 on the revision before it (co-changed
// methods against impact), checks the commit out and asks questions about
// the changed files (M5), then times `reindex --commit` (M7).

package stand

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
)

// hunk is a changed range of the old side: lines Start..End, or, when End
// < Start, lines inserted after line Start.
type hunk struct{ Start, End int }

// fileChange is one changed PHP file of a commit.
type fileChange struct {
	Path    string
	Deleted bool // no new side
	Added   bool // no old side
	Hunks   []hunk
}

// parseDiff reads `git diff -U0 --no-renames` output.
func parseDiff(out string) []fileChange {
	var fs []fileChange
	var cur *fileChange
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "diff --git "):
			fs = append(fs, fileChange{})
			cur = &fs[len(fs)-1]
			if _, b, ok := strings.Cut(l, " b/"); ok {
				cur.Path = b
			}
		case cur == nil:
		case strings.HasPrefix(l, "new file mode"):
			cur.Added = true
		case strings.HasPrefix(l, "deleted file mode"):
			cur.Deleted = true
		case strings.HasPrefix(l, "--- a/"):
			cur.Path = strings.TrimPrefix(l, "--- a/")
		case strings.HasPrefix(l, "@@ -"):
			old := strings.Fields(l)[1][1:] // s[,c]
			s, c, found := strings.Cut(old, ",")
			start, _ := strconv.Atoi(s)
			n := 1
			if found {
				n, _ = strconv.Atoi(c)
			}
			cur.Hunks = append(cur.Hunks, hunk{Start: start, End: start + n - 1})
		}
	}
	var out2 []fileChange
	for _, f := range fs {
		// a change of mode alone leaves the content as indexed
		if strings.HasSuffix(f.Path, ".php") && (len(f.Hunks) > 0 || f.Added || f.Deleted) {
			out2 = append(out2, f)
		}
	}
	return out2
}

// touches says whether lines a..b of the old side changed.
func (f fileChange) touches(a, b int) bool {
	if f.Deleted {
		return true
	}
	for _, h := range f.Hunks {
		if h.End < h.Start { // insertion after h.Start: inside a..b when a ≤ Start < b
			if a <= h.Start && h.Start < b {
				return true
			}
			continue
		}
		if h.Start <= b && a <= h.End {
			return true
		}
	}
	return false
}

// changedDecls are the functions and methods of the old side whose lines a
// change touches (decls are the old files' declarations).
func changedDecls(changes []fileChange, decls []Decl) []Decl {
	by := map[string]fileChange{}
	for _, c := range changes {
		if !c.Added {
			by[c.Path] = c
		}
	}
	var out []Decl
	for _, d := range decls {
		c, ok := by[d.Path]
		if ok && (d.Kind == "function" || d.Kind == "method") && c.touches(d.Line, d.End) {
			out = append(out, d)
		}
	}
	return out
}

// M2 is impact completeness on co-change.
type M2 struct {
	Precision *float64          `json:"precision"` // depth 3, all
	Recall    *float64          `json:"recall"`
	ByDepth   map[string]PRPair `json:"by_depth"` // "1".."3"
	// ByBlock is precision and recall at each depth ("1".."3") of each block
	// of the answer in mode all: calls (the hard and soft symbols, as
	// ByDepth), tests, co_change and all (their union).
	ByBlock   map[string]map[string]PR `json:"by_block"`
	Commits   int                      `json:"commits"` // commits changing two or more methods
	Seeds     int                      `json:"seeds"`   // changed methods asked
	Unmatched int                      `json:"unmatched"`
	TooLarge  int                      `json:"too_large"` // commits left out for changing more than 30 methods
	Method    string                   `json:"method"`
	Sample    int                      `json:"sample"`
	Seed      uint64                   `json:"seed"`
	Reason    string                   `json:"reason,omitempty"`
	counts    map[string]*[3]int
}

// PRPair is precision and recall of stated chains only and of all.
type PRPair struct {
	Stated PR `json:"stated"`
	All    PR `json:"all"`
}

// PR is one precision/recall with its counts.
type PR struct {
	Precision *float64 `json:"precision"`
	Recall    *float64 `json:"recall"`
	Hits      int      `json:"hits"`
	Predicted int      `json:"predicted"`
	Truth     int      `json:"truth"`
}

const m2Method = "for replayed commits that change two to 30 functions or methods (old-side lines of `git diff -U0` against PHP's tokenizer's ranges), " +
	"up to 5 changed ones per commit are asked `impact` (depth 1-3, mode hard = stated only, and all) on the revision before the commit; the predicted functions and methods are " +
	"matched to the other changed ones; precision and recall over the sums (LCIP's anchor: 69 % / 79 %)"

// M5 is freshness.
type M5 struct {
	Incidents      *int     `json:"incidents"`
	StaleShare     *float64 `json:"stale_share"`
	Answers        int      `json:"answers"`
	Touching       int      `json:"touching"` // answers citing a changed file
	Marked         int      `json:"marked"`   // of them, with a stale warning for it
	ChangedFacts   int      `json:"changed_facts"`
	MarkedFacts    int      `json:"marked_facts"`
	IncidentList   []string `json:"incident_list,omitempty"`
	Unwarned       []string `json:"unwarned,omitempty"` // answers citing a changed file without a warning for it (not incidents unless a changed fact is cited)
	K8             string   `json:"k8"`
	Method         string   `json:"method"`
	Sample         int      `json:"sample"`
	Seed           uint64   `json:"seed"`
	Reason         string   `json:"reason,omitempty"`
	incidentsCount int
}

const m5Method = "after each replayed commit is checked out (before reindexing), outline, symbol, code and callers about up to 3 changed files; an answer touches a changed file when it cites it; " +
	"a cited fact whose old-side lines the diff changed (or whose file was deleted) is marked when it carries its own stale mark or a stale warning covers its lines; incidents = answers citing such a fact unmarked"

func (s *stand) history(ctx context.Context) error {
	m2 := &M2{Method: m2Method, Seed: s.opts.Seed, ByDepth: map[string]PRPair{}, counts: map[string]*[3]int{}}
	m5 := &M5{Method: m5Method, Seed: s.opts.Seed}
	s.rep.M2, s.rep.M5 = m2, m5
	if !s.git || len(s.replay) == 0 {
		reason := s.rep.HistoryReason
		if reason == "" {
			reason = "no commit replayed (--history 0)"
		}
		m2.Reason, m5.Reason, s.rep.M7.Reason = reason, reason, reason
		m5.K8 = "not checked: " + reason
		return nil
	}
	rng := rand.New(rand.NewPCG(s.opts.Seed, s.opts.Seed^0xf2))
	crng := rand.New(rand.NewPCG(s.opts.Seed, s.opts.Seed^0xcc)) // co_change tasks' seeds
	prev := s.base
	var incr []float64
	for i, c := range s.replay {
		if err := ctx.Err(); err != nil {
			return err
		}
		out, err := gitOut(ctx, s.tree, "diff", "-U0", "--no-renames", "--no-color", "--no-ext-diff", prev, c)
		if err != nil {
			return err
		}
		changes := parseDiff(out)
		var old []string
		for _, f := range changes {
			if !f.Added {
				old = append(old, f.Path)
			}
		}
		oldFacts, err := phpFacts(ctx, s.tree, old)
		if err != nil {
			return err
		}
		decls := changedDecls(changes, oldFacts.Decls)
		if err := s.coChange(ctx, m2, decls, rng); err != nil {
			return err
		}
		if err := s.coChangeTask(ctx, c, decls, crng); err != nil {
			return err
		}
		if _, err := gitOut(ctx, s.tree, "-c", "advice.detachedHead=false", "checkout", "-q", "--detach", c); err != nil {
			return err
		}
		if err := s.freshness(ctx, m5, changes, decls, rng); err != nil {
			return err
		}
		d, reused, err := s.reindex(ctx)
		if err != nil {
			return err
		}
		incr = append(incr, round(d))
		s.rep.M7.FilesChanged = append(s.rep.M7.FilesChanged, len(changes))
		s.rep.M7.ReusedByBuild = append(s.rep.M7.ReusedByBuild, reused)
		s.rep.Replayed = i + 1
		s.note("commit %d/%d %s: %d PHP files, %d methods changed, reindex %.2fs", i+1, len(s.replay), s.short(c), len(changes), len(decls), d)
		prev = c
	}
	m2.finish()
	m5.finish()
	s.rep.M7.Incrementals = incr
	s.rep.M7.IncrementalS = quantiles(incr)
	s.rep.M7.Sample = len(incr)
	return nil
}

// maxCoChange is the most changed methods a commit may have for M2: a
// merge or a sweeping refactoring is not one change whose parts depend on
// each other (LCIP leaves such commits out too).
const maxCoChange = 30

// coChange asks impact for up to 5 of a commit's changed methods.
func (s *stand) coChange(ctx context.Context, m *M2, decls []Decl, rng *rand.Rand) error {
	if len(decls) < 2 {
		return nil
	}
	if len(decls) > maxCoChange {
		m.TooLarge++
		return nil
	}
	m.Commits++
	for _, seed := range sample(decls, 5, rng) {
		var truth []Place
		for _, d := range decls {
			if d.Path != seed.Path || d.Line != seed.Line {
				truth = append(truth, Place{Path: d.Path, Line: d.Line, End: d.End})
			}
		}
		m.Seeds++
		id, err := s.idOf(ctx, seed)
		if err != nil {
			return err
		}
		for depth := 1; depth <= 3; depth++ {
			for _, mode := range []string{"hard", "all"} {
				var pred []Place
				if id != "" {
					ans, err := s.ask.call(ctx, "impact", map[string]any{"id": id, "depth": depth, "mode": mode, "limit": 500, "format": facade.FormatDetailed})
					if err != nil {
						return fmt.Errorf("impact %s: %w", seed.Name, err)
					}
					pred = predicted(ans.Result, id, mode)
					if mode == "all" {
						for _, b := range m2Blocks {
							m.add(strconv.Itoa(depth), "block:"+b, judge(truth, predictedIn(ans.Result, id, b)))
						}
					}
				} else if mode == "all" {
					for _, b := range m2Blocks {
						m.add(strconv.Itoa(depth), "block:"+b, judge(truth, nil))
					}
				}
				m.add(strconv.Itoa(depth), mode, judge(truth, pred))
			}
		}
		if id == "" {
			m.Unmatched++
		}
	}
	return nil
}

// coChangeTask asks "what else must change with X" for one changed
// function or method X of a commit that changes two to 30 (as M2 counts
// them), on the revision and the tree before the commit, on both sides; the
// truth is the other changed ones. At most PerKind tasks in a run.
func (s *stand) coChangeTask(ctx context.Context, commit string, decls []Decl, rng *rand.Rand) error {
	if len(decls) < 2 || len(decls) > maxCoChange || len(s.coTasks) >= s.opts.PerKind {
		return nil
	}
	var named []Decl
	for _, d := range decls {
		if !strings.HasPrefix(d.Name, "__") {
			named = append(named, d)
		}
	}
	if len(named) == 0 {
		return nil
	}
	x := named[rng.IntN(len(named))]
	var truth []Place
	for _, d := range decls {
		if d.Path != x.Path || d.Line != x.Line {
			truth = append(truth, Place{Path: d.Path, Line: d.Line, End: d.End})
		}
	}
	sortPlaces(truth)
	t := Task{Kind: KindCoChange, Name: x.Name, Sub: x.Kind, Path: x.Path, Target: qualified(x), Commit: commit,
		Question: "what else must change with " + qualified(x) + "?", Truth: truth, Source: "git (the replayed commit)"}
	files, err := phpFiles(ctx, s.tree, s.opts.Config)
	if err != nil {
		return err
	}
	rr, err := s.ask.run(ctx, t)
	if err != nil {
		return fmt.Errorf("co_change task %s: %w", t.Question, err)
	}
	br, err := newBaseline(s.tree, files).run(ctx, t)
	if err != nil {
		return fmt.Errorf("co_change task %s baseline: %w", t.Question, err)
	}
	s.coTasks = append(s.coTasks, t)
	s.coRes = append(s.coRes, TaskResult{Kind: t.Kind, Question: t.Question, Truth: len(truth), Source: t.Source, Ragraf: rr, Baseline: br})
	return nil
}

// predicted are the functions and methods an impact answer lists (hard
// only, or hard and soft), the target left out.
func predicted(v any, target, mode string) []Place {
	res, _ := v.(map[string]any)
	var out []Place
	blocks := []string{"hard"}
	if mode == "all" {
		blocks = append(blocks, "soft")
	}
	for _, b := range blocks {
		bm, _ := res[b].(map[string]any)
		syms, _ := bm["symbols"].([]any)
		for _, x := range syms {
			sm, _ := x.(map[string]any)
			k, _ := sm["kind"].(string)
			id, _ := sm["id"].(string)
			p, _ := sm["path"].(string)
			l, _ := sm["line"].(float64)
			if (k != "function" && k != "method") || id == target || p == "" {
				continue
			}
			out = append(out, Place{Path: p, Line: int(l)})
		}
	}
	return out
}

// m2Blocks are the blocks of an impact answer M2 reports apart.
var m2Blocks = []string{"calls", "tests", "co_change", "all"}

// predictedIn are the functions and methods one block of an impact answer
// (mode all) lists, the target left out: calls (hard and soft symbols),
// tests, co_change (co_changed symbols) or all of them.
func predictedIn(v any, target, block string) []Place {
	res, _ := v.(map[string]any)
	var lists []any
	if block == "calls" || block == "all" {
		for _, b := range []string{"hard", "soft"} {
			bm, _ := res[b].(map[string]any)
			l, _ := bm["symbols"].([]any)
			lists = append(lists, l...)
		}
	}
	if block == "tests" || block == "all" {
		for _, b := range []string{"hard", "soft"} {
			bm, _ := res[b].(map[string]any)
			l, _ := bm["tests"].([]any)
			lists = append(lists, l...)
		}
	}
	if block == "co_change" || block == "all" {
		cm, _ := res["co_changed"].(map[string]any)
		l, _ := cm["symbols"].([]any)
		lists = append(lists, l...)
	}
	seen := map[Place]bool{}
	var out []Place
	for _, x := range lists {
		sm, _ := x.(map[string]any)
		k, _ := sm["kind"].(string)
		id, _ := sm["id"].(string)
		p, _ := sm["path"].(string)
		l, _ := sm["line"].(float64)
		pl := Place{Path: p, Line: int(l)}
		if (k != "function" && k != "method") || id == target || p == "" || seen[pl] {
			continue
		}
		seen[pl] = true
		out = append(out, pl)
	}
	return out
}

func (m *M2) add(depth, mode string, j Judgement) {
	k := depth + "/" + mode
	c := m.counts[k]
	if c == nil {
		c = &[3]int{}
		m.counts[k] = c
	}
	c[0] += j.TrueCited
	c[1] += j.Cited
	c[2] += j.Truth
}

func (m *M2) finish() {
	for d := 1; d <= 3; d++ {
		ds := strconv.Itoa(d)
		var pp PRPair
		for _, mode := range []string{"hard", "all"} {
			c := m.counts[ds+"/"+mode]
			if c == nil {
				c = &[3]int{}
			}
			pr := PR{Hits: c[0], Predicted: c[1], Truth: c[2], Precision: ratio(c[0], c[1]), Recall: ratio(c[0], c[2])}
			if mode == "hard" {
				pp.Stated = pr
			} else {
				pp.All = pr
			}
		}
		m.ByDepth[ds] = pp
		for _, b := range m2Blocks {
			c := m.counts[ds+"/block:"+b]
			if c == nil {
				c = &[3]int{}
			}
			if m.ByBlock == nil {
				m.ByBlock = map[string]map[string]PR{}
			}
			if m.ByBlock[ds] == nil {
				m.ByBlock[ds] = map[string]PR{}
			}
			m.ByBlock[ds][b] = PR{Hits: c[0], Predicted: c[1], Truth: c[2], Precision: ratio(c[0], c[1]), Recall: ratio(c[0], c[2])}
		}
	}
	m.Precision, m.Recall = m.ByDepth["3"].All.Precision, m.ByDepth["3"].All.Recall
	m.Sample = m.Seeds
	if m.Seeds == 0 && m.Reason == "" {
		m.Reason = "no replayed commit changed two or more functions or methods"
	}
}

// freshness asks about up to 3 changed files of a commit and judges marks.
func (s *stand) freshness(ctx context.Context, m *M5, changes []fileChange, decls []Decl, rng *rand.Rand) error {
	by := map[string]fileChange{}
	var files []fileChange
	for _, c := range changes {
		if !c.Added {
			by[c.Path] = c
			files = append(files, c)
		}
	}
	for _, f := range sample(files, 3, rng) {
		var asks []func() (answer, error)
		asks = append(asks, func() (answer, error) { return s.ask.call(ctx, "outline", map[string]any{"path": f.Path}) })
		for _, d := range decls {
			if d.Path != f.Path {
				continue
			}
			name := d.Name
			asks = append(asks, func() (answer, error) {
				return s.ask.call(ctx, "symbol", map[string]any{"name": name, "path": f.Path})
			})
			id, err := s.idOf(ctx, d)
			if err != nil {
				return err
			}
			if id != "" {
				asks = append(asks,
					func() (answer, error) { return s.ask.call(ctx, "code", map[string]any{"id": id}) },
					func() (answer, error) {
						return s.ask.call(ctx, "callers", map[string]any{"id": id, "format": "concise"})
					})
			}
			break
		}
		for _, a := range asks {
			ans, err := a()
			if err != nil {
				if facade.AsError(err).Code == facade.ErrInternal {
					return err
				}
				continue
			}
			m.judge(ans, by)
		}
	}
	return nil
}

// judge records one answer asked after a commit was checked out.
func (m *M5) judge(ans answer, changed map[string]fileChange) {
	m.Answers++
	touching, incident := false, false
	for _, f := range citedPlaces(ans.Result) {
		c, ok := changed[f.Path]
		if !ok {
			continue
		}
		touching = true
		if !c.touches(f.Line, f.end()) {
			continue
		}
		m.ChangedFacts++
		if f.Marked || warned(ans.Env.StaleWarnings, f.Place) {
			m.MarkedFacts++
			continue
		}
		if !incident && len(m.IncidentList) < 20 {
			m.IncidentList = append(m.IncidentList, fmt.Sprintf("%s cites %s:%d unmarked", ans.Op, f.Path, f.Line))
		}
		incident = true
	}
	if !touching {
		return
	}
	m.Touching++
	warnedAny := false
	for _, w := range ans.Env.StaleWarnings {
		if _, ok := changed[w.Path]; ok {
			warnedAny = true
			break
		}
	}
	if warnedAny {
		m.Marked++
	} else if len(m.Unwarned) < 20 {
		var ps []string
		for p := range changed {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		m.Unwarned = append(m.Unwarned, fmt.Sprintf("%s (changed: %s)", ans.Op, strings.Join(ps, ", ")))
	}
	if incident {
		m.incidentsCount++
	}
}

func warned(ws []facade.StaleWarning, p Place) bool {
	for _, w := range ws {
		if w.Path != p.Path {
			continue
		}
		if w.Kind == "delete" || w.Kind == "rename" {
			return true
		}
		for i := 0; i+1 < len(w.Lines); i += 2 {
			if p.Line <= w.Lines[i+1] && w.Lines[i] <= p.end() {
				return true
			}
		}
	}
	return false
}

func (m *M5) finish() {
	n := m.incidentsCount
	m.Incidents = &n
	m.StaleShare = ratio(m.Marked, m.Touching)
	m.Sample = m.Answers
	switch {
	case m.Touching >= 50 && n == 0:
		m.K8 = fmt.Sprintf("passed: %d answers touching changed files, none relies on a changed fact without a mark", m.Touching)
	case n > 0:
		m.K8 = fmt.Sprintf("failed: %d of %d answers rely on a changed fact without a mark", n, m.Touching)
	default:
		m.K8 = fmt.Sprintf("too few answers: %d touching changed files (K8 asks for 50), none unmarked", m.Touching)
	}
}

// reindex runs what `ragraf reindex --commit` runs: compare while the next
// revision is built, then publish and archive. It returns the wall time.
func (s *stand) reindex(ctx context.Context) (float64, int, error) {
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		_, err := s.svc.DriftDetect(ctx, facade.DriftDetectArgs{Method: "compare"})
		done <- err
	}()
	waited := false
	var derr error
	wait := func() error {
		if !waited {
			derr, waited = <-done, true
			s.svc.Close()
		}
		return derr
	}
	info, err := rev.Reindex(ctx, rev.Options{Root: s.tree, Config: s.opts.Config, BeforePublish: wait})
	if werr := wait(); werr != nil && err == nil {
		err = werr
	}
	d := time.Since(start).Seconds()
	if err != nil {
		return d, 0, fmt.Errorf("reindex --commit: %w", err)
	}
	svc, err := facade.New(s.tree, facade.Options{})
	if err != nil {
		return d, 0, err
	}
	s.svc, s.ask.svc = svc, svc
	return d, info.Reused, nil
}
