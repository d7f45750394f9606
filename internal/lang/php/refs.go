// This file finds the references of one PHP file: every use of a class,
// function, constant or member, with names resolved as far as the file can
// tell (namespaces and imports in names.go) and receivers described as type
// descriptors (types.go) that package resolve evaluates across files.

package php

import (
	"maps"
	"path"
	"strconv"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
)

// classCtx is the class whose body is being walked.
type classCtx struct {
	fq     string // "" for an anonymous class
	parent string // FQ name of the extended class, "" if none
	id     string // the class node's id, "" when not found
	// own holds, for an anonymous class, the lower-case names of the methods
	// its body declares (the index holds no node for them)
	own map[string]bool
	// trait: self and static name the class that uses the trait, unknown
	// here, so `new self` or `instanceof static` references no class
	trait bool
	// aliases holds the PHPDoc type aliases the class's docblock declares
	// (`@psalm-type Mode = 'a'|'b'`) with their types, and the ones it
	// imports (`@psalm-import-type Size from Shapes`) with "": names of
	// types, not of classes (typeAliases)
	aliases map[string]string
}

// refWalker walks a whole file after the structural walk; it looks up the
// ids of enclosing declarations in the nodes that walk produced.
type refWalker struct {
	path   string
	dir    string // directory of path as an absolute project path ("" for the root)
	src    []byte
	fileID string
	sc     *scope
	cls    *classCtx
	from   string
	env    map[string]string // variable -> type descriptor
	pinned map[string]int    // variable -> line of an inline @var that overrides its next assignment
	// aliasDepth counts the PHPDoc type aliases being expanded (docAlt)
	aliasDepth int
	// lhs is the property access an assignment is writing, and lhsAccess
	// how: fact.AccessWrite (`=`) or fact.AccessReadWrite (`.=`, `??=`, …);
	// its fetch reference says so (a class without the property runs
	// __set, or __get and __set, instead of __get)
	lhs       *sitter.Node
	lhsAccess string
	// touched collects the variables assigned while a branch runs (merge):
	// one a branch leaves unknown may have been assigned an unknown value
	touched map[string]bool
	// breaks collects, for the innermost loop or switch, the variables of
	// the paths that leave it by break: they meet the others at its end
	breaks *[]flow
	refs   []fact.Ref
	index  map[string][]int // kind NUL lower qname -> indexes in nodes
	// callbacks holds the start bytes of the arrays read as callbacks, so
	// callableArray does not mention them again
	callbacks map[uint]bool
	inFunc    bool            // walking a function, method or closure body
	globals   map[string]bool // variables the current function declares global
	dry       bool            // walking a loop body only to learn what it assigns (loop)
	nodes     []fact.Node
	clk       *clock // budget of the walk (budget.go); nil for a walker that only tracks names
}

// collectRefs returns the references of the file whose structural nodes are nodes.
func collectRefs(p string, src []byte, root *sitter.Node, nodes []fact.Node, clk *clock) []fact.Ref {
	dir := path.Dir(p)
	if dir == "." {
		dir = ""
	} else {
		dir = "/" + dir
	}
	r := &refWalker{
		path: p, dir: dir, src: src, fileID: fact.FileNodeID(p),
		sc: newScope(""), env: map[string]string{}, pinned: map[string]int{},
		index: make(map[string][]int, len(nodes)), nodes: nodes, clk: clk,
	}
	for i := range nodes {
		k := string(nodes[i].Kind) + "\x00" + fact.Lower(nodes[i].QName)
		r.index[k] = append(r.index[k], i)
	}
	r.from = r.fileID
	r.children(root)
	return r.refs
}

// find returns the id of the node of kind and qname whose range holds ln.
func (r *refWalker) find(kind fact.NodeKind, qname string, ln int) string {
	for _, i := range r.index[string(kind)+"\x00"+fact.Lower(qname)] {
		if r.nodes[i].StartLine <= ln && ln <= r.nodes[i].EndLine {
			return r.nodes[i].ID
		}
	}
	return ""
}

func (r *refWalker) text(n *sitter.Node) string { return n.Utf8Text(r.src) }

func (r *refWalker) named(n *sitter.Node) []*sitter.Node {
	out := make([]*sitter.Node, n.NamedChildCount())
	for i := range out {
		out[i] = n.NamedChild(uint(i))
	}
	return out
}

func (r *refWalker) children(n *sitter.Node) {
	for _, c := range r.named(n) {
		r.visit(c)
	}
}

func (r *refWalker) emit(kind fact.RefKind, name string, ln int, recv, alt string) {
	r.refs = append(r.refs, fact.Ref{Kind: kind, From: r.from, Path: r.path, Line: ln, Name: name, Recv: recv, Alt: alt})
}

// emitN emits a reference positioned at node n.
func (r *refWalker) emitN(kind fact.RefKind, n *sitter.Node, name, recv, alt string) {
	p := n.StartPosition()
	r.refs = append(r.refs, fact.Ref{Kind: kind, From: r.from, Path: r.path, Line: int(p.Row) + 1, Col: int(p.Column), Name: name, Recv: recv, Alt: alt})
}

func isNameKind(k string) bool {
	return k == "name" || k == "qualified_name" || k == "relative_name"
}

// magic reports PHP's magic constants such as __DIR__.
func magic(s string) bool {
	return len(s) > 4 && strings.HasPrefix(s, "__") && strings.HasSuffix(s, "__")
}

