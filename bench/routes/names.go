// This file compares routes by URI and name, handlers aside: a truth line
// with a fourth column (the route's name) is one route, "METHOD /uri" and
// name, as the framework's router lists it.

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// route is "METHOD /uri" (parameters as {}) and the route's name.
type route struct{ key, name string }

// readRoutes reads the routes of the truth lines that name one.
func readRoutes(b []byte) map[route]bool {
	out := map[route]bool{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 4 || strings.HasPrefix(f[0], "#") {
			continue
		}
		verb, uri, _ := strings.Cut(f[1], " ")
		out[route{laravelKey(verb, uri), f[3]}] = true
	}
	return out
}

// routesOf reads ragraf's web routes of the framework (Symfony: the
// attribute routes and those of routing files).
func routesOf(ctx context.Context, g *graph.Store, fw string) (map[route]bool, error) {
	nodes, err := g.AllNodes(ctx)
	if err != nil {
		return nil, err
	}
	out := map[route]bool{}
	for _, n := range nodes {
		f := n.Props["framework"]
		if n.Kind != fact.WebRoute || f != fw && !(fw == "symfony" && f == "attribute") {
			continue
		}
		out[route{laravelKey(n.Props["method"], n.Props["uri"]), n.Props["name"]}] = true
	}
	return out, nil
}

// reportRoutes prints how many truth routes ragraf reports with the same
// method, URI and name.
func reportRoutes(w io.Writer, truth, got map[route]bool, show int) {
	var ok int
	var miss, extra []string
	for r := range truth {
		if got[r] {
			ok++
		} else {
			miss = append(miss, r.key+" "+r.name)
		}
	}
	for r := range got {
		if !truth[r] {
			extra = append(extra, r.key+" "+r.name)
		}
	}
	fmt.Fprintf(w, "routes (method, URI and name equal): truth %d, ragraf %d, equal %d, recall %.3f, precision %.3f\n",
		len(truth), len(got), ok, ratio(ok, len(truth)), ratio(ok, len(got)))
	printDiffs(w, miss, extra, show)
}

// printDiffs prints the first show misses and extras, sorted, and how many
// more of each there are.
func printDiffs(w io.Writer, miss, extra []string, show int) {
	for _, l := range []struct {
		label, more string
		items       []string
	}{{"  miss  ", "misses", miss}, {"  extra ", "extras", extra}} {
		sort.Strings(l.items)
		for i, m := range l.items {
			if i == show {
				fmt.Fprintf(w, "  ... %d more %s\n", len(l.items)-show, l.more)
				break
			}
			fmt.Fprintln(w, l.label, m)
		}
	}
}
