// This file resolves method calls: the receiver's descriptor evaluated to
// classes, the methods they declare or inherit, and, where the receiver
// leaves the target open, the candidates (subclasses, implementations of a
// built-in interface, classes using a trait, methods of the name) as
// calls_heuristic edges; dynamic calls and callbacks likewise.

package resolve

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/typ"
)

// throughMixin tells whether method node t was found on none of the receiver
// classes or their parents, traits and interfaces: only through a @mixin.
func (r *resolver) throughMixin(classes []string, t int) bool {
	owner, _, ok := strings.Cut(r.nodes[t].QName, "::")
	if !ok {
		return false
	}
	owner = fact.Lower(owner)
	for _, c := range classes {
		if r.inherits(c, owner, 0) {
			return false
		}
	}
	return true
}

// inherits tells whether class is target or has it among its parents, traits
// and interfaces, transitively (@mixin classes excluded).
func (r *resolver) inherits(class, target string, depth int) bool {
	if class == target {
		return true
	}
	if depth > maxDepth {
		return false
	}
	for _, c := range r.classes[class] {
		for _, list := range [][]string{c.parents, c.traits, c.ifaces} {
			for _, p := range list {
				if r.inherits(p, target, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// globalIn returns the name of the first global variable a receiver
// descriptor starts from ("" for none): the base of an alternative, or of
// one in a group, in the order they are written.
func globalIn(desc typ.Desc) string {
	for _, a := range desc.Alts() {
		switch b := a.Base(); b.Kind {
		case typ.Global:
			return b.Name
		case typ.Group:
			if g := globalIn(b.Group); g != "" {
				return g
			}
		}
	}
	return ""
}

// assignedProp returns the property name when a receiver descriptor (of one
// alternative) ends in a property (`static->registry`) that declares no type
// and is typed by what its class's methods assign to it (props.go), or "".
func (r *resolver) assignedProp(desc typ.Desc) string {
	if len(desc.Alts()) != 1 {
		return ""
	}
	rest, last, ok := desc.Alts()[0].Last()
	if !ok || last.Kind != typ.Prop {
		return ""
	}
	name := last.Name
	for _, c := range r.eval(rest, "", 0) {
		if !c.object() {
			continue
		}
		for _, p := range r.lookupProp(c.class, name) {
			if _, declared := r.propTypes[r.nodes[p].ID]; !declared && len(r.assigned[r.nodes[p].ID]) > 0 {
				return name
			}
		}
	}
	return ""
}

// receiver evaluates a reference's receiver and sorts the classes into
// project classes and the rest.
func (r *resolver) receiver(ref *fact.Ref) (project, builtin []string, missing bool) {
	for _, c := range r.eval(ref.Recv, "", 0) {
		switch {
		case c.dims > 0:
		case c.outside:
			missing = true
		case r.classes[c.class] != nil:
			project = append(project, c.class)
		case builtins().classes[c.class]:
			builtin = append(builtin, c.class)
		default:
			missing = true
		}
	}
	return project, builtin, missing
}

func (r *resolver) methodCall(ref *fact.Ref) outcome {
	if ref.Props[fact.PropAnonMethod] == "true" {
		return r.unresolvedRef(ref, ref.Name, "method of an anonymous class, which the index does not hold")
	}
	if !ref.Recv.Known() {
		return r.byName(ref, fact.Lower(ref.Name), pByName, "unknown receiver")
	}
	classes, builtin, missing := r.receiver(ref)
	var targets []int
	for _, c := range classes {
		targets = append(targets, r.lookupMethod(c, fact.Lower(ref.Name))...)
	}
	if len(targets) > 0 {
		targets = dedupInts(targets)
		// wide: typed from what the whole project assigns to a global; g:
		// made on a global variable, typed that way or by an @global tag
		wide := globalIn(ref.Recv)
		g := ref.Props[fact.PropReceiverGlobal]
		if g == "" {
			g = wide
		}
		if wide != "" {
			// a global variable typed by what code across the project
			// assigns to it: which value this call sees depends on what ran
			// before (a test's mock, another entry point), so the methods
			// are candidates, not proven targets; an @global tag at the
			// function is a statement and stays proven
			for _, t := range targets {
				r.edgeProps(fact.CallsHeuristic, ref.From, r.nodes[t].ID, ref, fact.Derived, heuristicConfidence(pGlobal, len(targets)), "receiver", "global $"+g)
			}
			return derived
		}
		via := ""
		if g != "" {
			via = "global $" + g
		} else if p := r.assignedProp(ref.Recv); p != "" {
			via = "assigned ->" + p
		}
		for _, t := range targets {
			e := r.edge(fact.Calls, ref.From, r.nodes[t].ID, ref, fact.Stated, 1)
			if e == nil {
				continue
			}
			if via != "" {
				e.Props["receiver"] = via
			}
			if r.throughMixin(classes, t) {
				e.Props["via"] = "@mixin" // delegated, as the class's @mixin tag says
			}
		}
		return stated
	}
	for _, c := range classes {
		if r.hasDocMethod(c, fact.Lower(ref.Name)) {
			return external
		}
		if _, ok := r.builtinMethod(c, fact.Lower(ref.Name), 0); ok {
			return external // inherited from a built-in class
		}
	}
	switch {
	case len(builtin) > 0 && !missing:
		if len(classes) == 0 && ref.Kind == fact.RefMethodCall && !strings.HasPrefix(ref.Name, "__") {
			return r.implementedCall(ref, builtin)
		}
		return external // static calls (parent::__construct()) bind to PHP's own method
	case len(classes) == 0 && len(builtin) == 0 && !missing:
		return r.byName(ref, fact.Lower(ref.Name), pByName, "receiver type unknown")
	case len(classes) == 0:
		return r.unresolvedRef(ref, ref.Name, "receiver class not found")
	}
	if r.traitUserCall(ref, classes) {
		return derived
	}
	owner := r.qname(classes[0])
	if strings.HasPrefix(ref.Name, "__") {
		// magic methods (a constructor above all) are never dispatched to
		// __call or __callStatic
		return r.unresolvedRef(ref, ref.Name, "method not found on "+owner)
	}
	for _, c := range classes {
		if p := r.foreignAncestor(c, 0); p != "" {
			// most likely inherited from a class the project does not hold
			return r.unresolvedRef(ref, ref.Name, "method not found on "+owner+"; may be inherited from "+p+", outside the project")
		}
	}
	// the magic fallbacks: a method call, or parent::/self::/static:: from an
	// instance method, goes to __call; a static call to __callStatic
	magic := []string{"__callstatic"}
	if ref.Kind == fact.RefMethodCall {
		magic = []string{"__call"}
	} else if ref.Props[fact.PropRelativeScope] == "true" {
		magic = []string{"__call", "__callstatic"}
	}
	for _, c := range classes {
		for _, name := range magic {
			if m := r.lookupMethod(c, name); len(m) > 0 {
				for _, t := range m {
					r.edge(fact.CallsHeuristic, ref.From, r.nodes[t].ID, ref, fact.Derived, heuristicConfidence(pMagic, len(m)))
				}
				return derived
			}
		}
	}
	if ref.Kind == fact.RefMethodCall && r.subclassCall(ref, classes) {
		return derived
	}
	return r.unresolvedRef(ref, ref.Name, "method not found on "+owner)
}

// subclassCall resolves an instance call to a method the receiver's class
// or interface neither declares nor inherits, nor catches with __call
// (`$this->_exec()` in WordPress's ftp_base, which each of its subclasses
// declares): the object is one of a subclass or implementation that has
// it, so their methods are the candidates (calls_heuristic, p =
// pSubclass / n, at most maxImplementations, prop `subclass_of`). It
// reports whether there was one.
func (r *resolver) subclassCall(ref *fact.Ref, classes []string) bool {
	targets, via := r.methodsOfMembers(fact.Lower(ref.Name), classes, r.descendants, r.qname, nil)
	return r.candidateCalls(ref, targets, pSubclass, "subclass_of", via)
}

// descendants lists the project classes and interfaces that extend or
// implement class, directly or not.
func (r *resolver) descendants(class string) []string {
	var out []string
	seen := map[string]bool{class: true}
	stack := slices.Clone(r.children[class])
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, d)
		stack = append(stack, r.children[d]...)
	}
	return out
}

// candidateCalls links ref to each of targets, found exactly (not matched by
// name), as a calls_heuristic candidate of confidence p / n, with prop key
// saying how they were found. It reports false, linking nothing, when there
// are none or more than maxImplementations.
func (r *resolver) candidateCalls(ref *fact.Ref, targets []int, p float64, key, value string) bool {
	targets = dedupInts(targets)
	if len(targets) == 0 || len(targets) > maxImplementations {
		return false
	}
	conf := heuristicConfidence(p, len(targets))
	for _, t := range targets {
		r.edgeProps(fact.CallsHeuristic, ref.From, r.nodes[t].ID, ref, fact.Derived, conf, key, value)
	}
	return true
}

// childClasses maps each class and interface to the project classes and
// interfaces that extend or implement it directly, sorted.
func (r *resolver) childClasses() map[string][]string {
	out := map[string][]string{}
	for _, c := range slices.Sorted(maps.Keys(r.classes)) {
		for _, ci := range r.classes[c] {
			for _, list := range [][]string{ci.parents, ci.ifaces} {
				for _, p := range list {
					if !slices.Contains(out[p], c) {
						out[p] = append(out[p], c)
					}
				}
			}
		}
	}
	return out
}

// implementedCall resolves an instance method call (`->`, never a magic
// method) on a receiver typed only by PHP's own classes and interfaces
// (`$v->jsonSerialize()` after `$v instanceof JsonSerializable`). When PHP
// declares the method there, the call runs the implementation of whatever
// object the receiver holds: one of the project's classes that inherit from
// that type and implement the method, or a class the project does not hold.
// The project's implementations are candidates, at most maxImplementations
// of them; the call stays external otherwise.
func (r *resolver) implementedCall(ref *fact.Ref, builtin []string) outcome {
	name := fact.Lower(ref.Name)
	var declaring []string
	for _, b := range builtin {
		if _, ok := builtins().methods[b+"::"+name]; ok {
			declaring = append(declaring, b)
		}
	}
	targets, via := r.methodsOfMembers(name, declaring, func(b string) []string { return r.implementors[b] }, builtinName,
		func(t int) bool { return !r.abstract(t) })
	if !r.candidateCalls(ref, targets, pImplements, "implements", via) {
		return external
	}
	return derived
}

// methodsOfMembers collects the methods name of the member classes of each
// group (a type's implementations, a trait's users, a class's subclasses)
// that keep accepts (nil: all), and the labels of the groups that gave one,
// joined by "|".
func (r *resolver) methodsOfMembers(name string, groups []string, members func(g string) []string, label func(g string) string, keep func(t int) bool) ([]int, string) {
	var targets []int
	var via []string
	for _, g := range groups {
		found := false
		for _, c := range members(g) {
			for _, t := range r.lookupMethod(c, name) {
				if r.nodes[t].Kind == fact.Method && (keep == nil || keep(t)) {
					targets, found = append(targets, t), true
				}
			}
		}
		if found {
			via = append(via, label(g))
		}
	}
	return targets, strings.Join(via, "|")
}

// qname is the qualified name of project class c (lower-cased FQ key).
func (r *resolver) qname(c string) string {
	return r.nodes[r.classes[c][0].idx].QName
}

// traitUserCall resolves a call on $this, self or static inside a trait to
// a method the trait does not declare (`$this->app->make()` in a trait whose
// using classes declare $app): the method is the using class's, so the
// project classes that use the trait, and declare or inherit the method,
// give its candidates. Classes outside the project may use the trait too,
// so the targets are derived (calls_heuristic, p = pTraitUser / n, prop
// `trait`), never proven. It reports false when classes are not all traits
// or no using class has the method.
func (r *resolver) traitUserCall(ref *fact.Ref, classes []string) bool {
	for _, c := range classes {
		if r.nodes[r.classes[c][0].idx].Kind != fact.Trait {
			return false
		}
	}
	targets, via := r.methodsOfMembers(fact.Lower(ref.Name), classes, func(c string) []string { return r.traitUsers[c] }, r.qname, nil)
	return r.candidateCalls(ref, targets, pTraitUser, "trait", via)
}

// usersOfTraits maps each trait to the project classes (not traits) that
// use it, directly or through traits that use it, sorted.
func (r *resolver) usersOfTraits() map[string][]string {
	users := map[string][]string{}
	var add func(class, trait string, depth int)
	add = func(class, trait string, depth int) {
		if depth > maxDepth || slices.Contains(users[trait], class) {
			return
		}
		users[trait] = append(users[trait], class)
		for _, t := range r.classes[trait] {
			for _, tt := range t.traits {
				add(class, tt, depth+1)
			}
		}
	}
	for _, c := range slices.Sorted(maps.Keys(r.classes)) {
		for _, ci := range r.classes[c] {
			if r.nodes[ci.idx].Kind == fact.Trait {
				continue
			}
			for _, t := range ci.traits {
				add(c, t, 0)
			}
		}
	}
	for _, u := range users {
		slices.Sort(u)
	}
	return users
}

// foreignAncestor returns the name of a parent or used trait of class, or of
// its ancestors, that is neither in the project nor built into PHP ("" when
// there is none): a method missing from the project's classes may be
// defined there.
func (r *resolver) foreignAncestor(class string, depth int) string {
	if depth > maxDepth {
		return ""
	}
	for _, c := range r.classes[class] {
		for _, list := range [][]string{c.parents, c.traits} {
			for _, p := range list {
				if r.classes[p] == nil {
					if !builtins().classes[p] {
						return p
					}
					continue
				}
				if f := r.foreignAncestor(p, depth+1); f != "" {
					return f
				}
			}
		}
	}
	return ""
}

// byName links a call with an unknown receiver to every method of that name.
func (r *resolver) byName(ref *fact.Ref, lower string, p float64, reason string) outcome {
	cands := r.methodsByName[lower]
	if len(cands) == 0 || len(cands) > maxCandidates {
		if len(cands) == 0 {
			return r.unresolvedRef(ref, ref.Name, reason+"; no method of that name")
		}
		return r.unresolvedRef(ref, ref.Name, reason+"; "+strconv.Itoa(len(cands))+" candidates")
	}
	conf := heuristicConfidence(p, len(cands))
	for _, t := range cands {
		r.edge(fact.CallsHeuristic, ref.From, r.nodes[t].ID, ref, fact.Derived, conf)
	}
	return derived
}

func (r *resolver) dynamicCall(ref *fact.Ref) outcome {
	if ref.Name == "" {
		return r.unresolvedRef(ref, ref.Name, "dynamic callee")
	}
	if !ref.Recv.Known() {
		ids := r.funcs[fact.Lower(ref.Name)]
		if len(ids) == 0 {
			if builtins().funcs[fact.Lower(ref.Name)] {
				return external
			}
			return r.unresolvedRef(ref, ref.Name, "callback function not found")
		}
		for _, i := range ids {
			// the callable names its function: a proven reference, a
			// heuristic call (whether and when it runs is not known)
			r.edge(fact.References, ref.From, r.nodes[i].ID, ref, fact.Stated, 1)
			r.edge(fact.CallsHeuristic, ref.From, r.nodes[i].ID, ref, fact.Derived, heuristicConfidence(pNamed, len(ids)))
		}
		return derived
	}
	classes, builtin, _ := r.receiver(ref)
	var targets []int
	for _, c := range classes {
		targets = append(targets, r.lookupMethod(c, fact.Lower(ref.Name))...)
	}
	targets = dedupInts(targets)
	if len(targets) > 0 {
		for _, t := range targets {
			r.edge(fact.References, ref.From, r.nodes[t].ID, ref, fact.Stated, 1)
			r.edge(fact.CallsHeuristic, ref.From, r.nodes[t].ID, ref, fact.Derived, heuristicConfidence(pNamed, len(targets)))
		}
		return derived
	}
	if len(builtin) > 0 {
		return external
	}
	return r.byName(ref, fact.Lower(ref.Name), pByName, "callback receiver unknown")
}
