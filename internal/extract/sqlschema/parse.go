// This file splits SQL text into statements and applies the DDL ones to a
// schema in file order; schema.go defines the types.

package sqlschema

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"vitess.io/vitess/go/vt/sqlparser"
)

// Options configures parsing.
type Options struct {
	// Source tags every table; "sql_file" when empty.
	Source string
	// TablePrefixes are stripped from table names (e.g. "wp_"), so a dump's
	// wp_posts and schema.php's $wpdb->posts both give posts.
	TablePrefixes []string
}

var parser = sync.OnceValue(func() *sqlparser.Parser {
	p, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		panic("internal error: sqlparser options: " + err.Error())
	}
	return p
})

// Parse reads the tables that src (a *.sql dump or migration) defines.
// Data statements (INSERT, SET, LOCK, ...) and DELIMITER blocks are skipped
// without parsing, so big dumps cost one scan.
func Parse(path string, src []byte, opts Options) (Schema, []Problem) {
	if opts.Source == "" {
		opts.Source = "sql_file"
	}
	b := builder{path: path, opts: opts, tables: map[string]*Table{}}
	for _, st := range split(string(src), 1) {
		b.statement(st)
	}
	return b.schema(), b.problems
}

var (
	phpWpdbTable   = regexp.MustCompile(`\{?\$wpdb->(\w+)\}?`)
	phpCollate     = regexp.MustCompile(`(?i)\{?\$(?:\w+->)*\w*(?:charset|collate)\w*\}?`)
	phpMaxIndexLen = regexp.MustCompile(`\{?\$max_index_length\}?`)
	phpVar         = regexp.MustCompile(`\{?\$[A-Za-z_]\w*(?:->\w+)*\}?`)
)

// ParseStatement reads CREATE TABLE (and other DDL) statements held in a PHP
// string that starts at path:line. WordPress interpolations are resolved:
// $wpdb->posts and {$wpdb->prefix}x name tables, $charset_collate holds
// table options and $max_index_length is 191 (wp-admin/includes/schema.php).
// Any other PHP variable makes the statement a Problem.
func ParseStatement(path string, line int, sql string) (Schema, []Problem) {
	sql = phpCollate.ReplaceAllString(sql, "")
	sql = phpMaxIndexLen.ReplaceAllString(sql, "191")
	sql = phpWpdbTable.ReplaceAllStringFunc(sql, func(m string) string {
		prop := phpWpdbTable.FindStringSubmatch(m)[1]
		if prop == "prefix" || prop == "base_prefix" {
			return ""
		}
		return prop
	})
	b := builder{path: path, opts: Options{Source: "php_string"}, tables: map[string]*Table{}}
	for _, st := range split(sql, line) {
		if v := phpVar.FindString(st.text); v != "" {
			b.problem(st.line, fmt.Sprintf("PHP expression %s in SQL", v))
			continue
		}
		b.statement(st)
	}
	return b.schema(), b.problems
}

type stmt struct {
	text    string
	line    int // line of the first non-blank character
	endLine int
}

// split cuts text into statements at ';' outside quotes and comments.
// DELIMITER blocks (stored routines) are dropped.
func split(text string, firstLine int) []stmt {
	var out []stmt
	line := firstLine
	start, startLine := -1, 0
	delim := ";"
	emit := func(end int) {
		if start >= 0 {
			out = append(out, stmt{text: text[start:end], line: startLine, endLine: line})
		}
		start = -1
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' {
			line++
			continue
		}
		if start < 0 {
			if c == ' ' || c == '\t' || c == '\r' {
				continue
			}
			// DELIMITER applies to whole lines.
			if hasPrefixFold(text[i:], "DELIMITER ") {
				j := strings.IndexByte(text[i:], '\n')
				if j < 0 {
					j = len(text) - i
				}
				delim = strings.TrimSpace(text[i+len("DELIMITER ") : i+j])
				i += j - 1
				continue
			}
		}
		switch {
		case c == '-' && i+1 < len(text) && text[i+1] == '-' || c == '#':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				i = len(text)
			} else {
				i += j - 1
			}
			continue
		case c == '/' && i+1 < len(text) && text[i+1] == '*' && !(i+2 < len(text) && text[i+2] == '!'):
			j := strings.Index(text[i+2:], "*/")
			end := len(text)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			line += strings.Count(text[i:end], "\n")
			i = end - 1
			continue
		}
		if start < 0 {
			start, startLine = i, line
		}
		switch c {
		case '\'', '"', '`':
			j := i + 1
			for j < len(text) && text[j] != c {
				if text[j] == '\\' && c != '`' {
					j++
				} else if text[j] == '\n' {
					line++
				}
				j++
			}
			i = j
		default:
			if strings.HasPrefix(text[i:], delim) {
				if delim == ";" {
					emit(i)
				} else {
					start = -1 // a routine body: not schema
				}
				i += len(delim) - 1
			}
		}
	}
	emit(len(text))
	return out
}

