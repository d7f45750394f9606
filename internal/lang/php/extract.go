// This file defines Extractor and Result and the tree walk that finds
// declarations; signatures are built in sig.go, comments handled in comments.go.

package php

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
	tsphp "github.com/tree-sitter/tree-sitter-php/bindings/go"

	"github.com/ragraf/ragraf/internal/dataflow"
	"github.com/ragraf/ragraf/internal/fact"
)

// Lang is the language name on every node this package emits.
const Lang = "php"

// Source names the extractor in edge provenance.
const Source = "php-ast"

// Result is what one file yields.
type Result struct {
	Nodes   []fact.Node
	Edges   []fact.Edge
	Chunks  []fact.TextChunk
	Refs    []fact.Ref
	Partial bool   // the tree has syntax errors; what could be extracted is kept
	Error   string // first syntax error as "line N: ...", when Partial
	Domain  Domain // tables, entry points and SQL facts (sql.go)
	// Dataflow is the file lowered for slice and flow (SetDataflow); nil
	// when not asked for, or when the file is partial past its tree
	Dataflow []*dataflow.Func
}

// Extractor parses PHP files. It is not safe for concurrent use.
type Extractor struct {
	parser *sitter.Parser // PHP with HTML
	only   *sitter.Parser // PHP alone, for files that are only PHP (parse)
	budget Budget         // of each file (budget.go)
	// dataflow makes File lower the file for slice and flow too
	// (SetDataflow); functions longer than dataflowLines are skipped
	dataflow      bool
	dataflowLines int
}

// language is the PHP grammar (PHP with HTML), and languageOnly the grammar
// of PHP alone; each loaded once.
var (
	language     = sync.OnceValue(func() *sitter.Language { return sitter.NewLanguage(tsphp.LanguagePHP()) })
	languageOnly = sync.OnceValue(func() *sitter.Language { return sitter.NewLanguage(tsphp.LanguagePHPOnly()) })
)

// New returns an Extractor; Close it when done (the parsers hold C memory).
func New() (*Extractor, error) {
	p, err := sitter.NewParser(language())
	if err != nil {
		return nil, fmt.Errorf("PHP: %w", err)
	}
	only, err := sitter.NewParser(languageOnly())
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("PHP: %w", err)
	}
	return &Extractor{parser: p, only: only}, nil
}

// Close frees the parsers.
func (x *Extractor) Close() {
	x.parser.Close()
	x.only.Close()
}

// parse parses src with the grammar of PHP alone when the file is only PHP,
// and with the grammar of PHP with HTML otherwise. The first parses about a
// fifth faster and gives the same tree for a file that opens with `<?php`,
// never closes it and has no syntax error (kinds, ranges, parents and fields
// of every node: TestPHPOnlyGrammarSameTree, on the corpora too); any other
// file, or one where the first finds an error, is parsed by the second.
//
// It returns the parser that made the tree, for Recycle.
func (x *Extractor) parse(ctx context.Context, src []byte) (*sitter.Tree, *sitter.Parser, error) {
	if onlyPHP(src) {
		t, err := x.only.Parse(ctx, src)
		if err == nil && !t.RootNode().HasError() {
			return t, x.only, nil
		}
		x.only.Recycle(t)
	}
	t, err := x.parser.Parse(ctx, src)
	return t, x.parser, err
}

// onlyPHP reports whether src opens with `<?php` and never closes it: a
// file the grammar of PHP alone may parse (parse).
func onlyPHP(src []byte) bool {
	return bytes.HasPrefix(src, []byte("<?php")) && !bytes.Contains(src, []byte("?>"))
}

