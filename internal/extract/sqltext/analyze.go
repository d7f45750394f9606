// This file parses rewritten SQL (rewrite.go) and walks the statement to find
// the operation, the tables and their explicitly named columns.

package sqltext

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"vitess.io/vitess/go/vt/sqlparser"
)

// Options configures the analysis.
type Options struct {
	// TablePrefixes are stripped from literal table names (e.g. "wp_").
	TablePrefixes []string
}

// Query is one analysed SQL statement.
type Query struct {
	Op     string // select, insert, update, delete, replace, ddl
	Tables []TableUse
	// DynamicTables are PHP expressions that name a table whose name is not
	// known statically (e.g. "$table"); no TableUse is invented for them.
	DynamicTables []string
	Path          string
	Line          int
	Text          string // the rewritten SQL that was parsed
}

// TableUse is one table touched by a query with one operation.
type TableUse struct {
	Table    string   // schema-level name, known prefix stripped
	Op       string   // select, insert, update, delete, replace, ddl
	Columns  []string // named explicitly, sorted; SELECT * gives none
	Inferred bool     // the name came from a PHP hole ($wpdb->posts, $wpdb->prefix . 'x')
}

// ParseError reports SQL that could not be analysed; nothing is guessed.
type ParseError struct {
	Path   string
	Line   int
	Reason string
	Text   string // the rewritten SQL
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d: unparseable SQL: %s", e.Path, e.Line, e.Reason)
}

var parser = sync.OnceValue(func() *sqlparser.Parser {
	p, err := sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		panic("internal error: sqlparser options: " + err.Error())
	}
	return p
})

// Analyze rewrites t to SQL, parses it and reports its tables.
func Analyze(t Template, opts Options) (Query, error) {
	text, holes := rewrite(t)
	return analyze(text, holes, t.Path, t.Line, opts)
}

// AnalyzeSQL analyses plain SQL text (placeholders allowed).
func AnalyzeSQL(sql string, opts Options) (Query, error) {
	return Analyze(Template{Parts: []Part{{Lit: sql}}}, opts)
}

func analyze(text string, holes []string, path string, line int, opts Options) (Query, error) {
	q := Query{Path: path, Line: line, Text: strings.ReplaceAll(text, inferredMark, "")}
	fail := func(reason string) (Query, error) {
		return q, &ParseError{Path: path, Line: line, Reason: reason, Text: q.Text}
	}
	trimmed := strings.TrimSpace(text)
	trimmed = strings.TrimSuffix(trimmed, ";")
	if trimmed == "" {
		return fail("empty statement")
	}
	stmt, err := parser().ParseStrictDDL(trimmed)
	if err != nil {
		return fail(err.Error())
	}
	a := &walker{opts: opts, holes: holes, uses: map[useKey]*TableUse{}}
	switch s := stmt.(type) {
	case *sqlparser.Select, *sqlparser.Union:
		q.Op = "select"
		a.tableStmt(s.(sqlparser.TableStatement), nil, "select")
	case *sqlparser.Insert:
		q.Op = "insert"
		if s.Action == sqlparser.ReplaceAct {
			q.Op = "replace"
		}
		a.insert(s, q.Op)
	case *sqlparser.Update:
		q.Op = "update"
		a.update(s)
	case *sqlparser.Delete:
		q.Op = "delete"
		a.delete(s)
	case sqlparser.DDLStatement:
		q.Op = "ddl"
		a.ddl(s)
	default:
		return fail(fmt.Sprintf("unsupported statement %T", stmt))
	}
	q.Tables, q.DynamicTables = a.result()
	return q, nil
}

type useKey struct{ table, op string }

// tref is a table visible in one query scope.
type tref struct {
	name    string // alias or table name as written
	use     *TableUse
	virtual bool // derived table or CTE: its columns belong to no schema table
}

type scope struct {
	parent  *scope
	tables  []tref
	ctes    map[string]bool
	aliases map[string]bool // select-list aliases
}

func (s *scope) isCTE(name string) bool {
	for ; s != nil; s = s.parent {
		if s.ctes[strings.ToLower(name)] {
			return true
		}
	}
	return false
}

