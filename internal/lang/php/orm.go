// This file reads the ORM as a schema source: Doctrine mappings (attributes
// and @ORM annotations: Entity, Table, Column, Id, relations and join
// tables) and Eloquent models ($table or the naming convention, $fillable,
// $casts) give table and column nodes with source orm, the class a
// references_table use of its table and each mapped property a
// references_table edge to its column. Repository and query-builder calls
// name the entity ("entity:<class>" table uses) for resolve to turn into
// the entity's table.

package php

import (
	"regexp"
	"strings"
	"unicode"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/extract/sqlschema"
	"github.com/ragraf/ragraf/internal/fact"
)

// Props of an ORM table node, read by resolve.
const (
	// SourceORM is the source of the tables and columns an ORM maps.
	SourceORM = "orm"
	// PropEntity is the mapped class of an ORM table node.
	PropEntity = "entity"
	// PropRepository is the repository class an entity names.
	PropRepository = "repository"
	// PropNamedBy is "convention" when the table name comes from the
	// ORM's naming rule rather than the mapping.
	PropNamedBy = "named_by"
	// EntityRefPrefix starts the name of a table use that names a mapped
	// class ("entity:App\Entity\Post"); RepositoryRefPrefix one that names
	// the repository it runs in.
	EntityRefPrefix     = "entity:"
	RepositoryRefPrefix = "repository:"
)

// ormTag is one Doctrine mapping attribute or annotation.
type ormTag struct {
	name string            // lower-case short name: entity, table, column, ...
	args map[string]string // named arguments, literal values; "0" for the first positional one
	line int
}

func (t ormTag) arg(k string) string { return t.args[k] }

var (
	annotationTag = regexp.MustCompile(`@(?:ORM\\|Doctrine\\ORM\\Mapping\\)(\w+)(\(([^()]*(?:\([^()]*\)[^()]*)*)\))?`)
	annotationArg = regexp.MustCompile(`(\w+)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*'|[\w\\:]+)`)
)

