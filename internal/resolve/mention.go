package resolve

import (
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// mention links a named function or member with a references edge when it
// exists; a mention of nothing known is dropped, not unresolved (prose names
// things that are not code).
func (r *resolver) mention(ref *fact.Ref) outcome {
	name := ref.Name
	if !ref.Recv.Known() {
		ids := r.funcs[fact.Lower(name)]
		if len(ids) == 0 && ref.Alt != "" {
			ids = r.funcs[fact.Lower(ref.Alt)]
		}
		if len(ids) == 0 {
			return skip
		}
		for _, i := range ids {
			r.edge(fact.References, ref.From, r.nodes[i].ID, ref, fact.Stated, 1)
		}
		return stated
	}
	classes, _, _ := r.receiver(ref)
	if name == "" {
		for _, c := range classes {
			for _, d := range r.classes[c] {
				r.edge(fact.References, ref.From, r.nodes[d.idx].ID, ref, fact.Stated, 1)
			}
		}
		if len(classes) == 0 {
			return skip
		}
		return stated
	}
	var targets []int
	for _, c := range classes {
		switch {
		case strings.HasSuffix(name, "()"):
			targets = append(targets, r.lookupMethod(c, fact.Lower(strings.TrimSuffix(name, "()")))...)
		case strings.HasPrefix(name, "$"):
			targets = append(targets, r.lookupProp(c, name[1:])...)
		default:
			targets = append(targets, r.lookupConst(c, name)...)
		}
	}
	if len(targets) == 0 {
		return skip
	}
	for _, t := range dedupInts(targets) {
		r.edge(fact.References, ref.From, r.nodes[t].ID, ref, fact.Stated, 1)
	}
	return stated
}