func hasPrefixFold(s, p string) bool {
	return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p)
}

// skipWords start statements that carry no schema.
var skipWords = map[string]bool{
	"INSERT": true, "REPLACE": true, "SET": true, "LOCK": true, "UNLOCK": true, "USE": true,
	"START": true, "BEGIN": true, "COMMIT": true, "ROLLBACK": true, "SELECT": true, "UPDATE": true,
	"DELETE": true, "GRANT": true, "FLUSH": true, "/*!": true,
}

type builder struct {
	path     string
	opts     Options
	tables   map[string]*Table
	order    []string
	problems []Problem
}

func (b *builder) problem(line int, msg string) {
	b.problems = append(b.problems, Problem{Path: b.path, Line: line, Msg: msg})
}

func (b *builder) schema() Schema {
	var s Schema
	for _, name := range b.order {
		if t := b.tables[name]; t != nil {
			s.Tables = append(s.Tables, *t)
		}
	}
	s.sort()
	return s
}

func firstWord(s string) string {
	if strings.HasPrefix(s, "/*!") {
		return "/*!"
	}
	i := 0
	for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z') {
		i++
	}
	return strings.ToUpper(s[:i])
}

func (b *builder) statement(st stmt) {
	w := firstWord(st.text)
	if skipWords[w] {
		return
	}
	switch w {
	case "CREATE", "ALTER", "DROP", "RENAME":
	default:
		return
	}
	up := strings.ToUpper(st.text[:min(len(st.text), 60)])
	if w == "CREATE" && !strings.Contains(up, "TABLE") && !strings.Contains(up, "INDEX") {
		return // views, triggers, databases
	}
	if w == "DROP" && !strings.Contains(up, "TABLE") {
		return
	}
	s, err := parser().ParseStrictDDL(st.text)
	if err != nil {
		b.problem(st.line, "unparseable statement: "+err.Error())
		return
	}
	switch d := s.(type) {
	case *sqlparser.CreateTable:
		b.create(d, st)
	case *sqlparser.AlterTable:
		b.alter(d, st)
	case *sqlparser.DropTable:
		for _, tn := range d.FromTables {
			name := b.name(tn)
			if t := b.tables[name]; t != nil && !t.Partial {
				b.tables[name] = nil
				continue
			}
			// a table created in another file: this file records that it drops it
			b.put(&Table{Name: name, Source: b.opts.Source, Path: b.path, Line: st.line, EndLine: st.endLine, Partial: true, DropsTable: true})
		}
	case *sqlparser.RenameTable:
		for _, p := range d.TablePairs {
			from, to := b.name(p.FromTable), b.name(p.ToTable)
			if t := b.tables[from]; t != nil {
				b.tables[from] = nil
				t.Name = to
				b.put(t)
			}
		}
	}
}

func (b *builder) name(tn sqlparser.TableName) string {
	name := tn.Name.String()
	for _, p := range b.opts.TablePrefixes {
		if len(name) > len(p) && strings.EqualFold(name[:len(p)], p) {
			return name[len(p):]
		}
	}
	return name
}