type walker struct {
	opts    Options
	holes   []string
	uses    map[useKey]*TableUse
	dynamic []string
}

// table registers a table reference and returns its use (nil when dynamic).
func (a *walker) table(tn sqlparser.TableName, op string) *TableUse {
	name := tn.Name.String()
	if name == "" || tn.Qualifier.IsEmpty() && strings.EqualFold(name, "dual") {
		return nil
	}
	if i := strings.Index(name, holeMark); i >= 0 {
		rest := name[i+len(holeMark):]
		if j := strings.IndexByte(rest, '_'); j > 0 {
			if n, err := strconv.Atoi(rest[:j]); err == nil && n >= 1 && n <= len(a.holes) {
				a.dynamic = append(a.dynamic, a.holes[n-1])
				return nil
			}
		}
		a.dynamic = append(a.dynamic, name)
		return nil
	}
	inferred := false
	if after, ok := strings.CutPrefix(name, inferredMark); ok {
		name, inferred = after, true
		if name == "" {
			return nil
		}
	} else {
		for _, p := range a.opts.TablePrefixes {
			if len(name) > len(p) && strings.EqualFold(name[:len(p)], p) {
				name = name[len(p):]
				break
			}
		}
	}
	k := useKey{name, op}
	u := a.uses[k]
	if u == nil {
		u = &TableUse{Table: name, Op: op}
		a.uses[k] = u
	}
	u.Inferred = u.Inferred || inferred
	return u
}

func (a *walker) result() ([]TableUse, []string) {
	out := make([]TableUse, 0, len(a.uses))
	for _, u := range a.uses {
		sort.Strings(u.Columns)
		u.Columns = slices.Compact(u.Columns)
		out = append(out, *u)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Table != out[j].Table {
			return out[i].Table < out[j].Table
		}
		return out[i].Op < out[j].Op
	})
	sort.Strings(a.dynamic)
	return out, slices.Compact(a.dynamic)
}

// from adds the tables of a FROM list to sc with operation op.
func (a *walker) from(exprs []sqlparser.TableExpr, sc *scope, op string) {
	for _, te := range exprs {
		switch t := te.(type) {
		case *sqlparser.AliasedTableExpr:
			switch e := t.Expr.(type) {
			case sqlparser.TableName:
				if sc.isCTE(e.Name.String()) && e.Qualifier.IsEmpty() {
					sc.tables = append(sc.tables, tref{name: aliasOr(t, e), virtual: true})
					continue
				}
				sc.tables = append(sc.tables, tref{name: aliasOr(t, e), use: a.table(e, op)})
			case *sqlparser.DerivedTable:
				a.tableStmt(e.Select, sc.parent, "select")
				sc.tables = append(sc.tables, tref{name: t.As.String(), virtual: true})
			}
		case *sqlparser.JoinTableExpr:
			a.from([]sqlparser.TableExpr{t.LeftExpr, t.RightExpr}, sc, op)
		case *sqlparser.ParenTableExpr:
			a.from(t.Exprs, sc, op)
		}
	}
}

func aliasOr(t *sqlparser.AliasedTableExpr, e sqlparser.TableName) string {
	if !t.As.IsEmpty() {
		return t.As.String()
	}
	return e.Name.String()
}

// column attributes a column reference to the table it names, if provable.
func (a *walker) column(sc *scope, c *sqlparser.ColName) {
	name := c.Name.String()
	if strings.Contains(name, holeMark) || name == "" {
		return
	}
	var r *tref
	if q := c.Qualifier.Name.String(); q != "" {
		r = lookup(sc, q)
	} else {
		if sc.aliases[strings.ToLower(name)] || len(sc.tables) != 1 {
			return
		}
		r = &sc.tables[0]
	}
	if r == nil || r.virtual || r.use == nil {
		return
	}
	r.use.Columns = append(r.use.Columns, name)
}

func lookup(sc *scope, q string) *tref {
	for s := sc; s != nil; s = s.parent {
		for i := range s.tables {
			if s.tables[i].name == q {
				return &s.tables[i]
			}
		}
	}
	return nil
}

