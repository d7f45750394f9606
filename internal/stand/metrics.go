// This file defines the report and computes M1, M3, M6 and M7 from what the
// runs recorded; the computations are pure, so the tests check them against
// hand-computed values.

package stand

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/rev"
)

// Report is stand.json.
type Report struct {
	Project       string            `json:"project"`
	Commit        string            `json:"commit,omitempty"` // the indexed commit
	Revision      string            `json:"revision"`
	Capability    rev.Capability    `json:"capability"`
	FilesIndexed  int               `json:"files_indexed"`
	PHPFiles      int               `json:"php_files"`
	Seed          uint64            `json:"seed"`
	HistoryAsked  int               `json:"history_asked"`
	Replayed      int               `json:"replayed"`
	HistoryReason string            `json:"history_reason,omitempty"`
	TruthSources  map[string]string `json:"truth_sources"`
	Started       string            `json:"started"`
	ElapsedS      float64           `json:"elapsed_s"`
	Complete      bool              `json:"complete"`
	M1            *M1               `json:"M1"`
	M2            *M2               `json:"M2"`
	M3            *M3               `json:"M3"`
	M4            *M4               `json:"M4"`
	M5            *M5               `json:"M5"`
	M6            *M6               `json:"M6"`
	M7            *M7               `json:"M7"`
	Tasks         []TaskResult      `json:"tasks"`
}

// TaskResult is one task on both sides.
type TaskResult struct {
	ID       string  `json:"id"`
	Kind     string  `json:"kind"`
	Question string  `json:"question"`
	Truth    int     `json:"truth"`
	Source   string  `json:"truth_source"`
	Ragraf   SideRun `json:"ragraf"`
	Baseline SideRun `json:"baseline"`
}

// KindScore is M1 for one task kind.
type KindScore struct {
	Tasks            int      `json:"tasks"`
	Accuracy         *float64 `json:"accuracy"`
	BaselineAccuracy *float64 `json:"baseline_accuracy"`
	Precision        *float64 `json:"precision"` // mean over tasks of the first answer
	Recall           *float64 `json:"recall"`
	BaselinePrec     *float64 `json:"baseline_precision"`
	BaselineRecall   *float64 `json:"baseline_recall"`
	Reason           string   `json:"reason,omitempty"`
}

// M1 is first-query navigation accuracy.
type M1 struct {
	Accuracy         *float64             `json:"accuracy"`
	BaselineAccuracy *float64             `json:"baseline_accuracy"`
	ByKind           map[string]KindScore `json:"by_kind"`
	Method           string               `json:"method"`
	Sample           int                  `json:"sample"`
	Seed             uint64               `json:"seed"`
	Reason           string               `json:"reason,omitempty"`
}

// M3 is context savings.
type M3 struct {
	TokenRatio *float64 `json:"token_ratio"` // baseline ÷ ragraf, over all tasks
	// TokenRatioJSON and RagrafTokensJSON count ragraf's answers as the
	// compact JSON envelope (format json), as the stand counted before MCP
	// answered in text
	TokenRatioJSON   *float64           `json:"token_ratio_json"`
	RagrafTokensJSON int                `json:"ragraf_tokens_json"`
	CallRatio        *float64           `json:"call_ratio"`
	RagrafTokens     int                `json:"ragraf_tokens"`
	BaselineTokens   int                `json:"baseline_tokens"`
	RagrafCalls      int                `json:"ragraf_calls"`
	BaselineCalls    int                `json:"baseline_calls"`
	RagrafCovered    int                `json:"ragraf_covered"` // tasks whose truth it saw in full
	BaseCovered      int                `json:"baseline_covered"`
	ByKind           map[string]M3Ratio `json:"by_kind"`
	Method           string             `json:"method"`
	Sample           int                `json:"sample"`
	Seed             uint64             `json:"seed"`
	Reason           string             `json:"reason,omitempty"`
}

// M3Ratio is M3 for one kind.
type M3Ratio struct {
	Tasks          int      `json:"tasks"`
	TokenRatio     *float64 `json:"token_ratio"`
	CallRatio      *float64 `json:"call_ratio"`
	TokenRatioJSON *float64 `json:"token_ratio_json"`
	RagrafTokens   int      `json:"ragraf_tokens"`
	RagrafJSON     int      `json:"ragraf_tokens_json"`
	BaselineTokens int      `json:"baseline_tokens"`
	RagrafCalls    int      `json:"ragraf_calls"`
	BaselineCalls  int      `json:"baseline_calls"`
}

