// This file turns PHP type syntax (declared types and PHPDoc types) into the
// type descriptors (package typ) that package resolve evaluates, and reads
// the PHPDoc tags that carry types. Only type names leave this file, never
// docblock prose (FT-9).

package php

import (
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/typ"
)

// maxDesc bounds the length of a descriptor's text; longer chains are left
// untyped.
const maxDesc = 400

// typeNode converts a declared type to a descriptor and reports each class it
// names (for type-hint refs) through emit. inReturn keeps self/static as
// `static` so the resolver can bind them to the receiver.
func (r *refWalker) typeNode(t *sitter.Node, inReturn bool, emit func(fq string, n *sitter.Node)) typ.Desc {
	var alts []typ.Desc
	var visit func(t *sitter.Node)
	visit = func(t *sitter.Node) {
		switch t.Kind() {
		case "named_type", "name", "qualified_name", "relative_name":
			nn := t
			if t.Kind() == "named_type" && t.NamedChildCount() > 0 {
				nn = t.NamedChild(0)
			}
			name := r.text(nn)
			switch fact.Lower(name) {
			case "self", "static":
				if inReturn {
					alts = append(alts, typ.NewStatic())
				} else if r.cls != nil && r.cls.fq != "" {
					alts = append(alts, typ.NewClass(r.cls.fq))
				}
				return
			case "parent":
				if r.cls != nil && r.cls.parent != "" {
					alts = append(alts, typ.NewClass(r.cls.parent))
				}
				return
			}
			if builtinTypes[fact.Lower(name)] {
				return
			}
			fq := r.sc.class(name)
			alts = append(alts, typ.NewClass(fq))
			if emit != nil {
				emit(fq, nn)
			}
		case "primitive_type", "bottom_type":
			return
		default:
			for _, c := range r.named(t) {
				visit(c)
			}
		}
	}
	visit(t)
	return typ.Join(alts...)
}

// docTag is one typed PHPDoc tag.
type docTag struct {
	// param, var, return, property, method, mixin, global, throws; shape for
	// a line of a multi-line array shape (`array{\n *   key: Foo[],`), which
	// only names classes
	tag  string
	typ  string // the type text
	name string // variable, property or method name without $; "" when absent
	line int    // 0-based line of the tag inside the docblock
	args string // @method: the parameter list between the parentheses
}

// docTags reads the typed tags of a docblock. It keeps the type and the name
// only; descriptions are dropped here.
func docTags(doc string) []docTag {
	var out []docTag
	open := 0 // unclosed braces of a multi-line array shape
	for li, ln := range strings.Split(doc, "\n") {
		if open > 0 {
			body := strings.TrimLeft(strings.TrimSpace(ln), "*")
			open += strings.Count(body, "{") - strings.Count(body, "}")
			if _, typ, ok := strings.Cut(body, ":"); ok {
				typ = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(typ), ",}"))
				if typ != "" && !strings.ContainsAny(typ, "{}") {
					out = append(out, docTag{tag: "shape", typ: typ, line: li})
				}
			}
			continue
		}
		i := strings.Index(ln, "@")
		if i < 0 {
			continue
		}
		ln = ln[i+1:]
		tag, rest, _ := strings.Cut(ln, " ")
		tag = strings.TrimPrefix(tag, "phpstan-")
		tag = strings.TrimPrefix(tag, "psalm-")
		switch tag {
		case "param", "var", "return", "property", "property-read", "property-write", "method", "mixin", "global", "throws":
		default:
			continue
		}
		rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "*/"))
		if tag == "method" {
			// @method [static] Type name(args)
			rest = strings.TrimSpace(strings.TrimPrefix(rest, "static "))
			open := strings.IndexByte(rest, '(')
			if open < 0 {
				continue
			}
			head := strings.TrimSpace(rest[:open])
			typ, name := "", head
			if k := strings.LastIndexAny(head, " \t"); k >= 0 {
				typ, name = strings.TrimSpace(head[:k]), head[k+1:]
			}
			args := ""
			if c := strings.LastIndexByte(rest, ')'); c > open {
				args = rest[open+1 : c]
			}
			out = append(out, docTag{tag: "method", typ: typ, name: name, line: li, args: args})
			continue
		}
		typ, after := splitDocType(rest)
		if typ == "" {
			continue
		}
		if d := strings.Count(typ, "{") - strings.Count(typ, "}"); d > 0 {
			open = d // the shape goes on below
		}
		name := ""
		if f := strings.Fields(after); len(f) > 0 && strings.HasPrefix(f[0], "$") {
			name = strings.TrimPrefix(f[0], "$")
		} else if f := strings.Fields(after); len(f) > 0 && strings.HasPrefix(f[0], "&$") {
			name = strings.TrimPrefix(f[0], "&$")
		} else if f := strings.Fields(after); len(f) > 0 && strings.HasPrefix(f[0], "...$") {
			name = strings.TrimPrefix(f[0], "...$")
		}
		if strings.HasPrefix(tag, "property") {
			tag = "property"
		}
		out = append(out, docTag{tag: tag, typ: typ, name: name, line: li})
	}
	return out
}

