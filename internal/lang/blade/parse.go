package blade

import (
	"regexp"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang/tpl"
)

// scanner walks one Blade template.
type scanner struct {
	b   *tpl.Builder
	src string
	ls  tpl.Lines
}

func (s *scanner) line(off int) int { l, _ := s.ls.At(off); return l }

// closers maps an end directive to the start directive it closes.
var closers = map[string]string{
	"endsection": "section", "stop": "section", "show": "section", "append": "section", "overwrite": "section",
	"endpush": "push", "endprepend": "prepend", "endpushonce": "pushonce", "endprependonce": "prependonce",
	"endcomponent": "component", "endslot": "slot", "endfragment": "fragment",
}

// refPattern finds the helpers called inside echoes and directive arguments
// with a literal first argument: route names, views, components.
var refPattern = regexp.MustCompile(`(?:^|[^\w$>:\\])(route|to_route|view|__|trans|trans_choice)\(\s*(?:'([^'\\]*)'|"([^"\\$]*)")`)

// componentTag matches <x-name and <x-ns::name.
var componentTag = regexp.MustCompile(`<x-([\w\-.:]+)`)

// parse reads a Blade template: {{-- --}} comments, @verbatim and @php
// blocks are skipped; directives, echoes and component tags are read.
func parse(b *tpl.Builder, src []byte) {
	s := &scanner{b: b, src: string(src), ls: tpl.NewLines(src)}
	text := s.src
	i := 0
	for i < len(text) {
		c := text[i]
		switch {
		case strings.HasPrefix(text[i:], "{{--"):
			j := strings.Index(text[i+4:], "--}}")
			if j < 0 {
				b.Problem(s.line(i), "unclosed {{--")
				return
			}
			i += 4 + j + 4
		case strings.HasPrefix(text[i:], "{{") || strings.HasPrefix(text[i:], "{!!"):
			end := "}}"
			if text[i+1] == '!' {
				end = "!!}"
			}
			j := strings.Index(text[i+2:], end)
			if j < 0 {
				b.Problem(s.line(i), "unclosed "+text[i:i+2])
				return
			}
			s.php(i+2, text[i+2:i+2+j])
			i += 2 + j + len(end)
		case c == '<' && strings.HasPrefix(text[i:], "<x-"):
			if m := componentTag.FindStringSubmatch(text[i:]); m != nil {
				name := m[1]
				if name != "slot" && !strings.HasPrefix(name, "slot:") && name != "dynamic-component" {
					b.Ref(fact.RefComponent, name, s.line(i), 0, map[string]string{"via": "<x-" + name + ">"})
				}
				i += len(m[0])
			} else {
				i++
			}
		case c == '@' && (i == 0 || !isWord(text[i-1])):
			i = s.directive(i)
		default:
			i++
		}
	}
}

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '@' || c == '.'
}

// directive reads the directive at text[i] ('@'); it returns where the scan
// goes on.
func (s *scanner) directive(i int) int {
	text := s.src
	j := i + 1
	for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
		j++
	}
	name := text[i+1 : j]
	if name == "" {
		return j
	}
	lname := strings.ToLower(name)
	ln := s.line(i)
	args, next := "", j
	k := j
	for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	if k < len(text) && text[k] == '(' {
		end := matchParen(text, k)
		if end < 0 {
			if knownDirective(lname) {
				s.b.Problem(ln, "@"+name+" not closed by )")
			}
			return j
		}
		args, next = text[k+1:end], end+1
	}
	first := ""
	if a := splitArgs(args); len(a) > 0 {
		first = pureLiteral(a[0])
	}
	ref := func(rel, name string) {
		s.b.Ref(fact.RefTemplate, name, ln, 0, map[string]string{"rel": rel, "via": "@" + lname, "engine": Lang})
	}
	switch lname {
	case "verbatim", "php":
		if lname == "php" && args != "" {
			s.php(j, args)
			return next
		}
		end := "@end" + lname
		e := strings.Index(strings.ToLower(text[next:]), end)
		if e < 0 {
			s.b.Problem(ln, "@"+name+" not closed by "+end)
			return len(text)
		}
		if lname == "php" {
			s.php(next, text[next:next+e])
		}
		return next + e + len(end)
	case "extends":
		if first != "" {
			ref("extends", first)
		}
	case "include", "includeif", "includefirst", "includewhen", "includeunless", "each":
		switch lname {
		case "includewhen", "includeunless":
			if a := splitArgs(args); len(a) > 1 {
				if l := pureLiteral(a[1]); l != "" {
					ref("includes", l)
				}
			}
		case "includefirst":
			if a := splitArgs(args); len(a) > 0 {
				for _, l := range literals(a[0]) {
					ref("includes", l)
				}
			}
		case "each":
			a := splitArgs(args)
			for idx, x := range a {
				if idx == 0 || idx == 3 {
					if l := pureLiteral(x); l != "" {
						ref("includes", l)
					}
				}
			}
		default:
			if first != "" {
				ref("includes", first)
			}
		}
	case "component":
		if first != "" {
			ref("includes", first)
		}
		s.b.Push("component")
	case "section", "push", "prepend", "pushonce", "prependonce", "fragment":
		if first == "" {
			break
		}
		if len(splitArgs(args)) > 1 { // @section('title', 'text'), @push('x', 'y'): no end
			if lname == "section" {
				s.b.Node(fact.Block, first, "@section('"+first+"')", ln, ln, "")
			}
			break
		}
		if lname == "section" || lname == "fragment" {
			s.b.Node(fact.Block, first, "@"+lname+"('"+first+"')", ln, 0, lname)
		} else {
			s.b.Push(lname)
		}
	case "yield", "stack":
		if first != "" {
			s.b.Node(fact.Block, first, "@"+lname+"('"+first+"')", ln, ln, "")
		}
	case "slot":
		if len(splitArgs(args)) < 2 {
			s.b.Push("slot")
		}
	case "lang", "choice":
		// translations: linked when translation keys are indexed
	case "livewire":
		if first != "" {
			s.b.Ref(fact.RefComponent, first, ln, 0, map[string]string{"via": "@livewire", "kind": "livewire"})
		}
	default:
		if c, ok := closers[lname]; ok {
			s.b.Close(c, ln)
			return next
		}
	}
	if args != "" {
		s.php(j, args)
	}
	return next
}

