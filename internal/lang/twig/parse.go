package twig

import (
	"bytes"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang/tpl"
)

// token is one lexeme of a tag or print: a name, a string literal (val is
// its content, dyn when it interpolates #{…}), a number or punctuation.
type token struct {
	typ byte // 'n' name, 's' string, '0' number, 'p' punctuation
	val string
	off int // offset in the file
	dyn bool
}

// parse reads one Twig template into b: {% %} tags, {{ }} prints and {# #}
// comments; text between them is not looked at.
func parse(b *tpl.Builder, src []byte) {
	ls := tpl.NewLines(src)
	at := func(off int) int { l, _ := ls.At(off); return l }
	i := 0
	for {
		j := bytes.IndexByte(src[i:], '{')
		if j < 0 {
			break
		}
		i += j
		if i+1 >= len(src) {
			break
		}
		var end string
		switch src[i+1] {
		case '{':
			end = "}}"
		case '%':
			end = "%}"
		case '#':
			end = "#}"
		default:
			i++
			continue
		}
		start := i
		body := i + 2
		var toks []token
		k := -1
		if end == "#}" {
			if e := bytes.Index(src[body:], []byte("#}")); e >= 0 {
				k = body + e
			}
		} else {
			toks, k = lex(src, body, end)
		}
		if k < 0 {
			b.Problem(at(start), "unclosed "+string(src[start:start+2]))
			return
		}
		i = k + 2
		if end == "#}" {
			continue
		}
		toks = trimControl(toks)
		if end == "%}" {
			i = tag(b, src, toks, start, i, at)
		} else {
			expr(b, toks, at)
		}
	}
}

// trimControl drops the whitespace-control marks {%- -%} {{~ ~}}.
func trimControl(toks []token) []token {
	if len(toks) > 0 && toks[0].typ == 'p' && (toks[0].val == "-" || toks[0].val == "~") {
		toks = toks[1:]
	}
	if n := len(toks); n > 0 && toks[n-1].typ == 'p' && (toks[n-1].val == "-" || toks[n-1].val == "~") {
		toks = toks[:n-1]
	}
	return toks
}

// lex reads the tokens from off up to end ("}}" or "%}") outside strings;
// it returns the tokens and the offset of end, or -1 when the tag is not
// closed.
func lex(src []byte, off int, end string) ([]token, int) {
	var toks []token
	depth := 0 // open { of hashes inside a print: "}}" closes only at depth 0
	for i := off; i < len(src); {
		c := src[i]
		switch {
		case c == end[0] && i+1 < len(src) && src[i+1] == '}' && (end == "%}" || depth == 0):
			return toks, i
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'' || c == '"':
			j, val, dyn, ok := str(src, i)
			if !ok {
				return toks, -1
			}
			toks = append(toks, token{typ: 's', val: val, off: i, dyn: dyn})
			i = j
		case isNameStart(c):
			j := i + 1
			for j < len(src) && isName(src[j]) {
				j++
			}
			toks = append(toks, token{typ: 'n', val: string(src[i:j]), off: i})
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' || src[j] == '_') {
				j++
			}
			toks = append(toks, token{typ: '0', val: string(src[i:j]), off: i})
			i = j
		default:
			if c == '{' {
				depth++
			} else if c == '}' && depth > 0 {
				depth--
			}
			toks = append(toks, token{typ: 'p', val: string(c), off: i})
			i++
		}
	}
	return toks, -1
}

// str reads the string literal at src[i]; it returns the offset after it,
// its content with escapes removed and whether it interpolates.
func str(src []byte, i int) (int, string, bool, bool) {
	q := src[i]
	var sb strings.Builder
	dyn := false
	for j := i + 1; j < len(src); j++ {
		c := src[j]
		switch {
		case c == '\\' && j+1 < len(src):
			j++
			sb.WriteByte(src[j])
		case c == q:
			return j + 1, sb.String(), dyn, true
		case q == '"' && c == '#' && j+1 < len(src) && src[j+1] == '{':
			dyn = true
			sb.WriteByte(c)
		default:
			sb.WriteByte(c)
		}
	}
	return len(src), "", false, false
}

func isNameStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isName(c byte) bool { return isNameStart(c) || c >= '0' && c <= '9' }

// tag handles one {% %} tag whose tokens are toks, spanning src[start:next];
// it returns the offset the scan goes on from (past a verbatim block).
func tag(b *tpl.Builder, src []byte, toks []token, start, next int, at func(int) int) int {
	if len(toks) == 0 || toks[0].typ != 'n' {
		return next
	}
	ln := at(start)
	name, args := toks[0].val, toks[1:]
	switch name {
	case "verbatim", "raw":
		endTag := "end" + name
		for i := next; ; {
			j := bytes.Index(src[i:], []byte("{%"))
			if j < 0 {
				b.Problem(ln, name+" not closed")
				return len(src)
			}
			ts, k := lex(src, i+j+2, "%}")
			if k < 0 {
				b.Problem(at(i+j), "unclosed {%")
				return len(src)
			}
			ts = trimControl(ts)
			if len(ts) == 1 && ts[0].val == endTag {
				return k + 2
			}
			i = k + 2
		}
	case "extends", "sw_extends":
		templates(b, args, "extends", name, at)
	case "include", "sw_include", "form_theme":
		if name == "form_theme" && len(args) > 0 {
			args = args[1:] // the form
		}
		templates(b, args, "includes", name, at)
	case "embed":
		templates(b, args, "includes", name, at)
		b.Push("embed")
	case "endembed":
		b.Close("embed", ln)
	case "import", "from", "use":
		templates(b, args, "imports", name, at)
	case "block":
		if len(args) == 0 || args[0].typ != 'n' {
			b.Problem(ln, "block without a name")
			return next
		}
		if len(args) > 1 { // {% block title 'text' %}: no end tag
			b.Node(fact.Block, args[0].val, "{% block "+args[0].val+" %}", ln, at(next-1), "")
		} else {
			b.Node(fact.Block, args[0].val, "{% block "+args[0].val+" %}", ln, 0, "block")
		}
	case "endblock":
		b.Close("block", ln)
	case "macro":
		if len(args) == 0 || args[0].typ != 'n' {
			b.Problem(ln, "macro without a name")
			return next
		}
		b.Node(fact.Macro, args[0].val, "{% macro "+signature(src, args)+" %}", ln, 0, "macro")
	case "endmacro":
		b.Close("macro", ln)
	}
	expr(b, args, at)
	return next
}

