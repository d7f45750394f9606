// Package tags is the front-end engine of the tree-parsed languages other
// than PHP (JavaScript, TypeScript, Python, Go, Java, C#, Ruby, Rust, C, C++,
// Bash): a tree-sitter grammar and a tags query written for ragraf give a
// file's declarations with exact ranges and containers, its doc comments as
// text chunks of their symbol, its imports and the names it calls,
// instantiates, extends and uses as references for package resolve.
//
// # Query captures
//
// A language's query (its folder's tags.scm) marks what the engine reads:
//
//	@def.KIND       a declaration node; KIND is function, method, class,
//	                interface, enum, trait, struct, module or type
//	@name           the declaration's, call's or instantiation's name
//	@receiver       a method's receiver type declared apart (Go): its container
//	@call           a call; @name the callee, @recv the receiver expression
//	@new            an instantiation; @name the class
//	@extends        a parent class or interface named in a declaration
//	@implements     an interface a class declares it implements
//	@typeref        a type named in a signature or an expression
//	@import         an import; @import.source the module as written,
//	                @import.name the name it exports, @import.alias the
//	                local name
//	@package        the file's package (Java) or file-scoped namespace
//	                (C#); @import.source its name
//	@var            a variable of a known type: @name the variable,
//	                @var.type its class (`const x = new Foo()`, `x: Foo`);
//	                a method call on the variable in its scope has the type
//	                in its Alt
//	@doc            a docstring (Python): the text of the innermost
//	                declaration holding it
//
// Comments directly above a declaration (Spec.IsDoc) are its doc comment.
// A function whose container is a class-like declaration is a method.
package tags

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/lang/syntax"
)

// Grammar is one tree-sitter grammar of a language and the file
// extensions it reads ("" matches every extension not listed elsewhere).
type Grammar struct {
	Ext      []string
	Language func() unsafe.Pointer
}

// Spec is one language for the engine.
type Spec struct {
	Lang     string
	Grammars []Grammar
	Query    string // the tags query (captures above)
	// Comments are the node kinds of comments; IsDoc tells whether a
	// comment block directly above a declaration documents it.
	Comments []string
	IsDoc    func(text string) bool
	// Wrappers are node kinds that wrap a declaration (export statements,
	// decorators): the comments above the wrapper document it.
	Wrappers []string
	// Predeclared are the language's own type names, never looked up.
	Predeclared map[string]bool
	// IsTest tells whether a project-relative path holds tests by the
	// language's convention.
	IsTest func(p string) bool

	once    sync.Once
	queries []*sitter.Query
	langs   []*sitter.Language
	err     error
}

// FrontEnd is the lang.FrontEnd of a Spec.
type FrontEnd struct{ Spec *Spec }

// Name is the spec's language.
func (f FrontEnd) Name() string { return f.Spec.Lang }

// compile loads the grammars and compiles the query once per process; the
// queries are read-only afterwards and shared by every worker.
func (s *Spec) compile() error {
	s.once.Do(func() {
		syntax.UseLibcAllocator()
		for _, g := range s.Grammars {
			l := sitter.NewLanguage(g.Language())
			q, qerr := sitter.NewQuery(l, s.Query)
			if qerr != nil {
				s.err = fmt.Errorf("%s tags query: %s", s.Lang, qerr.Error())
				return
			}
			s.langs = append(s.langs, l)
			s.queries = append(s.queries, q)
		}
	})
	return s.err
}

// New returns a parser of the spec's language.
func (f FrontEnd) New(opts lang.Options) (lang.Parser, error) {
	if err := f.Spec.compile(); err != nil {
		return nil, err
	}
	p := &parser{spec: f.Spec, opts: opts, cursor: sitter.NewQueryCursor()}
	for _, l := range f.Spec.langs {
		sp := sitter.NewParser()
		if err := sp.SetLanguage(l); err != nil {
			p.Close()
			sp.Close()
			return nil, fmt.Errorf("%s grammar: %w", f.Spec.Lang, err)
		}
		p.parsers = append(p.parsers, sp)
	}
	return p, nil
}

type parser struct {
	spec    *Spec
	opts    lang.Options
	parsers []*sitter.Parser
	cursor  *sitter.QueryCursor
}

