// This file turns two versions of a file into changed line ranges against the
// old one, the lines removed, and the nodes those ranges touch.

package drift

import (
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/ragraf/ragraf/internal/fact"
)

// lineDiff is the line-level difference between an indexed snapshot and the
// current content.
type lineDiff struct {
	Ranges  [][2]int       // changed ranges in old-file lines, merged, 1-based inclusive
	Removed map[int]string // old line number -> text, for lines deleted or replaced
	Added   []string       // lines of the new file that are new
	OldN    int
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// diffLines compares old and new line by line. A pure insertion between old
// lines k and k+1 is reported as the range [k, k+1] (clipped), so the
// declaration around it is touched.
func diffLines(old, cur []byte) lineDiff {
	a, b := splitLines(string(old)), splitLines(string(cur))
	d := lineDiff{Removed: map[int]string{}, OldN: len(a)}
	var ranges [][2]int
	for _, e := range lcs.DiffLines(a, b) {
		if e.End > e.Start {
			ranges = append(ranges, [2]int{e.Start + 1, e.End})
			for i := e.Start; i < e.End; i++ {
				d.Removed[i+1] = a[i]
			}
		} else {
			lo, hi := max(e.Start, 1), min(e.Start+1, len(a))
			if hi < lo {
				hi = lo
			}
			ranges = append(ranges, [2]int{lo, hi})
		}
		d.Added = append(d.Added, b[e.ReplStart:e.ReplEnd]...)
	}
	d.Ranges = mergeRanges(ranges)
	return d
}

// mergeRanges sorts ranges and joins those that overlap or touch.
func mergeRanges(rs [][2]int) [][2]int {
	if len(rs) == 0 {
		return [][2]int{}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
	out := [][2]int{rs[0]}
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if r[0] <= last[1]+1 {
			last[1] = max(last[1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}

// Overlaps reports whether [start, end] meets one of ranges.
func Overlaps(ranges [][2]int, start, end int) bool {
	for _, r := range ranges {
		if start <= r[1] && r[0] <= end {
			return true
		}
	}
	return false
}

// touched returns the ids of the declarations (not the file node) whose line
// range meets ranges, sorted.
func touched(nodes []fact.Node, ranges [][2]int) []string {
	out := []string{}
	for _, n := range nodes {
		if n.Kind == fact.File {
			continue
		}
		if Overlaps(ranges, n.StartLine, n.EndLine) {
			out = append(out, n.ID)
		}
	}
	sort.Strings(out)
	return out
}

// allIDs returns every node id of a file, sorted.
func allIDs(nodes []fact.Node) []string {
	out := make([]string, 0, len(nodes))
	for _, n := range nodes {
		out = append(out, n.ID)
	}
	sort.Strings(out)
	return out
}

// similarity is the share of lines two texts have in common (multiset), over
// the longer one, counting significant lines only: 1 for equal texts, 0 for
// disjoint ones. A rename needs more than half (renameThreshold).
func similarity(a, b []byte) float64 {
	la, lb := significant(a), significant(b)
	if len(la) == 0 || len(lb) == 0 {
		if string(a) == string(b) {
			return 1
		}
		return 0
	}
	count := map[string]int{}
	for _, l := range la {
		count[l]++
	}
	common := 0
	for _, l := range lb {
		if count[l] > 0 {
			count[l]--
			common++
		}
	}
	return float64(common) / float64(max(len(la), len(lb)))
}

// significant returns the lines that say something: trimmed, without blank
// lines, lone braces and PHP tags.
func significant(b []byte) []string {
	var out []string
	for _, l := range splitLines(string(b)) {
		if t := bodyLine(l); t != "" {
			out = append(out, t)
		}
	}
	return out
}