// signature is the macro's name and parameters as written.
func signature(src []byte, args []token) string {
	if len(args) > 1 && args[1].val == "(" {
		depth := 0
		for _, t := range args[1:] {
			if t.typ == 'p' && t.val == "(" {
				depth++
			} else if t.typ == 'p' && t.val == ")" {
				depth--
				if depth == 0 {
					return strings.Join(strings.Fields(string(src[args[0].off:t.off+1])), " ")
				}
			}
		}
	}
	return args[0].val
}

// templateEnd are the words that end the template expression of include,
// embed, import and use.
var templateEnd = map[string]bool{"with": true, "only": true, "ignore": true, "as": true, "import": true}

// templates references each string literal of the template expression at
// the head of args (several for a conditional or a list).
func templates(b *tpl.Builder, args []token, rel, via string, at func(int) int) {
	for _, t := range args {
		if t.typ == 'n' && templateEnd[t.val] {
			return
		}
		if t.typ == 's' && !t.dyn && t.val != "" {
			b.Ref(fact.RefTemplate, t.val, at(t.off), 0, map[string]string{"rel": rel, "via": via, "engine": Lang})
		}
	}
}

// keywords are the operators and literals of Twig's expression language:
// never a function.
var keywords = map[string]bool{"and": true, "or": true, "not": true, "in": true, "is": true, "matches": true,
	"starts": true, "ends": true, "with": true, "true": true, "false": true, "null": true, "none": true,
	"b-and": true, "b-or": true, "b-xor": true, "if": true, "else": true, "for": true, "as": true, "only": true,
	"TRUE": true, "FALSE": true, "NULL": true, "same": true, "defined": true}

// core are the functions, filters and tests Twig itself defines and the
// ones the template links otherwise (include, source, path, url): no
// project extension defines them, so they are not referenced.
var core = map[string]bool{
	// functions
	"attribute": true, "block": true, "constant": true, "cycle": true, "date": true, "dump": true,
	"include": true, "max": true, "min": true, "parent": true, "random": true, "range": true, "source": true,
	"template_from_string": true, "country_timezones": true, "enum": true, "enum_cases": true,
	// filters
	"abs": true, "batch": true, "capitalize": true, "column": true, "convert_encoding": true,
	"date_modify": true, "default": true, "e": true, "escape": true, "filter": true, "first": true,
	"format": true, "join": true, "json_encode": true, "keys": true, "last": true, "length": true,
	"lower": true, "map": true, "merge": true, "nl2br": true, "number_format": true, "raw": true,
	"reduce": true, "replace": true, "reverse": true, "round": true, "slice": true, "sort": true,
	"spaceless": true, "split": true, "striptags": true, "title": true, "trim": true, "upper": true,
	"url_encode": true, "find": true, "shuffle": true, "invoke": true,
	// tests
	"divisible": true, "empty": true, "even": true, "iterable": true, "odd": true, "sameas": true,
	"constant_test": true,
	// linked as routes
	"path": true, "url": true,
}

// expr finds in an expression the functions and filters called, the routes
// named by path() and url(), and templates named by include() and source().
func expr(b *tpl.Builder, toks []token, at func(int) int) {
	for i, t := range toks {
		if t.typ != 'n' || keywords[t.val] {
			continue
		}
		prev := ""
		if i > 0 && toks[i-1].typ == 'p' {
			prev = toks[i-1].val
		}
		call := i+1 < len(toks) && toks[i+1].typ == 'p' && toks[i+1].val == "("
		var kind string
		switch {
		case prev == "|":
			kind = "filter"
		case prev == "." || prev == "?" && i > 1 && toks[i-2].val == "?": // a.b(), a?.b()
			continue
		case i > 0 && toks[i-1].typ == 'n' && toks[i-1].val == "is", i > 1 && toks[i-1].val == "not" && toks[i-2].val == "is":
			kind = "test"
		case call && !keywords[t.val]:
			kind = "function"
		default:
			continue
		}
		if kind == "function" {
			arg := firstString(toks[i+1:])
			switch t.val {
			case "path", "url":
				if arg != nil {
					b.Ref(fact.RefRouteName, arg.val, at(arg.off), 0, map[string]string{"via": t.val + "()"})
				}
			case "include", "source":
				if arg != nil {
					b.Ref(fact.RefTemplate, arg.val, at(arg.off), 0, map[string]string{"rel": "includes", "via": t.val + "()", "engine": Lang})
				}
			}
		}
		if core[t.val] {
			continue
		}
		b.Ref(fact.RefTemplateFunc, t.val, at(t.off), 0, map[string]string{"kind": kind})
	}
}

// firstString is the first argument of a call whose tokens start at "(",
// when it is a plain string literal.
func firstString(toks []token) *token {
	if len(toks) > 1 && toks[1].typ == 's' && !toks[1].dyn {
		if len(toks) > 2 && toks[2].typ == 'p' && (toks[2].val == "," || toks[2].val == ")") {
			return &toks[1]
		}
	}
	return nil
}
