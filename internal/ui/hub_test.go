package ui

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/facade"
)

// hubGraph is a graph of a center with n callers in folders folders.
func hubGraph(n, folders int) *Graph {
	b := newBuilder("hub")
	b.g.Center = "c"
	b.node("c", "function", "hub", "lib/hub.php", 1, 0, false)
	for i := range n {
		id := fmt.Sprintf("f%d", i)
		b.node(id, "function", "caller"+id, fmt.Sprintf("app/part%d/sub%d/file.php", i%folders, i%3), 1, -1, false)
		b.edge(id, "c", "calls", "stated")
	}
	return &b.g
}

// TestUI_HubGraphGroupsByFolder: a center with 450 callers in 40 folders
// draws at most groupAt nodes around it, each caller in the group of its
// folder (coarser folders when the folders alone are too many), and a
// group named in open= draws its members.
func TestUI_HubGraphGroupsByFolder(t *testing.T) {
	page := url.URL{Path: "/api/graph/calls", RawQuery: "id=c"}
	g := hubGraph(450, 40)
	group(g, nil, page)
	byID := map[string]GNode{}
	for _, n := range g.Nodes {
		byID[n.ID] = n
	}
	drawn, members := 0, 0
	for _, n := range g.Nodes {
		switch {
		case n.Group != "":
			members++
			gr, ok := byID[n.Group]
			if !ok || gr.Kind != "group" || !strings.HasPrefix(n.Path, gr.QName+"/") {
				t.Fatalf("%s (%s) is in group %q (%+v)", n.ID, n.Path, n.Group, gr)
			}
		case n.ID != "c":
			drawn++
		}
	}
	if drawn > groupAt || drawn == 0 || members != 450 {
		t.Fatalf("drawn %d around the center (want 1..%d), %d grouped (want all 450)", drawn, groupAt, members)
	}
	var first GNode
	for _, n := range g.Nodes {
		if n.Kind == "group" {
			first = n
			break
		}
	}
	u, err := url.Parse(first.URL)
	if err != nil || u.Path != "/graph/calls" || u.Query().Get("open") != first.ID || u.Query().Get("id") != "c" {
		t.Fatalf("group URL %q: want the page with open=%s", first.URL, first.ID)
	}
	g = hubGraph(450, 40)
	group(g, map[string]bool{first.ID: true}, page)
	for _, n := range g.Nodes {
		if n.ID == first.ID {
			t.Fatalf("group %s drawn though open", first.ID)
		}
		if strings.HasPrefix(n.Path, first.QName+"/") && n.Group != "" {
			t.Fatalf("%s still grouped in %s with %s open", n.ID, n.Group, first.ID)
		}
	}
	// a small graph is drawn as it is
	g = hubGraph(groupAt, 40)
	group(g, nil, page)
	for _, n := range g.Nodes {
		if n.Group != "" || n.Kind == "group" {
			t.Fatalf("a graph of %d nodes grouped", len(g.Nodes))
		}
	}
}

// TestUI_BrowserHubGraphWordPress opens the call neighbourhood of
// WordPress's get_option (hundreds of callers) in Chromium: the graph is
// drawn grouped by folder with the list of every caller beside it, and a
// group opens into its callers. The time it takes is measured by
// BenchmarkUIHubGraphWordPress, not asserted here.
func TestUI_BrowserHubGraphWordPress(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	root := wordpressRoot(t)
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		t.Fatal(err)
	}
	env, err := svc.Call(context.Background(), "symbol", []byte(`{"qname":"get_option","path":"wp-includes/option.php"}`))
	svc.Close()
	if err != nil {
		t.Fatal(err)
	}
	syms := env.Result.(facade.SymbolResult).Symbols
	if len(syms) != 1 {
		t.Fatalf("get_option: %d definitions in wp-includes/option.php", len(syms))
	}
	base, token := serve(t, root)
	b := newBrowser(t, base, token, artifacts(t))
	b.open("/graph/calls?id="+url.QueryEscape(syms[0].ID), "body[data-graph-ready]")
	if !eval[bool](b, `!!document.querySelector("#graph canvas")`) {
		t.Errorf("no graph drawn in #graph")
	}
	drawn := eval[int](b, `ragrafCy.nodes().not(".box").length`)
	groups := eval[int](b, `ragrafCy.nodes(".k-group").length`)
	listed := eval[int](b, `document.querySelectorAll("#nodelist li").length`)
	if groups == 0 || drawn > groupAt+1 || listed < 200 {
		t.Errorf("get_option: %d nodes drawn (want at most %d), %d groups (want some), %d listed (want its hundreds of callers)", drawn, groupAt+1, groups, listed)
	}
	b.shot("wordpress-hub-grouped")
	b.clean("get_option grouped")
	// open the largest group from the keyboard-reachable link beside the graph
	href := eval[string](b, `[...document.querySelectorAll("#groups a")].sort((a, b) => parseInt(b.textContent.split("(").pop()) - parseInt(a.textContent.split("(").pop()))[0].getAttribute("href")`)
	b.open(href, "body[data-graph-ready]")
	if after := eval[int](b, `ragrafCy.nodes().not(".box").length`); after <= drawn {
		t.Errorf("opening %s drew %d nodes, no more than the %d before", href, after, drawn)
	}
	b.shot("wordpress-hub-open")
	b.clean("get_option, a group open")
}
