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
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// MaxFileBytes bounds one routing file; a larger one is not read.
const MaxFileBytes = 1 << 20

// ErrBudget is returned for a routing file over MaxFileBytes.
var ErrBudget = errors.New("budget: memory (routing file over 1 MiB)")

// Import is one import of routes from PHP code.
type Import struct {
	Name       string // the import's key in the file
	Resource   string // the directory ("src/Controller/") or file, relative to the project root
	Dir        bool   // Resource is a directory
	Prefix     string // path prefix, "" when none
	NamePrefix string
	Path       string // the routing file
	Line       int
}

// ControllersAlias is the resource Symfony's recipes name for every
// attribute route under src/Controller.
const ControllersAlias = "routing.controllers"

// RouteImports reads the imports of one routing file at path (relative to
// the project root, slash-separated). Imports of bundles (@Bundle/...),
// services and environment-only blocks (when@dev) are not routes of the
// project's code and are skipped.
func RouteImports(file string, data []byte) ([]Import, error) {
	if len(data) > MaxFileBytes {
		return nil, ErrBudget
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, err
	}
	var out []Import
	for _, doc := range f.Docs {
		for _, mv := range values(doc.Body) {
			key := keyOf(mv)
			if strings.HasPrefix(key, "when@") {
				continue
			}
			im, ok := readImport(file, key, mv)
			if ok {
				out = append(out, im)
			}
		}
	}
	return out, nil
}

func readImport(file, key string, mv *ast.MappingValueNode) (Import, bool) {
	im := Import{Name: key, Path: file, Line: mv.Key.GetToken().Position.Line}
	var resource, typ string
	for _, f := range values(mv.Value) {
		switch keyOf(f) {
		case "resource":
			if s, ok := str(f.Value); ok {
				resource = s
			} else {
				for _, r := range values(f.Value) {
					if keyOf(r) == "path" {
						resource, _ = str(r.Value)
					}
				}
			}
		case "type":
			typ, _ = str(f.Value)
		case "prefix":
			im.Prefix, _ = str(f.Value) // a per-locale map of prefixes is not read
		case "name_prefix":
			im.NamePrefix, _ = str(f.Value)
		}
	}
	switch {
	case resource == "":
		return im, false
	case resource == ControllersAlias:
		im.Resource, im.Dir = "src/Controller/", true
		return im, true
	case typ == "service" || strings.HasPrefix(resource, "@") || strings.Contains(resource, "%"):
		return im, false
	}
	if !strings.HasSuffix(resource, "/") && !strings.HasSuffix(resource, ".php") {
		return im, false // another routing file (yaml, xml): its own routes
	}
	r := path.Clean(path.Join(path.Dir(file), resource))
	if strings.HasPrefix(r, "../") || r == ".." {
		return im, false
	}
	im.Dir = strings.HasSuffix(resource, "/")
	if im.Dir {
		r += "/"
		if r == "./" {
			r = ""
		}
	}
	im.Resource = r
	return im, true
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
