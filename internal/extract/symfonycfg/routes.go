// Package symfonycfg reads Symfony's routing configuration: the imports of
// config/routes.yaml (and config/routes/*.yaml, app/config/routing.yml)
// that load attribute or annotation routes from a directory or file under
// a prefix and a name prefix. The build applies them onto the routes the
// PHP front end reads, so a route's URI and name are the ones debug:router
// prints.
//
// The YAML is read as a syntax tree and aliases are never expanded: a file
// of anchors that would expand exponentially costs what its bytes cost.
package symfonycfg

import (
	"errors"
	"path"
	"regexp"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// MaxFileBytes bounds one routing file; a larger one is not read.
const MaxFileBytes = 1 << 20

// ErrBudget is returned for a routing file over MaxFileBytes.
var ErrBudget = errors.New("budget: memory (routing file over 1 MiB)")

// Import is one import of routes: from PHP code (attribute and annotation
// routes of a directory or file) or from another routing file.
type Import struct {
	Name       string // the import's key in the file
	Resource   string // the directory ("src/Controller/") or file, relative to the project root
	Dir        bool   // Resource is a directory
	Prefix     string // path prefix, "" when none
	NamePrefix string
	Path       string // the routing file
	Line       int
	// Bundle is the bundle a resource "@AcmeBundle/x/y.yaml" names; then
	// Resource is the part after the bundle ("x/y.yaml"), relative to the
	// bundle's directory, which only the project's files tell.
	Bundle string
	// Routing says Resource is another routing file (YAML or XML) whose
	// routes and imports are loaded under this one's prefixes.
	Routing bool
}

// ControllersAlias is the resource Symfony's recipes name for every
// attribute route under src/Controller.
const ControllersAlias = "routing.controllers"

// RouteImports reads the imports of attribute and annotation routes of one
// routing file at path (relative to the project root, slash-separated).
// Imports of bundles (@Bundle/...), services and environment-only blocks
// (when@dev) are not routes of the project's code and are skipped.
func RouteImports(file string, data []byte) ([]Import, error) {
	f, err := ReadRouting(file, data)
	if err != nil {
		return nil, err
	}
	var out []Import
	for _, im := range f.Imports {
		if !im.Routing && im.Bundle == "" {
			out = append(out, im)
		}
	}
	return out, nil
}

// Route is a route declared in a routing file.
type Route struct {
	Name       string
	Path       string   // as written, inline requirements and defaults moved out ({page<\d+>} is {page})
	Methods    []string // upper case; none is any method
	Controller string   // controller or defaults._controller as written: "App\X::m", "App\X", "service.id::m"
	Line       int
	EndLine    int
}

// File is what one routing file declares.
type File struct {
	Imports []Import
	Routes  []Route
	// Skipped are the imports not followed, with the reason ("name: type
	// sylius.resource"): routes a loader of the framework or a bundle builds.
	Skipped []string
}

// ReadRouting reads a routing file: YAML (.yaml, .yml) or XML (.xml).
func ReadRouting(file string, data []byte) (File, error) {
	if len(data) > MaxFileBytes {
		return File{}, ErrBudget
	}
	if strings.HasSuffix(file, ".xml") {
		return readXML(file, data)
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return File{}, err
	}
	var out File
	for _, doc := range f.Docs {
		for _, mv := range values(doc.Body) {
			key := keyOf(mv)
			if strings.HasPrefix(key, "when@") {
				continue
			}
			entry := map[string]ast.Node{}
			for _, f := range values(mv.Value) {
				entry[keyOf(f)] = f.Value
			}
			line := mv.Key.GetToken().Position.Line
			if entry["resource"] != nil {
				out.addImport(file, key, line, entry)
				continue
			}
			if entry["path"] == nil {
				continue
			}
			r := Route{Name: key, Line: line, EndLine: endLine(mv, line)}
			r.Path, _ = str(entry["path"]) // a per-locale map of paths is not read
			r.Path = CleanPath(r.Path)
			r.Methods = methods(entry["methods"])
			r.Controller, _ = str(entry["controller"])
			if r.Controller == "" {
				for _, d := range values(entry["defaults"]) {
					if keyOf(d) == "_controller" {
						r.Controller, _ = str(d.Value)
					}
				}
			}
			out.Routes = append(out.Routes, r)
		}
	}
	return out, nil
}

// addImport reads one import entry.
func (out *File) addImport(file, key string, line int, entry map[string]ast.Node) {
	im := Import{Name: key, Path: file, Line: line}
	resource, ok := str(entry["resource"])
	if !ok {
		for _, r := range values(entry["resource"]) {
			if keyOf(r) == "path" {
				resource, _ = str(r.Value)
			}
		}
	}
	typ, _ := str(entry["type"])
	im.Prefix, _ = str(entry["prefix"]) // a per-locale map of prefixes is not read
	im.NamePrefix, _ = str(entry["name_prefix"])
	out.add(im, resource, typ)
}

// add keeps im, its resource resolved from the resource as written, or
// records why the import is not followed.
func (out *File) add(im Import, resource, typ string) {
	if reason := im.resolve(resource, typ); reason != "" {
		out.Skipped = append(out.Skipped, im.Name+": "+reason)
		return
	}
	out.Imports = append(out.Imports, im)
}

func (im *Import) resolve(resource, typ string) string {
	switch {
	case resource == "":
		return "resource not a string"
	case resource == ControllersAlias:
		im.Resource, im.Dir = "src/Controller/", true
		return ""
	case typ != "" && typ != "attribute" && typ != "annotation" && typ != "yaml" && typ != "xml" && typ != "directory":
		return "type " + typ
	case strings.Contains(resource, "%") || strings.ContainsAny(resource, "*{"):
		return "resource built at run time or a glob"
	}
	im.Routing = IsRoutingFile(resource)
	if !im.Routing && !strings.HasSuffix(resource, "/") && !strings.HasSuffix(resource, ".php") {
		if typ != "attribute" && typ != "annotation" && typ != "directory" {
			return "resource neither a directory, a PHP file nor a routing file"
		}
		resource += "/"
	}
	im.Dir = strings.HasSuffix(resource, "/")
	if strings.HasPrefix(resource, "@") {
		b, rest, _ := strings.Cut(resource[1:], "/")
		if !strings.HasSuffix(b, "Bundle") {
			return "resource of a namespace, not a bundle"
		}
		im.Bundle, im.Resource = b, rest
		return ""
	}
	r := path.Clean(path.Join(path.Dir(im.Path), resource))
	if strings.HasPrefix(r, "../") || r == ".." {
		return "resource outside the project"
	}
	if im.Dir {
		r += "/"
		if r == "./" {
			r = ""
		}
	}
	im.Resource = r
	return ""
}

// IsRoutingFile reports whether a resource names a YAML or XML routing file.
func IsRoutingFile(p string) bool {
	return strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".xml")
}

