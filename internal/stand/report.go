// This file renders stand.md from the report: the tables of M1–M7, the
// baseline's rules, conclusions and a bottleneck list drawn from the numbers.

package stand

import (
	"fmt"
	"strings"
)

func f3(p *float64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprintf("%.3f", *p)
}

func pct(p *float64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprintf("%.1f %%", 100**p)
}

// BaselineRules is the baseline as stand.md states it.
const BaselineRules = `The baseline is a scripted agent with no index, given the same files the index covers (the project's PHP files after its excludes):
1. It greps (GNU grep -E) for the name with the pattern a careful agent would write: ` + "`function NAME(` or `class|interface|trait|enum NAME`" + ` for a definition;
   ` + "`->NAME(` / `::NAME(`" + ` for a method's callers and ` + "`NAME(`" + ` minus its declaration for a function's; ` + "`implements|extends … NAME`" + ` for implementations (then again for each type found,
   one grep per type); ` + "`INSERT INTO|REPLACE INTO|UPDATE|DELETE FROM NAME`" + ` (case-insensitive) for table writes; the declaration keywords within the file for a file's declarations.
2. The grep output is its first answer (M1): every hit line is a place it cites. It shows at most 200 hits, each line cut at 300 characters.
3. It then opens each hit's file around the hit, 30 lines either side, in grep order, skipping lines it has already read, one call per opening.
4. It stops as soon as every truth line is among the lines it has seen (grep lines included), or after 20 calls. Knowing when to stop is an oracle in its favour.
5. Its tokens are the cl100k_base tokens of the grep output and of each opened window (numbered lines, as agents' read tools show them); ragraf's are those of each answer's compact JSON, as MCP sends it.`