// splitDocType cuts the leading type expression (which may hold spaces inside
// <>, {} or ()) from the rest of a tag line.
func splitDocType(s string) (typ, rest string) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '{', '(':
			depth++
		case '>', '}', ')':
			depth--
		case ' ', '\t':
			if depth <= 0 {
				// `A | B` is rare; treat a following `|` as continuation
				if i+1 < len(s) && s[i+1] == '|' || i > 0 && s[i-1] == '|' {
					continue
				}
				return s[:i], s[i+1:]
			}
		}
	}
	return s, ""
}

// splitTop splits s on sep outside brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '{', '(', '[':
			depth++
		case '>', '}', ')', ']':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// docType converts a PHPDoc type to a descriptor; classes it names are passed
// to emit, and class constants as `Class::NAME` (docRefs). Generic containers
// contribute themselves and `Elem[]`.
func (r *refWalker) docType(t string, inReturn bool, emit func(fq string)) typ.Desc {
	var alts []typ.Desc
	for _, a := range splitTop(strings.TrimSpace(t), '|') {
		for _, b := range splitTop(a, '&') {
			alts = append(alts, r.docAlt(strings.TrimSpace(b), inReturn, emit))
		}
	}
	return typ.Join(alts...)
}

// docRefs returns the emit function of docType for a tag at line ln: a
// docType reference to each class, a class constant reference to each
// `Class::NAME`.
func (r *refWalker) docRefs(ln int) func(string) {
	return func(fq string) {
		if cls, name, ok := strings.Cut(fq, "::"); ok {
			r.emit(fact.RefClassConst, name, ln, typ.NewClass(cls), "")
			return
		}
		r.emit(fact.RefDocType, fq, ln, typ.Desc{}, "")
	}
}

// shapeBases are the PHPDoc types written with a shape: `array{…}`.
var shapeBases = map[string]bool{"array": true, "list": true, "object": true, "non-empty-array": true, "non-empty-list": true}

// topIndex is the offset of the first c in s outside brackets, or -1.
func topIndex(s string, c byte) int {
	if first := splitTop(s, c)[0]; len(first) < len(s) {
		return len(first)
	}
	return -1
}

// maxNesting bounds array-of-array types (`array<string, array<int, Foo>>`,
// `Foo[][]`); deeper ones are left untyped.
const maxNesting = 3

// arraysOf describes arrays of each alternative of d: a class or array of
// one not nested maxNesting deep; `static` and deeper arrays are dropped.
// limit false lets any depth through, as `(A|B)[]` does.
func arraysOf(d typ.Desc, limit bool) typ.Desc {
	var out []typ.Desc
	for _, a := range d.Alts() {
		if a.IsStatic() || limit && a.Dims() >= maxNesting {
			continue
		}
		out = append(out, a.Desc().ArrayOf())
	}
	return typ.Join(out...)
}

