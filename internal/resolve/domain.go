// This file links the application's domain across files: SQL strings and
// query builders to table nodes (queries, references_table), entry points to
// their handlers (handles), and documentation mentions to symbols, files and
// tables (documented_by). The PHP side lives in lang/php sql.go and
// routes.go; docs mentions come from extract/docs.

package resolve

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/extract/docs"
	"github.com/ragraf/ragraf/internal/extract/sqlschema"
	"github.com/ragraf/ragraf/internal/fact"
)

// DomainSource names this linker in edge provenance.
const DomainSource = "domain-resolve"

// Meta keys written by Domain.
const (
	// MetaSQLProblems holds SQLProblems as JSON.
	MetaSQLProblems = "sql_problems"
	// MetaSchemaConflicts holds the tables and columns whose sources disagree (JSON list of SchemaConflict).
	MetaSchemaConflicts = "schema_conflicts"
)

// DomainInput is every node, the domain references and the documentation
// mentions of a build.
type DomainInput struct {
	Nodes    []fact.Node
	Refs     []fact.Ref
	Mentions []MentionAt
	// TablePrefixes are stripped before table names are compared ("wp_").
	TablePrefixes []string
}

// MentionAt is a documentation mention with the path of its document.
type MentionAt struct {
	Path string
	docs.Mention
}

// SQLProblems counts the SQL strings that could not be read.
type SQLProblems struct {
	Parsed      int              `json:"parsed"`      // SQL strings analysed
	Unparseable int              `json:"unparseable"` // strings that look like SQL but do not parse
	Dynamic     int              `json:"dynamic"`     // table names that are PHP expressions
	Examples    []SQLProblemSite `json:"examples"`
}

// SQLProblemSite is one unparseable SQL string.
type SQLProblemSite struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
	Text   string `json:"text"`
}

// SchemaConflict is a table or column defined differently by two sources.
type SchemaConflict struct {
	Table   string   `json:"table"`
	Column  string   `json:"column,omitempty"`
	What    string   `json:"what"` // "type", "nullable", "missing_column"
	Sources []string `json:"sources"`
	Values  []string `json:"values"`
	Paths   []string `json:"paths"`
}

// maxProblemExamples bounds the examples kept in status.
const maxProblemExamples = 10

// Domain links in.Refs and in.Mentions to in.Nodes.
func Domain(ctx context.Context, in DomainInput) (Output, error) {
	l := newDomainLinker(in)
	var probs SQLProblems
	stmts := map[string]bool{}
	for i := range in.Refs {
		if i%4096 == 0 && ctx.Err() != nil {
			return Output{}, ctx.Err()
		}
		ref := &in.Refs[i]
		switch ref.Kind {
		case fact.RefSQLTable:
			stmts[ref.Path+":"+strconv.Itoa(ref.Line)+":"+strconv.Itoa(ref.Col)] = true
			l.table(ref, fact.Queries)
		case fact.RefTableUse:
			l.table(ref, fact.ReferencesTable)
		case fact.RefSQLProblem:
			probs.Unparseable++
			probs.Examples = append(probs.Examples, SQLProblemSite{Path: ref.Path, Line: ref.Line, Reason: ref.Props["reason"], Text: ref.Props["text"]})
		case fact.RefSQLDynamic:
			probs.Dynamic++
			if ref.Props["stmt_op"] != "" {
				stmts[ref.Path+":"+strconv.Itoa(ref.Line)+":"+strconv.Itoa(ref.Col)] = true
			}
		case fact.RefHandles:
			l.handles(ref)
		case fact.RefHookFire:
			l.fire(ref)
		case fact.RefTemplate, fact.RefRouteName, fact.RefTemplateFunc, fact.RefComponent:
			l.tpl.link(ref)
		}
	}
	l.deriveTables()
	l.repositoryEdges()
	for i := range in.Mentions {
		l.mention(&in.Mentions[i])
	}
	l.mergeAlterations()
	probs.Parsed = len(stmts)
	sort.Slice(probs.Examples, func(i, j int) bool {
		a, b := probs.Examples[i], probs.Examples[j]
		return a.Path < b.Path || a.Path == b.Path && a.Line < b.Line
	})
	if len(probs.Examples) > maxProblemExamples {
		probs.Examples = probs.Examples[:maxProblemExamples]
	}
	if probs.Examples == nil {
		probs.Examples = []SQLProblemSite{}
	}
	b, err := json.Marshal(probs)
	if err != nil {
		return Output{}, err
	}
	c, err := json.Marshal(l.conflicts())
	if err != nil {
		return Output{}, err
	}
	l.out.Meta = map[string]string{MetaSQLProblems: string(b), MetaSchemaConflicts: string(c), MetaTemplates: l.tpl.meta()}
	sort.Slice(l.out.Unresolved, func(i, j int) bool { return l.out.Unresolved[i].ID < l.out.Unresolved[j].ID })
	return l.out, ctx.Err()
}

