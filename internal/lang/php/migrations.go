// This file reads schema builders in PHP migrations: Laravel
// Schema::create/table blueprints and Phinx table()->addColumn() chains.
// sql.go turns the result into table and column nodes; CREATE TABLE strings
// and Doctrine addSql go through sql.go directly.

package php

import (
	"strconv"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/extract/sqlschema"
)

// blueprintTypes maps Laravel column methods to SQL types; "" means the
// method declares no column (an index, a modifier).
var blueprintTypes = map[string]string{
	"id": "bigint unsigned", "bigincrements": "bigint unsigned", "increments": "int unsigned",
	"mediumincrements": "mediumint unsigned", "smallincrements": "smallint unsigned", "tinyincrements": "tinyint unsigned",
	"string": "varchar", "char": "char", "text": "text", "mediumtext": "mediumtext", "longtext": "longtext", "tinytext": "tinytext",
	"integer": "int", "biginteger": "bigint", "mediuminteger": "mediumint", "smallinteger": "smallint", "tinyinteger": "tinyint",
	"unsignedinteger": "int unsigned", "unsignedbiginteger": "bigint unsigned", "unsignedsmallinteger": "smallint unsigned",
	"unsignedtinyinteger": "tinyint unsigned", "unsignedmediuminteger": "mediumint unsigned",
	"boolean": "tinyint(1)", "decimal": "decimal", "float": "float", "double": "double",
	"date": "date", "datetime": "datetime", "datetimetz": "datetime", "timestamp": "timestamp", "timestamptz": "timestamp",
	"time": "time", "year": "year", "json": "json", "jsonb": "json", "uuid": "char(36)", "ulid": "char(26)",
	"binary": "blob", "enum": "enum", "set": "set", "ipaddress": "varchar(45)", "macaddress": "varchar(17)",
	"foreignid": "bigint unsigned", "foreignuuid": "char(36)",
}

// blueprint reads Schema::create('t', function (Blueprint $table) {...}).
func (d *domainWalker) blueprint(n *sitter.Node, method string, pos []*sitter.Node) bool {
	name, ok := d.literal(pos[0])
	if !ok {
		return false
	}
	fn := pos[len(pos)-1]
	if fn.Kind() != "anonymous_function" && fn.Kind() != "arrow_function" {
		return false
	}
	param := ""
	if ps := fn.ChildByFieldName("parameters"); ps != nil && ps.NamedChildCount() > 0 {
		if pn := ps.NamedChild(0).ChildByFieldName("name"); pn != nil {
			param = d.text(pn)
		}
	}
	if param == "" {
		return false
	}
	t := sqlschema.Table{Name: name, Path: d.path, Line: line(n.StartPosition()), EndLine: endLine(n)}
	body := fn.ChildByFieldName("body")
	if body == nil {
		return false
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		st := body.NamedChild(i)
		if st.Kind() != "expression_statement" || st.NamedChildCount() == 0 {
			continue
		}
		d.blueprintStatement(&t, st.NamedChild(0), param)
	}
	t.Partial = method == "table"
	s := sqlschema.Schema{Tables: []sqlschema.Table{t}}
	before := len(d.nodes)
	d.schema(s, "laravel_migration")
	if method == "table" {
		for i := before; i < len(d.nodes); i++ {
			d.nodes[i].Props["partial"] = "true"
		}
	}
	d.visit(body) // SQL and queries inside the closure
	return true
}

// chain flattens $t->a(..)->b(..) into [a, b] calls from the receiver out,
// and returns the receiver text.
func (d *domainWalker) chain(e *sitter.Node) (string, []*sitter.Node) {
	var calls []*sitter.Node
	for e != nil && e.Kind() == "member_call_expression" {
		calls = append([]*sitter.Node{e}, calls...)
		e = e.ChildByFieldName("object")
	}
	if e == nil {
		return "", calls
	}
	return d.text(e), calls
}

func (d *domainWalker) callName(c *sitter.Node) string {
	if nm := c.ChildByFieldName("name"); nm != nil {
		return strings.ToLower(d.text(nm))
	}
	return ""
}