// docAlt describes one alternative of a PHPDoc type (which may describe
// several: a type alias, a generic container).
func (r *refWalker) docAlt(a string, inReturn bool, emit func(fq string)) typ.Desc {
	a = strings.TrimPrefix(a, "?")
	if a == "" {
		return typ.Desc{}
	}
	if strings.HasPrefix(a, "(") && strings.HasSuffix(a, ")[]") {
		var out []typ.Desc
		for _, x := range splitTop(a[1:len(a)-3], '|') {
			out = append(out, arraysOf(r.docAlt(strings.TrimSpace(x), inReturn, emit), false))
		}
		return typ.Join(out...)
	}
	if strings.HasSuffix(a, "[]") {
		return arraysOf(r.docAlt(a[:len(a)-2], inReturn, emit), true)
	}
	if k := strings.IndexByte(a, '<'); k > 0 && strings.HasSuffix(a, ">") {
		base := a[:k]
		args := splitTop(a[k+1:len(a)-1], ',')
		if fact.Lower(base) == "class-string" && len(args) == 1 {
			// the name of T or of a subclass: `$class::create()` and
			// `$class::NAME` reach T's members, as on a T
			return r.docAlt(strings.TrimSpace(args[0]), inReturn, emit)
		}
		var out typ.Desc
		if !builtinTypes[fact.Lower(base)] {
			out = r.docAlt(base, inReturn, emit)
		}
		last := strings.TrimSpace(args[len(args)-1])
		return typ.Join(out, arraysOf(r.docType(last, inReturn, emit), true))
	}
	if k := strings.IndexByte(a, '{'); k > 0 && strings.HasSuffix(a, "}") && shapeBases[fact.Lower(a[:k])] {
		// `array{key: Foo, 1: Bar[]}`: the classes it names are referenced;
		// the shape itself types nothing
		for _, part := range splitTop(a[k+1:len(a)-1], ',') {
			if kk := topIndex(part, ':'); kk >= 0 {
				part = part[kk+1:]
			}
			r.docType(strings.TrimSpace(part), inReturn, emit)
		}
		return typ.Desc{}
	}
	if cls, name, ok := strings.Cut(a, "::"); ok && validName(cls) && validName(name) {
		// `Foo::BAR` (a literal type): the constant's value, no object
		switch l := fact.Lower(cls); {
		case l == "self" || l == "static":
			if r.cls != nil && r.cls.fq != "" && !r.cls.trait && emit != nil {
				emit(r.cls.fq + "::" + name)
			}
		case !builtinTypes[l] && emit != nil:
			fq := r.sc.class(cls)
			emit(fq)
			emit(fq + "::" + name)
		}
		return typ.Desc{}
	}
	if strings.ContainsAny(a, "{}()<>'\" :=-") && !strings.HasPrefix(a, "$") {
		return typ.Desc{}
	}
	switch fact.Lower(a) {
	case "self", "static", "$this":
		if inReturn {
			return typ.NewStatic()
		}
		if r.cls != nil && r.cls.fq != "" {
			return typ.NewClass(r.cls.fq)
		}
		return typ.Desc{}
	case "parent":
		if r.cls != nil && r.cls.parent != "" {
			return typ.NewClass(r.cls.parent)
		}
		return typ.Desc{}
	}
	if body, ok := r.cls.alias(a); ok {
		// a type alias: its type, and no reference here (its definition
		// references the classes it names)
		if body == "" || r.aliasDepth >= maxAliasDepth {
			return typ.Desc{}
		}
		r.aliasDepth++
		d := r.docType(body, inReturn, nil)
		r.aliasDepth--
		return d
	}
	if builtinTypes[fact.Lower(a)] || !validName(a) {
		return typ.Desc{}
	}
	fq := r.sc.class(a)
	if emit != nil {
		emit(fq)
	}
	return typ.NewClass(fq)
}

