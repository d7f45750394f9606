// This file maps a drifted file's lines from the revision onto the working
// tree, so an answer can say where an unchanged fact now is when lines above
// it were added or removed (the stale mark's current_line).

package drift

import (
	"context"
	"sort"

	"github.com/ragraf/ragraf/internal/corpus"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// LineMap maps line numbers of a file as indexed onto the file as it is.
type LineMap struct {
	edits []lcs.Diff // sorted by Start; 0-based, half-open, old (Start/End) and new (ReplStart/ReplEnd)
}

// NewLineMap diffs old against cur line by line.
func NewLineMap(old, cur []byte) *LineMap {
	edits := lcs.DiffLines(splitLines(string(old)), splitLines(string(cur)))
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
	return &LineMap{edits: edits}
}

// Map returns the current line of old line ln (1-based), and false when that
// line was changed or removed.
func (m *LineMap) Map(ln int) (int, bool) {
	i := ln - 1
	shift := 0
	for _, e := range m.edits {
		if i < e.Start {
			break
		}
		if i < e.End {
			return 0, false
		}
		shift = e.ReplEnd - e.End
	}
	return i + shift + 1, true
}

// Moves returns the line map of path against the revision, or nil when the
// path is not a file of the revision or no longer exists. Like Check, it
// remembers its answer per (path, size, mtime).
func (c *Checker) Moves(ctx context.Context, path string) (*LineMap, error) {
	st, err := statFile(c.tree, path)
	if err != nil || !st.Exists || st.Unreadable != "" {
		return nil, err
	}
	c.mu.Lock()
	hit, ok := c.moves[path]
	c.mu.Unlock()
	if ok && hit.st == st {
		return hit.m, nil
	}
	snap, ok, err := c.src.Snapshot(ctx, path)
	if err != nil || !ok {
		return nil, err
	}
	cur, ok, err := readCurrent(ctx, c.tree, path)
	if corpus.Unreadable(err) != "" {
		return nil, nil
	}
	if err != nil || !ok {
		return nil, err
	}
	m := NewLineMap(snap, cur.data)
	c.mu.Lock()
	c.moves[path] = movesAt{st: st, m: m}
	c.mu.Unlock()
	return m, nil
}

type movesAt struct {
	st Stat
	m  *LineMap
}