func (d *domainWalker) blueprintStatement(t *sqlschema.Table, e *sitter.Node, param string) {
	recv, calls := d.chain(e)
	if recv != param || len(calls) == 0 {
		return
	}
	first := calls[0]
	m := d.callName(first)
	args, _ := d.args(first)
	ln := line(first.StartPosition())
	col := func(name, typ string, nullable bool, key string) *sqlschema.Column {
		t.Columns = append(t.Columns, sqlschema.Column{Name: name, Type: typ, Nullable: nullable, Key: key, Line: ln})
		return &t.Columns[len(t.Columns)-1]
	}
	switch m {
	case "timestamps", "timestampstz", "nullabletimestamps":
		col("created_at", "timestamp", true, "")
		col("updated_at", "timestamp", true, "")
		return
	case "softdeletes", "softdeletestz":
		col("deleted_at", "timestamp", true, "")
		return
	case "remembertoken":
		col("remember_token", "varchar(100)", true, "")
		return
	case "morphs", "nullablemorphs":
		if len(args) > 0 {
			if n, ok := d.literal(args[0]); ok {
				col(n+"_id", "bigint unsigned", m == "nullablemorphs", "")
				col(n+"_type", "varchar(255)", m == "nullablemorphs", "")
			}
		}
		return
	case "dropcolumn":
		for _, a := range args {
			if a.Kind() == "array_creation_expression" {
				for _, el := range namedOf(a, "array_element_initializer") {
					if cn, ok := d.literal(el.NamedChild(el.NamedChildCount() - 1)); ok {
						t.Dropped = append(t.Dropped, sqlschema.Dropped{Column: cn, Line: ln})
					}
				}
			} else if cn, ok := d.literal(a); ok {
				t.Dropped = append(t.Dropped, sqlschema.Dropped{Column: cn, Line: ln})
			}
		}
		return
	}
	typ, ok := blueprintTypes[m]
	if !ok {
		return
	}
	name := "id"
	if len(args) > 0 {
		n, ok := d.literal(args[0])
		if !ok {
			return
		}
		name = n
	} else if m != "id" && m != "bigincrements" && m != "increments" {
		return
	}
	switch m {
	case "string", "char":
		l := "255"
		if len(args) > 1 {
			l = d.text(args[1])
		}
		typ += "(" + l + ")"
	case "decimal":
		p, s := "8", "2"
		if len(args) > 1 {
			p = d.text(args[1])
		}
		if len(args) > 2 {
			s = d.text(args[2])
		}
		typ += "(" + p + "," + s + ")"
	}
	key := ""
	if m == "id" || strings.HasSuffix(m, "increments") {
		key = "PRI"
	}
	c := col(name, typ, false, key)
	for _, mod := range calls[1:] {
		margs, _ := d.args(mod)
		switch d.callName(mod) {
		case "nullable":
			c.Nullable = true
		case "default":
			if len(margs) > 0 {
				v := d.text(margs[0])
				if s, ok := d.literal(margs[0]); ok {
					v = s
				}
				c.Default = &v
			}
		case "unique":
			c.Key = "UNI"
		case "primary":
			c.Key = "PRI"
		case "index":
			if c.Key == "" {
				c.Key = "MUL"
			}
		case "unsigned":
			c.Type += " unsigned"
		case "constrained":
			ref := strings.TrimSuffix(name, "_id") + "s"
			if len(margs) > 0 {
				if s, ok := d.literal(margs[0]); ok {
					ref = s
				}
			}
			t.ForeignKeys = append(t.ForeignKeys, sqlschema.ForeignKey{Columns: []string{name}, RefTable: ref, RefColumns: []string{"id"}, Line: ln})
			if c.Key == "" {
				c.Key = "MUL"
			}
		case "on":
			if len(margs) > 0 {
				if s, ok := d.literal(margs[0]); ok {
					t.ForeignKeys = append(t.ForeignKeys, sqlschema.ForeignKey{Columns: []string{name}, RefTable: s, RefColumns: []string{"id"}, Line: ln})
				}
			}
		}
	}
}

