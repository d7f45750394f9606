// This file lays a graph out in levels: callers left of the symbol and
// callees right of it (supertypes left of a type, subtypes right), each level
// a column of clusters (namespace or folder), a column wrapping into more
// when it grows past maxRows, so 200 nodes stay readable and the browser
// only draws the positions it is given.

package ui

import (
	"cmp"
	"path"
	"slices"
	"strings"
)

// Graph is what a graph view draws, and its list view lists.
type Graph struct {
	Title     string  `json:"title"`
	Center    string  `json:"center,omitempty"`
	Nodes     []GNode `json:"nodes"`
	Edges     []GEdge `json:"edges"`
	Truncated bool    `json:"truncated"`
	Note      string  `json:"note,omitempty"`
	Grouped   int     `json:"grouped,omitempty"` // group nodes drawn in place of their members (group.go)
}

// GNode is one node; Level is its distance from the center (negative:
// callers, supertypes), X and Y its position.
type GNode struct {
	ID      string  `json:"id"`
	Label   string  `json:"label"`
	QName   string  `json:"qname"`
	Kind    string  `json:"kind"`
	Cluster string  `json:"cluster"`
	Parent  string  `json:"parent,omitempty"` // the cluster box it is drawn in
	Path    string  `json:"path"`
	Line    int     `json:"line"`
	Level   int     `json:"level"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	URL     string  `json:"url"`
	Stale   bool    `json:"stale,omitempty"`
	IsBox   bool    `json:"box,omitempty"`   // a cluster box, not a fact
	Group   string  `json:"group,omitempty"` // the group node drawn in its place, when grouped
	Count   int     `json:"count,omitempty"` // a group node's members
}

// GEdge is one edge; Provenance stated or derived.
type GEdge struct {
	Source     string `json:"source"`
	Target     string `json:"target"`
	Kind       string `json:"kind"`
	Provenance string `json:"provenance"`
}

const (
	maxRows = 30  // nodes in one column before it wraps
	colW    = 320 // px between columns
	rowH    = 34  // px between nodes
	gapH    = 40  // px between clusters
)

// cluster is the namespace of a qualified name, or the folder of path.
func cluster(qname, p string) string {
	q := qname
	if i := strings.Index(q, "::"); i >= 0 {
		q = q[:i]
	}
	if i := strings.LastIndex(q, `\`); i > 0 {
		return q[:i]
	}
	if p != "" {
		return path.Dir(p)
	}
	return "(global)"
}

// label is a qualified name without its namespace.
func label(qname string) string {
	if i := strings.LastIndex(qname, `\`); i >= 0 && i+1 < len(qname) {
		return qname[i+1:]
	}
	return qname
}

// layout positions g's nodes and adds a box node per cluster of a column.
func layout(g *Graph) {
	byLevel := map[int][]int{}
	for i, n := range g.Nodes {
		if n.Group == "" { // a group's members are drawn as the group
			byLevel[n.Level] = append(byLevel[n.Level], i)
		}
	}
	levels := slices.Sorted(func(yield func(int) bool) {
		for l := range byLevel {
			if !yield(l) {
				return
			}
		}
	})
	// columns per level, filled cluster by cluster
	type column struct{ idx []int }
	cols := map[int][]column{}
	for _, l := range levels {
		idx := byLevel[l]
		slices.SortFunc(idx, func(a, b int) int {
			na, nb := g.Nodes[a], g.Nodes[b]
			return cmp.Or(strings.Compare(na.Cluster, nb.Cluster), strings.Compare(na.Label, nb.Label), strings.Compare(na.ID, nb.ID))
		})
		var cs []column
		cur := column{}
		for _, i := range idx {
			if len(cur.idx) >= maxRows {
				cs = append(cs, cur)
				cur = column{}
			}
			cur.idx = append(cur.idx, i)
		}
		cs = append(cs, cur)
		cols[l] = cs
	}
	// x of each column: level 0 at 0, negative levels leftwards
	xOf := map[[2]int]float64{}
	x := 0.0
	for _, l := range levels {
		if l < 0 {
			continue
		}
		for c := range cols[l] {
			xOf[[2]int{l, c}] = x
			x += colW
		}
	}
	x = -colW
	for i := len(levels) - 1; i >= 0; i-- {
		l := levels[i]
		if l >= 0 {
			continue
		}
		for c := range cols[l] {
			xOf[[2]int{l, c}] = x
			x -= colW
		}
	}
	var boxes []GNode
	for _, l := range levels {
		for c, col := range cols[l] {
			// height first, to center the column on y = 0
			h, prev := 0.0, ""
			for k, i := range col.idx {
				if k > 0 && g.Nodes[i].Cluster != prev {
					h += gapH
				}
				h += rowH
				prev = g.Nodes[i].Cluster
			}
			y, prev := -h/2, ""
			for k, i := range col.idx {
				n := &g.Nodes[i]
				if k > 0 && n.Cluster != prev {
					y += gapH
				}
				if k == 0 || n.Cluster != prev {
					box := GNode{ID: "box|" + itoa(l) + "|" + itoa(c) + "|" + n.Cluster, Label: n.Cluster, Kind: "cluster", IsBox: true, Level: l}
					boxes = append(boxes, box)
				}
				n.Parent = boxes[len(boxes)-1].ID
				n.X, n.Y = xOf[[2]int{l, c}], y
				y += rowH
				prev = n.Cluster
			}
		}
	}
	g.Nodes = append(boxes, g.Nodes...)
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
