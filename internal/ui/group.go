// This file groups the nodes of a large graph: past groupAt nodes, the
// nodes of each level that share a cluster (namespace or folder) are drawn
// as one group node, the clusters made coarser (parent namespace or folder)
// until at most groupAt are drawn. A group opens by its URL (open=ID, which
// the page adds); the list beside the graph still has every node.

package ui

import (
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
)

// groupAt is how many nodes a graph draws around its center before it
// groups them: a hub function's hundreds of callers become a few dozen
// folders, which Cytoscape draws at once and pans without lag.
const groupAt = 60

// coarser is the namespace or folder that holds cluster c, or c at the top.
func coarser(c string) string {
	if i := strings.LastIndex(c, `\`); i > 0 {
		return c[:i]
	}
	if strings.Contains(c, "/") {
		return path.Dir(c)
	}
	return c
}

// openArg reads the groups the page opens (open=, repeated).
func openArg(r *http.Request) map[string]bool {
	out := map[string]bool{}
	for _, v := range r.URL.Query()["open"] {
		out[v] = true
	}
	return out
}

// group groups g's nodes when more than groupAt surround its center, the
// groups in open excepted; page is the page's path and query, to which a
// group's URL adds open=its id.
func group(g *Graph, open map[string]bool, page url.URL) {
	var cand []int
	for i, n := range g.Nodes {
		if n.ID != g.Center && !n.IsBox {
			cand = append(cand, i)
		}
	}
	if len(cand) <= groupAt {
		return
	}
	key := make(map[int]string, len(cand))
	for _, i := range cand {
		key[i] = g.Nodes[i].Cluster
	}
	var groups map[string][]int
	for {
		groups = map[string][]int{}
		for _, i := range cand {
			k := strconv.Itoa(g.Nodes[i].Level) + "|" + key[i]
			groups[k] = append(groups[k], i)
		}
		if len(groups) <= groupAt {
			break
		}
		changed := false
		for i, k := range key {
			if c := coarser(k); c != k {
				key[i], changed = c, true
			}
		}
		if !changed {
			break
		}
	}
	page.Path = strings.TrimPrefix(page.Path, "/api")
	page.Scheme, page.Host, page.User = "", "", nil
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range groups {
			if !yield(k) {
				return
			}
		}
	}) {
		members := groups[k]
		gid := "group|" + k
		if len(members) < 2 || open[gid] {
			continue
		}
		_, name, _ := strings.Cut(k, "|")
		shown := name
		if shown == "." {
			shown = "(top folder)"
		}
		q := page.Query()
		q.Add("open", gid)
		u := page
		u.RawQuery, u.Fragment = q.Encode(), ""
		g.Nodes = append(g.Nodes, GNode{ID: gid, Label: shown + " (" + strconv.Itoa(len(members)) + ")", QName: name, Kind: "group",
			Cluster: coarser(name), Level: g.Nodes[members[0]].Level, URL: u.String(), Count: len(members)})
		for _, i := range members {
			g.Nodes[i].Group = gid
		}
		g.Grouped++
	}
}
