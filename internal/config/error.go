// This file defines Error, the positioned configuration error, and the
// "did you mean" suggestion used by the parser in parse.go.

package config

import (
	"fmt"
	"strings"
)

// Error is one problem in a configuration file. Line and Column are 1-based;
// they are zero when the problem has no position (for example from Validate).
type Error struct {
	File   string
	Line   int
	Column int
	Msg    string
}

func (e *Error) Error() string {
	file := e.File
	if file == "" {
		file = "project.yaml"
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", file, e.Line, e.Column, e.Msg)
	}
	return file + ": " + e.Msg
}

// suggest returns the candidate nearest to got by edit distance, or "" when none
// is close enough to be a plausible typo.
func suggest(got string, candidates []string) string {
	best, bestDist := "", -1
	g := strings.ToLower(got)
	for _, c := range candidates {
		d := editDistance(g, c)
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	// Allow roughly one edit per three characters, at least two.
	limit := max(2, len(got)/3)
	if bestDist < 0 || bestDist > limit {
		return ""
	}
	return best
}

// editDistance is the Damerau-Levenshtein (optimal string alignment) distance,
// so that a transposition such as "langauges" counts as one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// quoteList renders allowed values for a message: "a", "b" or "c".
func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = fmt.Sprintf("%q", v)
	}
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
