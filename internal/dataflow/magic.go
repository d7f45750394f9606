// This file decides whether a property store reaches a method PHP calls
// only for isset/empty (__isset) or unset (__unset) of a property its
// caller cannot see (Func.Public, lowered in internal/lang/php/
// dataflow_magic.go): such a method runs only when code applies isset,
// empty or unset to a property that is not one of the class's public ones.
// query.go's propPeers asks entered.

package dataflow

import (
	"slices"
	"strings"
)

// magicOps are the calls that enter each magic method.
var magicOps = map[string][]string{"__isset": {"isset", "empty"}, "__unset": {"unset"}}

// entered reports whether magic method g may run: some function of g's
// file or of from's file applies one of its operations to a property that
// g's class does not declare public (or to one whose name is computed). A
// method that is not magic is always entered. When it is not, the answer
// gets a cut point: the operation may sit in a file the query did not see.
func (w *walker) entered(g, from *Func) bool {
	if g.Public == nil {
		return true
	}
	ops := magicOps[strings.ToLower(g.Name)]
	if ops == nil {
		return true
	}
	key := g.ID + "\x00" + from.Path
	v, ok := w.magic[key]
	if !ok {
		for _, f := range []*Func{g, from} {
			for _, h := range w.siblingsOf(f) {
				v = v || triggers(h, ops, g.Public)
			}
		}
		w.magic[key] = v
	}
	if !v {
		// every time: a summary walk starts with no cut points
		w.cut(g.Path, g.StartLine, "magic method: not entered by isset/unset seen")
	}
	return v
}

// triggers reports whether h applies one of ops to a property not in public.
func triggers(h *Func, ops, public []string) bool {
	for i := range h.Calls {
		c := &h.Calls[i]
		if c.Method || !slices.ContainsFunc(ops, func(op string) bool { return strings.EqualFold(op, c.Name) }) {
			continue
		}
		for _, a := range c.Args {
			for _, in := range h.Nodes[a].In {
				m := &h.Nodes[in.From]
				if m.Loc.Kind != Prop {
					continue
				}
				_, p, _ := strings.Cut(m.Loc.Name, "::$")
				if !slices.Contains(public, p) {
					return true
				}
			}
		}
	}
	return false
}