type domainLinker struct {
	in     DomainInput
	nodes  []fact.Node
	tables map[string][]int // table key -> node indexes
	colsOf map[string][]int // table node id -> column node indexes
	// merged is the column set of a table node once the SQL files that alter
	// it are applied (mergeAlterations); absent for tables no file alters.
	merged   map[string][]int
	byQName  map[string][]int // kind NUL lower qname -> node indexes
	bySuffix map[string][]int // kind NUL lower short name -> node indexes (classes and functions)
	methods  map[string][]int // lower method name -> method node indexes
	files    map[string]int   // path -> file node index
	handlers map[string][]*fact.Ref
	hooks    map[string][]*fact.Ref
	commands map[string][]int // cli_command name -> node indexes
	// supers maps a lower-case class name to its parents and traits
	// (lower-case), for handlers a class inherits
	supers  map[string][]string
	out     Output
	applied map[string]bool // partial table node ids applied onto a table another file creates
	// typeOf maps a column renamed without a definition (RENAME COLUMN) to
	// the column it renames, whose type it keeps
	typeOf map[int]int
	// missing holds, per table key no schema source declares, the table
	// references naming it and their edge kinds (deriveTables)
	missing map[string][]missingUse
	// entities and repos map a mapped class and a repository (lower-case)
	// to its table key; repoAt are the ORM table nodes naming a repository
	// (orm.go)
	entities, repos map[string]string
	repoAt          []int
	tpl             templateLinker // templates.go
}

// missingUse is a reference to a table no schema source declares.
type missingUse struct {
	ref  *fact.Ref
	kind fact.EdgeKind
}