// M6 is link verifiability.
type M6 struct {
	ValidShare *float64 `json:"valid_share"`
	Valid      int      `json:"valid"`
	Population int      `json:"population"` // facts cited by every answer the stand got
	Invalid    []string `json:"invalid,omitempty"`
	Method     string   `json:"method"`
	Sample     int      `json:"sample"`
	Seed       uint64   `json:"seed"`
	Reason     string   `json:"reason,omitempty"`
}

// M7 is update cost.
type M7 struct {
	FullS         float64    `json:"full_s"`
	IncrementalS  *Quantiles `json:"incremental_s"`
	Files         int        `json:"files"`
	Method        string     `json:"method"`
	Sample        int        `json:"sample"` // incremental builds timed
	Seed          uint64     `json:"seed"`
	Reason        string     `json:"reason,omitempty"`
	Incrementals  []float64  `json:"incrementals,omitempty"`
	FilesChanged  []int      `json:"files_changed,omitempty"`
	ReusedByBuild []int      `json:"reused,omitempty"`
}

// Quantiles are p50 and p95 (nearest rank) and the mean.
type Quantiles struct {
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	Mean float64 `json:"mean"`
}

const (
	m1Method = "generated tasks (where is X defined, who calls X, what implements I, which code writes table T, what does this file declare, " +
		"which tests exercise X; and, on the revision before each replayed commit, what else must change with X); " +
		"each side's first answer is judged against independent truth (truth_source per task): it is correct when it cites every truth place " +
		"and at least half of what it cites is true (a cited place names a truth place in the same file starting at most 3 lines before it, matched one to one)"
	m3Method = "for each M1 task, the calls and cl100k tokens each side spends until it has seen every truth place or spent 20 calls: " +
		"ragraf's answers as MCP sends them (compact text, concise where the operation has it, pages followed; token_ratio_json counts the compact JSON envelope instead, as before text answers), the baseline's grep output and file windows; ratio = baseline ÷ ragraf over the sums"
	m6Method = "facts (path:line, end_line) cited by every answer of the run, sampled with the seed; valid when the file is in the indexed tree, 1 ≤ line ≤ its lines and line ≤ end_line ≤ its lines, read from the files as indexed (not from the index)"
	m7Method = "wall time of a full `ragraf index` of the scratch tree, then of `reindex --commit` (compare while building, archive) after each replayed commit"
)

func round(x float64) float64 { return math.Round(x*1000) / 1000 }

func ratio(a, b int) *float64 {
	if b == 0 {
		return nil
	}
	r := round(float64(a) / float64(b))
	return &r
}

func meanOf(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	r := round(s / float64(len(xs)))
	return &r
}

