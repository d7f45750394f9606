// This file follows global variables between functions and files: a write
// of a global (a file's top-level assignment, a function's assignment to a
// variable it declared `global`, `$GLOBALS['x'] = …`) reaches its reads
// elsewhere (`global $x` in a function, `$GLOBALS['x']`, a file's top level
// reading a variable it never set, as an included file reads its
// includer's). The places searched are the file and the files joined to it
// by include edges, both ways, a few hops out (Env.Includes); the order in
// which the files run is not known, so the edges are derived.

package dataflow

import (
	"errors"
	"strings"
)

// Include is one include edge at a file: Path is the other file; Line the
// include statement's line when the file asked about includes Path, 0 when
// Path includes it.
type Include struct {
	Path string
	Line int
}

// maxIncludeHops bounds how far over include edges a global is looked for.
const maxIncludeHops = 2

// globalConfidence is the confidence of a global edge.
const globalConfidence = 0.9

// globalRef is a node of a function that writes or reads a global.
type globalRef struct {
	f    *Func
	node int
}

// globalIndex lists the global writes and reads of one file by name;
// readers are the top-level nodes that read a variable the top level set
// (a function declaring it global may have set it since).
type globalIndex struct {
	defs, uses, readers map[string][]globalRef
}

// globalDef returns the global that node i of f writes ("" for none).
func globalDef(f *Func, i int) string {
	n := &f.Nodes[i]
	switch {
	case n.Loc.Kind == Superglobal && n.Loc.Name == "GLOBALS" && n.Kind != "source" && n.Loc.Key != "*":
		return n.Loc.Key
	case (n.Loc.Kind == Local || n.Loc.Kind == Elem) && n.Kind != "global" && n.Kind != "param":
		if f.TopLevel || declaresGlobal(f, n.Loc.Name) {
			return n.Loc.Name
		}
	}
	return ""
}

// globalUse returns the global that node i of f reads ("" for none).
func globalUse(f *Func, i int) string {
	n := &f.Nodes[i]
	switch {
	case n.Kind == "global" && n.Loc.Kind == Global:
		return n.Loc.Name
	case n.Kind == "source" && n.Loc.Kind == Superglobal && n.Loc.Name == "GLOBALS" && n.Loc.Key != "*":
		return n.Loc.Key
	}
	return ""
}

// topLevelReads returns the variables node i of a top level reads from the
// top level's own assignments.
func topLevelReads(f *Func, i int) []string {
	var out []string
	for _, in := range f.Nodes[i].In {
		m := &f.Nodes[in.From]
		if m.Loc.Kind == Local && m.Kind != "global" && m.Kind != "param" {
			out = append(out, m.Loc.Name)
		}
	}
	return out
}

func declaresGlobal(f *Func, v string) bool {
	for i := range f.Nodes {
		if n := &f.Nodes[i]; n.Kind == "global" && n.Loc.Kind == Global && n.Loc.Name == v {
			return true
		}
	}
	return false
}

func (w *walker) includesOf(path string) []Include {
	if is, ok := w.includes[path]; ok {
		return is
	}
	var is []Include
	if w.env.Includes != nil {
		var err error
		if is, err = w.env.Includes(w.ctx, path); err != nil && w.err == nil {
			w.err = err
		}
	}
	w.includes[path] = is
	return is
}

// includeFollowed reports whether the include statement at line of path
// has a resolved target.
func (w *walker) includeFollowed(path string, line int) bool {
	for _, in := range w.includesOf(path) {
		if in.Line == line {
			return true
		}
	}
	return false
}

// unfollowedIncludes marks the includes of top level f that have no target:
// a global f sets may be read by the file they include.
func (w *walker) unfollowedIncludes(f *Func) {
	for i := range f.Nodes {
		n := &f.Nodes[i]
		if n.Kind == "output" && (strings.HasPrefix(n.Loc.Name, "include") || strings.HasPrefix(n.Loc.Name, "require")) && !w.includeFollowed(f.Path, n.Line) {
			w.cut(f.Path, n.Line, "include not followed")
		}
	}
}

