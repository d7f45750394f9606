// This file applies Symfony's routing configuration: it walks the routing
// files from config/routes.yaml (and config/routes/*, app/config/routing.yml)
// through their imports — relative paths and @Bundle resources, prefixes and
// name prefixes accumulated, %parameters% and %env()% read from the
// project's configuration — and gives the build the routes the YAML and XML
// files declare (web_route nodes on the routing file, framework "symfony",
// with their handler) and the prefix and name prefix of the import that
// loads each controller's attribute and annotation routes
// (extract/symfonycfg), so a route's URI and name are debug:router's.

package rev

import (
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/extract/symfonycfg"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/secrets"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// routingFiles are the places Symfony applications keep their routing.
var routingFiles = []string{"config/routes.yaml", "config/routes.yml", "config/routes.xml", "app/config/routing.yml", "config/routing.yml"}

// maxImportDepth bounds a chain of routing imports (a cycle is cut before).
const maxImportDepth = 12

// routeConfig is what the routing configuration gives a build.
type routeConfig struct {
	imports []symfonycfg.Import // imports of attribute routes, prefixes accumulated
	nodes   []fact.Node         // routes declared in routing files
	edges   []fact.Edge
	refs    []fact.Ref // their handlers
}

type routeWalker struct {
	root   string
	rows   []graph.File
	exists map[string]bool
	log    func(msg string, args ...any)
	seen   map[string]bool
	ids    map[string]int
	params map[string]string // nil until a prefix names one
	out    routeConfig
}

// readRouteConfig reads the routing files of the project under root; rows
// are the corpus's files (bundles and parameters are found among them).
func readRouteConfig(root string, rows []graph.File, log func(msg string, args ...any)) routeConfig {
	w := &routeWalker{root: root, rows: rows, log: log, seen: map[string]bool{}, ids: map[string]int{}, exists: map[string]bool{}}
	for _, r := range rows {
		w.exists[r.Path] = true
	}
	files := slices.Clone(routingFiles)
	var more []string
	for _, r := range rows {
		if dir, base := path.Split(r.Path); dir == "config/routes/" && symfonycfg.IsRoutingFile(base) {
			more = append(more, r.Path)
		}
	}
	sort.Strings(more)
	for _, f := range append(files, more...) {
		if w.exists[f] {
			w.visit(f, "", "", 0)
		}
	}
	return w.out
}

func (w *routeWalker) visit(file, prefix, namePrefix string, depth int) {
	key := file + "\x00" + prefix + "\x00" + namePrefix
	if w.seen[key] || depth > maxImportDepth {
		return
	}
	w.seen[key] = true
	c, err := corpus.Read(filepath.Join(w.root, filepath.FromSlash(file)))
	if err != nil || c.Binary {
		return
	}
	data, _ := secrets.Redact(c.Data)
	f, err := symfonycfg.ReadRouting(file, data)
	if err != nil {
		w.log("routing file not read", "path", file, "reason", err.Error())
		return
	}
	for _, r := range f.Routes {
		w.route(file, prefix, namePrefix, r)
	}
	for _, im := range f.Imports {
		if im.Bundle != "" {
			dir := w.bundleDir(im.Bundle)
			if dir == "" {
				continue // a bundle outside the project (vendor)
			}
			im.Resource = path.Join(dir, im.Resource)
			if im.Dir {
				im.Resource += "/"
			}
		}
		im.Prefix = joinPrefix(prefix, w.param(im.Prefix))
		im.NamePrefix = namePrefix + im.NamePrefix
		if im.Routing {
			if w.exists[im.Resource] {
				w.visit(im.Resource, im.Prefix, im.NamePrefix, depth+1)
			}
			continue
		}
		if im.Prefix != "" || im.NamePrefix != "" {
			w.out.imports = append(w.out.imports, im)
		}
	}
}

// route adds the nodes of a declared route, one per method.
func (w *routeWalker) route(file, prefix, namePrefix string, r symfonycfg.Route) {
	uri := symfonycfg.Import{Prefix: prefix}.Apply(r.Path)
	verbs := r.Methods
	if len(verbs) == 0 {
		verbs = []string{"ANY"}
	}
	lang := "yaml"
	if strings.HasSuffix(file, ".xml") {
		lang = "xml"
	}
	fileID := fact.FileNodeID(file)
	for _, v := range verbs {
		q := v + " " + uri
		k := file + "\x00" + q
		id := fact.NodeID(fact.WebRoute, q, file, w.ids[k])
		w.ids[k]++
		props := map[string]string{"method": v, "uri": uri, "name": namePrefix + r.Name, "framework": "symfony"}
		if r.Controller != "" {
			props["handler"] = r.Controller
		}
		w.out.nodes = append(w.out.nodes, fact.Node{ID: id, Kind: fact.WebRoute, Name: q, QName: q, Path: file,
			StartLine: r.Line, EndLine: max(r.EndLine, r.Line), Lang: lang, Parent: fileID, Props: props})
		w.out.edges = append(w.out.edges, fact.Edge{
			ID: fact.EdgeID(fact.Contains, fileID, id, file, r.Line), Kind: fact.Contains,
			From: fileID, To: id, Provenance: fact.Stated, Confidence: 1,
			EvidencePath: file, EvidenceLine: r.Line, Sources: []string{"routing"},
		})
		if h := controllerName(r.Controller); h != "" {
			w.out.refs = append(w.out.refs, fact.Ref{Kind: fact.RefHandles, From: id, Path: file, Line: r.Line,
				Name: h, Props: map[string]string{"raw": r.Controller}})
		}
	}
}

// controllerName is the handler a route's controller names, in resolve's
// form: "App\X::m"; an invokable class is its __invoke; a service id stays
// as written (services are not read: it stays unresolved).
func controllerName(c string) string {
	c = strings.TrimPrefix(strings.TrimSpace(c), `\`)
	switch {
	case c == "":
		return ""
	case strings.Contains(c, "::"):
		return c
	case strings.Count(c, ":") == 1 && strings.Contains(c, `\`):
		return strings.Replace(c, ":", "::", 1)
	case strings.Contains(c, `\`):
		return c + "::__invoke"
	}
	return c
}

// joinPrefix appends prefix b to prefix a, slashes as Symfony's addPrefix
// leaves them (one between, none doubled).
func joinPrefix(a, b string) string {
	a, b = strings.Trim(a, "/"), strings.Trim(b, "/")
	switch {
	case b == "":
		if a == "" {
			return ""
		}
		return "/" + a
	case a == "":
		return "/" + b
	}
	return "/" + a + "/" + b
}

// bundleDir is the directory of the project file declaring class name
// (AcmeBlogBundle.php), outside tests; "" when none.
func (w *routeWalker) bundleDir(name string) string {
	best := ""
	for _, r := range w.rows {
		dir, base := path.Split(r.Path)
		if base != name+".php" || isTestPath(dir) {
			continue
		}
		dir = strings.TrimSuffix(dir, "/")
		if best == "" || len(dir) < len(best) {
			best = dir
		}
	}
	return best
}

func isTestPath(p string) bool {
	for _, s := range strings.Split(p, "/") {
		switch strings.ToLower(s) {
		case "test", "tests", "fixtures", "spec":
			return true
		}
	}
	return false
}

var paramRef = regexp.MustCompile(`%([\w.()\-:]+)%`)

// param replaces %name% and %env(NAME)% in s by the values the project's
// configuration gives (parameters: of config and bundle YAML files, .env);
// what it cannot tell stays as written.
func (w *routeWalker) param(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	if w.params == nil {
		w.params = readParams(w.root, w.rows)
	}
	for range 5 {
		t := paramRef.ReplaceAllStringFunc(s, func(m string) string {
			k := m[1 : len(m)-1]
			if strings.HasPrefix(k, "env(") && strings.HasSuffix(k, ")") {
				name := k[4 : len(k)-1]
				name = name[strings.LastIndexByte(name, ':')+1:]
				if v, ok := w.params["\x00env:"+name]; ok {
					return v
				}
				if v, ok := w.params["env("+name+")"]; ok {
					return v
				}
				return m
			}
			if v, ok := w.params[k]; ok {
				return v
			}
			return m
		})
		if t == s {
			break
		}
		s = t
	}
	return s
}

// readParams reads the scalar parameters of the YAML files under config/
// and a bundle's Resources/config/ (tests aside), and the variables of .env
// (keyed "\x00env:NAME").
func readParams(root string, rows []graph.File) map[string]string {
	params := map[string]string{}
	for _, r := range rows {
		p := r.Path
		if !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".yml") || isTestPath(p) ||
			!strings.HasPrefix(p, "config/") && !strings.HasPrefix(p, "app/config/") && !strings.Contains(p, "/Resources/config/") {
			continue
		}
		if r.Size > symfonycfg.MaxFileBytes {
			continue
		}
		c, err := corpus.Read(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || c.Binary {
			continue
		}
		for k, v := range symfonycfg.Parameters(c.Data) {
			if _, dup := params[k]; !dup {
				params[k] = v
			}
		}
	}
	if c, err := corpus.Read(filepath.Join(root, ".env")); err == nil && !c.Binary {
		for _, ln := range strings.Split(string(c.Data), "\n") {
			k, v, ok := strings.Cut(strings.TrimSpace(ln), "=")
			if ok && k != "" && !strings.HasPrefix(k, "#") {
				params["\x00env:"+strings.TrimSpace(k)] = strings.Trim(strings.TrimSpace(v), `"'`)
			}
		}
	}
	return params
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
