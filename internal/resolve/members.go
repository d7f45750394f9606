// This file resolves property and constant access on a receiver, with
// PHPDoc members, trait members declared by the classes using the trait, and
// the magic __get/__set an undeclared property reaches.

package resolve

import (
	"slices"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

func (r *resolver) member(ref *fact.Ref, lookup func(class, name string) []int, what string) outcome {
	if !ref.Recv.Known() {
		return r.unresolvedRef(ref, ref.Name, "receiver type unknown")
	}
	classes, builtin, missing := r.receiver(ref)
	var targets []int
	for _, c := range classes {
		targets = append(targets, lookup(c, ref.Name)...)
	}
	if len(targets) > 0 {
		for _, t := range dedupInts(targets) {
			r.edge(fact.References, ref.From, r.nodes[t].ID, ref, fact.Stated, 1)
		}
		return stated
	}
	if what == "property" {
		for _, c := range classes {
			if r.docPropType(c, ref.Name, 0).Known() || r.hasDocProp(c, ref.Name) {
				return external
			}
		}
	}
	switch {
	case len(builtin) > 0 && !missing:
		return external
	case len(classes) == 0 && !missing:
		return r.unresolvedRef(ref, ref.Name, "receiver type unknown")
	case len(classes) == 0:
		return r.unresolvedRef(ref, ref.Name, "receiver class not found")
	}
	if ref.Kind == fact.RefPropFetch && r.magicProperty(ref, classes) {
		return derived
	}
	reason := what + " not found on " + r.qname(classes[0])
	if users := r.declaredByUsers(classes, ref.Name, lookup); len(users) > 0 {
		// a reference must be proven, and classes outside the project may
		// use the trait too; the reason names where the project declares it
		reason += ", a trait; declared by the classes that use it: " + strings.Join(users, ", ")
	}
	return r.unresolvedRef(ref, ref.Name, reason)
}

// declaredByUsers returns the qualified names, at most four, of the members
// named name that the project classes using trait classes[0] declare or
// inherit.
func (r *resolver) declaredByUsers(classes []string, name string, lookup func(class, name string) []int) []string {
	var out []string
	for _, u := range r.traitUsers[classes[0]] {
		for _, t := range lookup(u, name) {
			if q := r.nodes[t].QName; !slices.Contains(out, q) && len(out) < 4 {
				out = append(out, q)
			}
		}
	}
	slices.Sort(out)
	return out
}

// magicProperty links an access to a property the receiver's classes do not
// declare to the magic methods PHP runs for it: __get to read, __set to
// write, both for `.=` and the like. An object of a subclass may declare
// the property, so these are candidates (calls_heuristic, p = pMagic / n for
// n classes' methods), as for __call. It reports whether any class has them.
func (r *resolver) magicProperty(ref *fact.Ref, classes []string) bool {
	var magic []string
	switch ref.Props[fact.PropAccess] {
	case fact.AccessWrite:
		magic = []string{"__set"}
	case fact.AccessReadWrite:
		magic = []string{"__get", "__set"}
	default:
		magic = []string{"__get"}
	}
	found := false
	for _, name := range magic {
		var targets []int
		for _, c := range classes {
			targets = append(targets, r.lookupMethod(c, name)...)
		}
		targets = dedupInts(targets)
		for _, t := range targets {
			r.edge(fact.CallsHeuristic, ref.From, r.nodes[t].ID, ref, fact.Derived, heuristicConfidence(pMagic, len(targets)))
			found = true
		}
	}
	return found
}
