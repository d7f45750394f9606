// This file builds the lookup tables of a resolution: declarations keyed by
// lower-cased name, the class hierarchy from extends/implements/uses_trait
// refs, member types from declaration facts, and member lookup through
// parents, traits, interfaces and @mixin. Lookups are memoised, so resolving
// is linear in the number of references.

package resolve

import (
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/typ"
)

type classInfo struct {
	idx        int // node index
	parents    []string
	ifaces     []string
	traits     []string
	mixins     []string
	methods    map[string][]int    // lower name -> method nodes
	props      map[string][]int    // name without $ -> property nodes
	consts     map[string][]int    // name -> constant nodes (incl. enum cases)
	docMethods map[string]typ.Desc // lower name -> return descriptor
	docProps   map[string]typ.Desc // name -> type descriptor
	aliases    map[string]string   // lower alias -> "\trait::method" or "method" (lower)
}

type resolver struct {
	nodes         []fact.Node
	byID          map[string]int
	classes       map[string][]*classInfo // lower FQ name
	classByID     map[string]*classInfo
	funcs         map[string][]int // lower FQ name
	consts        map[string][]int // FQ name
	methodsByName map[string][]int // lower name
	files         map[string]bool  // project paths
	namespaces    map[string]bool  // lower-cased namespace names
	returns       map[string]typ.Desc
	propTypes     map[string]typ.Desc
	defines       map[string][]string   // constant -> the include path expressions define() gives it
	globals       map[string]typ.Desc   // global variable name -> union of the descriptors assigned or documented
	assigned      map[string][]typ.Desc // undeclared property id -> the descriptors its class's methods assign
	evalMemo      map[string][]rtype
	lookMemo      map[string][]int
	implementors  map[string][]string // built-in class or interface -> project classes inheriting from it
	traitUsers    map[string][]string // trait -> project classes using it, directly or through other traits
	children      map[string][]string // class or interface -> project classes and interfaces extending or implementing it
	out           Output
}

func newResolver(nodes []fact.Node) *resolver {
	r := &resolver{
		nodes: nodes, byID: make(map[string]int, len(nodes)),
		classes: map[string][]*classInfo{}, classByID: map[string]*classInfo{},
		funcs: map[string][]int{}, consts: map[string][]int{}, methodsByName: map[string][]int{},
		files: map[string]bool{}, namespaces: map[string]bool{}, returns: map[string]typ.Desc{}, propTypes: map[string]typ.Desc{},
		defines: map[string][]string{}, globals: map[string]typ.Desc{}, assigned: map[string][]typ.Desc{}, evalMemo: map[string][]rtype{}, lookMemo: map[string][]int{},
	}
	for i := range nodes {
		n := &nodes[i]
		r.byID[n.ID] = i
		switch {
		case n.Kind == fact.File:
			r.files[n.Path] = true
		case n.Kind == fact.Namespace:
			for l := fact.Lower(n.QName); l != ""; {
				r.namespaces[l] = true
				k := strings.LastIndexByte(l, '\\')
				if k < 0 {
					break
				}
				l = l[:k]
			}
		case n.Kind.IsType():
			c := &classInfo{idx: i, methods: map[string][]int{}, props: map[string][]int{}, consts: map[string][]int{}}
			l := fact.Lower(n.QName)
			r.classes[l] = append(r.classes[l], c)
			r.classByID[n.ID] = c
		case n.Kind == fact.Function:
			l := fact.Lower(n.QName)
			r.funcs[l] = append(r.funcs[l], i)
		}
	}
	for i := range nodes {
		n := &nodes[i]
		c := r.classByID[n.Parent]
		switch n.Kind {
		case fact.Method:
			if c != nil {
				l := fact.Lower(n.Name)
				c.methods[l] = append(c.methods[l], i)
				r.methodsByName[l] = append(r.methodsByName[l], i)
			}
		case fact.Property:
			if c != nil {
				c.props[n.Name] = append(c.props[n.Name], i)
			}
		case fact.Constant:
			if c != nil {
				c.consts[n.Name] = append(c.consts[n.Name], i)
			} else {
				r.consts[n.QName] = append(r.consts[n.QName], i)
			}
		}
	}
	return r
}