// isMigration reports whether the walk is inside a migration class.
func (d *domainWalker) isMigration() bool {
	if d.cls != nil && strings.HasSuffix(strings.ToLower(d.cls.parent), "migration") {
		return true
	}
	return strings.Contains(strings.ToLower(d.path), "migration")
}

// phinx reads $this->table('t')->addColumn(...)->create() chains, and
// `$t = $this->table('t'); $t->addColumn(...)` in the same method.
func (d *domainWalker) phinx(n *sitter.Node, pos []*sitter.Node) bool {
	name, ok := d.literal(pos[0])
	if !ok {
		return false
	}
	t := sqlschema.Table{Name: name, Path: d.path, Line: line(n.StartPosition()), EndLine: endLine(n)}
	d.tableCalls(n, func(c *sitter.Node) {
		if d.callName(c) != "addcolumn" {
			return
		}
		args, _ := d.args(c)
		if len(args) < 2 {
			return
		}
		cn, ok1 := d.literal(args[0])
		typ, ok2 := d.literal(args[1])
		if !ok1 || !ok2 {
			return
		}
		col := sqlschema.Column{Name: cn, Type: strings.ToLower(typ), Line: line(c.StartPosition())}
		if len(args) > 2 && args[2].Kind() == "array_creation_expression" {
			for _, el := range namedOf(args[2], "array_element_initializer") {
				if el.NamedChildCount() != 2 {
					continue
				}
				k, _ := d.literal(el.NamedChild(0))
				v := d.text(el.NamedChild(1))
				switch k {
				case "null":
					col.Nullable = strings.EqualFold(v, "true")
				case "limit":
					if _, err := strconv.Atoi(v); err == nil {
						col.Type += "(" + v + ")"
					}
				case "default":
					if s, ok := d.literal(el.NamedChild(1)); ok {
						v = s
					}
					col.Default = &v
				}
			}
		}
		t.Columns = append(t.Columns, col)
	})
	if len(t.Columns) == 0 {
		return false
	}
	t.Columns = append([]sqlschema.Column{{Name: "id", Type: "int", Key: "PRI", Line: t.Line}}, t.Columns...)
	d.schema(sqlschema.Schema{Tables: []sqlschema.Table{t}}, "phinx_migration")
	return false
}

// tableCalls calls add for each method called on the table object n
// returns: the calls chained on n, and when n is assigned to a variable,
// the chains on that variable later in the same function.
func (d *domainWalker) tableCalls(n *sitter.Node, add func(c *sitter.Node)) {
	for p := n.Parent(); p != nil && p.Kind() == "member_call_expression"; p = p.Parent() {
		add(p)
	}
	p := n.Parent()
	if p == nil || p.Kind() != "assignment_expression" {
		return
	}
	l := p.ChildByFieldName("left")
	if l == nil || l.Kind() != "variable_name" {
		return
	}
	v := d.text(l)
	var scope *sitter.Node
	for s := p.Parent(); s != nil; s = s.Parent() {
		if s.Kind() == "method_declaration" || s.Kind() == "function_definition" {
			scope = s
			break
		}
	}
	if scope == nil {
		return
	}
	reassigned := false
	scope.Descendants(func(x *sitter.Node) bool {
		if reassigned {
			return false
		}
		if x.Kind() == "assignment_expression" && x.StartByte() > p.EndByte() {
			if l := x.ChildByFieldName("left"); l != nil && d.text(l) == v {
				reassigned = true // the variable holds another table from here on
				return false
			}
		}
		if x.Kind() == "member_call_expression" && x.StartByte() > p.EndByte() {
			if recv, calls := d.chain(x); recv == v && len(calls) > 0 && calls[len(calls)-1].Id() == x.Id() {
				for _, c := range calls {
					add(c)
				}
				return false
			}
		}
		return true
	})
}

// doctrineTypes maps Doctrine DBAL type names to SQL types.
var doctrineTypes = map[string]string{
	"string": "varchar", "ascii_string": "varchar", "text": "text", "guid": "char(36)", "integer": "int",
	"smallint": "smallint", "bigint": "bigint", "boolean": "tinyint(1)", "decimal": "decimal", "float": "double",
	"date": "date", "date_immutable": "date", "datetime": "datetime", "datetime_immutable": "datetime",
	"datetimetz": "datetime", "datetimetz_immutable": "datetime", "time": "time", "time_immutable": "time",
	"json": "json", "array": "longtext", "simple_array": "longtext", "object": "longtext", "binary": "varbinary",
	"blob": "blob", "dateinterval": "varchar(255)",
}

