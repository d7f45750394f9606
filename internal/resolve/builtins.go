// This file holds PHP's built-in names, generated from php-cli by
// builtins/gen.sh: a reference to one of them is external, neither an edge
// nor unresolved. The methods of built-in classes and the return types of
// built-in functions and methods that return objects let receivers built
// from them be typed: a call on one is external, never guessed by name.

package resolve

import (
	_ "embed"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/typ"
)

//go:embed builtins/php.txt
var builtinsTxt string

type builtinSet struct {
	funcs, classes map[string]bool   // lower-cased names
	classNames     map[string]string // lower-cased class name -> as PHP writes it
	consts         map[string]bool   // as written (constants are case-sensitive)
	// methods maps "class::method" (lower-cased) of every method of a
	// built-in class, inherited ones included, to its return descriptor
	// (unknown when it returns no object)
	methods map[string]typ.Desc
	returns map[string]typ.Desc // lower-cased function -> return descriptor, only those returning objects
}

var builtins = sync.OnceValue(func() *builtinSet {
	b := &builtinSet{funcs: map[string]bool{}, classes: map[string]bool{}, classNames: map[string]string{}, consts: map[string]bool{},
		methods: map[string]typ.Desc{}, returns: map[string]typ.Desc{}}
	for _, ln := range strings.Split(builtinsTxt, "\n") {
		kind, name, ok := strings.Cut(ln, " ")
		if !ok {
			continue
		}
		switch kind {
		case "f":
			b.funcs[fact.Lower(name)] = true
		case "c":
			b.classes[fact.Lower(name)] = true
			b.classNames[fact.Lower(name)] = name
		case "k":
			b.consts[name] = true
		case "m":
			name, desc, _ := strings.Cut(name, " ")
			b.methods[fact.Lower(name)] = typ.MustParse(desc)
		case "r":
			name, desc, _ := strings.Cut(name, " ")
			b.returns[fact.Lower(name)] = typ.MustParse(desc)
		}
	}
	// language constructs that parse as calls
	for _, f := range []string{"isset", "empty", "die", "exit", "eval", "unset", "list", "print", "echo", "array"} {
		b.funcs[f] = true
	}
	return b
})

// builtinMethod finds method name (lower-cased) on class (lower-cased FQ)
// when PHP itself declares it: on a built-in class, or inherited by a
// project class from a built-in ancestor. It returns the method's return
// descriptor and whether it was found.
func (r *resolver) builtinMethod(class, name string, depth int) (typ.Desc, bool) {
	if depth > maxDepth {
		return typ.Desc{}, false
	}
	defs := r.classes[class]
	if len(defs) == 0 {
		d, ok := builtins().methods[class+"::"+name]
		return d, ok
	}
	for _, c := range defs {
		for _, list := range [][]string{c.parents, c.ifaces} {
			for _, p := range list {
				if d, ok := r.builtinMethod(p, name, depth+1); ok {
					return d, true
				}
			}
		}
	}
	return typ.Desc{}, false
}

// builtinImplementors maps each of PHP's classes and interfaces that project
// classes inherit from (lower-cased) to those classes, sorted: a class is
// listed under every built-in type among its ancestors.
func (r *resolver) builtinImplementors() map[string][]string {
	memo := map[string][]string{}
	var ancestors func(class string, depth int) []string
	ancestors = func(class string, depth int) []string {
		if v, ok := memo[class]; ok || depth > maxDepth {
			return v
		}
		memo[class] = nil // cycle guard
		var out []string
		for _, c := range r.classes[class] {
			for _, list := range [][]string{c.parents, c.ifaces} {
				for _, p := range list {
					if r.classes[p] == nil {
						if builtins().classes[p] {
							out = append(out, p)
						}
						continue
					}
					out = append(out, ancestors(p, depth+1)...)
				}
			}
		}
		slices.Sort(out)
		out = slices.Compact(out)
		memo[class] = out
		return out
	}
	names := slices.Sorted(maps.Keys(r.classes))
	impl := map[string][]string{}
	for _, c := range names {
		for _, b := range ancestors(c, 0) {
			impl[b] = append(impl[b], c)
		}
	}
	return impl
}

// builtinName is how PHP writes one of its classes, given in lower case.
func builtinName(lower string) string {
	if n := builtins().classNames[lower]; n != "" {
		return n
	}
	return lower
}

// abstract tells whether method node t has no body: declared abstract or in
// an interface.
func (r *resolver) abstract(t int) bool {
	if r.nodes[t].Props["abstract"] == "true" {
		return true
	}
	p, ok := r.byID[r.nodes[t].Parent]
	return ok && r.nodes[p].Kind == fact.Interface
}

// BuiltinDeclares reports whether PHP's own class or interface class (any
// case, without a leading backslash) declares or inherits method name.
func BuiltinDeclares(class, name string) bool {
	_, ok := builtins().methods[fact.Lower(strings.TrimPrefix(class, `\`))+"::"+fact.Lower(name)]
	return ok
}

// IsBuiltinClass reports whether PHP itself declares class or interface name
// (any case, without a leading backslash).
func IsBuiltinClass(name string) bool {
	return builtins().classes[fact.Lower(strings.TrimPrefix(name, `\`))]
}

// IsBuiltinConstant reports whether PHP itself declares the global constant
// name (case-sensitive, without a leading backslash).
func IsBuiltinConstant(name string) bool {
	return builtins().consts[strings.TrimPrefix(name, `\`)]
}