// ormTags returns the Doctrine mapping tags of a declaration: its
// attributes from Doctrine\ORM\Mapping and the @ORM\ annotations of its doc
// comment.
func (d *domainWalker) ormTags(n *sitter.Node) []ormTag {
	var out []ormTag
	for _, at := range d.attributes(n) {
		if !strings.HasPrefix(at.fq, `doctrine\orm\mapping\`) {
			continue
		}
		t := ormTag{name: at.fq[len(`doctrine\orm\mapping\`):], args: map[string]string{}, line: line(at.node.StartPosition())}
		for k, v := range at.named {
			t.args[fact.Lower(k)] = d.ormValue(v)
		}
		for i, v := range at.pos {
			t.args[string(rune('0'+i))] = d.ormValue(v)
		}
		out = append(out, t)
	}
	if doc := docComment(n); doc != nil {
		txt := d.text(doc)
		if strings.HasPrefix(txt, "/**") {
			start := line(doc.StartPosition())
			for _, m := range annotationTag.FindAllStringSubmatchIndex(txt, -1) {
				t := ormTag{name: fact.Lower(txt[m[2]:m[3]]), args: map[string]string{},
					line: start + strings.Count(txt[:m[0]], "\n")}
				if m[6] >= 0 {
					body := txt[m[6]:m[7]]
					for _, am := range annotationArg.FindAllStringSubmatch(body, -1) {
						v := am[2]
						if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
							v = strings.ReplaceAll(v[1:len(v)-1], `\\`, `\`)
						} else if strings.HasSuffix(fact.Lower(v), "::class") {
							v = d.names.sc.class(v[:len(v)-len("::class")])
						}
						t.args[fact.Lower(am[1])] = v
					}
					if first := strings.TrimSpace(body); first != "" && (first[0] == '"' || first[0] == '\'') {
						if e := strings.IndexByte(first[1:], first[0]); e >= 0 {
							t.args["0"] = first[1 : e+1]
						}
					}
				}
				out = append(out, t)
			}
		}
	}
	return out
}

// ormValue is the value of an attribute argument: a literal, a class name
// for X::class, else the expression as written (true, Types::STRING).
func (d *domainWalker) ormValue(v *sitter.Node) string {
	if s, ok := d.literal(v); ok {
		return s
	}
	t := d.text(v)
	if v.Kind() == "class_constant_access_expression" && strings.HasSuffix(fact.Lower(t), "::class") {
		return d.names.sc.class(t[:len(t)-len("::class")])
	}
	return t
}

func hasTag(tags []ormTag, name string) (ormTag, bool) {
	for _, t := range tags {
		if t.name == name {
			return t, true
		}
	}
	return ormTag{}, false
}

// snake turns CamelCase into snake_case, as Doctrine's underscore naming
// strategy (Symfony's default) does.
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) ||
				i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func shortName(fq string) string {
	if i := strings.LastIndexByte(fq, '\\'); i >= 0 {
		return fq[i+1:]
	}
	return fq
}

// phpColumnType is the column type Doctrine infers from a property's PHP
// type when Column names none.
func phpColumnType(t string) string {
	t = strings.TrimPrefix(fact.Lower(strings.TrimPrefix(t, "?")), `\`)
	switch t {
	case "int":
		return "int"
	case "string":
		return "varchar(255)"
	case "bool":
		return "tinyint(1)"
	case "float":
		return "double"
	case "array":
		return "json"
	}
	if strings.Contains(t, "datetime") {
		return "datetime"
	}
	return ""
}

// doctrineEntity reads a class mapped by Doctrine: its table, the columns of
// its mapped properties, the join tables of its owning many-to-many
// relations.
func (d *domainWalker) doctrineEntity(n, body *sitter.Node, c *domainClass) {
	tags := d.ormTags(n)
	ent, ok := hasTag(tags, "entity")
	if !ok || c.fq == "" || c.id == "" || body == nil {
		return
	}
	t := sqlschema.Table{Path: d.path, Line: line(n.StartPosition()), EndLine: endLine(n)}
	namedBy := ""
	if tt, ok := hasTag(tags, "table"); ok && (tt.arg("name") != "" || tt.arg("0") != "") {
		t.Name = tt.arg("name")
		if t.Name == "" {
			t.Name = tt.arg("0")
		}
	} else {
		t.Name, namedBy = snake(shortName(c.fq)), "convention"
	}
	t.Name = strings.Trim(t.Name, "`\"")
	type propCol struct {
		prop string
		col  string
	}
	var mapped []propCol
	var joins []sqlschema.Table
	for _, m := range namedOf(body, "property_declaration") {
		ptags := d.ormTags(m)
		if len(ptags) == 0 {
			continue
		}
		ptype := ""
		if ty := m.ChildByFieldName("type"); ty != nil {
			ptype = d.text(ty)
		}
		for _, el := range namedOf(m, "property_element") {
			nm := el.ChildByFieldName("name")
			if nm == nil {
				continue
			}
			prop := strings.TrimPrefix(d.text(nm), "$")
			ln := line(m.StartPosition())
			_, isID := hasTag(ptags, "id")
			if col, ok := hasTag(ptags, "column"); ok {
				cn := col.arg("name")
				if cn == "" {
					cn = snake(prop)
				}
				typ := col.arg("type")
				if typ == "" {
					typ = col.arg("0")
				}
				var sqlType string
				if typ != "" {
					sqlType = doctrineType(typ, col.arg("length"))
				} else {
					sqlType = phpColumnType(ptype)
				}
				cc := sqlschema.Column{Name: strings.Trim(cn, "`\""), Type: sqlType, Nullable: col.arg("nullable") == "true", Line: ln}
				if isID {
					cc.Key = "PRI"
				} else if col.arg("unique") == "true" {
					cc.Key = "UNI"
				}
				t.Columns = append(t.Columns, cc)
				mapped = append(mapped, propCol{prop, cc.Name})
				continue
			}
			rel := ""
			var relTag ormTag
			for _, r := range []string{"manytoone", "onetoone", "manytomany"} {
				if rt, ok := hasTag(ptags, r); ok {
					rel, relTag = r, rt
					break
				}
			}
			if rel == "" || relTag.arg("mappedby") != "" {
				continue
			}
			target := relTag.arg("targetentity")
			if target == "" {
				target = relTag.arg("0")
			}
			if target != "" && !strings.Contains(target, `\`) {
				target = d.names.sc.class(target)
			}
			if rel == "manytomany" {
				jt := snake(shortName(c.fq)) + "_" + snake(shortName(target))
				if j, ok := hasTag(ptags, "jointable"); ok && j.arg("name") != "" {
					jt = j.arg("name")
				}
				if target == "" {
					continue
				}
				own, other := snake(shortName(c.fq))+"_id", snake(shortName(target))+"_id"
				joins = append(joins, sqlschema.Table{Name: jt, Path: d.path, Line: ln, EndLine: ln, Columns: []sqlschema.Column{
					{Name: own, Type: "int", Key: "PRI", Line: ln}, {Name: other, Type: "int", Key: "PRI", Line: ln},
				}})
				continue
			}
			cn := snake(prop) + "_id"
			nullable := true
			if j, ok := hasTag(ptags, "joincolumn"); ok {
				if j.arg("name") != "" {
					cn = j.arg("name")
				}
				nullable = j.arg("nullable") != "false"
			}
			cc := sqlschema.Column{Name: cn, Type: "int", Nullable: nullable, Key: "MUL", Line: ln}
			if isID {
				cc.Key = "PRI"
			}
			t.Columns = append(t.Columns, cc)
			mapped = append(mapped, propCol{prop, cn})
		}
	}
	before := len(d.nodes)
	d.schema(sqlschema.Schema{Tables: append([]sqlschema.Table{t}, joins...)}, SourceORM)
	for i := before; i < len(d.nodes); i++ {
		if d.nodes[i].Kind == fact.Table && d.nodes[i].Name == t.Name {
			d.nodes[i].Props[PropEntity] = c.fq
			if r := ent.arg("repositoryclass"); r != "" {
				d.nodes[i].Props[PropRepository] = strings.TrimPrefix(r, `\`)
			}
			if namedBy != "" {
				d.nodes[i].Props[PropNamedBy] = namedBy
			}
		}
	}
	d.ref(fact.RefTableUse, c.id, n, t.Name, map[string]string{"via": "orm entity", "op": "", "inferred": boolString(namedBy != "")})
	d.propertyColumns(t.Name, c, func(yield func(prop, col string)) {
		for _, pc := range mapped {
			yield(pc.prop, pc.col)
		}
	})
}

// propertyColumns links each mapped property to its column node below the
// ORM table of this file.
func (d *domainWalker) propertyColumns(table string, c *domainClass, each func(func(prop, col string))) {
	each(func(prop, col string) {
		pid := ""
		for i := range d.decls {
			if n := &d.decls[i]; n.Kind == fact.Property && strings.EqualFold(n.QName, c.fq+"::$"+prop) {
				pid = n.ID
				break
			}
		}
		if pid == "" {
			return
		}
		cid := fact.NodeID(fact.Column, table+"."+col, d.path, 0)
		ln := 0
		for i := range d.nodes {
			if d.nodes[i].ID == cid {
				ln = d.nodes[i].StartLine
			}
		}
		d.edges = append(d.edges, fact.Edge{
			ID: fact.EdgeID(fact.ReferencesTable, pid, cid, d.path, ln), Kind: fact.ReferencesTable, From: pid, To: cid,
			Provenance: fact.Stated, Confidence: 1, EvidencePath: d.path, EvidenceLine: ln, Sources: []string{SQLSource},
			Props: map[string]string{"table": table, "columns": col, "via": "orm mapping"},
		})
	})
}