// with registers CTE names and analyses their bodies.
func (a *walker) with(w *sqlparser.With, sc *scope) {
	if w == nil {
		return
	}
	if sc.ctes == nil {
		sc.ctes = map[string]bool{}
	}
	for _, cte := range w.CTEs {
		sc.ctes[strings.ToLower(cte.ID.String())] = true
	}
	for _, cte := range w.CTEs {
		a.tableStmt(cte.Subquery, sc, "select")
	}
}

// exprs walks expressions in scope sc: columns are attributed, subqueries get
// their own scope.
func (a *walker) exprs(sc *scope, nodes ...sqlparser.SQLNode) {
	for _, n := range nodes {
		if n == nil {
			continue
		}
		_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
			switch x := node.(type) {
			case *sqlparser.Subquery:
				a.tableStmt(x.Select, sc, "select")
				return false, nil
			case *sqlparser.DerivedTable:
				return false, nil
			case *sqlparser.ColName:
				a.column(sc, x)
				return false, nil
			}
			return true, nil
		}, n)
	}
}

// tableStmt analyses a SELECT or UNION whose enclosing scope is outer.
func (a *walker) tableStmt(ts sqlparser.TableStatement, outer *scope, op string) {
	switch s := ts.(type) {
	case *sqlparser.Select:
		sc := &scope{parent: outer, aliases: map[string]bool{}}
		a.with(s.With, sc)
		a.from(s.From, sc, op)
		if s.SelectExprs != nil {
			for _, se := range s.SelectExprs.Exprs {
				if ae, ok := se.(*sqlparser.AliasedExpr); ok && !ae.As.IsEmpty() {
					sc.aliases[ae.As.Lowered()] = true
				}
			}
			a.exprs(sc, s.SelectExprs)
		}
		for _, te := range s.From {
			a.joinConds(sc, te)
		}
		a.exprs(sc, s.Where, s.GroupBy, s.Having, s.OrderBy)
	case *sqlparser.Union:
		sc := &scope{parent: outer}
		a.with(s.With, sc)
		a.tableStmt(s.Left, sc, op)
		a.tableStmt(s.Right, sc, op)
	case *sqlparser.ValuesStatement:
		a.exprs(outer, s)
	}
}

func (a *walker) joinConds(sc *scope, te sqlparser.TableExpr) {
	switch t := te.(type) {
	case *sqlparser.JoinTableExpr:
		a.joinConds(sc, t.LeftExpr)
		a.joinConds(sc, t.RightExpr)
		if t.Condition != nil {
			a.exprs(sc, t.Condition.On)
			for _, c := range t.Condition.Using {
				for i := range sc.tables {
					if u := sc.tables[i].use; u != nil && !sc.tables[i].virtual {
						u.Columns = append(u.Columns, c.String())
					}
				}
			}
		}
	case *sqlparser.ParenTableExpr:
		for _, e := range t.Exprs {
			a.joinConds(sc, e)
		}
	}
}

func (a *walker) insert(s *sqlparser.Insert, op string) {
	sc := &scope{}
	tn, err := s.Table.TableName()
	if err != nil {
		return
	}
	u := a.table(tn, op)
	sc.tables = append(sc.tables, tref{name: aliasOr(s.Table, tn), use: u})
	if u != nil {
		for _, c := range s.Columns {
			if !strings.Contains(c.String(), holeMark) {
				u.Columns = append(u.Columns, c.String())
			}
		}
	}
	switch rows := s.Rows.(type) {
	case sqlparser.TableStatement:
		a.tableStmt(rows, nil, "select")
	case sqlparser.Values:
		a.exprs(&scope{}, rows) // only subqueries matter here
	}
	for _, ue := range s.OnDup {
		a.column(sc, ue.Name)
		a.exprs(sc, ue.Expr)
	}
}

// writeTargets splits a multi-table UPDATE/DELETE: tables written get op, the
// others are read.
func (a *walker) update(s *sqlparser.Update) {
	sc := &scope{}
	a.with(s.With, sc)
	probe := &scope{ctes: sc.ctes}
	a.fromProbe(s.TableExprs, probe)
	written := map[string]bool{}
	for _, ue := range s.Exprs {
		if q := ue.Name.Qualifier.Name.String(); q != "" {
			written[q] = true
		}
	}
	a.fromSplit(s.TableExprs, sc, "update", written, len(probe.tables) == 1)
	for _, ue := range s.Exprs {
		a.column(sc, ue.Name)
		a.exprs(sc, ue.Expr)
	}
	for _, te := range s.TableExprs {
		a.joinConds(sc, te)
	}
	a.exprs(sc, s.Where, s.OrderBy)
}