func (p *parser) Close() {
	for _, sp := range p.parsers {
		sp.Close()
	}
	p.parsers = nil
	if p.cursor != nil {
		p.cursor.Close()
		p.cursor = nil
	}
}

// grammar picks the grammar of path by its extension.
func (p *parser) grammar(file string) int {
	ext := strings.ToLower(path.Ext(file))
	fallback := 0
	for i, g := range p.spec.Grammars {
		for _, e := range g.Ext {
			if e == ext {
				return i
			}
			if e == "" {
				fallback = i
			}
		}
	}
	return fallback
}

// File parses src and reads its tags.
func (p *parser) File(ctx context.Context, file string, src []byte) (lang.Facts, error) {
	if err := ctx.Err(); err != nil {
		return lang.Facts{}, err
	}
	g := p.grammar(file)
	// the budget is work, not time: tree-sitter calls back every 100 parse
	// operations, so the calls count its work whatever the machine's load
	var ops int64
	halted := ""
	n := len(src)
	tree := p.parsers[g].ParseWithOptions(func(i int, _ sitter.Point) []byte {
		if i < n {
			return src[i:]
		}
		return nil
	}, nil, &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool {
		if ctx.Err() != nil {
			halted = "cancelled"
			return true
		}
		ops += 100
		if p.opts.MaxFileWork > 0 && ops > p.opts.MaxFileWork {
			halted = fmt.Sprintf("budget: work: parsing took more than %d operations", p.opts.MaxFileWork)
			return true
		}
		return false
	}})
	if tree == nil {
		p.parsers[g].Reset()
		if err := ctx.Err(); err != nil {
			return lang.Facts{}, err
		}
		if halted == "" {
			halted = "parser returned no tree"
		}
		return lang.Facts{Partial: true, Reason: halted}, nil
	}
	defer tree.Close()
	x := &extraction{spec: p.spec, path: file, src: src, opts: p.opts, fileID: fact.FileNodeID(file)}
	root := tree.RootNode()
	x.collect(p.cursor, p.spec.queries[g], root)
	f := x.facts()
	if root.HasError() {
		f.Partial = true
		f.Reason = "syntax errors: " + firstError(root)
	}
	return f, nil
}

// firstError describes where the first syntax error of the tree is.
func firstError(root *sitter.Node) string {
	c := root.Walk()
	defer c.Close()
	for {
		n := c.Node()
		if n.IsError() || n.IsMissing() {
			return fmt.Sprintf("first at line %d", n.StartPosition().Row+1)
		}
		if n.HasError() && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return "in the tree"
			}
		}
	}
}

// def is one declaration found by the query.
type def struct {
	kind       string // the capture's KIND
	name       string
	start, end uint // bytes of the declaration node
	line, last int  // 1-based lines; line is past leading annotations
	sig        uint // the byte line starts at: the signature's first
	col        int
	receiver   string
	node       sitter.Node
}

// use is one reference found by the query.
type use struct {
	kind      fact.RefKind
	name      string
	recv      string
	alt       string
	owner     string // the type declared apart the use belongs to (@receiver: Rust's impl Trait for Type)
	start     uint
	line, col int
}

type extraction struct {
	spec   *Spec
	path   string
	src    []byte
	opts   lang.Options
	fileID string
	defs   []def
	uses   []use
	docs   []use // docstrings: name is the text
	vars   []use // variables of a known type: name the variable, alt the type
}