func markdown(r *Report) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("# ragraf stand: %s\n\n", r.Project)
	commit := r.Commit
	if commit == "" {
		commit = "(not a git tree)"
	}
	w("Indexed commit %s as %s (%d files, %d PHP), capability %s; seed %d; %d of %d commits replayed; %.0f s in all.\n\n",
		commit, r.Revision, r.FilesIndexed, r.PHPFiles, r.Capability.Level, r.Seed, r.Replayed, r.HistoryAsked, r.ElapsedS)
	w("Truth: definitions and file declarations from %s; callers, implementations and table writes from PHP's own tokenizer (token_get_all); never ragraf's graph.\n\n",
		r.TruthSources["definitions"])

	w("## Summary\n\n| metric | value | baseline / anchor | sample |\n|---|---|---|---|\n")
	if m := r.M1; m != nil {
		w("| M1 first-query accuracy | %s | baseline %s | %d tasks |\n", pct(m.Accuracy), pct(m.BaselineAccuracy), m.Sample)
	}
	if m := r.M2; m != nil {
		w("| M2 impact precision / recall (depth 3, all) | %s / %s | LCIP 69 %% / 79 %% | %d methods in %d commits |\n", pct(m.Precision), pct(m.Recall), m.Seeds, m.Commits)
	}
	if m := r.M3; m != nil {
		w("| M3 tokens, calls (baseline ÷ ragraf) | %s×, %s× (tokens of the JSON envelope: %s×) | — | %d tasks |\n", f3(m.TokenRatio), f3(m.CallRatio), f3(m.TokenRatioJSON), m.Sample)
	}
	if m := r.M4; m != nil {
		w("| M4 slice compression (slice ÷ surroundings, median) | %s | — | %d slices |\n", f3(m.Compression), m.Sample)
	}
	if m := r.M5; m != nil {
		inc := "null"
		if m.Incidents != nil {
			inc = fmt.Sprint(*m.Incidents)
		}
		w("| M5 incidents, stale share | %s, %s | incidents must be 0 | %d answers, %d touching |\n", inc, pct(m.StaleShare), m.Answers, m.Touching)
	}
	if m := r.M6; m != nil {
		w("| M6 valid links | %s | ≥ 99 %% | %d facts |\n", pct(m.ValidShare), m.Sample)
	}
	if m := r.M7; m != nil {
		inc := "null"
		if m.IncrementalS != nil {
			inc = fmt.Sprintf("p50 %.2f s, p95 %.2f s", m.IncrementalS.P50, m.IncrementalS.P95)
		}
		w("| M7 full, incremental | %.1f s, %s | ≤ 900 s, ≤ 180 s | %d builds |\n", m.FullS, inc, m.Sample)
	}
	w("\n")
	for _, x := range []struct{ name, reason string }{
		{"M1", reasonOf(r.M1)}, {"M2", reasonOf(r.M2)}, {"M3", reasonOf(r.M3)}, {"M4", reasonOf(r.M4)},
		{"M5", reasonOf(r.M5)}, {"M6", reasonOf(r.M6)}, {"M7", reasonOf(r.M7)},
	} {
		if x.reason != "" {
			w("- %s: %s\n", x.name, x.reason)
		}
	}

	if m := r.M1; m != nil {
		w("\n## M1 and M3 by task kind\n\n| kind | tasks | ragraf correct | baseline correct | ragraf P / R | baseline P / R | tokens ragraf / baseline | calls ragraf / baseline |\n|---|---|---|---|---|---|---|---|\n")
		for _, k := range Kinds {
			ks := m.ByKind[k]
			if ks.Tasks == 0 {
				w("| %s | 0 | — | — | — | — | — | — (%s) |\n", k, ks.Reason)
				continue
			}
			kr := r.M3.ByKind[k]
			w("| %s | %d | %s | %s | %s / %s | %s / %s | %d / %d | %d / %d |\n", k, ks.Tasks, pct(ks.Accuracy), pct(ks.BaselineAccuracy),
				f3(ks.Precision), f3(ks.Recall), f3(ks.BaselinePrec), f3(ks.BaselineRecall), kr.RagrafTokens, kr.BaselineTokens, kr.RagrafCalls, kr.BaselineCalls)
		}
		w("\nM1: %s.\n\nM3: %s. Tasks whose whole truth each side saw: ragraf %d, baseline %d of %d.\n", m.Method, r.M3.Method, r.M3.RagrafCovered, r.M3.BaseCovered, r.M3.Sample)
	}
	if m := r.M2; m != nil && m.Seeds > 0 {
		w("\n## M2 by depth\n\n| depth | stated P | stated R | all P | all R | hits / predicted / truth (all) |\n|---|---|---|---|---|---|\n")
		for _, d := range []string{"1", "2", "3"} {
			p := m.ByDepth[d]
			w("| %s | %s | %s | %s | %s | %d / %d / %d |\n", d, pct(p.Stated.Precision), pct(p.Stated.Recall), pct(p.All.Precision), pct(p.All.Recall), p.All.Hits, p.All.Predicted, p.All.Truth)
		}
		w("\n## M2 by block (mode all)\n\n| depth | calls P / R | tests P / R | co_change P / R | all P / R | hits / predicted / truth (all) |\n|---|---|---|---|---|---|\n")
		for _, d := range []string{"1", "2", "3"} {
			b := m.ByBlock[d]
			w("| %s | %s / %s | %s / %s | %s / %s | %s / %s | %d / %d / %d |\n", d, pct(b["calls"].Precision), pct(b["calls"].Recall),
				pct(b["tests"].Precision), pct(b["tests"].Recall), pct(b["co_change"].Precision), pct(b["co_change"].Recall),
				pct(b["all"].Precision), pct(b["all"].Recall), b["all"].Hits, b["all"].Predicted, b["all"].Truth)
		}
		w("\n%s. Changed methods ragraf could not find by name and line: %d. Commits left out for changing more than 30: %d.\n", m.Method, m.Unmatched, m.TooLarge)
	}
	if m := r.M5; m != nil && m.Answers > 0 {
		w("\n## M5\n\n%d answers, %d citing a changed file, %d of them with a stale warning; %d cited facts in changed lines, %d marked. K8: %s.\n\n%s.\n",
			m.Answers, m.Touching, m.Marked, m.ChangedFacts, m.MarkedFacts, m.K8, m.Method)
		for _, s := range m.IncidentList {
			w("- incident: %s\n", s)
		}
		for _, s := range m.Unwarned {
			w("- cites a changed file without a warning for it: %s\n", s)
		}
	}
	if m := r.M6; m != nil {
		w("\n## M6\n\n%d of %d sampled facts valid (population %d). %s.\n", m.Valid, m.Sample, m.Population, m.Method)
		for _, s := range m.Invalid {
			w("- invalid: %s\n", s)
		}
	}
	if m := r.M4; m != nil {
		w("\n## M4\n\n%s. %d slices, %d empty.\n", m.Method, m.Sample, m.Empty)
	}
	if m := r.M7; m != nil {
		w("\n## M7\n\n%s.\n", m.Method)
	}
	w("\n## The baseline\n\n%s\n", BaselineRules)
	w("\n## Conclusions and bottlenecks\n\n")
	for _, s := range findings(r) {
		w("- %s\n", s)
	}
	return b.String()
}