// declare reads the declaration facts among refs: hierarchy, member types,
// PHPDoc members, trait aliases, define() values and property assignments.
func (r *resolver) declare(refs []fact.Ref) {
	var assigns []propAssign
	defer func() { r.assignedTypes(assigns) }()
	for i := range refs {
		ref := &refs[i]
		switch ref.Kind {
		case fact.RefExtends, fact.RefImplements, fact.RefUsesTrait, fact.RefMixin, fact.RefDocMethod,
			fact.RefDocProperty, fact.RefTraitAlias:
			c := r.classByID[ref.From]
			if c == nil {
				continue
			}
			l := fact.Lower(ref.Name)
			switch ref.Kind {
			case fact.RefExtends:
				if r.nodes[c.idx].Kind == fact.Interface {
					c.ifaces = append(c.ifaces, l)
				} else {
					c.parents = append(c.parents, l)
				}
			case fact.RefImplements:
				c.ifaces = append(c.ifaces, l)
			case fact.RefUsesTrait:
				c.traits = append(c.traits, l)
			case fact.RefMixin:
				c.mixins = append(c.mixins, l)
			case fact.RefDocMethod:
				if c.docMethods == nil {
					c.docMethods = map[string]typ.Desc{}
				}
				c.docMethods[l] = ref.Recv
			case fact.RefDocProperty:
				if c.docProps == nil {
					c.docProps = map[string]typ.Desc{}
				}
				c.docProps[ref.Name] = ref.Recv
			case fact.RefTraitAlias:
				if c.aliases == nil {
					c.aliases = map[string]string{}
				}
				c.aliases[l] = fact.Lower(ref.Alias)
			}
		case fact.RefReturns:
			r.returns[ref.From] = ref.Recv
		case fact.RefPropType:
			r.propTypes[ref.From] = ref.Recv
		case fact.RefDefine:
			r.defines[ref.Name] = append(r.defines[ref.Name], ref.Include)
		case fact.RefGlobal:
			r.addGlobal(ref.Name, ref.Recv)
		case fact.RefPropAssign:
			if c := r.classByID[ref.From]; c != nil {
				assigns = append(assigns, propAssign{class: fact.Lower(r.nodes[c.idx].QName), name: ref.Name, desc: ref.Recv})
			}
		}
	}
}

// hierarchyEdges emits overrides edges: a method overrides the method of the
// same name it would otherwise inherit from a parent class or an interface
// (which makes it an implementation of an interface or abstract method), and
// the abstract methods of the traits its class uses. A method a class takes
// from a trait or inherits from its parent overrides in the same way what
// the class's parents and interfaces declare: the trait
// method implementing an interface, the parent's method implementing an
// interface only the subclass declares. The edge's evidence is the class
// that joins them.
func (r *resolver) hierarchyEdges() {
	done := map[[2]int]bool{}
	emit := func(m, t int, path string, line int) {
		if t == m || done[[2]int{m, t}] {
			return
		}
		done[[2]int{m, t}] = true
		ref := fact.Ref{Kind: "overrides", Path: path, Line: line}
		r.edge(fact.Overrides, r.nodes[m].ID, r.nodes[t].ID, &ref, fact.Stated, 1)
	}
	uppers := func(c *classInfo, name string) []int {
		var targets []int
		for _, p := range c.parents {
			targets = append(targets, r.lookupInherited(p, name)...)
		}
		for _, p := range c.ifaces {
			targets = append(targets, r.lookupInherited(p, name)...)
		}
		// an abstract method of a used trait is a requirement the class
		// implements, as an interface's is
		for _, p := range c.traits {
			for _, t := range r.lookupInherited(p, name) {
				if r.abstract(t) {
					targets = append(targets, t)
				}
			}
		}
		return dedupInts(targets)
	}
	for _, defs := range r.classes {
		for _, c := range defs {
			for name, ms := range c.methods {
				targets := uppers(c, name)
				for _, m := range ms {
					n := &r.nodes[m]
					for _, t := range targets {
						emit(m, t, n.Path, n.StartLine)
					}
				}
			}
		}
	}
	// inherited implementations second, in a fixed order, so a pair an own
	// method already gave keeps its evidence
	names := make([]string, 0, len(r.classes))
	for k := range r.classes {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, c := range r.classes[k] {
			cn := &r.nodes[c.idx]
			if cn.Kind == fact.Interface || len(c.traits) == 0 && len(c.ifaces) == 0 {
				continue
			}
			for _, name := range r.inheritedNames(c) {
				if len(c.methods[name]) > 0 {
					continue
				}
				var impls []int
				for _, m := range r.lookupInherited(fact.Lower(cn.QName), name) {
					if pc := r.classByID[r.nodes[m].Parent]; pc != nil && r.nodes[pc.idx].Kind != fact.Interface {
						impls = append(impls, m)
					}
				}
				if len(impls) == 0 {
					continue
				}
				targets := uppers(c, name)
				for _, m := range impls {
					for _, t := range targets {
						emit(m, t, cn.Path, cn.StartLine)
					}
				}
			}
		}
	}
}