func (a *walker) delete(s *sqlparser.Delete) {
	sc := &scope{}
	a.with(s.With, sc)
	written := map[string]bool{}
	for _, t := range s.Targets {
		written[t.Name.String()] = true
	}
	probe := &scope{ctes: sc.ctes}
	a.fromProbe(s.TableExprs, probe)
	a.fromSplit(s.TableExprs, sc, "delete", written, len(s.Targets) == 0 && len(probe.tables) == 1)
	for _, te := range s.TableExprs {
		a.joinConds(sc, te)
	}
	a.exprs(sc, s.Where, s.OrderBy)
}

// fromProbe counts the table references without registering uses.
func (a *walker) fromProbe(exprs []sqlparser.TableExpr, sc *scope) {
	for _, te := range exprs {
		switch t := te.(type) {
		case *sqlparser.AliasedTableExpr:
			sc.tables = append(sc.tables, tref{})
		case *sqlparser.JoinTableExpr:
			a.fromProbe([]sqlparser.TableExpr{t.LeftExpr, t.RightExpr}, sc)
		case *sqlparser.ParenTableExpr:
			a.fromProbe(t.Exprs, sc)
		}
	}
}

// fromSplit is from() for UPDATE/DELETE: a table gets op when it is the only
// one or is named in written (by alias or name); otherwise it is read.
func (a *walker) fromSplit(exprs []sqlparser.TableExpr, sc *scope, op string, written map[string]bool, single bool) {
	for _, te := range exprs {
		switch t := te.(type) {
		case *sqlparser.AliasedTableExpr:
			switch e := t.Expr.(type) {
			case sqlparser.TableName:
				name := aliasOr(t, e)
				if sc.isCTE(e.Name.String()) {
					sc.tables = append(sc.tables, tref{name: name, virtual: true})
					continue
				}
				o := "select"
				if single || written[name] {
					o = op
				}
				sc.tables = append(sc.tables, tref{name: name, use: a.table(e, o)})
			case *sqlparser.DerivedTable:
				a.tableStmt(e.Select, nil, "select")
				sc.tables = append(sc.tables, tref{name: t.As.String(), virtual: true})
			}
		case *sqlparser.JoinTableExpr:
			a.fromSplit([]sqlparser.TableExpr{t.LeftExpr, t.RightExpr}, sc, op, written, single)
		case *sqlparser.ParenTableExpr:
			a.fromSplit(t.Exprs, sc, op, written, single)
		}
	}
}

func (a *walker) ddl(s sqlparser.DDLStatement) {
	switch d := s.(type) {
	case *sqlparser.CreateTable:
		u := a.table(d.Table, "ddl")
		if u != nil && d.TableSpec != nil {
			for _, c := range d.TableSpec.Columns {
				u.Columns = append(u.Columns, c.Name.String())
			}
		}
		if d.Select != nil {
			a.tableStmt(d.Select, nil, "select")
		}
		return
	case *sqlparser.AlterTable:
		u := a.table(d.Table, "ddl")
		if u == nil {
			return
		}
		for _, opt := range d.AlterOptions {
			switch o := opt.(type) {
			case *sqlparser.AddColumns:
				for _, c := range o.Columns {
					u.Columns = append(u.Columns, c.Name.String())
				}
			case *sqlparser.DropColumn:
				u.Columns = append(u.Columns, o.Name.Name.String())
			case *sqlparser.ModifyColumn:
				u.Columns = append(u.Columns, o.NewColDefinition.Name.String())
			case *sqlparser.ChangeColumn:
				u.Columns = append(u.Columns, o.OldColumn.Name.String(), o.NewColDefinition.Name.String())
			}
		}
		return
	}
	for _, tn := range s.AffectedTables() {
		a.table(tn, "ddl")
	}
}