// globalsOf indexes the global writes and reads of the file at path.
func (w *walker) globalsOf(path string) *globalIndex {
	if gi, ok := w.globals[path]; ok {
		return gi
	}
	gi := &globalIndex{defs: map[string][]globalRef{}, uses: map[string][]globalRef{}, readers: map[string][]globalRef{}}
	w.globals[path] = gi
	if w.env.File == nil {
		return gi
	}
	fs, err := w.env.File(w.ctx, path)
	switch {
	case errors.Is(err, ErrMemory):
		w.stopped, w.memory = true, true
		w.cut("", 0, "budget: memory")
	case err != nil && w.err == nil:
		w.err = err
	}
	for _, f := range fs {
		if f.Skipped != "" {
			continue
		}
		if _, ok := w.funcs[f.ID]; !ok {
			w.funcs[f.ID] = f
		}
		for i := range f.Nodes {
			if v := globalDef(f, i); v != "" {
				gi.defs[v] = append(gi.defs[v], globalRef{f, i})
			}
			if v := globalUse(f, i); v != "" {
				gi.uses[v] = append(gi.uses[v], globalRef{f, i})
			}
			if f.TopLevel {
				for _, v := range topLevelReads(f, i) {
					gi.readers[v] = append(gi.readers[v], globalRef{f, i})
				}
			}
		}
	}
	return gi
}

// scopeOf returns the paths where a global of path is looked for: path and
// the files include edges join to it, breadth-first, maxIncludeHops out.
func (w *walker) scopeOf(path string) []string {
	if ps, ok := w.scopes[path]; ok {
		return ps
	}
	seen := map[string]bool{path: true}
	out := []string{path}
	frontier := []string{path}
	for hop := 0; hop < maxIncludeHops && len(frontier) > 0; hop++ {
		var next []string
		for _, p := range frontier {
			for _, in := range w.includesOf(p) {
				if !seen[in.Path] {
					seen[in.Path] = true
					out = append(out, in.Path)
					next = append(next, in.Path)
				}
			}
		}
		frontier = next
	}
	w.scopes[path] = out
	return out
}

// hasGlobal reports whether s may have global moves (globalMoves), without
// looking at any other file.
func (w *walker) hasGlobal(f *Func, s state, forward bool) bool {
	if forward {
		return globalDef(f, s.node) != ""
	}
	return globalUse(f, s.node) != "" || f.TopLevel && len(topLevelReads(f, s.node)) > 0
}

// globalMoves lists the global edges out of s (forward: to the reads of the
// global s writes; backward: to the writes of the global s reads).
func (w *walker) globalMoves(f *Func, s state, forward bool) []edge {
	var v string
	if forward {
		v = globalDef(f, s.node)
	} else {
		v = globalUse(f, s.node)
	}
	var read []string // a top level's reads of its own variables, which a function may have set
	if !forward && f.TopLevel {
		read = topLevelReads(f, s.node)
	}
	if v == "" && len(read) == 0 {
		return nil
	}
	var out []edge
	add := func(refs []globalRef, functionsOnly bool) {
		for _, r := range refs {
			if r.f.ID == f.ID || functionsOnly && r.f.TopLevel {
				continue // within one function the lowering already links them
			}
			to := state{fn: r.f.ID, node: r.node, crossd: s.crossd}
			out = append(out, edge{to: to, kind: GlobalEdge, derived: true, confidence: globalConfidence})
		}
	}
	for _, p := range w.scopeOf(f.Path) {
		gi := w.globalsOf(p)
		switch {
		case forward && v != "":
			add(gi.uses[v], false)
			if !f.TopLevel {
				add(gi.readers[v], false) // a function's write reaches the top level's later reads
			}
		case v != "":
			add(gi.defs[v], false)
		}
		for _, r := range read {
			add(gi.defs[r], true)
		}
	}
	if forward && v != "" && f.TopLevel {
		w.unfollowedIncludes(f)
	}
	return out
}