// File extracts the facts of one file. path is the project-relative slash path;
// src is the file content with BOM removed and line endings normalised.
//
// A file over its Budget is not an error: the result is Partial with the
// reason, and holds what the stages finished before found (nothing when
// parsing itself was over budget). A done ctx returns its error.
func (x *Extractor) File(ctx context.Context, path string, src []byte) (res Result, err error) {
	tree, parser, err := x.parse(ctx, src)
	if be, ok := errors.AsType[*sitter.BudgetError](err); ok {
		return Result{Partial: true, Error: be.Error()}, nil
	}
	if err != nil {
		return Result{}, fmt.Errorf("parsing %s: %w", path, err)
	}
	defer parser.Recycle(tree) // the result holds strings, no node
	if need := parser.Peak() + int64(tree.Len())*nodeBytes; x.budget.MaxBytes > 0 && need > x.budget.MaxBytes {
		return Result{Partial: true, Error: fmt.Sprintf("budget: memory: the syntax tree of %d nodes needs about %d MB, more than %d MB", tree.Len(), need>>20, x.budget.MaxBytes>>20)}, nil
	}
	// the facts get what the tree leaves of the memory budget
	left := int64(0)
	if x.budget.MaxBytes > 0 {
		left = max(1, x.budget.MaxBytes-parser.Peak()-int64(tree.Len())*nodeBytes)
	}
	clk := newClock(ctx, x.budget.MaxWork, left)
	root := tree.RootNode()
	if root.HasError() {
		res.Partial = true
		res.Error = firstError(root, src)
	}
	if sh := tree.Shape(); sh.Cut > 0 {
		res.Partial = true
		res.Error = joinError(res.Error, fmt.Sprintf("budget: depth: nesting deeper than %d levels from line %d; %d syntax nodes below it left out", sitter.MaxDepth, sh.CutAt.Row+1, sh.Cut))
	}
	stage := "declarations"
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		stop, ok := p.(stopWalk)
		if !ok {
			panic(p)
		}
		if stop.canceled {
			res, err = Result{}, ctx.Err()
			return
		}
		res.Partial = true
		res.Error = joinError(res.Error, clk.reason(stage, stop))
	}()
	w := newWalker(path, src)
	w.clk = clk
	w.walk(root, w.fileID)
	w.finish(root)
	res.Nodes, res.Edges, res.Chunks = w.nodes, w.edges, w.chunks
	stage = "references"
	res.Refs = collectRefs(path, src, root, w.nodes, clk)
	stage = "domain"
	res.addDomain(path, src, root, clk)
	if x.dataflow {
		res.Dataflow = lowerSafe(path, src, root, x.dataflowLines)
	}
	return res, nil
}

