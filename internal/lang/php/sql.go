// This file finds the application's domain in one PHP file: SQL held in
// strings (literals, concatenations, interpolations, heredocs and sprintf
// formats), query builders, and schema code (CREATE TABLE strings, Laravel
// blueprints, Phinx tables, Doctrine addSql). Entry points are found by the
// same walk in routes.go; migrations.go reads schema builders. Package
// resolve links what this file emits (domain.go there).

package php

import (
	"strconv"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/extract/sqlschema"
	"github.com/ragraf/ragraf/internal/extract/sqltext"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/typ"
)

// SQLSource names this extractor in edge provenance.
const SQLSource = "php-sql"

// Domain is what the domain walk finds in one file: table, column and entry
// point nodes (below the file), their edges, and the references above. It
// is kept apart from the declarations in Result.Nodes.
type Domain = lang.Domain

// addDomain fills res.Domain.
func (res *Result) addDomain(path string, src []byte, root *sitter.Node, clk *clock) {
	d := newDomainWalker(path, src, res.Nodes)
	d.clk = clk
	d.children(root)
	res.Domain = Domain{Nodes: d.nodes, Edges: d.edges, Refs: d.refs}
}

// domainWalker walks a file after the structural walk.
type domainWalker struct {
	clk    *clock // budget of the walk (budget.go)
	path   string
	src    []byte
	fileID string
	names  *refWalker // name scope and imports; its refs are discarded
	decls  []fact.Node
	// typeDecls indexes the type declarations of decls by lower-case
	// qualified name (classID), built on first use
	typeDecls map[string][]int
	cls       *domainClass
	vars      map[string]*sitter.Node // variable -> last string expression assigned in this function
	prefix    []string                // route group prefixes
	// classes are the classes walked so far, by lower-case name (routes_wp.go)
	classes map[string]*domainClass
	// lvGroups are the enclosing Laravel route groups; apiPrefixed is 0
	// until known, 1 when routes/api.php gets /api, 2 when it names api
	// itself (routes_laravel.go)
	lvGroups      []laravelGroup
	apiPrefixed   int8
	unresolvedURI bool // the route being added has a URI built at run time
	// arrays holds the array literal last assigned to each variable (routes.go unrollForeach)
	arrays map[string]*sitter.Node
	seen   map[string]int
	nodes  []fact.Node
	edges  []fact.Edge
	refs   []fact.Ref
}

// domainClass is what the walk knows of the class whose body it is in.
type domainClass struct {
	fq     string
	id     string
	table  string            // const TABLE or property $table, a literal
	consts map[string]string // literal class constants (e.g. a column list)
	route  string            // class-level #[Route] prefix
	parent string
	// values and unknown are the string values of its properties, types
	// the classes its constructor instantiates into them (routes_wp.go)
	values  map[string]string
	unknown map[string]bool
	types   map[string]string
}

func newDomainWalker(path string, src []byte, decls []fact.Node) *domainWalker {
	names := &refWalker{path: path, src: src, fileID: fact.FileNodeID(path), sc: newScope(""),
		env: map[string]typ.Desc{}, pinned: map[string]int{}, index: map[string][]int{}}
	return &domainWalker{path: path, src: src, fileID: fact.FileNodeID(path), names: names, decls: decls,
		vars: map[string]*sitter.Node{}, seen: map[string]int{}}
}

func (d *domainWalker) text(n *sitter.Node) string { return n.Utf8Text(d.src) }

func (d *domainWalker) children(n *sitter.Node) {
	for i := uint(0); i < n.NamedChildCount(); i++ {
		d.visit(n.NamedChild(i))
	}
}

// enclosing returns the id of the innermost function or method around line
// ln, else the class, else the file.
func (d *domainWalker) enclosing(ln int) string {
	best, span := d.fileID, 1<<30
	for i := range d.decls {
		n := &d.decls[i]
		if n.Kind != fact.Function && n.Kind != fact.Method && !n.Kind.IsType() {
			continue
		}
		if n.StartLine <= ln && ln <= n.EndLine {
			s := n.EndLine - n.StartLine
			if n.Kind.IsType() {
				s += 1 << 20 // a function inside wins over its class
			}
			if s < span {
				best, span = n.ID, s
			}
		}
	}
	return best
}