func (r *refWalker) visit(n *sitter.Node) {
	r.clk.tick()
	switch n.Kind() {
	case "namespace_definition":
		name := ""
		if nn := n.ChildByFieldName("name"); nn != nil {
			name = strings.TrimPrefix(r.text(nn), `\`)
		}
		body := n.ChildByFieldName("body")
		if body == nil {
			r.sc = newScope(name)
			return
		}
		prev := r.sc
		r.sc = newScope(name)
		r.children(body)
		r.sc = prev
	case "namespace_use_declaration":
		r.use(n)
	case "class_declaration", "interface_declaration", "trait_declaration", "enum_declaration":
		r.classLike(n)
	case "function_definition":
		name := ""
		if nn := n.ChildByFieldName("name"); nn != nil {
			name = r.text(nn)
		}
		r.function(n, r.find(fact.Function, r.sc.qualify(name), line(n.StartPosition())))
	case "anonymous_function", "arrow_function":
		r.closure(n)
	case "function_call_expression":
		r.call(n)
	case "member_call_expression", "nullsafe_member_call_expression":
		obj, nm := n.ChildByFieldName("object"), n.ChildByFieldName("name")
		d := ""
		if obj != nil {
			d = r.exprDesc(obj)
			r.visit(obj)
		}
		if nm != nil {
			if nm.Kind() == "name" {
				r.emitN(fact.RefMethodCall, nm, r.text(nm), d, "")
				if r.cls != nil && r.cls.own != nil && obj != nil && r.text(obj) == "$this" && r.cls.own[fact.Lower(r.text(nm))] {
					r.refs[len(r.refs)-1].Props = map[string]string{fact.PropAnonMethod: "true"}
				} else if g := r.globalBase(obj); g != "" {
					// typed by an @global tag or by the project's assignments
					r.refs[len(r.refs)-1].Props = map[string]string{fact.PropReceiverGlobal: g}
				}
			} else {
				r.emitN(fact.RefDynamicCall, nm, "", d, "")
				r.visit(nm)
			}
		}
		if a := n.ChildByFieldName("arguments"); a != nil {
			r.visit(a)
		}
	case "member_access_expression", "nullsafe_member_access_expression":
		obj, nm := n.ChildByFieldName("object"), n.ChildByFieldName("name")
		d := ""
		if obj != nil {
			d = r.exprDesc(obj)
			r.visit(obj)
		}
		if nm != nil {
			if nm.Kind() == "name" {
				r.emitN(fact.RefPropFetch, nm, r.text(nm), d, "")
				if n == r.lhs {
					r.refs[len(r.refs)-1].Props = map[string]string{fact.PropAccess: r.lhsAccess}
				}
			} else {
				r.visit(nm)
			}
		}
	case "scoped_call_expression":
		scope, nm := n.ChildByFieldName("scope"), n.ChildByFieldName("name")
		d := r.scopeRef(scope)
		if nm != nil {
			if nm.Kind() == "name" {
				r.emitN(fact.RefStaticCall, nm, r.text(nm), d, "")
				if scope != nil && isRelative(r.text(scope)) {
					// parent::m(), self::m(): from an instance method a
					// missing m goes to __call, not __callStatic
					r.refs[len(r.refs)-1].Props = map[string]string{fact.PropRelativeScope: "true"}
				}
			} else {
				r.emitN(fact.RefDynamicCall, nm, "", d, "")
				r.visit(nm)
			}
		}
		if a := n.ChildByFieldName("arguments"); a != nil {
			r.visit(a)
		}
	case "scoped_property_access_expression":
		scope, nm := n.ChildByFieldName("scope"), n.ChildByFieldName("name")
		d := r.scopeRef(scope)
		if nm != nil && nm.Kind() == "variable_name" {
			r.emitN(fact.RefStaticProp, nm, strings.TrimPrefix(r.text(nm), "$"), d, "")
		} else if nm != nil {
			r.visit(nm)
		}
	case "class_constant_access_expression":
		kids := r.named(n)
		if len(kids) < 2 {
			r.children(n)
			return
		}
		d := r.scopeRef(kids[0])
		nm := kids[len(kids)-1]
		if nm.Kind() == "name" && fact.Lower(r.text(nm)) != "class" {
			r.emitN(fact.RefClassConst, nm, r.text(nm), d, "")
		}
	case "object_creation_expression":
		r.newExpr(n)
	case "binary_expression":
		op := n.ChildByFieldName("operator")
		right := n.ChildByFieldName("right")
		if op != nil && fact.Lower(r.text(op)) == "instanceof" && right != nil && isNameKind(right.Kind()) {
			if fq := r.classRef(right); fq != "" && !r.inTraitScope(right) {
				r.emitN(fact.RefInstanceof, right, fq, "", "")
			}
			if l := n.ChildByFieldName("left"); l != nil {
				r.visit(l)
			}
			return
		}
		if l := n.ChildByFieldName("left"); op != nil && l != nil && right != nil {
			switch fact.Lower(r.text(op)) {
			case "&&", "and":
				// `$v instanceof C && $v->m()`: the right side sees $v as a C
				r.visit(l)
				m := map[string]string{}
				r.instanceofs(l, m)
				restore := r.narrow(m)
				r.visit(right)
				restore()
				return
			}
		}
		r.children(n)
	case "catch_clause":
		if t := n.ChildByFieldName("type"); t != nil {
			d := r.typeNode(t, false, func(fq string, nn *sitter.Node) { r.emitN(fact.RefCatch, nn, fq, "", "") })
			if v := n.ChildByFieldName("name"); v != nil && d != "" {
				r.env[strings.TrimPrefix(r.text(v), "$")] = d
			}
		}
		if b := n.ChildByFieldName("body"); b != nil {
			r.visit(b)
		}
	case "attribute":
		kids := r.named(n)
		if len(kids) > 0 && isNameKind(kids[0].Kind()) {
			r.emitN(fact.RefAttribute, kids[0], r.sc.class(r.text(kids[0])), "", "")
		}
		if p := n.ChildByFieldName("parameters"); p != nil {
			r.visit(p)
		}
	case "name", "qualified_name", "relative_name":
		raw := r.text(n)
		if magic(raw) {
			return
		}
		switch fact.Lower(raw) {
		case "true", "false", "null":
			return
		case "die", "exit":
			return // `… or die;`, `die;`: the language construct, which the grammar reads as a name
		}
		fq, alt := r.sc.constant(raw)
		r.emitN(fact.RefConst, n, fq, "", alt)
	case "include_expression", "include_once_expression", "require_expression", "require_once_expression":
		kids := r.named(n)
		if len(kids) == 0 {
			return
		}
		e := kids[0]
		r.emitN(fact.RefInclude, n, collapse(r.text(e)), r.pathExpr(e), "")
		r.visit(e)
	case "assignment_expression":
		r.assign(n)
	case "augmented_assignment_expression":
		r.propAssign(n)
		if left := n.ChildByFieldName("left"); left != nil && left.Kind() == "member_access_expression" {
			r.lhs, r.lhsAccess = left, fact.AccessReadWrite
		}
		r.children(n)
		r.lhs = nil
	case "if_statement":
		r.ifStmt(n)
	case "switch_statement":
		r.switchStmt(n)
	case "try_statement":
		r.tryStmt(n)
	case "foreach_statement":
		r.loop(func() { r.foreach(n) }, true)
	case "while_statement", "for_statement":
		r.loop(func() { r.children(n) }, true)
	case "do_statement":
		r.loop(func() { r.children(n) }, false)
	case "comment":
		r.docComment(n)
		r.inlineVar(n)
	case "array_creation_expression":
		r.callableArray(n)
		r.children(n)
	case "argument":
		// a named argument's label is not a constant
		for i := uint(0); i < n.ChildCount(); i++ {
			c := n.Child(i)
			if c.IsNamed() && n.FieldNameForChild(uint32(i)) != "name" {
				r.visit(c)
			}
		}
	case "const_declaration":
		r.constValues(n)
	case "global_declaration":
		r.globalDecl(n)
	case "variable_name", "namespace_name", "named_label_statement", "goto_statement", "declare_statement",
		"relative_scope", "primitive_type", "cast_type", "php_tag", "text", "heredoc_start", "heredoc_end":
		// names here are not references
	case "named_type", "optional_type", "union_type", "intersection_type", "disjunctive_normal_form_type", "type_list":
		r.typeNode(n, false, func(fq string, nn *sitter.Node) { r.emitN(fact.RefType, nn, fq, "", "") })
	case "anonymous_class":
		r.anonClass(n)
	default:
		r.children(n)
	}
}

// constValues walks the values of a const declaration, not its names.
func (r *refWalker) constValues(n *sitter.Node) {
	for _, el := range r.named(n) {
		if el.Kind() != "const_element" {
			if el.Kind() == "attribute_list" {
				r.visit(el)
			}
			continue
		}
		for _, c := range r.named(el) {
			if c.Kind() != "name" {
				r.visit(c)
			}
		}
	}
}

// classRef resolves a class name node (name, qualified or relative) or a
// relative scope (self, static, parent) to its FQ name.
func (r *refWalker) classRef(n *sitter.Node) string {
	raw := r.text(n)
	switch fact.Lower(raw) {
	case "self", "static":
		if r.cls != nil {
			return r.cls.fq
		}
		return ""
	case "parent":
		if r.cls != nil {
			return r.cls.parent
		}
		return ""
	}
	return r.sc.class(raw)
}

// scopeRef handles the left side of `::`: it emits a class reference for a
// written class name and returns the receiver descriptor.
func (r *refWalker) scopeRef(scope *sitter.Node) string {
	if scope == nil {
		return ""
	}
	switch {
	case isNameKind(scope.Kind()):
		raw := r.text(scope)
		switch fact.Lower(raw) {
		case "self", "static", "parent":
			if fq := r.classRef(scope); fq != "" {
				return `\` + fq
			}
			return ""
		}
		fq := r.sc.class(raw)
		r.emitN(fact.RefClassName, scope, fq, "", "")
		return `\` + fq
	case scope.Kind() == "relative_scope":
		if fq := r.classRef(scope); fq != "" {
			return `\` + fq
		}
		return ""
	default:
		d := r.exprDesc(scope)
		r.visit(scope)
		return d
	}
}

func (r *refWalker) newExpr(n *sitter.Node) {
	for _, c := range r.named(n) {
		switch {
		case isNameKind(c.Kind()) || c.Kind() == "relative_scope":
			fq := r.classRef(c)
			if fq == "" || r.inTraitScope(c) {
				continue
			}
			recv := ""
			if c.Kind() == "relative_scope" || isRelative(r.text(c)) {
				recv = "relative"
			}
			r.emitN(fact.RefNew, c, fq, recv, "")
		case c.Kind() == "anonymous_class":
			r.anonClass(c)
		default:
			r.visit(c)
		}
	}
}

// globalBase returns the name of the variable a receiver is, or is an element
// of (`$wp_filter[$hook]`), or starts a chain of (`$wp_filesystem->errors`),
// when the function declares it global; "" else.
func (r *refWalker) globalBase(obj *sitter.Node) string {
walk:
	for obj != nil {
		switch obj.Kind() {
		case "subscript_expression":
			if obj.NamedChildCount() == 0 {
				return ""
			}
			obj = obj.NamedChild(0)
		case "member_access_expression", "nullsafe_member_access_expression", "member_call_expression", "nullsafe_member_call_expression":
			// `$wp_filesystem->errors->get_error_messages()`: the chain
			// starts at the global
			obj = obj.ChildByFieldName("object")
		default:
			break walk
		}
	}
	if obj == nil || obj.Kind() != "variable_name" {
		return ""
	}
	if name := strings.TrimPrefix(r.text(obj), "$"); r.globals[name] {
		return name
	}
	return ""
}

// inTraitScope tells whether n is self or static inside a trait, where they
// name the using class.
func (r *refWalker) inTraitScope(n *sitter.Node) bool {
	if r.cls == nil || !r.cls.trait {
		return false
	}
	l := fact.Lower(r.text(n))
	return l == "self" || l == "static"
}

func isRelative(s string) bool {
	switch fact.Lower(s) {
	case "self", "static", "parent":
		return true
	}
	return false
}

// anonClass walks `new class(...) extends A implements B { ... }`.
func (r *refWalker) anonClass(n *sitter.Node) {
	ctx := &classCtx{}
	for _, c := range r.named(n) {
		switch c.Kind() {
		case "base_clause":
			for _, b := range r.named(c) {
				if isNameKind(b.Kind()) {
					fq := r.sc.class(r.text(b))
					ctx.parent = fq
					r.emitN(fact.RefExtends, b, fq, "", "")
				}
			}
		case "class_interface_clause":
			for _, b := range r.named(c) {
				if isNameKind(b.Kind()) {
					r.emitN(fact.RefImplements, b, r.sc.class(r.text(b)), "", "")
				}
			}
		case "arguments", "attribute_list":
			r.visit(c)
		}
	}
	prev := r.cls
	r.cls = ctx
	if body := n.ChildByFieldName("body"); body != nil {
		ctx.own = map[string]bool{}
		for _, m := range r.named(body) {
			if nn := m.ChildByFieldName("name"); m.Kind() == "method_declaration" && nn != nil {
				ctx.own[fact.Lower(r.text(nn))] = true
			}
		}
		r.classBody(body, "")
	}
	r.cls = prev
}

var classKinds = map[string]fact.NodeKind{
	"class_declaration": fact.Class, "interface_declaration": fact.Interface,
	"trait_declaration": fact.Trait, "enum_declaration": fact.Enum,
}

func (r *refWalker) classLike(n *sitter.Node) {
	nn := n.ChildByFieldName("name")
	if nn == nil {
		return
	}
	kind := classKinds[n.Kind()]
	fq := r.sc.qualify(r.text(nn))
	id := r.find(kind, fq, line(n.StartPosition()))
	ctx := &classCtx{fq: fq, id: id, trait: kind == fact.Trait}
	prevCls, prevFrom := r.cls, r.from
	if id != "" {
		r.from = id
	}
	for _, c := range r.named(n) {
		switch c.Kind() {
		case "base_clause":
			for _, b := range r.named(c) {
				if isNameKind(b.Kind()) {
					p := r.sc.class(r.text(b))
					if kind == fact.Class {
						ctx.parent = p
					}
					r.emitN(fact.RefExtends, b, p, "", "")
				}
			}
		case "class_interface_clause":
			for _, b := range r.named(c) {
				if isNameKind(b.Kind()) {
					r.emitN(fact.RefImplements, b, r.sc.class(r.text(b)), "", "")
				}
			}
		case "attribute_list":
			r.visit(c)
		}
	}
	r.cls = ctx
	if doc, dl := r.docBefore(n); doc != "" {
		ln := line(n.StartPosition())
		r.typeAliases(ctx, doc, dl)
		for _, t := range docTags(doc) {
			emit := r.docRefs(dl + t.line)
			switch t.tag {
			case "shape":
				r.docType(t.typ, false, emit)
			case "property":
				if t.name != "" {
					r.emit(fact.RefDocProperty, t.name, ln, r.docType(t.typ, false, emit), "")
				}
			case "method":
				r.emit(fact.RefDocMethod, t.name, ln, r.docType(t.typ, true, emit), "")
				// the classes its parameters are typed with are referenced
				for _, a := range splitTop(t.args, ',') {
					a, _, _ = strings.Cut(a, "=")
					if f := strings.Fields(a); len(f) > 1 && !strings.ContainsAny(f[0], "$&.") {
						r.docType(f[0], false, emit)
					}
				}
			case "mixin":
				if d := r.docType(t.typ, false, emit); d != "" {
					r.emit(fact.RefMixin, strings.TrimPrefix(strings.Split(d, "|")[0], `\`), ln, "", "")
				}
			}
		}
	}
	if body := n.ChildByFieldName("body"); body != nil {
		r.classBody(body, fq)
	}
	r.cls, r.from = prevCls, prevFrom
}

func (r *refWalker) classBody(body *sitter.Node, fq string) {
	for _, m := range r.named(body) {
		switch m.Kind() {
		case "method_declaration":
			id := ""
			if nn := m.ChildByFieldName("name"); nn != nil && fq != "" {
				id = r.find(fact.Method, fq+"::"+r.text(nn), line(m.StartPosition()))
			}
			r.function(m, id)
		case "property_declaration":
			r.property(m, fq)
		case "const_declaration":
			r.constValues(m)
		case "use_declaration":
			r.traitUse(m)
		case "enum_case":
			if v := m.ChildByFieldName("value"); v != nil {
				r.visit(v)
			}
		case "comment":
			r.docComment(m)
		default:
			r.visit(m)
		}
	}
}

func (r *refWalker) property(m *sitter.Node, fq string) {
	d := ""
	// declared: the property states a type (maybe one naming no class), so
	// what methods assign to it does not type it
	declared := false
	if t := m.ChildByFieldName("type"); t != nil {
		declared = true
		d = r.typeNode(t, false, func(cfq string, nn *sitter.Node) { r.emitN(fact.RefType, nn, cfq, "", "") })
	}
	ln := line(m.StartPosition())
	if doc, dl := r.docBefore(m); doc != "" {
		for _, t := range docTags(doc) {
			if t.tag == "shape" {
				r.docType(t.typ, false, r.docRefs(dl+t.line))
			}
			if t.tag == "var" {
				declared = true
				dd := r.docType(t.typ, false, r.docRefs(dl+t.line))
				d = union(d, dd)
			}
		}
	}
	for _, el := range r.named(m) {
		switch el.Kind() {
		case "attribute_list":
			r.visit(el)
		case "property_element":
			nn := el.ChildByFieldName("name")
			if nn == nil {
				continue
			}
			if v := el.ChildByFieldName("default_value"); v != nil {
				r.visit(v)
			}
			if declared && fq != "" {
				if id := r.find(fact.Property, fq+"::"+r.text(nn), line(el.StartPosition())); id != "" {
					r.refs = append(r.refs, fact.Ref{Kind: fact.RefPropType, From: id, Path: r.path, Line: ln, Name: strings.TrimPrefix(r.text(nn), "$"), Recv: d})
				}
			}
		}
	}
}

// union joins two descriptors, dropping duplicates.
func union(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" || a == b {
		return a
	}
	seen := map[string]bool{}
	var out []string
	for _, x := range append(splitTop(a, '|'), splitTop(b, '|')...) {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return strings.Join(out, "|")
}

func (r *refWalker) traitUse(m *sitter.Node) {
	for _, c := range r.named(m) {
		switch {
		case isNameKind(c.Kind()):
			r.emitN(fact.RefUsesTrait, c, r.sc.class(r.text(c)), "", "")
		case c.Kind() == "use_list":
			for _, cl := range r.named(c) {
				kids := r.named(cl)
				if len(kids) == 0 {
					continue
				}
				target := ""
				method := ""
				if kids[0].Kind() == "class_constant_access_expression" {
					parts := r.named(kids[0])
					if len(parts) == 2 {
						tfq := r.sc.class(r.text(parts[0]))
						r.emitN(fact.RefClassName, parts[0], tfq, "", "")
						method = r.text(parts[1])
						target = `\` + tfq + "::" + method
					}
				} else {
					method = r.text(kids[0])
					target = method
				}
				switch cl.Kind() {
				case "use_instead_of_clause":
					for _, k := range kids[1:] {
						if isNameKind(k.Kind()) {
							r.emitN(fact.RefClassName, k, r.sc.class(r.text(k)), "", "")
						}
					}
					r.emit(fact.RefTraitAlias, method, line(cl.StartPosition()), target, "")
				case "use_as_clause":
					last := kids[len(kids)-1]
					if len(kids) > 1 && last.Kind() == "name" {
						r.emit(fact.RefTraitAlias, r.text(last), line(cl.StartPosition()), target, "")
					}
				}
			}
		}
	}
}

// docBefore returns the docblock right before n and its first line, or "".
func (r *refWalker) docBefore(n *sitter.Node) (string, int) {
	p := n.PrevSibling()
	if p == nil || p.Kind() != "comment" {
		return "", 0
	}
	t := r.text(p)
	if !strings.HasPrefix(t, "/**") {
		return "", 0
	}
	return t, line(p.StartPosition())
}

// function walks a function or method: parameters and return types give
// type refs and the variable environment of the body.
func (r *refWalker) function(n *sitter.Node, id string) {
	prevFrom, prevEnv, prevPinned, prevIn, prevGlobals, prevBreaks := r.from, r.env, r.pinned, r.inFunc, r.globals, r.breaks
	r.breaks = nil
	if id != "" {
		r.from = id
	}
	r.env, r.pinned, r.inFunc, r.globals = map[string]string{}, map[string]int{}, true, nil
	ln := line(n.StartPosition())
	docRet := ""
	docParams := map[string]string{}
	if doc, dl := r.docBefore(n); doc != "" {
		for _, t := range docTags(doc) {
			d := r.docType(t.typ, t.tag == "return", r.docRefs(dl+t.line))
			switch t.tag {
			case "return":
				docRet = d
			case "param":
				if t.name != "" {
					docParams[t.name] = d
				}
			case "global":
				if t.name != "" && d != "" {
					r.env[t.name] = d
					r.emit(RefGlobal, t.name, dl+t.line, d, "")
				}
			}
		}
	}
	for _, c := range r.named(n) {
		if c.Kind() == "attribute_list" {
			r.visit(c)
		}
	}
	r.params(n, docParams)
	ret := ""
	if t := n.ChildByFieldName("return_type"); t != nil {
		ret = r.typeNode(t, true, func(cfq string, nn *sitter.Node) { r.emitN(fact.RefType, nn, cfq, "", "") })
	}
	if d := union(ret, docRet); d != "" && id != "" {
		r.refs = append(r.refs, fact.Ref{Kind: fact.RefReturns, From: id, Path: r.path, Line: ln, Recv: d})
	}
	if b := n.ChildByFieldName("body"); b != nil {
		r.visit(b)
	}
	r.from, r.env, r.pinned, r.inFunc, r.globals, r.breaks = prevFrom, prevEnv, prevPinned, prevIn, prevGlobals, prevBreaks
}

// params types the parameters of n into r.env and emits their type refs.
func (r *refWalker) params(n *sitter.Node, docParams map[string]string) {
	ps := n.ChildByFieldName("parameters")
	if ps == nil {
		return
	}
	for _, p := range r.named(ps) {
		switch p.Kind() {
		case "simple_parameter", "variadic_parameter", "property_promotion_parameter":
		default:
			continue
		}
		d := ""
		if t := p.ChildByFieldName("type"); t != nil {
			d = r.typeNode(t, false, func(cfq string, nn *sitter.Node) { r.emitN(fact.RefType, nn, cfq, "", "") })
		}
		for _, c := range r.named(p) {
			if c.Kind() == "attribute_list" {
				r.visit(c)
			}
		}
		if v := p.ChildByFieldName("default_value"); v != nil {
			r.visit(v)
		}
		nn := p.ChildByFieldName("name")
		if nn == nil {
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(r.text(nn), "&"), "$")
		if dp := docParams[name]; dp != "" {
			if p.Kind() == "variadic_parameter" {
				d = union(d, dp)
			} else {
				d = union(d, dp)
			}
		}
		if p.Kind() == "variadic_parameter" && d != "" {
			d = step(d, "") + "[]"
			if strings.Contains(d, "|") {
				d = ""
			}
		}
		if d != "" {
			r.env[name] = d
		}
		if p.Kind() == "property_promotion_parameter" && r.cls != nil && r.cls.fq != "" {
			if p.ChildByFieldName("type") == nil && docParams[name] == "" {
				r.untypedPromotion(p, name)
			} else if id := r.find(fact.Property, r.cls.fq+"::$"+name, line(p.StartPosition())); id != "" {
				r.refs = append(r.refs, fact.Ref{Kind: fact.RefPropType, From: id, Path: r.path, Line: line(p.StartPosition()), Name: name, Recv: d})
			}
		}
	}
}

// closure walks an anonymous or arrow function; it sees the variables it
// captures and $this.
func (r *refWalker) closure(n *sitter.Node) {
	prevEnv := r.env
	env := map[string]string{}
	if n.Kind() == "arrow_function" {
		for k, v := range prevEnv {
			env[k] = v
		}
	}
	for _, c := range r.named(n) {
		if c.Kind() == "anonymous_function_use_clause" {
			for _, v := range r.named(c) {
				name := strings.TrimPrefix(strings.TrimPrefix(r.text(v), "&"), "$")
				if d, ok := prevEnv[name]; ok {
					env[name] = d
				}
			}
		}
		if c.Kind() == "attribute_list" {
			r.visit(c)
		}
	}
	prevIn, prevGlobals, prevBreaks := r.inFunc, r.globals, r.breaks
	r.env, r.inFunc, r.globals, r.breaks = env, true, nil, nil
	defer func() { r.inFunc, r.globals, r.breaks = prevIn, prevGlobals, prevBreaks }()
	r.params(n, nil)
	if t := n.ChildByFieldName("return_type"); t != nil {
		r.typeNode(t, true, func(cfq string, nn *sitter.Node) { r.emitN(fact.RefType, nn, cfq, "", "") })
	}
	if b := n.ChildByFieldName("body"); b != nil {
		r.visit(b)
	}
	r.env = prevEnv
}

// callbackArg maps built-ins and common framework functions that take a
// callback to the position of that argument.
var callbackArg = map[string]int{
	"call_user_func": 0, "call_user_func_array": 0, "array_map": 0,
	"usort": 1, "uasort": 1, "uksort": 1, "array_filter": 1, "array_walk": 1, "array_walk_recursive": 1,
	"array_reduce": 1, "preg_replace_callback": 1, "iterator_apply": 1, "spl_autoload_register": 0,
	"register_shutdown_function": 0, "set_error_handler": 0, "set_exception_handler": 0,
	"forward_static_call": 0, "forward_static_call_array": 0, "header_register_callback": 0,
	"ob_start": 0, "register_tick_function": 0,
	"add_action": 1, "add_filter": 1,
	"register_activation_hook": 1, "register_deactivation_hook": 1, "register_uninstall_hook": 1,
	"add_shortcode": 1, "wp_add_dashboard_widget": 2, "add_meta_box": 2, "add_menu_page": 4,
	"add_submenu_page": 5, "add_options_page": 4, "add_management_page": 4, "add_settings_field": 2,
	"add_settings_section": 2, "register_setting": 2,
}

// namedCallableArg maps functions that name a callable without calling it to
// the position of that argument: the name is a reference, never a call.
var namedCallableArg = map[string]int{
	"function_exists": 0, "is_callable": 0,
	"remove_action": 1, "remove_filter": 1, "has_action": 1, "has_filter": 1,
}

func (r *refWalker) call(n *sitter.Node) {
	fn := n.ChildByFieldName("function")
	args := n.ChildByFieldName("arguments")
	if fn == nil {
		r.children(n)
		return
	}
	if isNameKind(fn.Kind()) {
		raw := r.text(fn)
		fq, alt := r.sc.function(raw)
		r.emitN(fact.RefCall, fn, fq, "", alt)
		short := fact.Lower(raw)
		if k := strings.LastIndexByte(short, '\\'); k >= 0 {
			short = short[k+1:]
		}
		if args != nil {
			if short == "define" {
				r.defineValue(args)
			}
			if pos, ok := callbackArg[short]; ok && pos >= 0 {
				r.callback(args, pos)
			}
			if pos, ok := namedCallableArg[short]; ok {
				r.namedFunction(args, pos)
			}
		}
	} else if name, m, recv, ok := r.arrayCallable(fn); ok && fn.Kind() == "array_creation_expression" {
		// [$obj, 'm'](…) calls the method it names
		if r.callbacks == nil {
			r.callbacks = map[uint]bool{}
		}
		r.callbacks[fn.StartByte()] = true
		r.emitN(fact.RefDynamicCall, name, m, recv, "")
		r.visit(fn)
	} else {
		r.emitN(fact.RefDynamicCall, fn, "", "", "")
		r.visit(fn)
	}
	if args != nil {
		r.visit(args)
		// `assert($v instanceof C);` leaves $v a C from here on
		if isNameKind(fn.Kind()) && strings.EqualFold(strings.TrimPrefix(r.text(fn), `\`), "assert") {
			if a := r.argValue(args, 0); a != nil {
				narrowed := map[string]string{}
				r.instanceofs(a, narrowed)
				for v, d := range narrowed {
					r.env[v] = d
					r.touch(v)
				}
			}
		}
	}
}

// argValue returns the expression of the pos-th argument.
func (r *refWalker) argValue(args *sitter.Node, pos int) *sitter.Node {
	i := 0
	for _, a := range r.named(args) {
		if a.Kind() != "argument" {
			continue
		}
		if i == pos {
			kids := r.named(a)
			if len(kids) == 0 {
				return nil
			}
			v := kids[len(kids)-1]
			return v
		}
		i++
	}
	return nil
}

// callback emits a dynamic call for a callable written as a string or array.
func (r *refWalker) callback(args *sitter.Node, pos int) {
	v := r.argValue(args, pos)
	if v == nil {
		return
	}
	switch v.Kind() {
	case "string", "encapsed_string":
		s, ok := stringLiteral(r.text(v), v.Kind())
		if !ok || s == "" {
			return
		}
		s = strings.TrimPrefix(s, `\`)
		if cls, m, ok := strings.Cut(s, "::"); ok {
			if validName(cls) && validName(m) {
				r.emitN(fact.RefDynamicCall, v, m, `\`+strings.TrimPrefix(cls, `\`), "")
			}
			return
		}
		if validName(s) {
			r.emitN(fact.RefDynamicCall, v, s, "", "")
		}
	case "array_creation_expression":
		if r.callbacks == nil {
			r.callbacks = map[uint]bool{}
		}
		r.callbacks[v.StartByte()] = true
		if name, m, recv, ok := r.arrayCallable(v); ok {
			r.emitN(fact.RefDynamicCall, name, m, recv, "")
		}
	}
}

// defineValue emits the value of define('NAME', value) when it is a path
// expression the resolver can evaluate.
func (r *refWalker) defineValue(args *sitter.Node) {
	nameArg, val := r.argValue(args, 0), r.argValue(args, 1)
	if nameArg == nil || val == nil {
		return
	}
	name, ok := stringLiteral(r.text(nameArg), nameArg.Kind())
	if !ok || name == "" {
		return
	}
	if e := r.pathExpr(val); e != "" {
		r.emitN(fact.RefDefine, nameArg, strings.TrimPrefix(name, `\`), e, "")
	}
}

// pathExpr renders an include path as parts joined by " . ": quoted literals
// ('…', with __DIR__ and __FILE__ already replaced by absolute project paths)
// and constant names. It returns "" when a part cannot be known statically.
func (r *refWalker) pathExpr(e *sitter.Node) string {
	switch e.Kind() {
	case "parenthesized_expression":
		if k := r.named(e); len(k) == 1 {
			return r.pathExpr(k[0])
		}
	case "binary_expression":
		op := e.ChildByFieldName("operator")
		l, rt := e.ChildByFieldName("left"), e.ChildByFieldName("right")
		if op == nil || r.text(op) != "." || l == nil || rt == nil {
			return ""
		}
		a, b := r.pathExpr(l), r.pathExpr(rt)
		if a == "" || b == "" {
			return ""
		}
		return a + " . " + b
	case "string", "encapsed_string":
		if s, ok := stringLiteral(r.text(e), e.Kind()); ok {
			return "'" + s + "'"
		}
	case "name", "qualified_name":
		t := r.text(e)
		switch t {
		case "__DIR__":
			return "'" + r.dir + "'"
		case "__FILE__":
			return "'/" + r.path + "'"
		}
		if magic(t) {
			return ""
		}
		fq, alt := r.sc.constant(t)
		if alt != "" {
			return alt
		}
		return fq
	case "function_call_expression":
		fn, args := e.ChildByFieldName("function"), e.ChildByFieldName("arguments")
		if fn == nil || args == nil || fact.Lower(strings.TrimPrefix(r.text(fn), `\`)) != "dirname" {
			return ""
		}
		a := r.argValue(args, 0)
		if a == nil {
			return ""
		}
		inner := r.pathExpr(a)
		levels := 1
		if lv := r.argValue(args, 1); lv != nil {
			n, err := strconv.Atoi(r.text(lv))
			if err != nil {
				return ""
			}
			levels = n
		}
		if !strings.HasPrefix(inner, "'") || strings.Contains(inner, " . ") {
			return ""
		}
		p := strings.Trim(inner, "'")
		for i := 0; i < levels; i++ {
			p = path.Dir(p)
		}
		if p == "." || p == "/" {
			p = ""
		}
		return "'" + p + "'"
	}
	return ""
}

func (r *refWalker) assign(n *sitter.Node) {
	left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
	if right != nil {
		r.visit(right)
	}
	if left == nil {
		return
	}
	r.propAssign(n)
	if k := r.narrowKey(left); strings.HasPrefix(k, "this->") {
		delete(r.env, k) // a narrowed property is narrowed no more
		r.touch(k)
	}
	if g := globalsKey(r, left); g != "" {
		if right != nil {
			r.emitN(RefGlobal, left, g, r.exprDesc(right), "")
		}
		r.visit(left)
		return
	}
	if left.Kind() != "variable_name" {
		if left.Kind() == "member_access_expression" {
			r.lhs, r.lhsAccess = left, fact.AccessWrite
		}
		r.visit(left)
		r.lhs = nil
		return
	}
	name := strings.TrimPrefix(r.text(left), "$")
	if right != nil && (!r.inFunc || r.globals[name]) {
		if d := r.exprDesc(right); d != "" {
			r.emitN(RefGlobal, left, name, d, "")
		}
	}
	if ln, ok := r.pinned[name]; ok && ln >= line(n.StartPosition())-1 {
		return
	}
	if right == nil {
		return
	}
	r.touch(name)
	if d := r.exprDesc(right); d != "" {
		r.env[name] = d
	} else {
		delete(r.env, name)
	}
}

// touch records that variable name was assigned (see touched).
func (r *refWalker) touch(name string) {
	if r.touched != nil {
		r.touched[name] = true
	}
}

// inlineVar applies `/** @var Foo $x */` (or @psalm-var, @phpstan-var) inside
// a body.
func (r *refWalker) inlineVar(n *sitter.Node) {
	t := r.text(n)
	if !strings.HasPrefix(t, "/**") || !strings.Contains(t, "var") { // @var, @psalm-var, @phpstan-var
		return
	}
	ln := line(n.StartPosition())
	end := endLine(n)
	for _, tag := range docTags(t) {
		if tag.tag == "shape" {
			r.docType(tag.typ, false, r.docRefs(ln+tag.line))
		}
		if tag.tag != "var" {
			continue
		}
		d := r.docType(tag.typ, false, r.docRefs(ln+tag.line))
		name := tag.name
		if name == "" {
			// `/** @var Foo */ $x = …`: the next statement's assigned variable
			next := n.NextNamedSibling()
			if next == nil || next.Kind() != "expression_statement" {
				continue
			}
			if k := r.named(next); len(k) == 1 && k[0].Kind() == "assignment_expression" {
				if l := k[0].ChildByFieldName("left"); l != nil && l.Kind() == "variable_name" {
					name = strings.TrimPrefix(r.text(l), "$")
				}
			}
		}
		if name != "" && d != "" {
			r.env[name] = d
			r.pinned[name] = end
		}
	}
}

func (r *refWalker) ifStmt(n *sitter.Node) {
	cond := n.ChildByFieldName("condition")
	if cond != nil {
		r.visit(cond)
	}
	// each branch runs from the variables as they were before the if, with
	// what its condition narrows; past the if a variable holds what any
	// branch that does not leave left in it (merge)
	branch := func(c, body *sitter.Node) func() ending {
		return func() ending {
			narrowed := map[string]string{}
			if c != nil {
				r.instanceofs(c, narrowed)
			}
			r.narrowFor(narrowed, func() { r.visit(body) })
			return r.ending(body)
		}
	}
	var runs []func() ending
	if b := n.ChildByFieldName("body"); b != nil {
		runs = append(runs, branch(cond, b))
	}
	hasElse := false
	for _, c := range r.named(n) {
		switch c.Kind() {
		case "else_if_clause":
			// `elseif ($v instanceof C)` narrows its own body as an if does
			ec, eb := c.ChildByFieldName("condition"), c.ChildByFieldName("body")
			if ec == nil || eb == nil {
				runs = append(runs, func() ending { r.visit(c); return fallsThrough })
				continue
			}
			runs = append(runs, func() ending { r.visit(ec); return branch(ec, eb)() })
		case "else_clause":
			hasElse = true
			body := c
			if b := c.ChildByFieldName("body"); b != nil {
				body = b
			}
			runs = append(runs, func() ending { r.visit(c); return r.ending(body) })
		}
	}
	// the path where no branch runs: `if (!$v instanceof C) { … }` without
	// else or elseif leaves $v a C there
	var none map[string]string
	if !hasElse {
		none = maps.Clone(r.env)
		if len(runs) == 1 && cond != nil {
			if v, d := r.negatedInstanceof(cond); v != "" {
				none[v] = d
			}
		}
	}
	r.merge(runs, none)
}

// tryStmt runs the try body and each catch as branches of merge, then
// finally. A catch starts from the variables as the try body left them:
// `try { $route = $request->route(); … } catch (E $e) { $route->… }` is the
// usual shape, though the throw may come before an assignment.
func (r *refWalker) tryStmt(n *sitter.Node) {
	var runs []func() ending
	var finally *sitter.Node
	var tried map[string]string
	for _, c := range r.named(n) {
		switch c.Kind() {
		case "compound_statement":
			runs = append(runs, func() ending {
				r.visit(c)
				tried = maps.Clone(r.env)
				return r.ending(c)
			})
		case "catch_clause":
			body := c.ChildByFieldName("body")
			runs = append(runs, func() ending {
				if tried != nil {
					r.env = maps.Clone(tried)
				}
				r.visit(c)
				if body == nil {
					return fallsThrough
				}
				return r.ending(body)
			})
		case "finally_clause":
			finally = c
		default:
			r.visit(c)
		}
	}
	r.merge(runs, nil)
	if finally != nil {
		r.visit(finally)
	}
}

// elementFuncs are PHP's functions that return an element of the array they
// are given (or false, which adds no class).
var elementFuncs = map[string]bool{
	"array_shift": true, "array_pop": true, "reset": true, "end": true, "current": true,
}

// switchStmt runs each case as a branch of merge: past the switch a
// variable holds what any case that reaches the end (by break or by running
// out) left in it, or what it held before when there is no default. A case
// that falls into the next is taken on its own.
func (r *refWalker) switchStmt(n *sitter.Node) {
	if c := n.ChildByFieldName("condition"); c != nil {
		r.visit(c)
	}
	body := n.ChildByFieldName("body")
	if body == nil {
		return
	}
	var runs []func() ending
	hasDefault := false
	for _, c := range r.named(body) {
		switch c.Kind() {
		case "case_statement", "default_statement":
			hasDefault = hasDefault || c.Kind() == "default_statement"
			runs = append(runs, func() ending {
				r.children(c)
				return r.ending(c)
			})
		default:
			r.visit(c)
		}
	}
	var none map[string]string
	if !hasDefault {
		none = maps.Clone(r.env)
	}
	r.switchBlock(func() { r.merge(runs, none) }) // a break leaves the switch
}

// ending is how a branch ends: by running out, by leaving what holds it
// (return, throw, continue) or by break, which leaves the innermost loop or
// switch (its variables meet the others at that statement's end).
type ending int

const (
	fallsThrough ending = iota
	leaves
	breaks
)

// flow is the variables one way through a statement leaves, with those it
// assigned (a variable a way leaves unknown may have been assigned so).
type flow struct {
	env     map[string]string
	touched map[string]bool
}

// ending tells how the statement list b (a block or a switch case) ends.
func (r *refWalker) ending(b *sitter.Node) ending {
	last := b
	switch b.Kind() {
	case "compound_statement", "colon_block", "case_statement", "default_statement":
		k := r.named(b)
		for len(k) > 0 && k[len(k)-1].Kind() == "comment" {
			k = k[:len(k)-1]
		}
		if len(k) == 0 || b.Kind() == "case_statement" && len(k) == 1 {
			return fallsThrough // an empty block, or a case with only its value
		}
		last = k[len(k)-1]
	}
	switch last.Kind() {
	case "return_statement", "continue_statement", "exit_statement":
		return leaves
	case "break_statement":
		return breaks
	case "expression_statement":
		k := r.named(last)
		if len(k) != 1 {
			break
		}
		if k[0].Kind() == "throw_expression" {
			return leaves
		}
		if k[0].Kind() == "name" {
			if l := fact.Lower(r.text(k[0])); l == "exit" || l == "die" {
				return leaves // a bare `die;` parses as a name
			}
		}
		if fn := k[0].ChildByFieldName("function"); k[0].Kind() == "function_call_expression" && fn != nil {
			if l := fact.Lower(r.text(fn)); l == "exit" || l == "die" {
				return leaves // die("…") parses as a call
			}
		}
	}
	return fallsThrough
}

// merge runs each branch from the current variables and leaves in r.env,
// for every variable, what the branches that run out and the fall-through
// path (nil when there is none) agree it may hold (union). A branch that
// ends in break hands its variables to the loop or switch it leaves.
func (r *refWalker) merge(runs []func() ending, none map[string]string) {
	before, outer := r.env, r.touched
	var outs []flow
	for _, run := range runs {
		r.env, r.touched = maps.Clone(before), map[string]bool{}
		switch run() {
		case fallsThrough:
			outs = append(outs, flow{r.env, r.touched})
		case breaks:
			if r.breaks != nil {
				*r.breaks = append(*r.breaks, flow{r.env, r.touched})
			}
		}
		if outer != nil {
			maps.Copy(outer, r.touched)
		}
	}
	r.touched = outer
	if none != nil {
		outs = append(outs, flow{env: none})
	}
	if len(outs) == 0 {
		r.env = before // nothing runs past this statement
		return
	}
	r.env = meet(before, outs)
}

// switchBlock visits a switch and then meets the variables of the paths
// that left it by break with those of the path that ran out.
func (r *refWalker) switchBlock(visit func()) {
	before, prev := maps.Clone(r.env), r.breaks
	var got []flow
	r.breaks = &got
	visit()
	r.breaks = prev
	if len(got) > 0 {
		r.env = meet(before, append(got, flow{env: r.env}))
	}
}

// loop visits a loop. Its body runs from what the variables held before the
// loop or at the end of the body's previous run: a first, dry walk of the
// body (its references dropped) finds what the body leaves, which meets the
// variables from before, and the walk that emits starts from that. Past the
// loop a variable holds what a path that left it by break, the path that ran
// out and, unless the body runs at least once (mayskip false: do-while),
// the path that skipped it agree on. Inside a dry walk, nested loops are
// walked once, which keeps the walks linear in the nesting depth.
func (r *refWalker) loop(visit func(), mayskip bool) {
	before, prev := maps.Clone(r.env), r.breaks
	if !r.dry {
		saved := r.save()
		var ignored []flow
		r.breaks, r.touched, r.dry = &ignored, map[string]bool{}, true
		visit()
		end := flow{env: r.env, touched: r.touched}
		r.restore(saved)
		r.env = meet(before, []flow{{env: maps.Clone(before)}, end})
	}
	var got []flow
	r.breaks = &got
	visit()
	r.breaks = prev
	outs := append(got, flow{env: r.env})
	if mayskip {
		outs = append(outs, flow{env: before})
	}
	if len(outs) > 1 {
		r.env = meet(before, outs)
	}
}

// walkState is what a dry walk may change and must leave as it found.
type walkState struct {
	refs      int
	env       map[string]string
	pinned    map[string]int
	touched   map[string]bool
	breaks    *[]flow
	callbacks map[uint]bool
	globals   map[string]bool
	dry       bool
}

func (r *refWalker) save() walkState {
	return walkState{refs: len(r.refs), env: maps.Clone(r.env), pinned: maps.Clone(r.pinned), touched: r.touched,
		breaks: r.breaks, callbacks: maps.Clone(r.callbacks), globals: maps.Clone(r.globals), dry: r.dry}
}

func (r *refWalker) restore(s walkState) {
	r.refs = r.refs[:s.refs]
	r.env, r.pinned, r.touched, r.breaks = s.env, s.pinned, s.touched, s.breaks
	r.callbacks, r.globals, r.dry = s.callbacks, s.globals, s.dry
}

// meet is what the ways agree a variable may hold: one type, or one of
// several (`(!A|B)`, typed only when each is). A variable a way leaves
// unknown, known before or assigned there, is unknown; one unknown before
// and not assigned on a way takes the others' types, as a walk in source
// order did.
func meet(before map[string]string, outs []flow) map[string]string {
	merged := map[string]string{}
	keys := map[string]bool{}
	for _, o := range outs {
		for k := range o.env {
			keys[k] = true
		}
	}
	for k := range keys {
		_, known := before[k]
		val, typed := "", true
		for _, o := range outs {
			v, ok := o.env[k]
			switch {
			case !ok && (known || o.touched[k]):
				typed = false // this path made it unknown
			case !ok:
				// unknown before and untouched on this path
			case val == "":
				val = v
			default:
				val = either(val, v)
			}
		}
		if typed && val != "" {
			merged[k] = val
		}
	}
	return merged
}

// narrowFor runs visit with the variables of narrowed narrowed, then puts
// back the previous value of each one visit did not assign.
func (r *refWalker) narrowFor(narrowed map[string]string, visit func()) {
	saved := map[string]string{}
	had := map[string]bool{}
	for v, d := range narrowed {
		saved[v], had[v] = r.env[v], r.env[v] != ""
		r.env[v] = d
	}
	visit()
	for v, d := range narrowed {
		if r.env[v] != d {
			continue // assigned in the branch
		}
		if had[v] {
			r.env[v] = saved[v]
		} else {
			delete(r.env, v)
		}
	}
}

// narrow gives the variables of narrowed their narrowed types and returns
// the function that puts the previous ones back.
func (r *refWalker) narrow(narrowed map[string]string) func() {
	saved := map[string]string{}
	for v, d := range narrowed {
		saved[v] = r.env[v]
		r.env[v] = d
	}
	return func() {
		for v, old := range saved {
			if old == "" {
				delete(r.env, v)
			} else {
				r.env[v] = old
			}
		}
	}
}

// negatedInstanceof returns the narrowed variable and type of a condition
// `!$v instanceof C` or `!($v instanceof C)`.
func (r *refWalker) negatedInstanceof(c *sitter.Node) (string, string) {
	for c.Kind() == "parenthesized_expression" && c.NamedChildCount() == 1 {
		c = c.NamedChild(0)
	}
	if c.Kind() != "unary_op_expression" {
		return "", ""
	}
	op, arg := c.ChildByFieldName("operator"), c.ChildByFieldName("argument")
	if op == nil || arg == nil || r.text(op) != "!" {
		return "", ""
	}
	m := map[string]string{}
	for arg.Kind() == "parenthesized_expression" && arg.NamedChildCount() == 1 {
		arg = arg.NamedChild(0)
	}
	if arg.Kind() != "binary_expression" {
		return "", ""
	}
	if o := arg.ChildByFieldName("operator"); o == nil || fact.Lower(r.text(o)) != "instanceof" {
		return "", ""
	}
	r.instanceofs(arg, m)
	for v, d := range m {
		return v, d
	}
	return "", ""
}

// narrowKey names what an instanceof test can narrow: a variable, or a
// property of $this (kept in env as `this->p`).
func (r *refWalker) narrowKey(e *sitter.Node) string {
	switch e.Kind() {
	case "variable_name":
		return strings.TrimPrefix(r.text(e), "$")
	case "member_access_expression":
		obj, nm := e.ChildByFieldName("object"), e.ChildByFieldName("name")
		if obj != nil && nm != nil && obj.Kind() == "variable_name" && r.text(obj) == "$this" && nm.Kind() == "name" {
			return "this->" + r.text(nm)
		}
	}
	return ""
}

// instanceofs collects `$v instanceof C` conjuncts of a condition.
func (r *refWalker) instanceofs(c *sitter.Node, out map[string]string) {
	switch c.Kind() {
	case "parenthesized_expression":
		if k := r.named(c); len(k) == 1 {
			r.instanceofs(k[0], out)
		}
	case "binary_expression":
		op := c.ChildByFieldName("operator")
		if op == nil {
			return
		}
		l, rt := c.ChildByFieldName("left"), c.ChildByFieldName("right")
		switch fact.Lower(r.text(op)) {
		case "&&", "and":
			if l != nil {
				r.instanceofs(l, out)
			}
			if rt != nil {
				r.instanceofs(rt, out)
			}
		case "instanceof":
			if l != nil && rt != nil && isNameKind(rt.Kind()) {
				if v, fq := r.narrowKey(l), r.classRef(rt); v != "" && fq != "" {
					out[v] = `\` + fq
				}
			}
		}
	}
}

func (r *refWalker) foreach(n *sitter.Node) {
	kids := r.named(n)
	if len(kids) == 0 {
		return
	}
	d := r.exprDesc(kids[0])
	r.visit(kids[0])
	if len(kids) > 1 {
		v := kids[1]
		if v.Kind() == "pair" {
			if pk := r.named(v); len(pk) == 2 {
				v = pk[1]
			}
		}
		if v.Kind() == "by_ref" {
			if k := r.named(v); len(k) == 1 {
				v = k[0]
			}
		}
		if v.Kind() == "variable_name" {
			name := strings.TrimPrefix(r.text(v), "$")
			if ln, ok := r.pinned[name]; !ok || ln < line(n.StartPosition())-1 {
				r.touch(name)
				if e := step(d, "*"); e != "" {
					r.env[name] = e
				} else {
					delete(r.env, name)
				}
			}
		} else {
			r.visit(v)
		}
	}
	for _, c := range kids[2:] {
		r.visit(c)
	}
}

// exprDesc describes the type of an expression, or "" when unknown.
func (r *refWalker) exprDesc(e *sitter.Node) string {
	switch e.Kind() {
	case "variable_name":
		name := strings.TrimPrefix(r.text(e), "$")
		if name == "this" {
			if r.cls != nil && r.cls.fq != "" {
				if d := r.env["this"]; d != "" {
					// `$this instanceof I`: the class and I, whose methods a
					// trait or an abstract class may call before declaring them
					return `\` + r.cls.fq + "|" + d
				}
				return `\` + r.cls.fq
			}
			if r.cls != nil && r.cls.parent != "" {
				// an anonymous class: what its body does not declare comes
				// from the class it extends (calls to its own methods are
				// marked PropAnonMethod)
				return `\` + r.cls.parent
			}
			return ""
		}
		if d, ok := r.env[name]; ok || r.inFunc {
			return d
		}
		return "$" + name // a file-scope variable is a global
	case "object_creation_expression":
		for _, c := range r.named(e) {
			if isNameKind(c.Kind()) || c.Kind() == "relative_scope" {
				if fq := r.classRef(c); fq != "" {
					return `\` + fq
				}
				return ""
			}
		}
	case "clone_expression", "parenthesized_expression", "error_suppression_expression":
		if k := r.named(e); len(k) == 1 {
			return r.exprDesc(k[0])
		}
	case "member_call_expression", "nullsafe_member_call_expression":
		obj, nm := e.ChildByFieldName("object"), e.ChildByFieldName("name")
		if obj != nil && nm != nil && nm.Kind() == "name" {
			return step(r.exprDesc(obj), "->"+r.text(nm)+"()")
		}
	case "member_access_expression", "nullsafe_member_access_expression":
		obj, nm := e.ChildByFieldName("object"), e.ChildByFieldName("name")
		if k := r.narrowKey(e); k != "" && r.env[k] != "" {
			return r.env[k] // narrowed by instanceof
		}
		if obj != nil && nm != nil && nm.Kind() == "name" {
			return step(r.exprDesc(obj), "->"+r.text(nm))
		}
	case "scoped_call_expression":
		scope, nm := e.ChildByFieldName("scope"), e.ChildByFieldName("name")
		if scope != nil && nm != nil && nm.Kind() == "name" {
			return step(r.scopeDesc(scope), "::"+r.text(nm)+"()")
		}
	case "scoped_property_access_expression":
		scope, nm := e.ChildByFieldName("scope"), e.ChildByFieldName("name")
		if scope != nil && nm != nil && nm.Kind() == "variable_name" {
			return step(r.scopeDesc(scope), "::"+r.text(nm))
		}
	case "function_call_expression":
		fn := e.ChildByFieldName("function")
		if fn != nil && isNameKind(fn.Kind()) {
			if elementFuncs[strings.TrimPrefix(fact.Lower(r.text(fn)), `\`)] {
				// array_shift($nodes) and the like return an element of their array
				if args := e.ChildByFieldName("arguments"); args != nil {
					if a := r.named(args); len(a) > 0 {
						arg := a[0]
						if arg.Kind() == "argument" && arg.NamedChildCount() == 1 {
							arg = arg.NamedChild(0)
						}
						if d := r.exprDesc(arg); d != "" {
							return step(d, "*")
						}
					}
				}
				return ""
			}
			fq, alt := r.sc.function(r.text(fn))
			if alt != "" {
				return `@\` + fq + `,\` + alt
			}
			return `@\` + fq
		}
	case "assignment_expression":
		if rt := e.ChildByFieldName("right"); rt != nil {
			return r.exprDesc(rt)
		}
	case "conditional_expression":
		// `c ? a : b` is an a or a b; `a ?: b` likewise
		a, b := e.ChildByFieldName("body"), e.ChildByFieldName("alternative")
		if a == nil {
			a = e.ChildByFieldName("condition")
		}
		if a != nil && b != nil {
			return r.eitherDesc(a, b)
		}
	case "match_expression":
		// `match ($t) { 'a' => new A, default => new B }` is an A or a B; an
		// arm that throws or gives null adds nothing
		return r.matchDesc(e)
	case "binary_expression":
		// `a ?? b` is an a or a b
		op, a, b := e.ChildByFieldName("operator"), e.ChildByFieldName("left"), e.ChildByFieldName("right")
		if op != nil && a != nil && b != nil && r.text(op) == "??" {
			return r.eitherDesc(a, b)
		}
	case "subscript_expression":
		if g := globalsKey(r, e); g != "" {
			return "$" + g
		}
		// an element of a typed array, or what an ArrayAccess object's
		// offsetGet returns
		if k := r.named(e); len(k) == 2 {
			return step(r.exprDesc(k[0]), "*")
		}
	}
	return ""
}

// eitherDesc is the type of a value that is one of the expressions a and b:
// the union of both types, "" when either is unknown. A null literal adds
// nothing, as `?Foo` types a Foo.
func (r *refWalker) matchDesc(e *sitter.Node) string {
	body := e.ChildByFieldName("body")
	if body == nil {
		return ""
	}
	d, arms := "", 0
	for _, arm := range r.named(body) {
		v := arm.ChildByFieldName("return_expression")
		if v == nil || v.Kind() == "throw_expression" || isNull(r, v) {
			continue
		}
		ad := r.exprDesc(v)
		if ad == "" {
			return "" // an arm of unknown type: the value is unknown
		}
		if arms++; arms == 1 {
			d = ad
		} else if d = either(d, ad); d == "" {
			return ""
		}
	}
	return d
}

func (r *refWalker) eitherDesc(a, b *sitter.Node) string {
	switch {
	case isNull(r, a):
		return r.exprDesc(b)
	case isNull(r, b):
		return r.exprDesc(a)
	}
	return either(r.exprDesc(a), r.exprDesc(b))
}

// either describes a value that is an a or a b: the group `(!a|b)`, which
// package resolve types only when both a and b evaluate to a type, so an
// unknown side never lets the other pass for proven. It is "" when either
// is unknown.
func either(a, b string) string {
	if a == "" || b == "" {
		return ""
	}
	if a == b {
		return a
	}
	if d := "(!" + union(a, b) + ")"; len(d) <= maxDesc {
		return d
	}
	return ""
}

// scopeDesc describes the left side of `::` without emitting anything.
func (r *refWalker) scopeDesc(scope *sitter.Node) string {
	if isNameKind(scope.Kind()) || scope.Kind() == "relative_scope" {
		if fq := r.classRef(scope); fq != "" {
			return `\` + fq
		}
		return ""
	}
	return r.exprDesc(scope)
}
