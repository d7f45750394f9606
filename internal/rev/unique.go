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
	order := fact.IDOrder(len(nodes), func(i int) string { return nodes[i].ID })
	repeated := make([]bool, len(nodes))
	n := 0
	for k := 1; k < len(order); k++ {
		if nodes[order[k]].ID == nodes[order[k-1]].ID {
			repeated[order[k]] = true
			n++
		}
	}
	if n == 0 {
		return nodes
	}
	out := make([]fact.Node, 0, len(nodes)-n)
	for i := range nodes {
		if repeated[i] {
			log.Warn("node left out: its id repeats another node's", "id", nodes[i].ID, "kind", string(nodes[i].Kind), "path", nodes[i].Path, "line", nodes[i].StartLine)
			continue
		}
		out = append(out, nodes[i])
	}
	return out
}

// uniqueChunks drops chunks whose id an earlier chunk holds (see uniqueNodes).
func uniqueChunks(chunks []fact.TextChunk, log *slog.Logger) []fact.TextChunk {
	order := fact.IDOrder(len(chunks), func(i int) string { return chunks[i].ID })
	repeated := make([]bool, len(chunks))
	n := 0
	for k := 1; k < len(order); k++ {
		if chunks[order[k]].ID == chunks[order[k-1]].ID {
			repeated[order[k]] = true
			n++
		}
	}
	if n == 0 {
		return chunks
	}
	out := make([]fact.TextChunk, 0, len(chunks)-n)
	for i := range chunks {
		if repeated[i] {
			log.Warn("text chunk left out: its id repeats another chunk's", "id", chunks[i].ID, "path", chunks[i].Path, "line", chunks[i].StartLine)
			continue
		}
		out = append(out, chunks[i])
	}
	return out
}