func newDomainLinker(in DomainInput) *domainLinker {
	l := &domainLinker{in: in, nodes: slices.Clip(in.Nodes), tables: map[string][]int{}, colsOf: map[string][]int{},
		byQName: map[string][]int{}, bySuffix: map[string][]int{}, methods: map[string][]int{},
		files: map[string]int{}, handlers: map[string][]*fact.Ref{}, hooks: map[string][]*fact.Ref{},
		commands: map[string][]int{}, supers: map[string][]string{}}
	l.merged, l.applied, l.typeOf = map[string][]int{}, map[string]bool{}, map[int]int{}
	l.missing = map[string][]missingUse{}
	l.tpl.l = l
	for i := range in.Nodes {
		n := &in.Nodes[i]
		switch n.Kind {
		case fact.Table:
			k := l.tableKey(n.Name)
			l.tables[k] = append(l.tables[k], i)
		case fact.Column:
			l.colsOf[n.Parent] = append(l.colsOf[n.Parent], i)
		case fact.File:
			l.files[n.Path] = i
		case fact.CLICommand:
			l.commands[n.QName] = append(l.commands[n.QName], i)
		case fact.Method:
			if _, m, ok := strings.Cut(n.QName, "::"); ok {
				l.methods[fact.Lower(m)] = append(l.methods[fact.Lower(m)], i)
			}
		}
		if n.Kind.IsType() || n.Kind == fact.Function || n.Kind == fact.Method || n.Kind == fact.Constant || n.Kind == fact.Property {
			k := string(symKind(n.Kind)) + "\x00" + fact.Lower(n.QName)
			l.byQName[k] = append(l.byQName[k], i)
			short := n.QName
			if j := strings.LastIndexByte(short, '\\'); j >= 0 {
				short = short[j+1:]
			}
			sk := string(symKind(n.Kind)) + "\x00" + fact.Lower(short)
			l.bySuffix[sk] = append(l.bySuffix[sk], i)
		}
	}
	classOf := map[string]string{}
	for i := range in.Nodes {
		if n := &in.Nodes[i]; n.Kind.IsType() {
			classOf[n.ID] = fact.Lower(n.QName)
		}
	}
	for i := range in.Refs {
		r := &in.Refs[i]
		switch r.Kind {
		case fact.RefExtends, fact.RefUsesTrait:
			if c, ok := classOf[r.From]; ok {
				l.supers[c] = append(l.supers[c], fact.Lower(strings.TrimPrefix(r.Name, `\`)))
			}
		case fact.RefHandles:
			l.handlers[r.From] = append(l.handlers[r.From], r)
		case fact.RefHookCallback:
			l.hooks[r.Name] = append(l.hooks[r.Name], r)
		}
	}
	l.ormMaps()
	return l
}

// symKind folds the class-like kinds into one lookup kind.
func symKind(k fact.NodeKind) fact.NodeKind {
	if k.IsType() {
		return fact.Class
	}
	return k
}

// tableKey is a table name with a known prefix stripped, lower-cased.
func (l *domainLinker) tableKey(name string) string {
	n := strings.ToLower(strings.Trim(name, "`\""))
	for _, p := range l.in.TablePrefixes {
		if p = strings.ToLower(p); p != "" && strings.HasPrefix(n, p) && len(n) > len(p) {
			return n[len(p):]
		}
	}
	return n
}

func (l *domainLinker) edge(kind fact.EdgeKind, from, to string, ref *fact.Ref, prov fact.Provenance, conf float64, props map[string]string) {
	if from == "" || to == "" {
		return
	}
	l.out.Edges = append(l.out.Edges, fact.Edge{
		ID: fact.EdgeID(kind, from, to, ref.Path, ref.Line), Kind: kind, From: from, To: to,
		Provenance: prov, Confidence: conf, EvidencePath: ref.Path, EvidenceLine: ref.Line,
		Sources: []string{DomainSource}, Props: props,
	})
}

func (l *domainLinker) unresolved(ref *fact.Ref, name, reason string) {
	l.out.Unresolved = append(l.out.Unresolved, fact.Unresolved{
		ID:   "u" + fact.Hash(string(ref.Kind), ref.From, name, ref.Path, strconv.Itoa(ref.Line), strconv.Itoa(ref.Col)),
		Kind: ref.Kind, Name: name, From: ref.From, Path: ref.Path, Line: ref.Line, Reason: reason,
	})
}

// inferredConfidence is the confidence of a table link whose name came from
// a PHP expression ($wpdb->posts, $this->prefix . 'x', a class's TABLE).
const inferredConfidence = 0.9

// table links a SQL or builder reference to every table node of that name.
func (l *domainLinker) table(ref *fact.Ref, kind fact.EdgeKind) {
	if l.ormTable(ref, kind) {
		return
	}
	ids := l.tables[l.tableKey(ref.Name)]
	if len(ids) == 0 {
		if k := l.tableKey(ref.Name); validTableName(k) {
			l.missing[k] = append(l.missing[k], missingUse{ref, kind})
			return
		}
		l.unresolved(ref, ref.Name, "table not in any schema source")
		return
	}
	prov, conf := fact.Stated, 1.0
	if ref.Props["inferred"] == "true" {
		prov, conf = fact.Derived, inferredConfidence
	}
	props := map[string]string{"table": l.tableKey(ref.Name)}
	if op := ref.Props["op"]; op != "" {
		props["op"] = op
	}
	if c := ref.Props["columns"]; c != "" {
		props["columns"] = c
	}
	if v := ref.Props["via"]; v != "" {
		props["via"] = v
	}
	for _, i := range ids {
		l.edge(kind, ref.From, l.nodes[i].ID, ref, prov, conf, props)
	}
}

// Confidences of handler links that are not proven.
const (
	pShortClass   = 0.8 // unqualified class name matched by its short name, one candidate
	pMethodByName = 0.5 // [$obj, 'm'] with an unknown object, one method of that name
)

// handles links an entry point to its handler.
func (l *domainLinker) handles(ref *fact.Ref) {
	name := ref.Name
	switch {
	case strings.HasPrefix(name, "hook:"):
		hook := name[len("hook:"):]
		n := 0
		for _, cb := range l.hooks[hook] {
			if h := cb.Props["handler"]; h != "" {
				sub := *ref
				sub.Name = h
				n += l.handler(&sub, map[string]string{"via": "hook " + hook})
			}
		}
		if n == 0 {
			l.unresolved(ref, name, "no callback registered for the hook")
		}
		return
	case strings.HasPrefix(name, "command:"):
		cmd := name[len("command:"):]
		n := 0
		for _, i := range l.commands[cmd] {
			l.edge(fact.Handles, ref.From, l.nodes[i].ID, ref, fact.Stated, 1, map[string]string{"via": "command"})
			n++
			for _, h := range l.handlers[l.nodes[i].ID] {
				sub := *ref
				sub.Name, sub.Props = h.Name, h.Props
				l.handler(&sub, map[string]string{"via": "command " + cmd})
			}
		}
		if n == 0 {
			l.unresolved(ref, name, "command not found")
		}
		return
	}
	if l.handler(ref, nil) == 0 {
		l.unresolved(ref, name, "handler not found")
	}
}

// handler links ref.From to the symbol ref.Name names and returns how many
// edges it added.
func (l *domainLinker) handler(ref *fact.Ref, props map[string]string) int {
	return l.link(fact.Handles, ref, props, 0)
}

// Confidence of a call through a WordPress hook: the callback runs when the
// hook fires, unless something removes it first.
const pHookCall = 0.9

// maxHookCallbacks bounds the calls one firing of a hook adds.
const maxHookCallbacks = 200

// fire links the function that fires a WordPress hook (do_action,
// apply_filters) to every callback add_action/add_filter registers for it.
func (l *domainLinker) fire(ref *fact.Ref) {
	cbs := l.hooks[ref.Name]
	if len(cbs) > maxHookCallbacks {
		cbs = cbs[:maxHookCallbacks]
	}
	for _, cb := range cbs {
		h := cb.Props["handler"]
		if h == "" {
			continue
		}
		sub := *ref
		sub.Name, sub.Props = h, nil
		l.link(fact.Calls, &sub, map[string]string{"via": "hook " + ref.Name, "registered_at": cb.Path + ":" + strconv.Itoa(cb.Line)}, pHookCall)
	}
}

// link adds edges of kind from ref.From to the symbol ref.Name names; with
// capConf > 0 every edge is derived with at most that confidence.
func (l *domainLinker) link(kind fact.EdgeKind, ref *fact.Ref, props map[string]string, capConf float64) int {
	name := strings.TrimPrefix(ref.Name, `\`)
	short := ref.Props["short"] == "true"
	if role := ref.Props["role"]; role != "" {
		p := map[string]string{"role": role}
		for k, v := range props {
			p[k] = v
		}
		props = p
	}
	add := func(ids []int, prov fact.Provenance, conf float64) int {
		if capConf > 0 {
			prov, conf = fact.Derived, min(conf, capConf)
		}
		for _, i := range ids {
			l.edge(kind, ref.From, l.nodes[i].ID, ref, prov, conf, props)
		}
		return len(ids)
	}
	if cls, m, ok := strings.Cut(name, "::"); ok {
		if cls == "?" {
			if ids := l.methods[fact.Lower(m)]; len(ids) == 1 {
				return add(ids, fact.Derived, pMethodByName)
			}
			return 0
		}
		if ids := l.method(cls, m); len(ids) > 0 {
			prov, conf := fact.Stated, 1.0
			if short {
				prov, conf = fact.Derived, pShortClass
			}
			return add(ids, prov, conf)
		}
		short := cls
		if j := strings.LastIndexByte(short, '\\'); j >= 0 {
			short = short[j+1:]
		}
		if cands := l.bySuffix[string(fact.Class)+"\x00"+fact.Lower(short)]; len(cands) == 1 {
			if ids := l.method(l.nodes[cands[0]].QName, m); len(ids) > 0 {
				return add(ids, fact.Derived, pShortClass)
			}
		}
		return 0
	}
	if ids := l.byQName[string(fact.Function)+"\x00"+fact.Lower(name)]; len(ids) > 0 {
		return add(ids, fact.Stated, 1)
	}
	if ids := l.byQName[string(fact.Class)+"\x00"+fact.Lower(name)]; len(ids) > 0 {
		// an invokable or command class: its entry method when it has one
		for _, m := range []string{"__invoke", "handle", "execute", "__construct"} {
			if mids := l.method(name, m); len(mids) > 0 {
				return add(mids, fact.Stated, 1)
			}
		}
		return add(ids, fact.Stated, 1)
	}
	return 0
}

// maxSuperDepth bounds the walk up a class hierarchy (cycles included).
const maxSuperDepth = 16

// method finds method m of class cls, declared there or in the nearest
// parent or trait that declares it.
func (l *domainLinker) method(cls, m string) []int {
	seen := map[string]bool{}
	level := []string{fact.Lower(cls)}
	for depth := 0; depth < maxSuperDepth && len(level) > 0; depth++ {
		var next []string
		for _, c := range level {
			if seen[c] {
				continue
			}
			seen[c] = true
			if ids := l.byQName[string(fact.Method)+"\x00"+c+"::"+fact.Lower(m)]; len(ids) > 0 {
				return ids
			}
			next = append(next, l.supers[c]...)
		}
		level = next
	}
	return nil
}

// Confidence of a documented_by edge found by a short name.
const pDocShort = 0.8

// mention links one documentation mention; the edge goes from the thing
// documented to the section.
func (l *domainLinker) mention(m *MentionAt) {
	ref := &fact.Ref{Kind: "doc_mention", From: m.SectionID, Path: m.Path, Line: m.Line, Name: m.Text}
	props := map[string]string{"text": m.Text}
	link := func(ids []int, prov fact.Provenance, conf float64) {
		for _, i := range ids {
			l.edge(fact.DocumentedBy, l.nodes[i].ID, m.SectionID, ref, prov, conf, props)
		}
	}
	switch m.Kind {
	case "path":
		p := strings.TrimPrefix(strings.TrimPrefix(m.Text, "./"), "/")
		if i, ok := l.files[p]; ok {
			link([]int{i}, fact.Stated, 1)
			return
		}
		var cands []int
		for fp, i := range l.files {
			if strings.HasSuffix(fp, "/"+p) {
				cands = append(cands, i)
			}
		}
		if len(cands) == 1 {
			link(cands, fact.Derived, pDocShort)
		}
	case "table":
		link(l.tables[l.tableKey(m.Text)], fact.Stated, 1)
	case "symbol":
		t := strings.TrimSuffix(strings.TrimPrefix(m.Text, `\`), "()")
		t = strings.Replace(t, "->", "::", 1)
		if cls, mem, ok := strings.Cut(t, "::"); ok {
			mem = strings.TrimPrefix(mem, "$")
			for _, k := range []fact.NodeKind{fact.Method, fact.Property, fact.Constant} {
				if ids := l.byQName[string(k)+"\x00"+fact.Lower(cls+"::"+mem)]; len(ids) > 0 {
					link(ids, fact.Stated, 1)
					return
				}
			}
			short := cls
			if j := strings.LastIndexByte(short, '\\'); j >= 0 {
				short = short[j+1:]
			}
			if cands := l.bySuffix[string(fact.Class)+"\x00"+fact.Lower(short)]; len(cands) == 1 {
				q := l.nodes[cands[0]].QName + "::" + mem
				for _, k := range []fact.NodeKind{fact.Method, fact.Property, fact.Constant} {
					if ids := l.byQName[string(k)+"\x00"+fact.Lower(q)]; len(ids) > 0 {
						link(ids, fact.Derived, pDocShort)
						return
					}
				}
			}
			return
		}
		for _, k := range []fact.NodeKind{fact.Class, fact.Function} {
			if ids := l.byQName[string(k)+"\x00"+fact.Lower(t)]; len(ids) > 0 {
				link(ids, fact.Stated, 1)
				return
			}
		}
		if strings.Contains(t, `\`) {
			return
		}
		for _, k := range []fact.NodeKind{fact.Class, fact.Function} {
			if ids := l.bySuffix[string(k)+"\x00"+fact.Lower(t)]; len(ids) == 1 {
				link(ids, fact.Derived, pDocShort)
				return
			}
		}
		if ids := l.tables[l.tableKey(t)]; len(ids) > 0 {
			link(ids, fact.Derived, pDocShort)
		}
	}
}

// mergeAlterations applies the SQL files that only alter a table (partial
// sql_file tables: ALTER TABLE of a table created in another file) onto each
// SQL file that creates it, alteration files in path order (dated migration
// names sort in the order they run; a migrations directory may sort before
// the schema file, so the order is among the alterations only). A column an
// alteration adds or changes gets a contains edge from the created table,
// with the column's own line as evidence and via=alter; a column it drops,
// or whose definition it replaces, gets one with op=drop at that line, and a
// column it renames one with op=rename and to=<new name>. merged
// keeps the resulting
// column set for conflicts.
func (l *domainLinker) mergeAlterations() {
	keys := make([]string, 0, len(l.tables))
	for k := range l.tables {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var bases, alters []int
		for _, i := range l.tables[k] {
			n := &l.nodes[i]
			if !migrationSources[n.Props["source"]] {
				continue
			}
			if n.Props[sqlschema.PropPartial] == "true" {
				alters = append(alters, i)
			} else {
				bases = append(bases, i)
			}
		}
		if len(bases) == 0 || len(alters) == 0 {
			continue
		}
		sort.SliceStable(alters, func(a, b int) bool {
			na, nb := &l.nodes[alters[a]], &l.nodes[alters[b]]
			return na.Path < nb.Path || na.Path == nb.Path && na.StartLine < nb.StartLine
		})
		for _, b := range bases {
			base := l.nodes[b].ID
			cols := append([]int(nil), l.colsOf[base]...)
			find := func(name string) int {
				for j, ci := range cols {
					if strings.EqualFold(l.nodes[ci].Name, name) {
						return j
					}
				}
				return -1
			}
			for _, a := range alters {
				alt := &l.nodes[a]
				if alt.Path == l.nodes[b].Path {
					continue
				}
				l.applied[alt.ID] = true
				if alt.Props[sqlschema.PropDropsTable] == "true" {
					ref := &fact.Ref{Path: alt.Path, Line: alt.StartLine}
					l.edge(fact.Contains, base, alt.ID, ref, fact.Stated, 1, map[string]string{"via": "alter", "op": "drop_table"})
					continue
				}
				for _, d := range sqlschema.ParseDropped(alt.Props[sqlschema.PropDropped]) {
					if j := find(d.Column); j >= 0 {
						ref := &fact.Ref{Path: alt.Path, Line: d.Line}
						l.edge(fact.Contains, base, l.nodes[cols[j]].ID, ref, fact.Stated, 1, map[string]string{"via": "alter", "op": "drop"})
						cols = append(cols[:j], cols[j+1:]...)
					}
				}
				for _, ci := range l.colsOf[alt.ID] {
					c := &l.nodes[ci]
					ref := &fact.Ref{Path: c.Path, Line: c.StartLine}
					if from := c.Props[sqlschema.PropRenamedFrom]; from != "" && find(c.Name) < 0 {
						if j := find(from); j >= 0 {
							// renamed: the old column ends here, the new one takes its place
							l.edge(fact.Contains, base, l.nodes[cols[j]].ID, ref, fact.Stated, 1, map[string]string{"via": "alter", "op": "rename", "to": c.Name})
							if c.Props["type"] == "" {
								l.typeOf[ci] = cols[j]
							}
							cols[j] = ci
							l.edge(fact.Contains, base, c.ID, ref, fact.Stated, 1, map[string]string{"via": "alter"})
							continue
						}
					}
					if j := find(c.Name); j >= 0 {
						// changed (MODIFY/CHANGE): the old definition ends here
						l.edge(fact.Contains, base, l.nodes[cols[j]].ID, ref, fact.Stated, 1, map[string]string{"via": "alter", "op": "drop"})
						cols[j] = ci
					} else {
						cols = append(cols, ci)
					}
					l.edge(fact.Contains, base, c.ID, ref, fact.Stated, 1, map[string]string{"via": "alter"})
				}
			}
			l.merged[base] = cols
		}
	}
}

// migrationSources are the schema sources that run in path order, one
// creating a table and the later ones altering it.
var migrationSources = map[string]bool{
	"sql_file": true, "doctrine_migration": true, "laravel_migration": true, "phinx_migration": true,
}

// conflicts compares the definitions of each table across sources. A source
// that only alters a table (props partial) is not compared for missing
// columns.
func (l *domainLinker) conflicts() []SchemaConflict {
	out := []SchemaConflict{}
	keys := make([]string, 0, len(l.tables))
	for k := range l.tables {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ids := l.tables[k]
		if len(ids) < 2 {
			continue
		}
		// columns of each table node, with the files that alter it applied
		type col struct{ typ, null string }
		per := make([]map[string]col, len(ids))
		all := map[string]bool{}
		for j, ti := range ids {
			per[j] = map[string]col{}
			cols, ok := l.merged[l.nodes[ti].ID]
			if !ok {
				cols = l.colsOf[l.nodes[ti].ID]
			}
			for _, ci := range cols {
				c := strings.ToLower(l.nodes[ci].Name)
				def := ci // where the definition is: a renamed column keeps its old one
				if o, ok := l.typeOf[ci]; ok {
					def = o
				}
				typ := normType(l.nodes[def].Props["type"])
				if l.nodes[ti].Props["source"] == sourceORM {
					typ = "" // an ORM type is not a column type: only presence is compared
				}
				per[j][c] = col{typ, l.nodes[def].Props["nullable"]}
				all[c] = true
			}
		}
		cols := make([]string, 0, len(all))
		for c := range all {
			cols = append(cols, c)
		}
		sort.Strings(cols)
		for _, c := range cols {
			var srcs, vals, paths []string
			what := ""
			var first *col
			for j, ti := range ids {
				n := &l.nodes[ti]
				v, ok := per[j][c]
				if !ok {
					if n.Props["partial"] == "true" || l.applied[n.ID] {
						continue
					}
					srcs, vals, paths = append(srcs, n.Props["source"]), append(vals, "(absent)"), append(paths, n.Path)
					what = "missing_column"
					continue
				}
				srcs, vals, paths = append(srcs, n.Props["source"]), append(vals, v.typ), append(paths, n.Path)
				if v.typ == "" {
					continue
				}
				if first == nil {
					first = &v
				} else if first.typ != v.typ && what == "" {
					what = "type"
				}
			}
			if what != "" && len(srcs) > 1 {
				out = append(out, SchemaConflict{Table: k, Column: c, What: what, Sources: srcs, Values: vals, Paths: paths})
			}
		}
	}
	return out
}

// normType folds spellings that mean the same type across sources.
func normType(t string) string {
	t = strings.ToLower(strings.TrimSpace(t))
	for _, p := range [][2]string{{"integer", "int"}, {"character varying", "varchar"}, {"int(11)", "int"}, {"bigint(20)", "bigint"}, {"tinyint(4)", "tinyint"}} {
		t = strings.ReplaceAll(t, p[0], p[1])
	}
	return t
}