// collect runs the query over the tree and sorts what it finds by place.
func (x *extraction) collect(cur *sitter.QueryCursor, q *sitter.Query, root *sitter.Node) {
	names := q.CaptureNames()
	matches := cur.Matches(q, root, x.src)
	seen := map[[2]uint]bool{}
	for m := matches.Next(); m != nil; m = matches.Next() {
		var main *sitter.Node
		var mainCap string
		var name, recv, source, imported, alias, receiver, varType *sitter.Node
		defaultImport := false
		for _, c := range m.Captures {
			node := c.Node
			switch capName := names[c.Index]; capName {
			case "import.default":
				alias, defaultImport = &node, true
			case "name":
				name = &node
			case "recv":
				recv = &node
			case "receiver":
				receiver = &node
			case "import.source":
				source = &node
			case "import.name":
				imported = &node
			case "import.alias":
				alias = &node
			case "var.type":
				varType = &node
			default:
				if strings.HasPrefix(capName, "_") {
					continue // a capture a predicate tests
				}
				main, mainCap = &node, capName
			}
		}
		if main == nil {
			continue
		}
		text := func(n *sitter.Node) string {
			if n == nil {
				return ""
			}
			return n.Utf8Text(x.src)
		}
		pos := main.StartPosition()
		if kind, ok := strings.CutPrefix(mainCap, "def."); ok {
			if name == nil || seen[[2]uint{main.StartByte(), name.StartByte()}] {
				continue
			}
			seen[[2]uint{main.StartByte(), name.StartByte()}] = true
			np := name.StartPosition()
			d := def{kind: kind, name: cleanName(text(name)), start: main.StartByte(), end: main.EndByte(),
				last: int(main.EndPosition().Row) + 1, col: int(np.Column), node: *main}
			d.line, d.sig = declStart(main)
			if receiver != nil {
				d.receiver = baseName(text(receiver))
			}
			if d.name != "" {
				x.defs = append(x.defs, d)
			}
			continue
		}
		u := use{start: main.StartByte(), line: int(pos.Row) + 1, col: int(pos.Column)}
		at := func(n *sitter.Node) {
			p := n.StartPosition()
			u.start, u.line, u.col = n.StartByte(), int(p.Row)+1, int(p.Column)
		}
		switch mainCap {
		case "call":
			if name == nil {
				continue
			}
			at(name)
			u.kind, u.name = fact.RefCall, baseName(text(name))
			if recv != nil {
				u.kind, u.recv = fact.RefMethodCall, receiverText(text(recv))
			}
		case "new":
			if name == nil {
				continue
			}
			at(name)
			u.kind, u.name, u.recv = fact.RefNew, baseName(text(name)), receiverText(text(recv))
		case "extends", "implements", "typeref":
			target := main
			if name != nil {
				target = name
				at(name)
			}
			u.kind, u.name = map[string]fact.RefKind{"extends": fact.RefExtends, "implements": fact.RefImplements, "typeref": fact.RefType}[mainCap], baseName(text(target))
			u.recv = receiverText(text(recv))
			if receiver != nil {
				u.owner = baseName(text(receiver))
			}
		case "package":
			// the file's package or namespace: the declarations of the file
			// belong to it (Java, C#)
			u.kind, u.recv, u.alt, u.name = fact.RefImport, text(source), PackageRef, PackageRef
			if u.recv == "" {
				continue
			}
		case "import":
			if imported != nil && hasChild(main, "asterisk") {
				continue // `import a.b.*` is read by its own pattern
			}
			u.kind = fact.RefImport
			u.recv = unquote(text(source))
			u.alt = text(imported)
			u.name = text(alias)
			if defaultImport {
				u.alt = "default"
			}
			if u.name == "_" || u.name == "." {
				continue // Go's blank and dot imports bind no name
			}
			if u.alt == "" {
				u.alt = "*"
			}
			if u.name == "" {
				u.name = u.alt
				if u.alt == "*" {
					u.name = moduleName(u.recv)
				}
			}
			if u.name == "" || u.recv == "" {
				continue
			}
		case "var":
			if name == nil || varType == nil {
				continue
			}
			at(name)
			x.vars = append(x.vars, use{start: u.start, line: u.line, col: u.col, name: text(name), alt: baseName(text(varType))})
			continue
		case "doc":
			x.docs = append(x.docs, use{start: main.StartByte(), line: u.line, col: int(main.EndPosition().Row) + 1, name: text(main)})
			continue
		default:
			continue
		}
		if u.name != "" {
			x.uses = append(x.uses, u)
		}
	}
	slices.SortStableFunc(x.defs, func(a, b def) int {
		if a.start != b.start {
			return int(a.start) - int(b.start)
		}
		return int(b.end) - int(a.end)
	})
	slices.SortStableFunc(x.uses, func(a, b use) int { return int(a.start) - int(b.start) })
	slices.SortStableFunc(x.vars, func(a, b use) int { return int(a.start) - int(b.start) })
	x.uses = dedupUses(x.uses, x.spec.Predeclared)
}