// quantiles by nearest rank.
func quantiles(xs []float64) *Quantiles {
	if len(xs) == 0 {
		return nil
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	rank := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return &Quantiles{P50: round(rank(0.5)), P95: round(rank(0.95)), Mean: *meanOf(s)}
}

func scoreM1(rs []TaskResult, sk skipped, seed uint64) *M1 {
	m := &M1{ByKind: map[string]KindScore{}, Method: m1Method, Sample: len(rs), Seed: seed}
	all := [2]int{}
	for _, k := range Kinds {
		var ks KindScore
		var c [2]int
		var p, r, bp, br []float64
		for _, t := range rs {
			if t.Kind != k {
				continue
			}
			ks.Tasks++
			if t.Ragraf.First.Correct {
				c[0]++
			}
			if t.Baseline.First.Correct {
				c[1]++
			}
			p, r = append(p, t.Ragraf.First.Precision()), append(r, t.Ragraf.First.Recall())
			bp, br = append(bp, t.Baseline.First.Precision()), append(br, t.Baseline.First.Recall())
		}
		all[0], all[1] = all[0]+c[0], all[1]+c[1]
		ks.Accuracy, ks.BaselineAccuracy = ratio(c[0], ks.Tasks), ratio(c[1], ks.Tasks)
		ks.Precision, ks.Recall, ks.BaselinePrec, ks.BaselineRecall = meanOf(p), meanOf(r), meanOf(bp), meanOf(br)
		if ks.Tasks == 0 {
			ks.Reason = sk[k]
		}
		m.ByKind[k] = ks
	}
	m.Accuracy, m.BaselineAccuracy = ratio(all[0], len(rs)), ratio(all[1], len(rs))
	if len(rs) == 0 {
		m.Reason = "no task could be generated from the truth"
	}
	return m
}

func scoreM3(rs []TaskResult, seed uint64) *M3 {
	m := &M3{ByKind: map[string]M3Ratio{}, Method: m3Method, Sample: len(rs), Seed: seed}
	for _, k := range Kinds {
		var kr M3Ratio
		for _, t := range rs {
			if t.Kind != k {
				continue
			}
			kr.Tasks++
			kr.RagrafTokens += t.Ragraf.Tokens
			kr.RagrafJSON += t.Ragraf.TokensJSON
			kr.BaselineTokens += t.Baseline.Tokens
			kr.RagrafCalls += t.Ragraf.Calls
			kr.BaselineCalls += t.Baseline.Calls
		}
		if kr.Tasks == 0 {
			continue
		}
		kr.TokenRatio, kr.CallRatio = ratio(kr.BaselineTokens, kr.RagrafTokens), ratio(kr.BaselineCalls, kr.RagrafCalls)
		kr.TokenRatioJSON = ratio(kr.BaselineTokens, kr.RagrafJSON)
		m.ByKind[k] = kr
	}
	for _, t := range rs {
		m.RagrafTokens += t.Ragraf.Tokens
		m.RagrafTokensJSON += t.Ragraf.TokensJSON
		m.BaselineTokens += t.Baseline.Tokens
		m.RagrafCalls += t.Ragraf.Calls
		m.BaselineCalls += t.Baseline.Calls
		if t.Ragraf.Covered {
			m.RagrafCovered++
		}
		if t.Baseline.Covered {
			m.BaseCovered++
		}
	}
	m.TokenRatio, m.CallRatio = ratio(m.BaselineTokens, m.RagrafTokens), ratio(m.BaselineCalls, m.RagrafCalls)
	m.TokenRatioJSON = ratio(m.BaselineTokens, m.RagrafTokensJSON)
	if len(rs) == 0 {
		m.Reason = "no task"
	}
	return m
}

// verify is M6 over the facts cited by the run's answers, checked against
// the scratch tree's files, which are the indexed revision's until history
// is replayed.
func (s *stand) verify(facts []cited) *M6 {
	return checkFacts(s.tree, facts, s.opts.Facts, s.opts.Seed)
}

func checkFacts(root string, facts []cited, n int, seed uint64) *M6 {
	m := &M6{Method: m6Method, Seed: seed, Population: len(facts)}
	rng := rand.New(rand.NewPCG(seed, seed^0xf6))
	pick := sample(facts, n, rng)
	m.Sample = len(pick)
	lines := map[string]int{}
	for _, f := range pick {
		nl, ok := lines[f.Path]
		if !ok {
			nl = -1
			if b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path))); err == nil && !strings.Contains(f.Path, "..") {
				nl = lineCount(b)
			}
			lines[f.Path] = nl
		}
		var bad string
		switch {
		case nl < 0:
			bad = fmt.Sprintf("%s:%d: no such file", f.Path, f.Line)
		case f.Line < 1 || f.Line > nl:
			bad = fmt.Sprintf("%s:%d: line outside 1..%d", f.Path, f.Line, nl)
		case f.End != 0 && (f.End < f.Line || f.End > nl):
			bad = fmt.Sprintf("%s:%d-%d: end outside %d..%d", f.Path, f.Line, f.End, f.Line, nl)
		}
		if bad == "" {
			m.Valid++
		} else if len(m.Invalid) < 20 {
			m.Invalid = append(m.Invalid, bad)
		}
	}
	m.ValidShare = ratio(m.Valid, m.Sample)
	if m.Sample == 0 {
		m.Reason = "no answer cited a fact"
	}
	return m
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
