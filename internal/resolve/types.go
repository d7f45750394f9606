// This file evaluates the type descriptors PHP extractors emit (grammar in
// internal/lang/php/types.go) to sets of lower-cased class names, using
// return and property types gathered across files. `static` binds to the
// receiver, so fluent `return $this` / `static` / `self` chains keep their type.

package resolve

import (
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
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

// eval returns the classes (and `x[]` array types) desc may denote; ctx is
// the class `static` stands for.
func (r *resolver) eval(desc, ctx string, depth int) []string {
	if desc == "" || depth > maxDepth {
		return nil
	}
	key := desc + "\x00" + ctx
	if v, ok := r.evalMemo[key]; ok {
		return v
	}
	r.evalMemo[key] = nil // cycle guard
	var out []string
	for _, alt := range splitTop(desc) {
		out = addTypes(out, r.evalAlt(alt, ctx, depth))
	}
	if len(out) > maxTypes {
		out = nil
	}
	r.evalMemo[key] = out
	return out
}

func addTypes(set, more []string) []string {
	for _, m := range more {
		dup := false
		for _, s := range set {
			if s == m {
				dup = true
				break
			}
		}
		if !dup {
			set = append(set, m)
		}
	}
	return set
}

func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func isStepStart(s string, i int) bool {
	switch s[i] {
	case '*':
		return true
	case '-':
		return i+1 < len(s) && s[i+1] == '>'
	case ':':
		return i+1 < len(s) && s[i+1] == ':'
	}
	return false
}

func (r *resolver) evalAlt(s, ctx string, depth int) []string {
	var set []string
	i := 0
	switch {
	case s == "":
		return nil
	case s[0] == '(':
		d := 0
		j := 0
		for j = 0; j < len(s); j++ {
			if s[j] == '(' {
				d++
			} else if s[j] == ')' {
				d--
				if d == 0 {
					break
				}
			}
		}
		if j >= len(s) {
			return nil
		}
		if s[1] == '!' {
			// a value that is one of several expressions: typed only when
			// every one of them is
			for _, a := range splitTop(s[2:j]) {
				t := r.eval(a, ctx, depth+1)
				if len(t) == 0 {
					return nil
				}
				set = addTypes(set, t)
			}
		} else {
			set = r.eval(s[1:j], ctx, depth+1)
		}
		i = j + 1
	case s[0] == '\\':
		j := 1
		for j < len(s) && !isStepStart(s, j) {
			j++
		}
		set = []string{fact.Lower(s[1:j])}
		i = j
	case s[0] == '@':
		j := 1
		for j < len(s) && !isStepStart(s, j) {
			j++
		}
		for _, f := range strings.Split(s[1:j], ",") {
			l := fact.Lower(strings.TrimPrefix(f, `\`))
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
		if len(set) == 0 && r.foreignFunc(s[1:j]) {
			set = []string{foreignType}
		}
		i = j
	case s[0] == '$':
		j := 1
		for j < len(s) && !isStepStart(s, j) {
			j++
		}
		set = r.eval(r.globals[s[1:j]], "", depth+1)
		i = j
	case strings.HasPrefix(s, "static"):
		if ctx != "" {
			set = []string{ctx}
		}
		i = len("static")
	default:
		return nil
	}
	for i < len(s) && len(set) > 0 {
		switch {
		case s[i] == '*':
			var next []string
			for _, t := range set {
				if strings.HasSuffix(t, "[]") {
					next = addTypes(next, []string{t[:len(t)-2]})
				} else if r.classes[t] != nil {
					// an ArrayAccess object's element
					next = addTypes(next, r.methodType(t, "offsetget", depth))
				}
			}
			set = next
			i++
		case strings.HasPrefix(s[i:], "->") || strings.HasPrefix(s[i:], "::"):
			i += 2
			static := false
			if i < len(s) && s[i] == '$' {
				static = true
				i++
			}
			j := i
			for j < len(s) && !isStepStart(s, j) && s[j] != '(' {
				j++
			}
			name := s[i:j]
			call := strings.HasPrefix(s[j:], "()")
			if call {
				j += 2
			}
			i = j
			var next []string
			for _, c := range set {
				if strings.HasSuffix(c, "[]") {
					continue
				}
				var t []string
				if call {
					t = r.methodType(c, fact.Lower(name), depth)
				} else {
					_ = static
					t = r.propType(c, name, depth)
				}
				if len(t) == 0 && r.foreignClass(c) {
					t = []string{foreignType} // what code outside the project returns
				}
				next = addTypes(next, t)
			}
			set = next
		default:
			return nil
		}
	}
	return set
}

// foreignType is the type of a value that comes from code outside the
// project (a vendor class's method or property, a vendor function): it is
// no project class and no built-in one, so a call on it is never guessed by
// name.
const foreignType = "?outside"

// foreignClass reports whether members of class may come from outside the
// project: the class is not in the project and not built into PHP, or it has
// an ancestor that is neither.
func (r *resolver) foreignClass(c string) bool {
	if c == foreignType {
		return true
	}
	if r.classes[c] == nil {
		return !builtins().classes[c]
	}
	return r.foreignAncestor(c, 0) != ""
}

// foreignFunc reports whether none of the candidate names of a function
// ("a,b": the namespaced name and its global fallback) is in the project or
// built into PHP.
func (r *resolver) foreignFunc(names string) bool {
	for _, f := range strings.Split(names, ",") {
		l := fact.Lower(strings.TrimPrefix(f, `\`))
		if len(r.funcs[l]) > 0 || builtins().funcs[l] {
			return false
		}
	}
	return true
}

func (r *resolver) methodType(class, name string, depth int) []string {
	var out []string
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

func (r *resolver) propType(class, name string, depth int) []string {
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
	var out []string
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