func (b *builder) put(t *Table) {
	if _, seen := b.tables[t.Name]; !seen {
		b.order = append(b.order, t.Name)
	}
	b.tables[t.Name] = t
}

func (b *builder) create(d *sqlparser.CreateTable, st stmt) {
	t := &Table{Name: b.name(d.Table), Source: b.opts.Source, Path: b.path, Line: st.line, EndLine: st.endLine}
	if d.TableSpec == nil {
		if d.OptLike != nil {
			if src := b.tables[b.name(d.OptLike.LikeTable)]; src != nil {
				cp := *src
				cp.Name, cp.Path, cp.Line, cp.EndLine, cp.Source = t.Name, t.Path, t.Line, t.EndLine, t.Source
				b.put(&cp)
				return
			}
		}
		b.problem(st.line, "CREATE TABLE without column definitions")
		return
	}
	lines := lineIndex(st)
	for _, cd := range d.TableSpec.Columns {
		b.addColumn(t, cd, lines)
	}
	for _, id := range d.TableSpec.Indexes {
		b.addIndex(t, id, lines.find(id.Info.Name.String()))
	}
	for _, cons := range d.TableSpec.Constraints {
		b.addConstraint(t, cons, lines)
	}
	b.put(t)
}

func (b *builder) alter(d *sqlparser.AlterTable, st stmt) {
	name := b.name(d.Table)
	t := b.tables[name]
	if t == nil {
		// a table created in another file: this file records its changes
		t = &Table{Name: name, Source: b.opts.Source, Path: b.path, Line: st.line, EndLine: st.endLine, Partial: true}
		b.put(t)
	}
	if t.Partial {
		t.EndLine = max(t.EndLine, st.endLine)
	}
	lines := lineIndex(st)
	for _, opt := range d.AlterOptions {
		switch o := opt.(type) {
		case *sqlparser.AddColumns:
			for _, cd := range o.Columns {
				b.addColumn(t, cd, lines)
			}
		case *sqlparser.DropColumn:
			col := o.Name.Name.String()
			if t.Partial && t.Column(col) == nil {
				t.Dropped = append(t.Dropped, Dropped{Column: col, Line: lines.find(col)})
			}
			t.dropColumn(col)
		case *sqlparser.ModifyColumn:
			b.replaceColumn(t, o.NewColDefinition.Name.String(), o.NewColDefinition, lines)
		case *sqlparser.ChangeColumn:
			old, name := o.OldColumn.Name.String(), o.NewColDefinition.Name.String()
			elsewhere := t.Partial && t.Column(old) == nil && !strings.EqualFold(old, name)
			b.replaceColumn(t, old, o.NewColDefinition, lines)
			if c := t.Column(name); elsewhere && c != nil {
				c.RenamedFrom = old
			}
		case *sqlparser.RenameColumn:
			old, name := o.OldName.Name.String(), o.NewName.Name.String()
			if c := t.Column(old); c != nil {
				c.Name = name
			} else if t.Partial {
				// a column of the table's own file: the link step applies it
				t.Columns = append(t.Columns, Column{Name: name, Nullable: true, Line: lines.find(name), RenamedFrom: old})
			}
		case *sqlparser.AddIndexDefinition:
			b.addIndex(t, o.IndexDefinition, lines.find(o.IndexDefinition.Info.Name.String()))
		case *sqlparser.AddConstraintDefinition:
			b.addConstraint(t, o.ConstraintDefinition, lines)
		case *sqlparser.DropKey:
			t.dropIndex(o.Name.String(), o.Type == sqlparser.PrimaryKeyType)
		case *sqlparser.RenameTableName:
			b.tables[name] = nil
			t.Name = b.name(o.Table)
			b.put(t)
		}
	}
}

func (t *Table) dropColumn(name string) {
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, name) {
			t.Columns = append(t.Columns[:i], t.Columns[i+1:]...)
			break
		}
	}
	for i := 0; i < len(t.Indexes); i++ {
		t.Indexes[i].Columns = remove(t.Indexes[i].Columns, name)
		if len(t.Indexes[i].Columns) == 0 {
			t.Indexes = append(t.Indexes[:i], t.Indexes[i+1:]...)
			i--
		}
	}
	t.RecomputeKeys()
}

