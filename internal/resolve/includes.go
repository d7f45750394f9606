// This file evaluates include/require paths: literal parts, __DIR__ and
// __FILE__ (already replaced by the extractor) and constants whose define()
// value is itself such an expression, as in WordPress's ABSPATH . WPINC.

package resolve

import (
	"path"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// maxPathCandidates bounds the values tried for one include expression.
const maxPathCandidates = 8

func (r *resolver) include(ref *fact.Ref) outcome {
	if ref.Include == "" {
		return r.unresolvedRef(ref, ref.Name, "include path not static")
	}
	for _, v := range r.pathValues(ref.Include, 0) {
		if target := r.findFile(v, ref.Path); target != "" {
			r.edge(fact.Includes, fact.FileNodeID(ref.Path), fact.FileNodeID(target), ref, fact.Stated, 1)
			return stated
		}
	}
	return r.unresolvedRef(ref, ref.Name, "include target not in project")
}

// pathValues returns the possible string values of a path expression.
func (r *resolver) pathValues(expr string, depth int) []string {
	if depth > 8 {
		return nil
	}
	vals := []string{""}
	for _, part := range strings.Split(expr, " . ") {
		var opts []string
		if strings.HasPrefix(part, "'") && strings.HasSuffix(part, "'") && len(part) >= 2 {
			opts = []string{part[1 : len(part)-1]}
		} else {
			for _, d := range r.defines[part] {
				opts = append(opts, r.pathValues(d, depth+1)...)
			}
		}
		if len(opts) == 0 {
			return nil
		}
		var next []string
		for _, v := range vals {
			for _, o := range opts {
				if len(next) < maxPathCandidates {
					next = append(next, v+o)
				}
			}
		}
		vals = next
	}
	return vals
}

// findFile maps an evaluated path to a project file: a leading slash means the
// project root; a relative path is tried from the including file's directory,
// then from the root (PHP's include_path default ".").
func (r *resolver) findFile(v, from string) string {
	if v == "" {
		return ""
	}
	if strings.HasPrefix(v, "/") {
		p := strings.TrimPrefix(path.Clean(v), "/")
		if r.files[p] {
			return p
		}
		return ""
	}
	if p := path.Join(path.Dir(from), v); r.files[p] {
		return p
	}
	if p := path.Clean(v); r.files[p] {
		return p
	}
	return ""
}