// joinError adds reason b to a, the reasons of a partial file.
func joinError(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// walker carries the state of one file's walk.
type walker struct {
	clk    *clock // budget of the walk (budget.go)
	path   string
	src    []byte
	fileID string
	ns     string         // current namespace, without leading backslash
	nsID   string         // id of the current unbraced namespace node, "" if none
	seen   map[string]int // kind+qname -> declarations seen so far, the id disambiguator
	nodes  []fact.Node
	edges  []fact.Edge
	chunks []fact.TextChunk
	// docOwner maps the start byte of a docblock comment to the node it documents.
	docOwner map[uint]string
	// spans of emitted declarations, to attach free comments to their innermost container.
	spans  []span
	owners *owners // built from spans once the declarations are known (comments.go)
	// nsOpen is the index in nodes of an unbraced namespace still open.
	nsOpen int
}

type span struct {
	start, end int // lines
	id         string
}

func newWalker(path string, src []byte) *walker {
	return &walker{
		path:     path,
		src:      src,
		fileID:   fact.FileNodeID(path),
		seen:     map[string]int{},
		docOwner: map[uint]string{},
		nsOpen:   -1,
	}
}

func line(p sitter.Point) int { return int(p.Row) + 1 }

// endLine is the last line a node occupies. A node that ends at column 0 ends on
// the previous line (its range includes the newline only).
func endLine(n *sitter.Node) int {
	p := n.EndPosition()
	if p.Column == 0 && p.Row > n.StartPosition().Row {
		return int(p.Row)
	}
	return int(p.Row) + 1
}

func (w *walker) text(n *sitter.Node) string { return n.Utf8Text(w.src) }

// qualify prefixes a declared name with the current namespace.
func (w *walker) qualify(name string) string {
	if w.ns == "" {
		return name
	}
	return w.ns + `\` + name
}

// add records a node and its contains edge from parent, and returns its id.
func (w *walker) add(n *sitter.Node, kind fact.NodeKind, name, qname, parent, sig string, props map[string]string) string {
	return w.addLines(n, kind, name, qname, parent, sig, props, line(n.StartPosition()), endLine(n))
}

// addLines is add with the lines given: a declaration recovered from a
// parse error spans more than the node it starts in.
func (w *walker) addLines(n *sitter.Node, kind fact.NodeKind, name, qname, parent, sig string, props map[string]string, start, end int) string {
	key := string(kind) + "\x00" + fact.Lower(qname)
	d := w.seen[key]
	w.seen[key] = d + 1
	id := fact.NodeID(kind, qname, w.path, d)
	w.nodes = append(w.nodes, fact.Node{
		ID: id, Kind: kind, Name: name, QName: qname, Path: w.path,
		StartLine: start, EndLine: end, Lang: Lang, Parent: parent,
		Signature: sig, Props: props,
	})
	w.edges = append(w.edges, fact.Edge{
		ID: fact.EdgeID(fact.Contains, parent, id, w.path, start), Kind: fact.Contains,
		From: parent, To: id, Provenance: fact.Stated, Confidence: 1,
		EvidencePath: w.path, EvidenceLine: start, Sources: []string{Source},
	})
	w.clk.charge(nodeCost(&w.nodes[len(w.nodes)-1]) + edgeCost(&w.edges[len(w.edges)-1]))
	w.spans = append(w.spans, span{start, end, id})
	w.linkDoc(n, id)
	return id
}

// walk visits n and its descendants; parent is the id of the innermost container.
func (w *walker) walk(n *sitter.Node, parent string) {
	w.clk.tick()
	switch n.Kind() {
	case "namespace_definition":
		w.namespace(n)
		return
	case "class_declaration", "interface_declaration", "trait_declaration", "enum_declaration":
		w.classLike(n, w.container(parent))
		return
	case "function_definition":
		w.function(n, w.container(parent))
		return
	case "const_declaration":
		// top-level `const X = 1;` (class constants are handled in members)
		w.constants(n, w.container(parent), "")
		return
	case "function_call_expression":
		w.define(n, w.container(parent))
	case "ERROR":
		w.recoverFunction(n, w.container(parent))
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		w.walk(n.NamedChild(i), parent)
	}
}

// container is the parent for a global declaration: the open namespace node if
// any, else the given parent (file or braced namespace).
func (w *walker) container(parent string) string {
	if parent == w.fileID && w.nsID != "" {
		return w.nsID
	}
	return parent
}

func (w *walker) namespace(n *sitter.Node) {
	nameNode := n.ChildByFieldName("name")
	name := ""
	if nameNode != nil {
		name = strings.TrimPrefix(w.clean(nameNode), `\`)
	}
	body := n.ChildByFieldName("body")
	w.closeNamespace(n)
	qname := name
	if qname == "" {
		qname = `\` // the global namespace, in braced form `namespace { }`
	}
	id := w.add(n, fact.Namespace, name, qname, w.fileID, "", nil)
	if body == nil {
		// unbraced: it runs to the next namespace statement or the end of file
		w.ns, w.nsID, w.nsOpen = name, id, len(w.nodes)-1
		return
	}
	prev := w.ns
	w.ns = name
	for i := uint(0); i < body.NamedChildCount(); i++ {
		w.walk(body.NamedChild(i), id)
	}
	w.ns = prev
}

// closeNamespace ends an open unbraced namespace on the line before next starts
// (or at the end of the file when next is nil).
func (w *walker) closeNamespace(next *sitter.Node) {
	if w.nsOpen < 0 {
		return
	}
	nd := &w.nodes[w.nsOpen]
	if next != nil {
		end := line(next.StartPosition()) - 1
		// keep trailing blank lines and comments out of the range
		if c := codeEnd(next.PrevSibling()); c > 0 {
			end = min(end, c)
		}
		nd.EndLine = max(nd.StartLine, w.lastCodeLine(nd.StartLine, end))
	}
	for i := range w.spans {
		if w.spans[i].id == nd.ID {
			w.spans[i].end = nd.EndLine
		}
	}
	w.nsOpen, w.nsID, w.ns = -1, "", ""
}

// finish closes an unbraced namespace at the last code line of the file.
func (w *walker) finish(root *sitter.Node) {
	if w.nsOpen >= 0 {
		nd := &w.nodes[w.nsOpen]
		end := endLine(root)
		if c := codeEnd(root.Child(root.ChildCount() - 1)); c > 0 {
			end = c
		}
		nd.EndLine = max(nd.StartLine, w.lastCodeLine(nd.StartLine, end))
		w.closeNamespace(nil)
	}
	w.comments(root)
}

// codeEnd is the last line of the last node that is not a comment among n and
// the siblings before it, or 0 if there is none.
func codeEnd(n *sitter.Node) int {
	for ; n != nil; n = n.PrevSibling() {
		if n.Kind() != "comment" {
			return endLine(n)
		}
	}
	return 0
}

// lastCodeLine returns the last line in [from, to] that holds something other
// than blanks; for an unbraced namespace that is the end of its last statement.
func (w *walker) lastCodeLine(from, to int) int {
	lines := strings.Split(string(w.src), "\n")
	for l := min(to, len(lines)); l > from; l-- {
		if strings.TrimSpace(lines[l-1]) != "" {
			return l
		}
	}
	return from
}

var typeKinds = map[string]fact.NodeKind{
	"class_declaration":     fact.Class,
	"interface_declaration": fact.Interface,
	"trait_declaration":     fact.Trait,
	"enum_declaration":      fact.Enum,
}

func (w *walker) classLike(n *sitter.Node, parent string) {
	kind := typeKinds[n.Kind()]
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := w.clean(nameNode)
	qname := w.qualify(name)
	props := w.modifiers(n)
	sig := w.classSignature(n, kind, name, props)
	if kind == fact.Enum {
		for i := uint(0); i < n.NamedChildCount(); i++ {
			if c := n.NamedChild(i); c.Kind() == "primitive_type" {
				props["backing_type"] = w.text(c)
			}
		}
	}
	id := w.add(n, kind, name, qname, parent, sig, props)
	body := n.ChildByFieldName("body")
	if body == nil {
		return
	}
	for i := uint(0); i < body.NamedChildCount(); i++ {
		m := body.NamedChild(i)
		switch m.Kind() {
		case "method_declaration":
			w.method(m, id, qname)
		case "property_declaration":
			w.properties(m, id, qname)
		case "const_declaration":
			w.constants(m, id, qname)
		case "enum_case":
			w.enumCase(m, id, qname)
		default:
			w.walk(m, id)
		}
	}
}

func (w *walker) function(n *sitter.Node, parent string) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := w.clean(nameNode)
	props := map[string]string{}
	sig := w.funcSignature(n, name, props)
	id := w.add(n, fact.Function, name, w.qualify(name), parent, sig, props)
	w.walkBody(n, id)
}

// recoverFunction declares the function a parse error begins with: the
// grammar reads some names PHP accepts for functions as keywords
// (`function readonly(...)` in WordPress's php-compat) and gives up on the
// whole declaration. The lines run from `function` to the brace that closes
// the body, found in the source; the node says it was recovered.
func (w *walker) recoverFunction(n *sitter.Node, parent string) {
	if n.ChildCount() < 3 || n.Child(0).Kind() != "function" || n.Child(2).Kind() != "(" {
		return
	}
	name := w.text(n.Child(1))
	if !validName(name) {
		return
	}
	open := int(n.Child(2).StartByte())
	closeParen := matching(w.src, open, '(', ')')
	if closeParen < 0 {
		return
	}
	brace := closeParen + 1
	for brace < len(w.src) && w.src[brace] != '{' && w.src[brace] != ';' {
		brace++ // whitespace, or a return type
	}
	if brace >= len(w.src) || w.src[brace] != '{' {
		return
	}
	end := matching(w.src, brace, '{', '}')
	if end < 0 {
		return
	}
	params := strings.Join(strings.Fields(withoutComments(w.src[open+1:closeParen])), " ")
	props := map[string]string{"params": params, "recovered": "true"}
	start := line(n.StartPosition())
	w.addLines(n, fact.Function, name, w.qualify(name), parent, "function "+name+"("+params+")", props,
		start, start+bytes.Count(w.src[n.StartByte():end], []byte("\n")))
}

// matching returns the offset of the bracket that closes the one at open,
// skipping quoted strings and comments, or -1.
func matching(src []byte, open int, o, c byte) int {
	depth := 0
	for i := open; i < len(src); i++ {
		switch ch := src[i]; {
		case ch == '\'' || ch == '"':
			for i++; i < len(src) && src[i] != ch; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case lineComment(src, i):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case ch == '/' && i+1 < len(src) && src[i+1] == '*':
			k := bytes.Index(src[i+2:], []byte("*/"))
			if k < 0 {
				return -1
			}
			i += k + 3
		case ch == o:
			depth++
		case ch == c:
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// lineComment tells whether a `//` or `#` comment starts at src[i]; `#[`
// opens an attribute.
func lineComment(src []byte, i int) bool {
	switch {
	case src[i] == '/':
		return i+1 < len(src) && src[i+1] == '/'
	case src[i] == '#':
		return i+1 >= len(src) || src[i+1] != '['
	}
	return false
}

// withoutComments is src with its comments cut out, quoted strings kept
// whole: no comment text reaches a structural fact (FT-9).
func withoutComments(src []byte) string {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		switch ch := src[i]; {
		case ch == '\'' || ch == '"':
			j := i + 1
			for ; j < len(src) && src[j] != ch; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			j = min(j, len(src)-1)
			b.Write(src[i : j+1])
			i = j
		case lineComment(src, i):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			b.WriteByte(' ')
		case ch == '/' && i+1 < len(src) && src[i+1] == '*':
			k := bytes.Index(src[i+2:], []byte("*/"))
			if k < 0 {
				return b.String()
			}
			i += k + 3
			b.WriteByte(' ')
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

func (w *walker) method(n *sitter.Node, classID, classQName string) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := w.clean(nameNode)
	props := w.modifiers(n)
	if props["visibility"] == "" {
		props["visibility"] = "public"
	}
	sig := w.funcSignature(n, name, props)
	id := w.add(n, fact.Method, name, classQName+"::"+name, classID, sig, props)
	if name == "__construct" {
		w.promoted(n, classID, classQName)
	}
	w.walkBody(n, id)
}

// walkBody looks inside a function body for nested declarations
// (functions and classes declared conditionally are still global).
func (w *walker) walkBody(n *sitter.Node, id string) {
	if body := n.ChildByFieldName("body"); body != nil {
		w.walk(body, id)
	}
}

// promoted emits properties declared by constructor promotion.
func (w *walker) promoted(n *sitter.Node, classID, classQName string) {
	params := n.ChildByFieldName("parameters")
	if params == nil {
		return
	}
	for i := uint(0); i < params.NamedChildCount(); i++ {
		p := params.NamedChild(i)
		if p.Kind() != "property_promotion_parameter" {
			continue
		}
		nameNode := p.ChildByFieldName("name")
		if nameNode == nil {
			continue
		}
		name := strings.TrimPrefix(w.clean(nameNode), "&")
		props := map[string]string{"promoted": "true"}
		if v := p.ChildByFieldName("visibility"); v != nil {
			props["visibility"] = strings.ToLower(w.text(v))
		} else {
			props["visibility"] = "public"
		}
		if p.ChildByFieldName("readonly") != nil {
			props["readonly"] = "true"
		}
		if t := p.ChildByFieldName("type"); t != nil {
			props["type"] = w.clean(t)
		}
		sig := w.clean(p)
		w.add(p, fact.Property, strings.TrimPrefix(name, "$"), classQName+"::"+name, classID, sig, props)
	}
}

func (w *walker) properties(n *sitter.Node, classID, classQName string) {
	mods := w.modifiers(n)
	if mods["visibility"] == "" {
		mods["visibility"] = "public"
	}
	typ := ""
	if t := n.ChildByFieldName("type"); t != nil {
		typ = w.clean(t)
	}
	for i := uint(0); i < n.NamedChildCount(); i++ {
		el := n.NamedChild(i)
		if el.Kind() != "property_element" {
			continue
		}
		nameNode := el.ChildByFieldName("name")
		if nameNode == nil {
			continue
		}
		name := w.clean(nameNode)
		props := copyProps(mods)
		if typ != "" {
			props["type"] = typ
		}
		sig := collapse(modString(props) + " " + typ + " " + w.clean(el))
		// a single-element declaration spans the whole statement (attributes and
		// modifiers included); in `public $a, $b;` each element gets its own line
		target := el
		if countKind(n, "property_element") == 1 {
			target = n
		}
		w.add(target, fact.Property, strings.TrimPrefix(name, "$"), classQName+"::"+name, classID, sig, props)
	}
}

func countKind(n *sitter.Node, kind string) uint {
	var c uint
	for i := uint(0); i < n.NamedChildCount(); i++ {
		if n.NamedChild(i).Kind() == kind {
			c++
		}
	}
	return c
}

// constants emits `const` elements: class constants when classQName is set,
// namespaced global constants otherwise.
func (w *walker) constants(n *sitter.Node, parent, classQName string) {
	mods := w.modifiers(n)
	if classQName != "" && mods["visibility"] == "" {
		mods["visibility"] = "public"
	}
	typ := ""
	if t := n.ChildByFieldName("type"); t != nil {
		typ = w.clean(t)
	}
	single := countKind(n, "const_element") == 1
	for i := uint(0); i < n.NamedChildCount(); i++ {
		el := n.NamedChild(i)
		if el.Kind() != "const_element" {
			continue
		}
		var nameNode *sitter.Node
		for j := uint(0); j < el.NamedChildCount(); j++ {
			if c := el.NamedChild(j); c.Kind() == "name" {
				nameNode = c
				break
			}
		}
		if nameNode == nil {
			continue
		}
		name := w.clean(nameNode)
		qname := w.qualify(name)
		if classQName != "" {
			qname = classQName + "::" + name
		}
		props := copyProps(mods)
		if typ != "" {
			props["type"] = typ
		}
		sig := strings.TrimSpace(modString(props) + " const " + typ + " " + w.clean(el))
		target := el
		if single {
			target = n
		}
		w.add(target, fact.Constant, name, qname, parent, collapse(sig), props)
	}
}

func (w *walker) enumCase(n *sitter.Node, enumID, enumQName string) {
	nameNode := n.ChildByFieldName("name")
	if nameNode == nil {
		return
	}
	name := w.clean(nameNode)
	props := map[string]string{"enum_case": "true"}
	w.add(n, fact.Constant, name, enumQName+"::"+name, enumID, strings.TrimSuffix(w.clean(n), ";"), props)
}

// define handles `define('NAME', value)`: a global constant, never namespaced
// unless the name itself holds a backslash.
func (w *walker) define(n *sitter.Node, parent string) {
	fn := n.ChildByFieldName("function")
	if fn == nil || (fn.Kind() != "name" && fn.Kind() != "qualified_name") ||
		!strings.EqualFold(strings.TrimPrefix(w.text(fn), `\`), "define") {
		return
	}
	args := n.ChildByFieldName("arguments")
	if args == nil {
		return
	}
	// the first argument's value, past comments and an argument name
	var first *sitter.Node
	for i := uint(0); i < args.NamedChildCount() && first == nil; i++ {
		if c := args.NamedChild(i); c.Kind() != "comment" {
			first = c
		}
	}
	if first == nil {
		return
	}
	if first.Kind() == "argument" {
		for i := first.NamedChildCount(); i > 0; i-- {
			if c := first.NamedChild(i - 1); c.Kind() != "comment" {
				first = c
				break
			}
		}
	}
	name, ok := stringLiteral(w.text(first), first.Kind())
	if !ok || name == "" {
		return
	}
	name = strings.TrimPrefix(name, `\`)
	short := name
	if i := strings.LastIndexByte(name, '\\'); i >= 0 {
		short = name[i+1:]
	}
	w.add(n, fact.Constant, short, name, parent, "define('"+name+"')", map[string]string{"define": "true"})
}

// stringLiteral returns the value of a simple quoted string without
// interpolation, and whether it was one.
func stringLiteral(text, kind string) (string, bool) {
	if kind != "string" && kind != "encapsed_string" {
		return "", false
	}
	if len(text) < 2 {
		return "", false
	}
	q := text[0]
	if (q != '\'' && q != '"') || text[len(text)-1] != q {
		return "", false
	}
	body := text[1 : len(text)-1]
	if q == '"' && strings.ContainsAny(body, "$") {
		return "", false
	}
	if q == '"' {
		if s, err := strconv.Unquote(text); err == nil {
			return s, true
		}
	}
	return singleQuoted.Replace(body), true
}

// singleQuoted decodes the two escapes of a single-quoted PHP string.
var singleQuoted = strings.NewReplacer(`\\`, `\`, `\'`, `'`)

func copyProps(m map[string]string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// firstError describes the first syntax error in the tree.
func firstError(n *sitter.Node, src []byte) string {
	if n.IsError() || n.IsMissing() {
		what := "syntax error"
		if n.IsMissing() {
			what = "missing " + n.Kind()
		}
		return fmt.Sprintf("line %d: %s", line(n.StartPosition()), what)
	}
	for i := uint(0); i < n.ChildCount(); i++ {
		c := n.Child(i)
		if c.HasError() || c.IsMissing() {
			return firstError(c, src)
		}
	}
	return fmt.Sprintf("line %d: syntax error", line(n.StartPosition()))
}