// knownDirective reports whether a missing ")" after @name is a problem:
// "@" followed by a word is often an e-mail or a decorator in text.
func knownDirective(n string) bool {
	switch n {
	case "extends", "include", "includeif", "includewhen", "includeunless", "includefirst", "each", "section",
		"yield", "push", "prepend", "stack", "component", "slot", "if", "elseif", "foreach", "for", "while":
		return true
	}
	return false
}

// php finds the helpers a PHP expression calls with a literal name.
func (s *scanner) php(off int, code string) {
	for _, m := range refPattern.FindAllStringSubmatchIndex(code, -1) {
		fn := code[m[2]:m[3]]
		arg := ""
		if m[4] >= 0 {
			arg = code[m[4]:m[5]]
		} else {
			arg = code[m[6]:m[7]]
		}
		ln := s.line(off + m[2])
		switch fn {
		case "route", "to_route":
			s.b.Ref(fact.RefRouteName, arg, ln, 0, map[string]string{"via": fn + "()"})
		case "view":
			s.b.Ref(fact.RefTemplate, arg, ln, 0, map[string]string{"rel": "references", "via": "view()", "engine": Lang})
		}
	}
}

// matchParen returns the offset of the ")" closing text[open], skipping
// strings; -1 when it is not closed.
func matchParen(text string, open int) int {
	depth := 0
	for i := open; i < len(text); i++ {
		switch c := text[i]; c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		case '\'', '"':
			j := skipString(text, i)
			if j < 0 {
				return -1
			}
			i = j
		case '\n':
			if depth == 1 && i-open > 4000 {
				return -1
			}
		}
	}
	return -1
}

// skipString returns the offset of the quote closing the string at text[i].
func skipString(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		if text[j] == '\\' {
			j++
			continue
		}
		if text[j] == q {
			return j
		}
	}
	return -1
}

// splitArgs splits an argument list at its top-level commas.
func splitArgs(args string) []string {
	if strings.TrimSpace(args) == "" {
		return nil
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(args); i++ {
		switch c := args[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '\'', '"':
			if j := skipString(args, i); j >= 0 {
				i = j
			}
		case ',':
			if depth == 0 {
				out = append(out, args[start:i])
				start = i + 1
			}
		}
	}
	return append(out, args[start:])
}

// literals lists the plain string literals of a PHP expression, in order
// (a double-quoted one with a $ interpolates and is left out).
func literals(code string) []string {
	var out []string
	for i := 0; i < len(code); i++ {
		if c := code[i]; c == '\'' || c == '"' {
			j := skipString(code, i)
			if j < 0 {
				return out
			}
			v := code[i+1 : j]
			if !(c == '"' && strings.Contains(v, "$")) {
				out = append(out, strings.ReplaceAll(strings.ReplaceAll(v, `\'`, `'`), `\\`, `\`))
			}
			i = j
		}
	}
	return out
}

// pureLiteral is the value of an argument that is one plain string
// literal, "" otherwise ('a-' . $x names no template).
func pureLiteral(arg string) string {
	arg = strings.TrimSpace(arg)
	if l := literals(arg); len(l) == 1 && len(arg) >= 2 && (arg[0] == '\'' || arg[0] == '"') && skipString(arg, 0) == len(arg)-1 {
		return l[0]
	}
	return ""
}
