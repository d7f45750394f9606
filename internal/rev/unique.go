// This file keeps every id of a build unique, so no store constraint can
// fail on one file's facts. The extractors build ids from keys that hold
// what separates two facts (a column, an ordinal); these checks catch what a
// key still misses, and pin it to the file that produced it instead of
// throwing the build away.

package rev

import (
	"fmt"
	"log/slog"
	"strconv"

	"github.com/ragraf/ragraf/internal/fact"
)

// uniqueIDs makes one file's ids unique. A repeated edge id is the same
// relation seen twice at one place and is dropped; a repeated chunk id is
// two pieces of text at one key, and the later one gets an ordinal in its
// key; a repeated node id is two declarations under one key: the later one
// is dropped, since edges already point at the id, and the file is partial.
// It returns the reason to record, or "".
func (r *fileResult) uniqueIDs() string {
	reason := ""
	seen := make(map[string]struct{}, len(r.nodes))
	nodes := r.nodes[:0]
	for _, n := range r.nodes {
		if _, dup := seen[n.ID]; dup {
			if reason == "" {
				reason = fmt.Sprintf("duplicate id: %s %q at line %d repeats an earlier declaration's id; the later one is left out", n.Kind, n.QName, n.StartLine)
			}
			continue
		}
		seen[n.ID] = struct{}{}
		nodes = append(nodes, n)
	}
	r.nodes = nodes
	clear(seen)
	edges := r.edges[:0]
	for _, e := range r.edges {
		if _, dup := seen[e.ID]; dup {
			continue
		}
		seen[e.ID] = struct{}{}
		edges = append(edges, e)
	}
	r.edges = edges
	clear(seen)
	for i := range r.chunks {
		c := &r.chunks[i]
		if _, dup := seen[c.ID]; !dup {
			seen[c.ID] = struct{}{}
			continue
		}
		base := c.ID
		for k := 1; ; k++ {
			id := "t" + fact.Hash(base, strconv.Itoa(k))
			if _, dup := seen[id]; !dup {
				c.ID = id
				seen[id] = struct{}{}
				break
			}
		}
	}
	return reason
}

// uniqueNodes drops nodes whose id an earlier node holds: files cannot repeat
// each other's ids (every id holds its path), so this only guards the nodes
// the domain adds across files. The order stays the input's.
func uniqueNodes(nodes []fact.Node, log *slog.Logger) []fact.Node {
	return dropRepeated(nodes, func(n *fact.Node) string { return n.ID }, func(n *fact.Node) {
		log.Warn("node left out: its id repeats another node's", "id", n.ID, "kind", string(n.Kind), "path", n.Path, "line", n.StartLine)
	})
}

// uniqueChunks drops chunks whose id an earlier chunk holds (see uniqueNodes).
func uniqueChunks(chunks []fact.TextChunk, log *slog.Logger) []fact.TextChunk {
	return dropRepeated(chunks, func(c *fact.TextChunk) string { return c.ID }, func(c *fact.TextChunk) {
		log.Warn("text chunk left out: its id repeats another chunk's", "id", c.ID, "path", c.Path, "line", c.StartLine)
	})
}

// dropRepeated keeps the first of the items sharing an id, in the input's
// order, calling dropped for each other one; equal ids are adjacent in id
// order (fact.IDOrder), the first in the input first. It returns items itself
// when nothing repeats, and otherwise a new slice: items' array may be
// shared with the extraction results the cache is written from.
func dropRepeated[T any](items []T, id func(*T) string, dropped func(*T)) []T {
	order := fact.IDOrder(len(items), func(i int) string { return id(&items[i]) })
	var repeated []bool
	for k := 1; k < len(order); k++ {
		if id(&items[order[k]]) == id(&items[order[k-1]]) {
			if repeated == nil {
				repeated = make([]bool, len(items))
			}
			repeated[order[k]] = true
		}
	}
	if repeated == nil {
		return items
	}
	out := make([]T, 0, len(items)-1)
	for i := range items {
		if repeated[i] {
			if dropped != nil {
				dropped(&items[i])
			}
			continue
		}
		out = append(out, items[i])
	}
	return out
}