func (t *Table) dropIndex(name string, primary bool) {
	for i := range t.Indexes {
		if primary && t.Indexes[i].Primary || !primary && strings.EqualFold(t.Indexes[i].Name, name) {
			t.Indexes = append(t.Indexes[:i], t.Indexes[i+1:]...)
			break
		}
	}
	t.RecomputeKeys()
}

func remove(ss []string, s string) []string {
	out := ss[:0]
	for _, x := range ss {
		if !strings.EqualFold(x, s) {
			out = append(out, x)
		}
	}
	return out
}

func (b *builder) replaceColumn(t *Table, old string, cd *sqlparser.ColumnDefinition, lines lineIdx) {
	c := column(cd, lines)
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, old) {
			t.Columns[i] = c
			for j := range t.Indexes {
				for k, ic := range t.Indexes[j].Columns {
					if strings.EqualFold(ic, old) {
						t.Indexes[j].Columns[k] = c.Name
					}
				}
			}
			b.inlineKey(t, cd, c.Line)
			t.RecomputeKeys()
			return
		}
	}
	b.addColumn(t, cd, lines)
}

func column(cd *sqlparser.ColumnDefinition, lines lineIdx) Column {
	c := Column{Name: cd.Name.String(), Type: typeString(cd.Type), Nullable: true, Line: lines.find(cd.Name.String())}
	if o := cd.Type.Options; o != nil {
		if o.Null != nil {
			c.Nullable = *o.Null
		}
		if o.Default != nil {
			v := defaultString(o.Default)
			c.Default = &v
		}
	}
	return c
}

func (b *builder) addColumn(t *Table, cd *sqlparser.ColumnDefinition, lines lineIdx) {
	c := column(cd, lines)
	t.Columns = append(t.Columns, c)
	b.inlineKey(t, cd, c.Line)
	t.RecomputeKeys()
}

// inlineKey records PRIMARY KEY / UNIQUE / REFERENCES written on the column.
func (b *builder) inlineKey(t *Table, cd *sqlparser.ColumnDefinition, line int) {
	o := cd.Type.Options
	if o == nil {
		return
	}
	name := cd.Name.String()
	switch o.KeyOpt {
	case sqlparser.ColKeyPrimary:
		t.Indexes = append(t.Indexes, Index{Name: "PRIMARY", Columns: []string{name}, Primary: true, Unique: true, Line: line})
	case sqlparser.ColKeyUnique, sqlparser.ColKeyUniqueKey:
		t.Indexes = append(t.Indexes, Index{Name: name, Columns: []string{name}, Unique: true, Line: line})
	case sqlparser.ColKey:
		t.Indexes = append(t.Indexes, Index{Name: name, Columns: []string{name}, Line: line})
	}
	if o.Reference != nil {
		t.ForeignKeys = append(t.ForeignKeys, b.foreignKey("", []string{name}, o.Reference, line))
	}
	if o.Null == nil && o.KeyOpt == sqlparser.ColKeyPrimary {
		if c := t.Column(name); c != nil {
			c.Nullable = false
		}
	}
}

func (b *builder) foreignKey(name string, cols []string, ref *sqlparser.ReferenceDefinition, line int) ForeignKey {
	fk := ForeignKey{Name: name, Columns: cols, RefTable: b.name(ref.ReferencedTable), Line: line}
	for _, c := range ref.ReferencedColumns {
		fk.RefColumns = append(fk.RefColumns, c.String())
	}
	return fk
}

func (b *builder) addIndex(t *Table, id *sqlparser.IndexDefinition, line int) {
	ix := Index{Name: id.Info.Name.String(), Line: line}
	switch id.Info.Type {
	case sqlparser.IndexTypePrimary:
		ix.Primary, ix.Unique, ix.Name = true, true, "PRIMARY"
	case sqlparser.IndexTypeUnique:
		ix.Unique = true
	}
	for _, c := range id.Columns {
		if !c.Column.IsEmpty() {
			ix.Columns = append(ix.Columns, c.Column.String())
		}
	}
	if ix.Primary {
		for _, c := range ix.Columns {
			if col := t.Column(c); col != nil {
				col.Nullable = false
			}
		}
	}
	t.Indexes = append(t.Indexes, ix)
	t.RecomputeKeys()
}