// PackageRef is the Name and Alt of the import reference stating the file's
// package (Java) or file-scoped namespace (C#); Recv is the package. It is no
// name a program can bind.
const PackageRef = "<package>"

// hasChild tells whether n has a child of kind k.
func hasChild(n *sitter.Node, k string) bool {
	for i := uint(0); i < n.ChildCount(); i++ {
		if n.Child(i).Kind() == k {
			return true
		}
	}
	return false
}

// annotationKinds are the node kinds of annotations, attributes and
// decorators written before a declaration inside its node (Java, Kotlin,
// C#, TypeScript): the declaration's line is the one after them, where its
// modifiers, keyword and name are.
var annotationKinds = map[string]bool{
	"annotation": true, "marker_annotation": true, "attribute_list": true, "decorator": true,
	"attribute_item": true, "comment": true, "line_comment": true, "block_comment": true, "multiline_comment": true,
}

// declStart is the 1-based line and the byte where declaration n starts,
// leading annotations left out.
func declStart(n *sitter.Node) (int, uint) {
	at := func(c *sitter.Node) (int, uint) { return int(c.StartPosition().Row) + 1, c.StartByte() }
	first := n.Child(0)
	if first == nil || !(annotationKinds[first.Kind()] || first.Kind() == "modifiers") {
		return at(n)
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if annotationKinds[c.Kind()] {
			continue
		}
		if c.Kind() == "modifiers" {
			for j := uint(0); j < c.ChildCount(); j++ {
				if g := c.Child(j); !annotationKinds[g.Kind()] {
					return at(g)
				}
			}
			continue
		}
		return at(c)
	}
	return at(n)
}

// rank orders the readings of one name at one place: a hierarchy or an
// instantiation says more than a type use, a qualified name more than a bare one.
func rank(u use) int {
	r := 0
	if u.kind != fact.RefType {
		r += 2
	}
	if u.recv != "" {
		r++
	}
	return r
}

// dedupUses keeps one reading of each name at each place (the query may
// match it as a type use and as a parent class) and drops type uses of the
// language's predeclared names.
func dedupUses(us []use, predeclared map[string]bool) []use {
	out := us[:0]
	for _, u := range us {
		if u.kind == fact.RefType && u.recv == "" && predeclared[u.name] {
			continue
		}
		if k := len(out) - 1; k >= 0 && out[k].start == u.start && out[k].name == u.name && u.kind != fact.RefImport {
			if rank(u) > rank(out[k]) {
				out[k] = u
			}
			continue
		}
		out = append(out, u)
	}
	return out
}

// cleanName is a declaration's name without quotes or surrounding space.
func cleanName(s string) string {
	return strings.TrimSpace(strings.Trim(s, "\"'`"))
}

// baseName is the last segment of a possibly qualified or generic name:
// "a.b.C<T>" is "C".
func baseName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "<[({"); i > 0 {
		s = s[:i]
	}
	s = strings.TrimLeft(s, "*&")
	for _, sep := range []string{"::", ".", "\\", "->"} {
		if i := strings.LastIndex(s, sep); i >= 0 {
			s = s[i+len(sep):]
		}
	}
	return strings.TrimSpace(s)
}

// receiverText keeps a receiver that is a plain name or a chain of names
// ("this", "self", "pkg", "this.repo"); anything else is unknown ("").
func receiverText(s string) string {
	if len(s) > 120 {
		return ""
	}
	for _, r := range s {
		if !(r == '_' || r == '.' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127) {
			return ""
		}
	}
	return s
}

// unquote strips a string literal's quotes.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && strings.ContainsRune("\"'`", rune(s[0])) && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// moduleName is the name a whole-module import binds by default: the last
// segment of a path or dotted name ("github.com/x/fact" is "fact", "os.path"
// is "os" in Python, where the first segment is bound, handled by the query).
func moduleName(m string) string {
	m = strings.TrimSuffix(m, "/")
	if i := strings.LastIndexAny(m, "/"); i >= 0 {
		m = m[i+1:]
	}
	return m
}
