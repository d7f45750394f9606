// This file finds the references of one PHP file: every use of a class,
// function, constant or member, with names resolved as far as the file can
// tell (namespaces and imports in names.go) and receivers described as type
// descriptors (types.go) that package resolve evaluates across files. The
// walk's declarations are in refs_decls.go, the types variables hold as
// control flows in typeflow.go, an expression's type in exprtype.go.

package php

import (
	"path"
	"strconv"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/typ"
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
	env    map[string]typ.Desc // variable -> type descriptor
	pinned map[string]int      // variable -> line of an inline @var that overrides its next assignment
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
		sc: newScope(""), env: map[string]typ.Desc{}, pinned: map[string]int{},
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

func (r *refWalker) emit(kind fact.RefKind, name string, ln int, recv typ.Desc, alt string) {
	r.refs = append(r.refs, fact.Ref{Kind: kind, From: r.from, Path: r.path, Line: ln, Name: name, Recv: recv, Alt: alt})
	r.clk.charge(refCost(&r.refs[len(r.refs)-1]))
}

// emitN emits a reference positioned at node n.
func (r *refWalker) emitN(kind fact.RefKind, n *sitter.Node, name string, recv typ.Desc, alt string) {
	p := n.StartPosition()
	r.refs = append(r.refs, fact.Ref{Kind: kind, From: r.from, Path: r.path, Line: int(p.Row) + 1, Col: int(p.Column), Name: name, Recv: recv, Alt: alt})
	r.clk.charge(refCost(&r.refs[len(r.refs)-1]))
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
		var d typ.Desc
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
		var d typ.Desc
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
				r.emitN(fact.RefInstanceof, right, fq, typ.Desc{}, "")
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
				m := map[string]typ.Desc{}
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
			d := r.typeNode(t, false, func(fq string, nn *sitter.Node) { r.emitN(fact.RefCatch, nn, fq, typ.Desc{}, "") })
			if v := n.ChildByFieldName("name"); v != nil && d.Known() {
				r.env[strings.TrimPrefix(r.text(v), "$")] = d
			}
		}
		if b := n.ChildByFieldName("body"); b != nil {
			r.visit(b)
		}
	case "attribute":
		kids := r.named(n)
		if len(kids) > 0 && isNameKind(kids[0].Kind()) {
			r.emitN(fact.RefAttribute, kids[0], r.sc.class(r.text(kids[0])), typ.Desc{}, "")
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
		r.emitN(fact.RefConst, n, fq, typ.Desc{}, alt)
	case "include_expression", "include_once_expression", "require_expression", "require_once_expression":
		kids := r.named(n)
		if len(kids) == 0 {
			return
		}
		e := kids[0]
		r.emitN(fact.RefInclude, n, collapse(r.text(e)), typ.Desc{}, "")
		r.refs[len(r.refs)-1].Include = r.pathExpr(e)
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
		r.typeNode(n, false, func(fq string, nn *sitter.Node) { r.emitN(fact.RefType, nn, fq, typ.Desc{}, "") })
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
func (r *refWalker) scopeRef(scope *sitter.Node) typ.Desc {
	if scope == nil {
		return typ.Desc{}
	}
	switch {
	case isNameKind(scope.Kind()):
		raw := r.text(scope)
		switch fact.Lower(raw) {
		case "self", "static", "parent":
			if fq := r.classRef(scope); fq != "" {
				return typ.NewClass(fq)
			}
			return typ.Desc{}
		}
		fq := r.sc.class(raw)
		r.emitN(fact.RefClassName, scope, fq, typ.Desc{}, "")
		return typ.NewClass(fq)
	case scope.Kind() == "relative_scope":
		if fq := r.classRef(scope); fq != "" {
			return typ.NewClass(fq)
		}
		return typ.Desc{}
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
			r.emitN(fact.RefNew, c, fq, typ.Desc{}, "")
			if c.Kind() == "relative_scope" || isRelative(r.text(c)) {
				r.refs[len(r.refs)-1].Props = map[string]string{fact.PropRelativeScope: "true"}
			}
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
		r.emitN(fact.RefCall, fn, fq, typ.Desc{}, alt)
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
		r.emitN(fact.RefDynamicCall, fn, "", typ.Desc{}, "")
		r.visit(fn)
	}
	if args != nil {
		r.visit(args)
		// `assert($v instanceof C);` leaves $v a C from here on
		if isNameKind(fn.Kind()) && strings.EqualFold(strings.TrimPrefix(r.text(fn), `\`), "assert") {
			if a := r.argValue(args, 0); a != nil {
				narrowed := map[string]typ.Desc{}
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
				r.emitN(fact.RefDynamicCall, v, m, typ.NewClass(cls), "")
			}
			return
		}
		if validName(s) {
			r.emitN(fact.RefDynamicCall, v, s, typ.Desc{}, "")
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
		r.emitN(fact.RefDefine, nameArg, strings.TrimPrefix(name, `\`), typ.Desc{}, "")
		r.refs[len(r.refs)-1].Include = e
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
