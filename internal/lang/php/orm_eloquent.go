// This file reads Eloquent models as a schema source ($table or the naming
// convention, $fillable, $casts) and the calls that reach an ORM table from
// application code: Eloquent static queries (Post::where), Doctrine
// repositories ($this->createQueryBuilder in an EntityRepository,
// $em->getRepository(Post::class)) and query builders (->from(Post::class)).

package php

import (
	"regexp"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/extract/sqlschema"
	"github.com/ragraf/ragraf/internal/extract/sqltext"
	"github.com/ragraf/ragraf/internal/fact"
)

// eloquentParents are the framework classes a model extends.
var eloquentParents = map[string]bool{
	`illuminate\database\eloquent\model`:                true,
	`illuminate\foundation\auth\user`:                   true,
	`illuminate\database\eloquent\relations\pivot`:      true,
	`illuminate\database\eloquent\relations\morphpivot`: true,
}

// isEloquent reports whether class c is an Eloquent model: it extends one of
// the framework's model classes, or a class named like a model in a file
// that uses Illuminate.
func (d *domainWalker) isEloquent(c *domainClass) bool {
	if eloquentParents[fact.Lower(c.parent)] {
		return true
	}
	if !d.isModel(c) {
		return false
	}
	for _, fq := range d.names.sc.classes {
		if strings.HasPrefix(fq, `Illuminate\`) {
			return true
		}
	}
	return false
}

// plural is the English plural Laravel's Str::plural gives for the usual
// words.
func plural(w string) string {
	switch w {
	case "person":
		return "people"
	case "child":
		return "children"
	case "man":
		return "men"
	case "woman":
		return "women"
	}
	switch {
	case strings.HasSuffix(w, "y") && len(w) > 1 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "z") ||
		strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh"):
		return w + "es"
	}
	return w + "s"
}

// eloquentCastTypes maps $casts values to SQL types.
var eloquentCastTypes = map[string]string{
	"int": "int", "integer": "int", "bool": "tinyint(1)", "boolean": "tinyint(1)", "float": "double",
	"double": "double", "real": "double", "string": "varchar(255)", "array": "json", "json": "json",
	"object": "json", "collection": "json", "date": "date", "datetime": "datetime", "immutable_date": "date",
	"immutable_datetime": "datetime", "timestamp": "timestamp", "encrypted": "text", "hashed": "varchar(255)",
}

// eloquentModel adds the ORM table of an Eloquent model: named by $table
// or the convention (snake plural of the class), with the columns $fillable
// and $casts name. The node is partial: a model lists only some columns.
func (d *domainWalker) eloquentModel(n, body *sitter.Node, c *domainClass) {
	if c.fq == "" || c.id == "" || body == nil {
		return
	}
	name, namedBy := c.table, ""
	if name == "" {
		name, namedBy = plural(snake(shortName(c.fq))), "convention"
	}
	t := sqlschema.Table{Name: name, Path: d.path, Line: line(n.StartPosition()), EndLine: endLine(n), Partial: true}
	add := func(col, typ string, ln int) {
		if col == "" || columnIndex(&t, col) >= 0 {
			return
		}
		t.Columns = append(t.Columns, sqlschema.Column{Name: col, Type: typ, Nullable: true, Line: ln})
	}
	arrays := func(el *sitter.Node, fn func(k, v string, ln int)) {
		for _, it := range namedOf(el, "array_element_initializer") {
			ln := line(it.StartPosition())
			if it.NamedChildCount() == 2 {
				k, ok := d.literal(it.NamedChild(0))
				v, _ := d.literal(it.NamedChild(1))
				if ok {
					fn(k, v, ln)
				}
				continue
			}
			if it.NamedChildCount() == 1 {
				if v, ok := d.literal(it.NamedChild(0)); ok {
					fn("", v, ln)
				}
			}
		}
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		m := body.NamedChild(i)
		switch m.Kind() {
		case "property_declaration":
			for _, el := range namedOf(m, "property_element") {
				nm, v := el.ChildByFieldName("name"), el.ChildByFieldName("default_value")
				if nm == nil || v == nil || v.Kind() != "array_creation_expression" {
					continue
				}
				switch d.text(nm) {
				case "$fillable":
					arrays(v, func(_, col string, ln int) { add(col, "", ln) })
				case "$casts":
					arrays(v, func(col, cast string, ln int) { add(col, eloquentCastTypes[fact.Lower(cast)], ln) })
				case "$dates":
					arrays(v, func(_, col string, ln int) { add(col, "datetime", ln) })
				}
			}
		case "method_declaration":
			// Laravel 11: protected function casts(): array { return [...]; }
			if nm := m.ChildByFieldName("name"); nm == nil || !strings.EqualFold(d.text(nm), "casts") {
				continue
			}
			m.Descendants(func(x *sitter.Node) bool {
				if x.Kind() == "return_statement" && x.NamedChildCount() > 0 && x.NamedChild(0).Kind() == "array_creation_expression" {
					arrays(x.NamedChild(0), func(col, cast string, ln int) { add(col, eloquentCastTypes[fact.Lower(cast)], ln) })
					return false
				}
				return true
			})
		}
	}
	before := len(d.nodes)
	d.schema(sqlschema.Schema{Tables: []sqlschema.Table{t}}, SourceORM)
	for i := before; i < len(d.nodes); i++ {
		if d.nodes[i].Kind == fact.Table {
			d.nodes[i].Props[PropEntity] = c.fq
			if namedBy != "" {
				d.nodes[i].Props[PropNamedBy] = namedBy
			}
		}
	}
	if c.table == "" {
		// a model with $table got its use in class()
		d.ref(fact.RefTableUse, c.id, n, name, map[string]string{"via": "model naming convention", "op": "", "inferred": "true"})
	}
}

// eloquentStatic are the static methods of a model that query its table,
// with the operation.
var eloquentStatic = map[string]string{
	"where": "select", "wherein": "select", "find": "select", "findorfail": "select", "first": "select",
	"firstorfail": "select", "all": "select", "query": "", "with": "select", "paginate": "select",
	"count": "select", "latest": "select", "oldest": "select", "orderby": "select", "pluck": "select",
	"findmany": "select", "wherehas": "select", "select": "select", "exists": "select", "firstwhere": "select",
	"create": "insert", "insert": "insert", "firstorcreate": "insert", "updateorcreate": "update",
	"firstornew": "select", "upsert": "insert", "destroy": "delete", "truncate": "delete",
}

// ormStatic emits the table use of Post::where(...) style calls. resolve
// links it when the class is a mapped model and drops it otherwise.
func (d *domainWalker) ormStatic(n *sitter.Node, cls, method string) {
	op, ok := eloquentStatic[method]
	if !ok {
		return
	}
	fq := ""
	switch fact.Lower(cls) {
	case "self", "static":
		if d.cls != nil {
			fq = d.cls.fq
		}
	case "parent":
		return
	default:
		fq = d.names.sc.class(cls)
	}
	if fq == "" {
		return
	}
	d.ref(fact.RefTableUse, d.enclosing(line(n.StartPosition())), n, EntityRefPrefix+fq, map[string]string{"via": shortName(fq) + "::" + method, "op": op, "inferred": "false"})
}

// repositoryMethods are the methods of a Doctrine repository that query its
// entity's table.
var repositoryMethods = map[string]string{
	"createquerybuilder": "select", "find": "select", "findby": "select", "findoneby": "select",
	"findall": "select", "count": "select", "matching": "select", "createnativequery": "",
}

// ormMember emits the table uses of repository and query-builder calls:
// $this->createQueryBuilder() in a repository, $em->getRepository(X::class),
// ->from(X::class), ->update(X::class), ->delete(X::class).
func (d *domainWalker) ormMember(n *sitter.Node, recv, method string, pos []*sitter.Node) {
	at := line(n.StartPosition())
	use := func(name, via, op string) {
		d.ref(fact.RefTableUse, d.enclosing(at), n, name, map[string]string{"via": via, "op": op, "inferred": "false"})
	}
	classArg := func() string {
		if len(pos) == 0 || pos[0].Kind() != "class_constant_access_expression" {
			return ""
		}
		t := d.text(pos[0])
		if !strings.HasSuffix(fact.Lower(t), "::class") {
			return ""
		}
		return d.names.sc.class(t[:len(t)-len("::class")])
	}
	switch method {
	case "getrepository":
		if fq := classArg(); fq != "" {
			use(EntityRefPrefix+fq, "getRepository", "")
		}
		return
	case "from", "update", "delete":
		if fq := classArg(); fq != "" {
			op := method
			if op == "from" {
				op = "select"
			}
			use(EntityRefPrefix+fq, "->"+method+"("+shortName(fq)+"::class)", op)
		}
		return
	}
	if recv != "$this" || d.cls == nil || !d.isRepository(d.cls) {
		return
	}
	if op, ok := repositoryMethods[method]; ok {
		use(RepositoryRefPrefix+d.cls.fq, "$this->"+method, op)
	}
}

// isRepository reports whether c is a Doctrine repository.
func (d *domainWalker) isRepository(c *domainClass) bool {
	p := fact.Lower(shortName(c.parent))
	return p == "serviceentityrepository" || p == "entityrepository"
}

// repositoryEntity reads parent::__construct($registry, X::class) in a
// repository's constructor: the entity it serves, recorded as a table use
// of the class so resolve can name its table for the repository.
func (d *domainWalker) repositoryEntity(n, body *sitter.Node, c *domainClass) {
	if body == nil || c.id == "" || !d.isRepository(c) {
		return
	}
	body.Descendants(func(x *sitter.Node) bool {
		if x.Kind() != "scoped_call_expression" {
			return true
		}
		s, nm := x.ChildByFieldName("scope"), x.ChildByFieldName("name")
		if s == nil || nm == nil || !strings.EqualFold(d.text(s), "parent") || !strings.EqualFold(d.text(nm), "__construct") {
			return true
		}
		pos, _ := d.args(x)
		for _, a := range pos {
			t := d.text(a)
			if a.Kind() == "class_constant_access_expression" && strings.HasSuffix(fact.Lower(t), "::class") {
				fq := d.names.sc.class(t[:len(t)-len("::class")])
				d.ref(fact.RefTableUse, c.id, x, EntityRefPrefix+fq, map[string]string{"via": "repository of " + shortName(fq), "op": "", "inferred": "false", "repository": c.fq})
				return false
			}
		}
		return true
	})
}

// dqlEntity finds the entity classes a DQL statement names after FROM, JOIN
// or UPDATE ("SELECT p FROM App\Entity\Post p").
var dqlEntity = regexp.MustCompile(`(?i)\b(FROM|JOIN|UPDATE)\s+\\?([A-Za-z_]\w*(?:\\[A-Za-z_]\w*)+)`)

// dql reads a DQL statement: each entity it names is a table use that
// resolve turns into the entity's table. It reports whether parts were DQL.
func (d *domainWalker) dql(parts []sqltext.Part, at *sitter.Node) bool {
	var b strings.Builder
	for _, p := range parts {
		if p.Hole != "" {
			b.WriteString(" ? ")
			continue
		}
		b.WriteString(p.Lit)
	}
	text := b.String()
	ms := dqlEntity.FindAllStringSubmatch(text, -1)
	if len(ms) == 0 {
		return false
	}
	op := "select"
	switch fs := strings.Fields(text); {
	case len(fs) == 0:
	case strings.EqualFold(fs[0], "update"):
		op = "update"
	case strings.EqualFold(fs[0], "delete"):
		op = "delete"
	}
	from := d.enclosing(line(at.StartPosition()))
	for _, m := range ms {
		d.ref(fact.RefTableUse, from, at, EntityRefPrefix+m[2], map[string]string{"via": "DQL", "op": op, "inferred": "false"})
	}
	return true
}