func (b *builder) addConstraint(t *Table, cons *sqlparser.ConstraintDefinition, lines lineIdx) {
	fkd, ok := cons.Details.(*sqlparser.ForeignKeyDefinition)
	if !ok {
		return
	}
	var cols []string
	for _, c := range fkd.Source {
		cols = append(cols, c.String())
	}
	line := lines.find(cons.Name.String())
	if cons.Name.IsEmpty() {
		line = lines.findWord("FOREIGN")
	}
	t.ForeignKeys = append(t.ForeignKeys, b.foreignKey(cons.Name.String(), cols, fkd.ReferenceDefinition, line))
}

// RecomputeKeys sets Column.Key the way MySQL's COLUMN_KEY does: PRI for
// primary key columns, UNI for the first column of a unique index, MUL for the
// first column of a non-unique index.
func (t *Table) RecomputeKeys() {
	rank := map[string]int{"": 0, "MUL": 1, "UNI": 2, "PRI": 3}
	for i := range t.Columns {
		t.Columns[i].Key = ""
	}
	for _, ix := range t.Indexes {
		for pos, name := range ix.Columns {
			c := t.Column(name)
			if c == nil {
				continue
			}
			k := ""
			switch {
			case ix.Primary:
				k = "PRI"
			case pos > 0:
				continue
			case ix.Unique && len(ix.Columns) == 1:
				k = "UNI"
			default:
				k = "MUL"
			}
			if rank[k] > rank[c.Key] {
				c.Key = k
			}
		}
	}
}

func typeString(ct *sqlparser.ColumnType) string {
	s := strings.ToLower(ct.Type)
	switch {
	case len(ct.EnumValues) > 0:
		s += "(" + strings.Join(ct.EnumValues, ",") + ")"
	case ct.Length != nil && ct.Scale != nil:
		s += "(" + strconv.Itoa(*ct.Length) + "," + strconv.Itoa(*ct.Scale) + ")"
	case ct.Length != nil:
		s += "(" + strconv.Itoa(*ct.Length) + ")"
	}
	if ct.Unsigned {
		s += " unsigned"
	}
	if ct.Zerofill {
		s += " zerofill"
	}
	return s
}

func defaultString(e sqlparser.Expr) string {
	if l, ok := e.(*sqlparser.Literal); ok && l.Type == sqlparser.StrVal {
		return l.Val
	}
	return sqlparser.String(e)
}

// lineIdx finds the line on which a name is defined inside one statement.
type lineIdx struct {
	lines []string
	first int
}

func lineIndex(st stmt) lineIdx {
	return lineIdx{lines: strings.Split(st.text, "\n"), first: st.line}
}

// find returns the line whose first token is name (bare or quoted), else the
// first line that mentions it, else the statement's first line.
func (l lineIdx) find(name string) int {
	if name == "" {
		return l.first
	}
	for i, s := range l.lines {
		s = strings.TrimLeft(s, " \t(,")
		tok := strings.Trim(firstToken(s), "`\"")
		if strings.EqualFold(tok, name) {
			return l.first + i
		}
	}
	for i, s := range l.lines {
		if i > 0 && containsWord(s, name) {
			return l.first + i
		}
	}
	return l.first
}

func (l lineIdx) findWord(w string) int {
	for i, s := range l.lines {
		if containsWord(strings.ToUpper(s), w) {
			return l.first + i
		}
	}
	return l.first
}

func firstToken(s string) string {
	i := 0
	for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '(' {
		i++
	}
	return s[:i]
}

func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isWordChar(s[j-1])
		after := j+len(w) >= len(s) || !isWordChar(s[j+len(w)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isWordChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func normType(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}