// maxAliasDepth bounds type aliases defined by other aliases.
const maxAliasDepth = 4

// alias returns the type of PHPDoc type alias name declared by the class
// ("" for an imported one), if the class declares one of that name.
func (c *classCtx) alias(name string) (string, bool) {
	if c == nil {
		return "", false
	}
	body, ok := c.aliases[name]
	return body, ok
}

// typeAliases reads the type aliases a class docblock declares or imports
// into ctx.aliases: `@psalm-type Name = Type` and `@phpstan-type Name Type`
// (a type may run over several lines while its brackets are open),
// `@psalm-import-type Name from Class [as Alias]` and its phpstan form. The
// classes a definition names and the class an import comes from are
// referenced at the tag's line (dl: the docblock's first line).
func (r *refWalker) typeAliases(ctx *classCtx, doc string, dl int) {
	type def struct {
		body, from string // a definition's type, an import's class
		line, end  int    // lines of the tag in the docblock
	}
	var defs []def
	lines := strings.Split(doc, "\n")
	for li := 0; li < len(lines); li++ {
		ln := lines[li]
		i := strings.Index(ln, "@")
		if i < 0 {
			continue
		}
		tag, rest, _ := strings.Cut(strings.TrimSpace(ln[i+1:]), " ")
		tag = strings.TrimPrefix(strings.TrimPrefix(tag, "psalm-"), "phpstan-")
		if tag != "type" && tag != "import-type" {
			continue
		}
		rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "*/"))
		f := strings.Fields(rest)
		if len(f) == 0 || !validName(f[0]) || strings.Contains(f[0], `\`) {
			continue
		}
		if ctx.aliases == nil {
			ctx.aliases = map[string]string{}
		}
		if tag == "import-type" {
			// Name from Class [as Alias]
			name, from := f[0], ""
			if len(f) >= 3 && fact.Lower(f[1]) == "from" && validName(f[2]) {
				from = f[2]
			}
			if len(f) >= 5 && fact.Lower(f[3]) == "as" && validName(f[4]) {
				name = f[4]
			}
			ctx.aliases[name] = ""
			defs = append(defs, def{from: from, line: li, end: li})
			continue
		}
		body := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest[len(f[0]):]), "="))
		start := li
		for open := brackets(body); open > 0 && li+1 < len(lines); {
			li++
			more := strings.TrimSpace(strings.TrimSuffix(strings.TrimLeft(strings.TrimSpace(lines[li]), "*"), "*/"))
			open += brackets(more)
			body += " " + more
		}
		ctx.aliases[f[0]] = body
		defs = append(defs, def{body: body, line: start, end: li})
	}
	// references once every alias is known: one alias may use another
	for _, d := range defs {
		if d.from != "" {
			r.emit(fact.RefDocType, r.sc.class(d.from), dl+d.line, typ.Desc{}, "")
			continue
		}
		r.docType(d.body, false, func(fq string) {
			// at the line of the definition that writes the name
			short := fq
			if k := strings.LastIndexAny(fq, `\:`); k >= 0 {
				short = fq[k+1:]
			}
			at := d.line
			for l := d.line; l <= d.end; l++ {
				if strings.Contains(lines[l], short) {
					at = l
					break
				}
			}
			r.docRefs(dl + at)(fq)
		})
	}
}

// brackets counts the brackets s opens and does not close.
func brackets(s string) int {
	return strings.Count(s, "{") + strings.Count(s, "<") + strings.Count(s, "(") -
		strings.Count(s, "}") - strings.Count(s, ">") - strings.Count(s, ")")
}

// validName reports whether s looks like a PHP (qualified) name.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' || c == '_' || c >= 0x80 || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// step appends a step to a descriptor; the result is unknown when d is or
// when d's text and the step's would be longer than maxDesc.
func step(d typ.Desc, s typ.Step) typ.Desc {
	if d.Len()+len(s.String()) > maxDesc {
		return typ.Desc{}
	}
	return d.Then(s)
}
