// This file applies Symfony's routing configuration to the routes the PHP
// front end read from attributes and annotations: the prefix and name
// prefix of the import that loads each controller's routes
// (extract/symfonycfg), so a route's URI and name are debug:router's.

package rev

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"

	"github.com/ragraf/ragraf/internal/extract/symfonycfg"
	"github.com/ragraf/ragraf/internal/fact"
)

// routingFiles are the places Symfony applications keep their routing.
var routingFiles = []string{"config/routes.yaml", "config/routes.yml", "app/config/routing.yml", "config/routing.yml"}

// routeImports reads the routing files of the project under root.
func routeImports(root string, log func(msg string, args ...any)) []symfonycfg.Import {
	files := slices.Clone(routingFiles)
	for _, pat := range []string{"config/routes/*.yaml", "config/routes/*.yml"} {
		m, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(pat)))
		sort.Strings(m)
		for _, p := range m {
			if rel, err := filepath.Rel(root, p); err == nil {
				files = append(files, filepath.ToSlash(rel))
			}
		}
	}
	var out []symfonycfg.Import
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		if st.Size() > symfonycfg.MaxFileBytes {
			log("routing file not read", "path", f, "reason", symfonycfg.ErrBudget.Error())
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		ims, err := symfonycfg.RouteImports(f, data)
		if err != nil {
			log("routing file not read", "path", f, "reason", err.Error())
			continue
		}
		for _, im := range ims {
			if im.Prefix != "" || im.NamePrefix != "" {
				out = append(out, im)
			}
		}
	}
	return out
}

// applyRouteImports returns nodes with the prefix and name prefix of the
// import covering each attribute route applied (the most specific import
// wins). nodes is never written: the routes changed are copies.
func applyRouteImports(nodes []fact.Node, ims []symfonycfg.Import) []fact.Node {
	if len(ims) == 0 {
		return nodes
	}
	copied := false
	for i := range nodes {
		n := &nodes[i]
		if n.Kind != fact.WebRoute || n.Props["framework"] != "attribute" {
			continue
		}
		var best *symfonycfg.Import
		for j := range ims {
			if ims[j].Covers(n.Path) && (best == nil || len(ims[j].Resource) > len(best.Resource)) {
				best = &ims[j]
			}
		}
		if best == nil {
			continue
		}
		if !copied {
			nodes, copied = slices.Clone(nodes), true
			n = &nodes[i]
		}
		props := make(map[string]string, len(n.Props)+2)
		for k, v := range n.Props {
			props[k] = v
		}
		uri := best.Apply(props["uri"])
		props["uri"] = uri
		if props["name"] != "" && best.NamePrefix != "" {
			props["name"] = best.NamePrefix + props["name"]
		}
		props["imported_by"] = best.Path + ":" + strconv.Itoa(best.Line)
		n.Props = props
		n.Name = props["method"] + " " + uri
		n.QName = n.Name
	}
	return nodes
}