func reasonOf(v any) string {
	switch m := v.(type) {
	case *M1:
		if m != nil {
			return m.Reason
		}
	case *M2:
		if m != nil {
			return m.Reason
		}
	case *M3:
		if m != nil {
			return m.Reason
		}
	case *M4:
		if m != nil {
			return m.Reason
		}
	case *M5:
		if m != nil {
			return m.Reason
		}
	case *M6:
		if m != nil {
			return m.Reason
		}
	case *M7:
		if m != nil {
			return m.Reason
		}
	}
	return ""
}

// findings are the conclusions the numbers support, losses first.
func findings(r *Report) []string {
	var out []string
	if m := r.M1; m != nil && m.Accuracy != nil && m.BaselineAccuracy != nil {
		out = append(out, fmt.Sprintf("M1: ragraf's first answer is correct in %s of tasks, the baseline's grep in %s.", pct(m.Accuracy), pct(m.BaselineAccuracy)))
		for _, k := range Kinds {
			ks := m.ByKind[k]
			if ks.Tasks > 0 && ks.Accuracy != nil && ks.BaselineAccuracy != nil && *ks.Accuracy < *ks.BaselineAccuracy {
				out = append(out, fmt.Sprintf("loss: on %s ragraf is correct in %s, the baseline in %s (ragraf recall %s, precision %s).",
					k, pct(ks.Accuracy), pct(ks.BaselineAccuracy), f3(ks.Recall), f3(ks.Precision)))
			}
		}
	}
	if m := r.M3; m != nil {
		for _, k := range Kinds {
			kr, ok := m.ByKind[k]
			if ok && kr.TokenRatio != nil && *kr.TokenRatio < 1 {
				out = append(out, fmt.Sprintf("loss: on %s ragraf spends more tokens than the baseline (ratio %s).", k, f3(kr.TokenRatio)))
			}
			if ok && kr.CallRatio != nil && *kr.CallRatio < 1 {
				out = append(out, fmt.Sprintf("loss: on %s ragraf makes more calls than the baseline (ratio %s).", k, f3(kr.CallRatio)))
			}
		}
		if m.TokenRatio != nil {
			out = append(out, fmt.Sprintf("M3: the baseline reads %s× ragraf's tokens and makes %s× its calls.", f3(m.TokenRatio), f3(m.CallRatio)))
		}
	}
	if m := r.M2; m != nil && m.Recall != nil && *m.Recall < 0.79 {
		out = append(out, fmt.Sprintf("bottleneck: impact recall on co-change %s at depth 3 is below LCIP's 79 %% (co-change is not call dependence: tests, siblings and unrelated edits of one commit count as misses).", pct(m.Recall)))
	}
	if m := r.M5; m != nil && m.Incidents != nil && *m.Incidents > 0 {
		out = append(out, fmt.Sprintf("bottleneck: %d answers cite a changed fact without a mark (M5 must be 0).", *m.Incidents))
	}
	if m := r.M6; m != nil && m.ValidShare != nil && *m.ValidShare < 0.99 {
		out = append(out, fmt.Sprintf("bottleneck: %s of cited facts are valid, below 99 %%.", pct(m.ValidShare)))
	}
	if m := r.M7; m != nil {
		if m.FullS > 900 {
			out = append(out, fmt.Sprintf("bottleneck: the full index took %.0f s, above 15 min.", m.FullS))
		}
		if m.IncrementalS != nil && m.IncrementalS.P95 > 180 {
			out = append(out, fmt.Sprintf("bottleneck: incremental p95 %.0f s, above 3 min.", m.IncrementalS.P95))
		}
	}
	if len(out) == 0 {
		out = append(out, "no metric below its target on this project")
	}
	return out
}
