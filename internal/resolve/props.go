// This file types properties that declare no type (neither a type nor an
// @var tag) from what the methods of their class and its subclasses assign
// to them (fact.RefPropAssign, internal/lang/php/props.go).

package resolve

import "github.com/ragraf/ragraf/internal/typ"

// maxAssignAlts bounds the different descriptors a property collects; a
// property assigned more kinds of value is left untyped.
const maxAssignAlts = 4

// propAssign is one recorded assignment, kept until the hierarchy is known.
type propAssign struct {
	class, name string
	desc        typ.Desc
}

// assignedTypes attributes the recorded assignments to the property nodes
// they write (found through the hierarchy, so a subclass's assignment to an
// inherited property counts) and keeps, per undeclared property, the
// distinct descriptors; an unknown value or too many leave it untyped.
func (r *resolver) assignedTypes(as []propAssign) {
	poisoned := map[int]bool{}
	for _, a := range as {
		for _, p := range r.lookupProp(a.class, a.name) {
			id := r.nodes[p].ID
			if _, declared := r.propTypes[id]; declared || poisoned[p] {
				continue
			}
			if !a.desc.Known() {
				poisoned[p] = true
				delete(r.assigned, id)
				continue
			}
			cur := r.assigned[id]
			dup := false
			for _, d := range cur {
				dup = dup || d.Equal(a.desc)
			}
			if dup {
				continue
			}
			if len(cur) == maxAssignAlts {
				poisoned[p] = true
				delete(r.assigned, id)
				continue
			}
			r.assigned[id] = append(cur, a.desc)
		}
	}
}

// assignedType evaluates the assigned descriptors of property node p: the
// union of their classes, or nothing when one of them cannot be evaluated
// (then the property's type is not proven).
func (r *resolver) assignedType(p int, class string, depth int) []rtype {
	var out []rtype
	for _, d := range r.assigned[r.nodes[p].ID] {
		t := r.eval(d, class, depth+1)
		if len(t) == 0 {
			return nil
		}
		out = addTypes(out, t)
	}
	return out
}
