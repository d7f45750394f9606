// This file marks where a value leaves through the session: `$_SESSION['k']`
// written here is read by another request, in any file, which the queries
// do not follow; a path reaching such a write, or a backward search reaching
// such a read, says so (cut point "session not followed") rather than
// claiming the absence of a flow. query.go calls it.

package dataflow

// sessionCut notes the cut point when node n of f writes the session
// (forward) or reads it (backward).
func (w *walker) sessionCut(f *Func, n *Node, forward bool) {
	if n.Loc.Kind != Superglobal || n.Loc.Name != "_SESSION" {
		return
	}
	if read := n.Kind == "source"; read != forward {
		w.cut(f.Path, n.Line, "session not followed")
	}
}