// routeParams matches a route parameter with an entity mapping
// ({slug:post}), an inline requirement ({page<\d+>}) or default ({page?1}),
// which Symfony's Route moves out of the path: debug:router prints {slug}.
var routeParams = regexp.MustCompile(`\{(!?\w+)(?::[\w.]+)?(?:<[^>{}]*>)?(?:\?[^{}]*)?\}`)

// CleanPath is a path as debug:router prints it: parameters without their
// inline requirement, default or entity mapping.
func CleanPath(p string) string {
	return routeParams.ReplaceAllString(p, "{$1}")
}

func methods(n ast.Node) []string {
	var raw []string
	if s, ok := str(n); ok {
		raw = strings.Split(s, "|")
	} else if seq, ok := n.(*ast.SequenceNode); ok {
		for _, v := range seq.Values {
			if s, ok := str(v); ok {
				raw = append(raw, s)
			}
		}
	}
	var out []string
	for _, m := range raw {
		if m = strings.ToUpper(strings.TrimSpace(m)); m != "" {
			out = append(out, m)
		}
	}
	return out
}

// endLine is the last line of a mapping value, from its last token.
func endLine(mv *ast.MappingValueNode, start int) int {
	end := start
	ast.Walk(visitor(func(n ast.Node) {
		if t := n.GetToken(); t != nil && t.Position.Line > end {
			end = t.Position.Line
		}
	}), mv.Value)
	return end
}

type visitor func(ast.Node)

func (v visitor) Visit(n ast.Node) ast.Visitor {
	if n == nil {
		return nil
	}
	if _, alias := n.(*ast.AliasNode); alias {
		return nil // never followed: the anchor's nodes are walked where they stand
	}
	v(n)
	return v
}

// Covers reports whether the import loads the routes of the file at p.
func (im Import) Covers(p string) bool {
	if im.Dir {
		return strings.HasPrefix(p, im.Resource)
	}
	return p == im.Resource
}

// Apply returns uri under the import's prefix, in the project's route form
// (one leading slash, no trailing one).
func (im Import) Apply(uri string) string {
	var segs []string
	for _, s := range []string{im.Prefix, uri} {
		if s = strings.Trim(s, "/"); s != "" {
			segs = append(segs, s)
		}
	}
	return "/" + strings.Join(segs, "/")
}

func values(n ast.Node) []*ast.MappingValueNode {
	switch t := n.(type) {
	case *ast.MappingNode:
		return t.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{t}
	case *ast.TagNode:
		return values(t.Value)
	case *ast.AnchorNode:
		return values(t.Value)
	}
	return nil
}

func keyOf(mv *ast.MappingValueNode) string {
	if s, ok := mv.Key.(*ast.StringNode); ok {
		return s.Value
	}
	return mv.Key.String()
}

func str(n ast.Node) (string, bool) {
	switch t := n.(type) {
	case *ast.StringNode:
		return t.Value, true
	case *ast.LiteralNode:
		return t.Value.Value, true
	case *ast.AnchorNode:
		return str(t.Value)
	}
	return "", false
}

// Parameters reads the scalar values of a YAML file's top-level
// `parameters:` map (aliases are not followed); nil when it has none or
// does not parse.
func Parameters(data []byte) map[string]string {
	if len(data) > MaxFileBytes || !strings.Contains(string(data), "parameters") {
		return nil
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, doc := range f.Docs {
		for _, mv := range values(doc.Body) {
			if keyOf(mv) != "parameters" {
				continue
			}
			for _, p := range values(mv.Value) {
				if s, ok := str(p.Value); ok {
					out[keyOf(p)] = s
				}
			}
		}
	}
	return out
}