// doctrineType maps a Doctrine type name (a literal or a Types:: constant)
// to a SQL type, with the length option applied to strings.
func doctrineType(name string, length string) string {
	n := strings.ToLower(name)
	if i := strings.LastIndex(n, "::"); i >= 0 {
		n = n[i+2:]
	}
	typ, ok := doctrineTypes[n]
	if !ok {
		return n
	}
	if typ == "varchar" || typ == "varbinary" {
		if length == "" {
			length = "255"
		}
		typ += "(" + length + ")"
	}
	return typ
}

// doctrineSchema reads Doctrine's Schema API in migrations:
// $schema->createTable('t') and $schema->getTable('t') with their
// addColumn/dropColumn/setPrimaryKey calls, chained or through a variable.
// getTable only alters a table, so its node is partial.
func (d *domainWalker) doctrineSchema(n *sitter.Node, method string, pos []*sitter.Node) bool {
	name, ok := d.literal(pos[0])
	if !ok {
		return false
	}
	t := sqlschema.Table{Name: name, Path: d.path, Line: line(n.StartPosition()), EndLine: endLine(n), Partial: method == "gettable"}
	d.tableCalls(n, func(c *sitter.Node) {
		args, _ := d.args(c)
		ln := line(c.StartPosition())
		switch d.callName(c) {
		case "addcolumn", "modifycolumn", "changecolumn":
			if len(args) < 1 {
				return
			}
			cn, ok := d.literal(args[0])
			if !ok {
				return
			}
			typName := ""
			if len(args) > 1 {
				if s, ok := d.literal(args[1]); ok {
					typName = s
				} else {
					typName = d.text(args[1])
				}
			}
			col := sqlschema.Column{Name: cn, Line: ln}
			length := ""
			if len(args) > 2 && args[2].Kind() == "array_creation_expression" {
				for _, el := range namedOf(args[2], "array_element_initializer") {
					if el.NamedChildCount() != 2 {
						continue
					}
					k, _ := d.literal(el.NamedChild(0))
					v := d.text(el.NamedChild(1))
					switch strings.ToLower(k) {
					case "notnull":
						col.Nullable = strings.EqualFold(v, "false")
					case "length":
						if _, err := strconv.Atoi(v); err == nil {
							length = v
						}
					case "default":
						if s, ok := d.literal(el.NamedChild(1)); ok {
							v = s
						}
						col.Default = &v
					case "autoincrement":
						if strings.EqualFold(v, "true") {
							col.Key = "PRI"
						}
					}
				}
			}
			if typName != "" {
				col.Type = doctrineType(typName, length)
			}
			if i := columnIndex(&t, cn); i >= 0 {
				t.Columns[i] = col
				return
			}
			t.Columns = append(t.Columns, col)
		case "dropcolumn":
			if len(args) > 0 {
				if cn, ok := d.literal(args[0]); ok {
					t.Dropped = append(t.Dropped, sqlschema.Dropped{Column: cn, Line: ln})
				}
			}
		case "setprimarykey":
			if len(args) > 0 && args[0].Kind() == "array_creation_expression" {
				for _, el := range namedOf(args[0], "array_element_initializer") {
					if cn, ok := d.literal(el.NamedChild(el.NamedChildCount() - 1)); ok {
						if i := columnIndex(&t, cn); i >= 0 {
							t.Columns[i].Key = "PRI"
						}
					}
				}
			}
		}
	})
	if t.Partial && len(t.Columns) == 0 && len(t.Dropped) == 0 {
		return false
	}
	d.schema(sqlschema.Schema{Tables: []sqlschema.Table{t}}, "doctrine_migration")
	return false
}

func columnIndex(t *sqlschema.Table, name string) int {
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, name) {
			return i
		}
	}
	return -1
}
