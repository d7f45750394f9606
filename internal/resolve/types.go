// This file evaluates the type descriptors front ends emit (package typ) to
// sets of types (rtype), using return and property types gathered across
// files. `static` binds to the
// receiver, so fluent `return $this` / `static` / `self` chains keep their type.

package resolve

import (
	"slices"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/typ"
)

// declaredIn tells whether one of the property nodes ps belongs to class c.
func (r *resolver) declaredIn(ps []int, c *classInfo) bool {
	for _, p := range ps {
		if r.nodes[p].Parent == r.nodes[c.idx].ID {
			return true
		}
	}
	return false
}

// maxTypes bounds a type set; a receiver with more alternatives is not proven.
const maxTypes = 16

// rtype is what a descriptor evaluates to: a class (a project class, one of
// PHP's or one the project does not define), an array of one, or a value
// that comes from code outside the project.
type rtype struct {
	class   string // lower-cased fully qualified name; "" when outside
	dims    int    // array-of nesting: an array of class
	outside bool
}

// outside is the type of a value that comes from code outside the project
// (a vendor class's method or property, a vendor function): it is no project
// class and no built-in one, so a call on it is never guessed by name.
var outside = rtype{outside: true}

// object reports whether t is an object of a named class.
func (t rtype) object() bool { return !t.outside && t.dims == 0 }

// eval returns the types desc may denote; ctx is the class `static` stands
// for (lower-cased, "" for none).
func (r *resolver) eval(desc typ.Desc, ctx string, depth int) []rtype {
	if !desc.Known() || depth > maxDepth {
		return nil
	}
	key := desc.String() + "\x00" + ctx
	if v, ok := r.evalMemo[key]; ok {
		return v
	}
	r.evalMemo[key] = nil // cycle guard
	var out []rtype
	for _, alt := range desc.Alts() {
		out = addTypes(out, r.evalAlt(alt, ctx, depth))
	}
	if len(out) > maxTypes {
		out = nil
	}
	r.evalMemo[key] = out
	return out
}

func addTypes(set, more []rtype) []rtype {
	for _, m := range more {
		if !slices.Contains(set, m) {
			set = append(set, m)
		}
	}
	return set
}

// evalAlt evaluates one alternative: its base, then each step.
func (r *resolver) evalAlt(a typ.Alt, ctx string, depth int) []rtype {
	var set []rtype
	switch b := a.Base(); b.Kind {
	case typ.Group:
		if b.Strict {
			// a value that is one of several expressions: typed only when
			// every one of them is
			for _, g := range b.Group.Alts() {
				t := r.eval(g.Desc(), ctx, depth+1)
				if len(t) == 0 {
					return nil
				}
				set = addTypes(set, t)
			}
		} else {
			set = r.eval(b.Group, ctx, depth+1)
		}
	case typ.Class:
		set = []rtype{{class: fact.Lower(b.Name), dims: b.Dims}}
	case typ.Func:
		for _, f := range b.Funcs {
			l := fact.Lower(f)
			ids := r.funcs[l]
			for _, id := range ids {
				set = addTypes(set, r.eval(r.returns[r.nodes[id].ID], "", depth+1))
			}
			if len(ids) > 0 {
				break
			}
			if builtins().funcs[l] {
				set = r.eval(builtins().returns[l], "", depth+1)
				break
			}
		}
		if len(set) == 0 && r.foreignFunc(b.Funcs) {
			set = []rtype{outside}
		}
	case typ.Global:
		set = r.eval(r.globals[b.Name], "", depth+1)
	case typ.Static:
		if ctx != "" {
			set = []rtype{{class: ctx}}
		}
	default:
		return nil
	}
	for _, st := range a.Steps() {
		if len(set) == 0 {
			break
		}
		var next []rtype
		switch st.Kind {
		case typ.Elem:
			for _, t := range set {
				if t.dims > 0 {
					next = addTypes(next, []rtype{{class: t.class, dims: t.dims - 1}})
				} else if !t.outside && r.classes[t.class] != nil {
					// an ArrayAccess object's element
					next = addTypes(next, r.methodType(t.class, "offsetget", depth))
				}
			}
		default:
			call := st.Kind == typ.Method || st.Kind == typ.StaticMethod
			for _, c := range set {
				if c.dims > 0 {
					continue
				}
				if c.outside {
					next = addTypes(next, []rtype{outside}) // what code outside the project returns
					continue
				}
				var t []rtype
				if call {
					t = r.methodType(c.class, fact.Lower(st.Name), depth)
				} else {
					t = r.propType(c.class, st.Name, depth)
				}
				if len(t) == 0 && r.foreignClass(c.class) {
					t = []rtype{outside} // what code outside the project returns
				}
				next = addTypes(next, t)
			}
		}
		set = next
	}
	return set
}

// foreignClass reports whether members of class may come from outside the
// project: the class is not in the project and not built into PHP, or it has
// an ancestor that is neither.
func (r *resolver) foreignClass(c string) bool {
	if r.classes[c] == nil {
		return !builtins().classes[c]
	}
	return r.foreignAncestor(c, 0) != ""
}

// foreignFunc reports whether none of the candidate names of a function
// (the namespaced name and its global fallback) is in the project or built
// into PHP.
func (r *resolver) foreignFunc(names []string) bool {
	for _, f := range names {
		l := fact.Lower(f)
		if len(r.funcs[l]) > 0 || builtins().funcs[l] {
			return false
		}
	}
	return true
}

func (r *resolver) methodType(class, name string, depth int) []rtype {
	var out []rtype
	ms := r.lookupMethod(class, name)
	for _, m := range ms {
		out = addTypes(out, r.eval(r.returns[r.nodes[m].ID], class, depth+1))
	}
	if len(ms) == 0 {
		out = r.eval(r.docMethodType(class, name), class, depth+1)
	}
	if len(ms) == 0 && len(out) == 0 {
		if d, ok := r.builtinMethod(class, name, 0); ok {
			out = r.eval(d, class, depth+1)
		}
	}
	return out
}

func (r *resolver) propType(class, name string, depth int) []rtype {
	ps := r.lookupProp(class, name)
	// a class's own @property tag narrows a property it inherits
	// (`@property Dia $diagram` on DiaRelationSchema)
	for _, c := range r.classes[class] {
		d, ok := c.docProps[name]
		if !ok || r.declaredIn(ps, c) {
			continue
		}
		if t := r.eval(d, class, depth+1); len(t) > 0 {
			return t
		}
	}
	var out []rtype
	for _, p := range ps {
		if d, declared := r.propTypes[r.nodes[p].ID]; declared {
			out = addTypes(out, r.eval(d, class, depth+1))
		} else {
			out = addTypes(out, r.assignedType(p, class, depth))
		}
	}
	if len(out) == 0 {
		out = r.eval(r.docPropType(class, name, 0), class, depth+1)
	}
	return out
}
