// This file gives a slice its control dependences on request
// (SliceControl): a statement node depends on the condition it runs under
// (Node.Ctrl, lowered per language), a condition on the one it runs under
// (Cond.Ctrl) and on the values it reads (Cond.In). These moves are all
// backwards, also in a forward slice: what decides whether a reached
// statement runs, and where that comes from. Within one function only: a
// function's statements do not depend on the conditions around its calls.

package dataflow

// ctrlMoves lists the move from node state s to its innermost condition.
func (w *walker) ctrlMoves(s state) []edge {
	f := w.fn(s.fn)
	if f == nil || s.node < 0 {
		return nil
	}
	c := f.Nodes[s.node].Ctrl
	if c <= 0 || c > len(f.Conds) {
		return nil
	}
	to := s
	to.node = -c
	return []edge{{to: to, kind: Control, confidence: 1}}
}

// condMoves lists the moves from condition state s (node -c): to the
// condition it runs under and to the nodes whose values it reads.
func (w *walker) condMoves(s state) []edge {
	f := w.fn(s.fn)
	if f == nil || -s.node > len(f.Conds) {
		return nil
	}
	c := &f.Conds[-s.node-1]
	var out []edge
	if c.Ctrl > 0 && c.Ctrl <= len(f.Conds) {
		to := s
		to.node = -c.Ctrl
		out = append(out, edge{to: to, kind: Control, confidence: 1})
	}
	for _, in := range c.In {
		to := s
		to.node = in.From
		out = append(out, edge{to: to, kind: in.Kind, note: in.Note, confidence: 1})
	}
	return out
}
