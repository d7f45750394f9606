// This file detects extract-method edits (FT-29): a function or method that
// is new in the working tree whose body is made of lines removed from an
// existing declaration. Such an edit changes the boundary of the old
// declaration's slices, so it is recorded as slice_boundary beside the modify.

package drift

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang/php"
)

// sliceShare is the share of the new body's lines that must come from one
// old declaration.
const sliceShare = 0.5

func isCallable(k fact.NodeKind) bool { return k == fact.Function || k == fact.Method }

// bodyLine normalises a line for matching; trivial lines give "".
func bodyLine(s string) string {
	t := strings.TrimSpace(s)
	switch t {
	case "", "{", "}", "};", "<?php", "?>":
		return ""
	}
	return t
}

// bodyOf returns the non-trivial lines strictly inside a declaration (its
// signature line and closing line excluded) with their line numbers.
func bodyOf(lines []string, n fact.Node) (texts []string, at []int) {
	for ln := n.StartLine + 1; ln < n.EndLine && ln <= len(lines); ln++ {
		if t := bodyLine(lines[ln-1]); t != "" {
			texts, at = append(texts, t), append(at, ln)
		}
	}
	return texts, at
}

// sliceBoundaries compares each old callable's body with its body in the
// working tree: the lines it lost are matched against the bodies of callables
// that are new. Comparing bodies rather than the file diff matters because a
// line diff may align moved lines with their new copy and call them unchanged.
func sliceBoundaries(ctx context.Context, rev, path string, old []fact.Node, snap []byte, d lineDiff, cur current) ([]Delta, error) {
	if len(d.Ranges) == 0 || corpus.DetectLang(path) != php.Lang {
		return nil, nil
	}
	x, err := php.New()
	if err != nil {
		return nil, err
	}
	defer x.Close()
	res, err := x.File(ctx, path, cur.data)
	if err != nil {
		return nil, fmt.Errorf("parsing %s for drift: %w", path, err)
	}
	oldLines, curLines := splitLines(string(snap)), splitLines(string(cur.data))
	nowByKey := map[string]fact.Node{}
	for _, n := range res.Nodes {
		nowByKey[string(n.Kind)+" "+n.QName] = n
	}
	known := map[string]bool{}
	lost := map[string]map[string][]int{} // old callable id -> line text -> old line numbers it lost
	var callables []fact.Node
	for _, n := range old {
		k := string(n.Kind) + " " + n.QName
		known[k] = true
		now, ok := nowByKey[k]
		if !isCallable(n.Kind) || !ok {
			continue
		}
		callables = append(callables, n)
		remaining := map[string]int{}
		nowBody, _ := bodyOf(curLines, now)
		for _, t := range nowBody {
			remaining[t]++
		}
		texts, at := bodyOf(oldLines, n)
		for i, t := range texts {
			if remaining[t] > 0 {
				remaining[t]--
				continue
			}
			if lost[n.ID] == nil {
				lost[n.ID] = map[string][]int{}
			}
			lost[n.ID][t] = append(lost[n.ID][t], at[i])
		}
	}
	if len(lost) == 0 {
		return nil, nil
	}
	var out []Delta
	for _, n := range res.Nodes {
		if !isCallable(n.Kind) || known[string(n.Kind)+" "+n.QName] {
			continue
		}
		body, _ := bodyOf(curLines, n)
		if len(body) == 0 {
			continue
		}
		var from fact.Node
		var bestLines []int
		for _, c := range callables {
			pool := lost[c.ID]
			if pool == nil {
				continue
			}
			used := map[string]int{}
			var matched []int
			for _, t := range body {
				if ls := pool[t]; used[t] < len(ls) {
					matched = append(matched, ls[used[t]])
					used[t]++
				}
			}
			if len(matched) > len(bestLines) {
				from, bestLines = c, matched
			}
		}
		if len(bestLines) == 0 || float64(len(bestLines)) < sliceShare*float64(len(body)) {
			continue
		}
		sort.Ints(bestLines)
		var ranges [][2]int
		for _, ln := range bestLines {
			ranges = append(ranges, [2]int{ln, ln})
		}
		out = append(out, Delta{
			Kind: KindSliceBoundary, Path: path, Lines: mergeRanges(ranges), Nodes: []string{from.ID},
			Note: fmt.Sprintf("%d lines of %s %s moved into new %s %s (working tree lines %d-%d)",
				len(bestLines), from.Kind, from.QName, n.Kind, n.QName, n.StartLine, n.EndLine),
			ContentHash: cur.hash, DedupKey: key(rev, KindSliceBoundary, path, cur.hash, n.QName),
		})
	}
	return out, nil
}