// inheritedNames lists the method names c takes from its traits and those
// its own interfaces declare (lower-cased).
func (r *resolver) inheritedNames(c *classInfo) []string {
	seen := map[string]bool{}
	var out []string
	var walk func(class string, depth int)
	walk = func(class string, depth int) {
		if depth > maxDepth {
			return
		}
		for _, d := range r.classes[class] {
			for name := range d.methods {
				if !seen[name] {
					seen[name] = true
					out = append(out, name)
				}
			}
			for _, t := range d.traits {
				walk(t, depth+1)
			}
			for _, i := range d.ifaces {
				walk(i, depth+1)
			}
		}
	}
	for _, t := range c.traits {
		walk(t, 1)
	}
	for name := range c.aliases {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	for _, i := range c.ifaces {
		walk(i, 1)
	}
	sort.Strings(out)
	return out
}

const maxDepth = 24

// lookupMethod finds method name (lower-cased) on class (lower-cased FQ)
// the way PHP does: own methods, then trait methods (with insteadof and as
// aliases), then the parent chain; interfaces and @mixin classes last, for
// abstract classes, interfaces and documented delegation.
func (r *resolver) lookupMethod(class, name string) []int {
	return r.memoLookup('m', class, name, func(c *classInfo) []int { return c.methods[name] }, true, true)
}

// lookupInherited is lookupMethod without @mixin classes: what class
// declares or inherits, which its methods override. A mixin's methods are
// delegated to (by __call), not inherited.
func (r *resolver) lookupInherited(class, name string) []int {
	return r.memoLookup('i', class, name, func(c *classInfo) []int { return c.methods[name] }, true, false)
}

func (r *resolver) lookupProp(class, name string) []int {
	return r.memoLookup('p', class, name, func(c *classInfo) []int { return c.props[name] }, false, true)
}

func (r *resolver) lookupConst(class, name string) []int {
	return r.memoLookup('k', class, name, func(c *classInfo) []int { return c.consts[name] }, false, true)
}

// memoLookup is lookup memoised per kind of member (what), class and name.
func (r *resolver) memoLookup(what byte, class, name string, own func(*classInfo) []int, methods, mixins bool) []int {
	key := string(what) + "\x00" + class + "\x00" + name
	if v, ok := r.lookMemo[key]; ok {
		return v
	}
	r.lookMemo[key] = nil // cycle guard
	v := r.lookup(class, name, 0, own, methods, mixins)
	r.lookMemo[key] = v
	return v
}

func (r *resolver) lookup(class, name string, depth int, own func(*classInfo) []int, methods, mixins bool) []int {
	if depth > maxDepth {
		return nil
	}
	var out []int
	for _, c := range r.classes[class] {
		if v := own(c); len(v) > 0 {
			out = append(out, v...)
			continue
		}
		if methods {
			if a, ok := c.aliases[name]; ok {
				if t, m, ok := strings.Cut(a, "::"); ok {
					if v := r.lookupMethod(strings.TrimPrefix(t, `\`), m); len(v) > 0 {
						out = append(out, v...)
						continue
					}
				} else if a != name {
					var found []int
					for _, t := range c.traits {
						found = append(found, r.lookupMethod(t, a)...)
					}
					if len(found) > 0 {
						out = append(out, found...)
						continue
					}
				}
			}
		}
		var found []int
		for _, t := range c.traits {
			found = append(found, r.lookup(t, name, depth+1, own, methods, mixins)...)
		}
		if len(found) == 0 {
			for _, p := range c.parents {
				found = append(found, r.lookup(p, name, depth+1, own, methods, mixins)...)
			}
		}
		if len(found) == 0 {
			for _, p := range c.ifaces {
				found = append(found, r.lookup(p, name, depth+1, own, methods, mixins)...)
			}
		}
		if len(found) == 0 && mixins {
			for _, p := range c.mixins {
				found = append(found, r.lookup(p, name, depth+1, own, methods, mixins)...)
			}
		}
		out = append(out, found...)
	}
	return dedupInts(out)
}

// docMember finds a PHPDoc-declared member through the hierarchy.
func (r *resolver) docMember(class, name string, depth int, get func(*classInfo) (typ.Desc, bool)) (typ.Desc, bool) {
	if depth > maxDepth {
		return typ.Desc{}, false
	}
	for _, c := range r.classes[class] {
		if d, ok := get(c); ok {
			return d, true
		}
		for _, list := range [][]string{c.traits, c.parents, c.ifaces, c.mixins} {
			for _, p := range list {
				if d, ok := r.docMember(p, name, depth+1, get); ok {
					return d, true
				}
			}
		}
	}
	return typ.Desc{}, false
}

func (r *resolver) hasDocMethod(class, name string) bool {
	_, ok := r.docMember(class, name, 0, func(c *classInfo) (typ.Desc, bool) { d, ok := c.docMethods[name]; return d, ok })
	return ok
}

func (r *resolver) hasDocProp(class, name string) bool {
	_, ok := r.docMember(class, name, 0, func(c *classInfo) (typ.Desc, bool) { d, ok := c.docProps[name]; return d, ok })
	return ok
}

func (r *resolver) docPropType(class, name string, depth int) typ.Desc {
	d, _ := r.docMember(class, name, depth, func(c *classInfo) (typ.Desc, bool) { d, ok := c.docProps[name]; return d, ok })
	return d
}

func (r *resolver) docMethodType(class, name string) typ.Desc {
	d, _ := r.docMember(class, name, 0, func(c *classInfo) (typ.Desc, bool) { d, ok := c.docMethods[name]; return d, ok })
	return d
}