func (d *domainWalker) classID(fq string, ln int) string {
	if d.typeDecls == nil {
		// by lower-case name, in declaration order: one scan per class
		// made a file of 35,000 classes quadratic
		d.typeDecls = map[string][]int{}
		for i := range d.decls {
			if n := &d.decls[i]; n.Kind.IsType() {
				k := strings.ToLower(n.QName)
				d.typeDecls[k] = append(d.typeDecls[k], i)
			}
		}
	}
	for _, i := range d.typeDecls[strings.ToLower(fq)] {
		n := &d.decls[i]
		if strings.EqualFold(n.QName, fq) && n.StartLine <= ln && ln <= n.EndLine {
			return n.ID
		}
	}
	return ""
}

func (d *domainWalker) ref(kind fact.RefKind, from string, n *sitter.Node, name string, props map[string]string) {
	p := n.StartPosition()
	d.refs = append(d.refs, fact.Ref{Kind: kind, From: from, Path: d.path, Line: int(p.Row) + 1, Col: int(p.Column), Name: name, Props: props})
	d.clk.charge(refCost(&d.refs[len(d.refs)-1]))
}

func (d *domainWalker) visit(n *sitter.Node) {
	d.clk.tick()
	switch n.Kind() {
	case "namespace_definition":
		name := ""
		if nn := n.ChildByFieldName("name"); nn != nil {
			name = strings.TrimPrefix(d.text(nn), `\`)
		}
		body := n.ChildByFieldName("body")
		if body == nil {
			d.names.sc = newScope(name)
			return
		}
		prev := d.names.sc
		d.names.sc = newScope(name)
		d.children(body)
		d.names.sc = prev
		return
	case "namespace_use_declaration":
		d.names.use(n)
		d.names.refs = d.names.refs[:0]
		return
	case "class_declaration":
		d.class(n)
		return
	case "function_definition":
		prev := d.vars
		d.vars = map[string]*sitter.Node{}
		d.children(n)
		d.vars = prev
		return
	case "assignment_expression":
		if l, r := n.ChildByFieldName("left"), n.ChildByFieldName("right"); l != nil && r != nil && l.Kind() == "variable_name" {
			d.noteArray(d.text(l), r)
			if isStringExpr(r) {
				d.vars[d.text(l)] = r
			} else {
				delete(d.vars, d.text(l))
			}
		}
	case "foreach_statement":
		if d.unrollForeach(n) {
			return
		}
	case "string", "encapsed_string", "heredoc", "nowdoc":
		d.sqlCandidate(n, n)
		return
	case "binary_expression":
		if isConcat(d, n) {
			if d.sqlCandidate(n, n) {
				return
			}
			// the operands, not the concatenations inside the chain: each of
			// those would be templated again, quadratic in the chain's length
			for _, o := range concatOperands(d, n) {
				d.visit(o)
			}
			return
		}
	case "function_call_expression":
		if d.call(n) {
			return
		}
	case "member_call_expression", "nullsafe_member_call_expression":
		if d.memberCall(n) {
			return
		}
	case "scoped_call_expression":
		if d.staticCall(n) {
			return
		}
	case "object_creation_expression":
		d.twigDefinition(n)
	}
	d.children(n)
}

// isConcat reports whether n is a concatenation `a . b`.
func isConcat(d *domainWalker, n *sitter.Node) bool {
	if n.Kind() != "binary_expression" {
		return false
	}
	op := n.ChildByFieldName("operator")
	return op != nil && d.text(op) == "."
}

// concatOperands returns the operands of the chain of concatenations rooted
// at n, in order, with the comments among them; found without recursion.
func concatOperands(d *domainWalker, n *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	stack := []*sitter.Node{n}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !isConcat(d, e) {
			out = append(out, e)
			continue
		}
		for i := int(e.NamedChildCount()) - 1; i >= 0; i-- {
			stack = append(stack, e.NamedChild(uint(i)))
		}
	}
	return out
}

// isStringExpr reports whether e is a string or a concatenation.
func isStringExpr(e *sitter.Node) bool {
	switch e.Kind() {
	case "string", "encapsed_string", "heredoc", "nowdoc":
		return true
	case "binary_expression":
		op := e.ChildByFieldName("operator")
		return op != nil && op.Kind() == "."
	case "parenthesized_expression":
		return e.NamedChildCount() == 1 && isStringExpr(e.NamedChild(0))
	}
	return false
}

// class reads the table a class names (TABLE constant, $table property),
// its command and route attributes, then walks its body.
func (d *domainWalker) class(n *sitter.Node) {
	prev := d.cls
	c := &domainClass{consts: map[string]string{}}
	if nn := n.ChildByFieldName("name"); nn != nil {
		c.fq = d.names.sc.qualify(d.text(nn))
		c.id = d.classID(c.fq, line(n.StartPosition()))
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if b := n.NamedChild(i); b.Kind() == "base_clause" && b.NamedChildCount() > 0 {
			c.parent = d.names.sc.class(d.text(b.NamedChild(0)))
		}
	}
	body := n.ChildByFieldName("body")
	if body != nil {
		for i := uint(0); i < body.NamedChildCount(); i++ {
			m := body.NamedChild(i)
			switch m.Kind() {
			case "const_declaration":
				for _, el := range namedOf(m, "const_element") {
					if el.NamedChildCount() < 2 {
						continue
					}
					if v, ok := d.literal(el.NamedChild(el.NamedChildCount() - 1)); ok {
						name := d.text(el.NamedChild(0))
						c.consts[name] = v
						if strings.EqualFold(name, "TABLE") {
							c.table = v
						}
					}
				}
			case "property_declaration":
				for _, el := range namedOf(m, "property_element") {
					if nm := el.ChildByFieldName("name"); nm != nil && d.text(nm) == "$table" {
						if v := el.ChildByFieldName("default_value"); v != nil {
							if s, ok := d.literal(v); ok {
								c.table = s
							}
						}
					}
				}
			}
		}
	}
	d.cls = c
	d.classEntries(n, c)
	d.doctrineEntity(n, body, c)
	if d.isEloquent(c) {
		d.eloquentModel(n, body, c)
	}
	d.repositoryEntity(n, body, c)
	d.listeners(n, body, c)
	if c.table != "" && c.id != "" && d.isModel(c) {
		d.ref(fact.RefTableUse, c.id, n, c.table, map[string]string{"via": "model $table", "op": "", "inferred": "false"})
	}
	if body != nil {
		for i := uint(0); i < body.NamedChildCount(); i++ {
			m := body.NamedChild(i)
			if m.Kind() == "method_declaration" {
				d.methodEntries(m, c)
				d.templateAttribute(m)
				prevVars := d.vars
				d.vars = map[string]*sitter.Node{}
				d.children(m)
				d.vars = prevVars
				continue
			}
			d.visit(m)
		}
	}
	d.cls = prev
}

// isModel reports whether a class with a $table property is an ORM model
// (Eloquent and look-alikes) rather than a table gateway using TABLE.
func (d *domainWalker) isModel(c *domainClass) bool {
	p := fact.Lower(c.parent)
	return strings.HasSuffix(p, `\model`) || p == "model" || strings.HasSuffix(p, "model") || strings.Contains(p, `eloquent`)
}

func namedOf(n *sitter.Node, kind string) []*sitter.Node {
	var out []*sitter.Node
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if c := n.NamedChild(i); c.Kind() == kind {
			out = append(out, c)
		}
	}
	return out
}

// literal returns the value of a constant string expression.
func (d *domainWalker) literal(e *sitter.Node) (string, bool) { return d.literalAt(e, 0) }

func (d *domainWalker) literalAt(e *sitter.Node, depth int) (string, bool) {
	if e == nil {
		return "", false
	}
	if e.Kind() == "argument" {
		e = argValueNode(e)
		if e == nil {
			return "", false
		}
	}
	parts, ok := d.template(e, depth)
	if !ok {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Hole != "" {
			return "", false
		}
		b.WriteString(p.Lit)
	}
	return b.String(), true
}

// argValueNode returns the value of an argument node (past a name).
func argValueNode(a *sitter.Node) *sitter.Node {
	for i := a.NamedChildCount(); i > 0; i-- {
		if c := a.NamedChild(i - 1); c.Kind() != "comment" && c.Kind() != "name" {
			return c
		}
	}
	return nil
}

// args returns the positional and named arguments of a call.
func (d *domainWalker) args(call *sitter.Node) (pos []*sitter.Node, named map[string]*sitter.Node) {
	named = map[string]*sitter.Node{}
	a := call.ChildByFieldName("arguments")
	if a == nil {
		return nil, named
	}
	for i := uint(0); i < a.NamedChildCount(); i++ {
		c := a.NamedChild(i)
		if c.Kind() != "argument" {
			continue
		}
		v := argValueNode(c)
		if v == nil {
			continue
		}
		if nm := c.ChildByFieldName("name"); nm != nil {
			named[d.text(nm)] = v
			continue
		}
		pos = append(pos, v)
	}
	return pos, named
}

// maxTemplateDepth bounds variable inlining.
const maxTemplateDepth = 4

// template turns a string expression into literal parts and PHP holes.
func (d *domainWalker) template(e *sitter.Node, depth int) ([]sqltext.Part, bool) {
	if depth > maxTemplateDepth {
		return []sqltext.Part{{Hole: d.text(e)}}, true
	}
	switch e.Kind() {
	case "string":
		t := d.text(e)
		if len(t) >= 2 && (t[0] == '\'' || t[0] == '"') {
			body := t[1 : len(t)-1]
			if t[0] == '\'' {
				return []sqltext.Part{{Lit: singleQuoted.Replace(body)}}, true
			}
			return []sqltext.Part{{Lit: unescape(body)}}, true
		}
		return nil, false
	case "nowdoc":
		var b strings.Builder
		for _, c := range namedOf(e, "nowdoc_body") {
			b.WriteString(d.text(c))
		}
		return []sqltext.Part{{Lit: b.String()}}, true
	case "encapsed_string", "heredoc":
		var parts []sqltext.Part
		var walk func(n *sitter.Node)
		walk = func(n *sitter.Node) {
			for i := uint(0); i < n.NamedChildCount(); i++ {
				c := n.NamedChild(i)
				switch c.Kind() {
				case "string_content", "string_value":
					parts = append(parts, sqltext.Part{Lit: d.text(c)})
				case "escape_sequence":
					parts = append(parts, sqltext.Part{Lit: unescape(d.text(c))})
				case "heredoc_body":
					walk(c)
				case "heredoc_start", "heredoc_end", "comment":
				default:
					parts = append(parts, d.hole(c, depth)...)
				}
			}
		}
		walk(e)
		return parts, true
	case "binary_expression":
		op := e.ChildByFieldName("operator")
		if op == nil || d.text(op) != "." {
			return []sqltext.Part{{Hole: d.text(e)}}, true
		}
		l, lok := d.template(e.ChildByFieldName("left"), depth)
		r, rok := d.template(e.ChildByFieldName("right"), depth)
		if !lok && !rok {
			return nil, false
		}
		if !lok {
			l = []sqltext.Part{{Hole: d.text(e.ChildByFieldName("left"))}}
		}
		if !rok {
			r = []sqltext.Part{{Hole: d.text(e.ChildByFieldName("right"))}}
		}
		return append(l, r...), true
	case "parenthesized_expression":
		if e.NamedChildCount() == 1 {
			return d.template(e.NamedChild(0), depth)
		}
	case "function_call_expression":
		if fn := e.ChildByFieldName("function"); fn != nil && strings.EqualFold(strings.TrimPrefix(d.text(fn), `\`), "sprintf") {
			return d.sprintf(e, depth)
		}
	}
	return d.hole(e, depth), e.Kind() == "variable_name" || e.Kind() == "member_access_expression" ||
		e.Kind() == "class_constant_access_expression"
}

// hole is a PHP expression inside a string: a variable holding a string
// assigned earlier in the function is inlined; a class's own table
// ($this->table, static::TABLE) becomes a prefixed inferred name.
func (d *domainWalker) hole(e *sitter.Node, depth int) []sqltext.Part {
	t := d.text(e)
	if e.Kind() == "variable_name" && depth < maxTemplateDepth {
		if v := d.vars[t]; v != nil && v.StartByte() < e.StartByte() {
			if parts, ok := d.template(v, depth+1); ok {
				return parts
			}
		}
	}
	if d.cls != nil {
		if scope, name, ok := strings.Cut(t, "::"); ok && (strings.EqualFold(scope, "self") || strings.EqualFold(scope, "static")) &&
			!strings.EqualFold(name, "TABLE") {
			if v, ok := d.cls.consts[name]; ok {
				return []sqltext.Part{{Lit: v}}
			}
		}
	}
	if d.cls != nil && d.cls.table != "" {
		switch strings.ToLower(strings.Trim(t, "{}")) {
		case "$this->table", "static::table", "self::table", "$this::table", "$this->tablename", "$this->gettable()":
			return []sqltext.Part{{Hole: "$this->prefix"}, {Lit: d.cls.table}}
		}
	}
	return []sqltext.Part{{Hole: strings.Trim(t, "{}")}}
}

// sprintf inlines the arguments of sprintf('fmt', ...) into the format.
func (d *domainWalker) sprintf(call *sitter.Node, depth int) ([]sqltext.Part, bool) {
	pos, _ := d.args(call)
	if len(pos) == 0 {
		return nil, false
	}
	f, ok := d.literalAt(pos[0], depth+1)
	if !ok {
		return nil, false
	}
	var parts []sqltext.Part
	next := 1
	var lit strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			lit.WriteByte(f[i])
			continue
		}
		j := i + 1
		if j < len(f) && f[j] == '%' {
			lit.WriteByte('%')
			i = j
			continue
		}
		argn := 0
		k := j
		for k < len(f) && f[k] >= '0' && f[k] <= '9' {
			k++
		}
		if k < len(f) && f[k] == '$' && k > j {
			argn, _ = strconv.Atoi(f[j:k])
			j = k + 1
		}
		for j < len(f) && strings.IndexByte("-+ 0'.0123456789", f[j]) >= 0 {
			if f[j] == '\'' {
				j++
			}
			j++
		}
		if j >= len(f) {
			lit.WriteString(f[i:])
			break
		}
		verb := f[j]
		idx := argn
		if idx == 0 {
			idx = next
			next++
		}
		if lit.Len() > 0 {
			parts = append(parts, sqltext.Part{Lit: lit.String()})
			lit.Reset()
		}
		switch verb {
		case 's':
			if idx < len(pos) {
				if p, ok := d.template(pos[idx], depth+1); ok {
					parts = append(parts, p...)
				} else {
					parts = append(parts, sqltext.Part{Hole: d.text(pos[idx])})
				}
			} else {
				parts = append(parts, sqltext.Part{Hole: "$arg" + strconv.Itoa(idx)})
			}
		default:
			parts = append(parts, sqltext.Part{Lit: "0"})
		}
		i = j
	}
	if lit.Len() > 0 {
		parts = append(parts, sqltext.Part{Lit: lit.String()})
	}
	return parts, true
}

// doubleQuoted decodes the escapes of a double-quoted PHP string that matter
// to SQL. Replacers are built once: building one costs more than using it.
var doubleQuoted = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\r`, "\r", `\\`, `\`, `\$`, `$`, `\"`, `"`, `\'`, `\'`)

// unescape decodes the escapes of a double-quoted PHP string that matter to SQL.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return doubleQuoted.Replace(s)
}

// sqlCandidate analyses the string expression e when it looks like SQL and
// reports whether it did.
func (d *domainWalker) sqlCandidate(e, at *sitter.Node) bool {
	parts, ok := d.template(e, 0)
	if !ok || len(parts) == 0 {
		return false
	}
	var probe strings.Builder
	for _, p := range parts {
		if p.Hole != "" {
			if probe.Len() == 0 {
				return false // a statement built from a leading expression is not ours to read
			}
			probe.WriteString(" h ")
			continue
		}
		probe.WriteString(p.Lit)
	}
	if !sqltext.LooksLikeSQL(probe.String()) {
		return false
	}
	d.analyze(parts, at, "")
	return true
}

// analyze parses one SQL template found at node at and emits its facts.
// via names the API that carried it ("addSql"), or "".
func (d *domainWalker) analyze(parts []sqltext.Part, at *sitter.Node, via string) {
	if d.dql(parts, at) {
		return
	}
	ln := line(at.StartPosition())
	from := d.enclosing(ln)
	q, err := sqltext.Analyze(sqltext.Template{Parts: parts, Path: d.path, Line: ln}, sqltext.Options{TablePrefixes: []string{"wp_"}})
	if err != nil && q.Op != "ddl" {
		// a schema file holds many CREATE TABLE statements in one string
		d.ddl(parts, at, via)
	}
	if err != nil {
		reason := err.Error()
		if pe, ok := err.(*sqltext.ParseError); ok {
			reason = pe.Reason
		}
		d.ref(fact.RefSQLProblem, from, at, "", map[string]string{"reason": reason, "text": clip(q.Text, 200)})
		return
	}
	if q.Op == "ddl" {
		d.ddl(parts, at, via)
	}
	for _, u := range q.Tables {
		d.ref(fact.RefSQLTable, from, at, u.Table, map[string]string{
			"op": u.Op, "columns": strings.Join(u.Columns, ","), "inferred": strconv.FormatBool(u.Inferred), "stmt_op": q.Op,
		})
	}
	for _, x := range q.DynamicTables {
		d.ref(fact.RefSQLDynamic, from, at, x, map[string]string{"stmt_op": q.Op})
	}
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// ddl reads CREATE/ALTER TABLE statements held in a PHP string as schema
// facts (WordPress schema.php, Doctrine addSql).
func (d *domainWalker) ddl(parts []sqltext.Part, at *sitter.Node, via string) {
	var b strings.Builder
	for _, p := range parts {
		if p.Hole != "" {
			b.WriteString("{" + p.Hole + "}")
			continue
		}
		b.WriteString(p.Lit)
	}
	text := b.String()
	up := strings.ToUpper(text)
	if !strings.Contains(up, "CREATE TABLE") && !strings.Contains(up, "ALTER TABLE") {
		return
	}
	s, _ := sqlschema.ParseStatement(d.path, line(at.StartPosition()), text)
	source := "php_string"
	if via == "addSql" {
		source = "doctrine_migration"
	}
	d.schema(s, source)
}

// schema adds the tables of s as nodes below the file.
func (d *domainWalker) schema(s sqlschema.Schema, source string) {
	for i := range s.Tables {
		s.Tables[i].Source = source
		s.Tables[i].Name = stripPrefix(s.Tables[i].Name)
	}
	nodes, edges := s.Facts()
	for _, n := range nodes {
		if d.seen[n.ID] > 0 {
			continue // one file defining a table twice keeps the first
		}
		d.seen[n.ID]++
		if n.Parent == "" {
			n.Parent = d.fileID
			d.edges = append(d.edges, fact.Edge{
				ID: fact.EdgeID(fact.Contains, d.fileID, n.ID, n.Path, n.StartLine), Kind: fact.Contains,
				From: d.fileID, To: n.ID, Provenance: fact.Stated, Confidence: 1,
				EvidencePath: n.Path, EvidenceLine: n.StartLine, Sources: []string{SQLSource},
			})
		}
		n.Lang = Lang
		d.nodes = append(d.nodes, n)
	}
	d.edges = append(d.edges, edges...)
}

func stripPrefix(t string) string {
	if after, ok := strings.CutPrefix(t, "wp_"); ok && after != "" {
		return after
	}
	return t
}
