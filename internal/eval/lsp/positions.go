// This file finds where a symbol is named on a line: the column an LSP request
// asks at, for definitions, uses and aliases.

package lsp

import (
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// position finds name as a whole word on line ln (1-based) of p, from byte
// column from, and returns the LSP position (UTF-16 column).
func (e *evaluator) position(p string, ln int, name string) (position, bool) {
	lines := e.lines(p)
	if ln < 1 || ln > len(lines) {
		return position{}, false
	}
	text := lines[ln-1]
	// the name as written first: in `class Inner { function inner() {} }`
	// the method is the second word
	col := caseIndex(text, name)
	if col < 0 {
		col = wordIndex(text, name)
	}
	if col < 0 {
		return position{}, false
	}
	return positionAt(ln, text, col), true
}

// usePosition finds n's name at a use site: for a member, the occurrence
// after `::` or `->` first (`const X = Foo::X;` names X twice). It reports
// false when the name is written inside a string literal (a callback such as
// 'func' or '\\Ns\\func'): language servers answer no definition there.
func (e *evaluator) usePosition(p string, ln int, n fact.Node) (position, bool) {
	lines := e.lines(p)
	if ln < 1 || ln > len(lines) {
		return position{}, false
	}
	text := lines[ln-1]
	col := memberIndex(text, n)
	if col < 0 && n.Kind == fact.Constant {
		col = caseIndex(text, n.Name) // constant names are case-sensitive
	} else if col < 0 {
		col = useIndex(text, n.Name)
	}
	if col >= 2 && memberIndex(text, n) != col && (text[col-2:col] == "->" || text[col-2:col] == "::") {
		return position{}, false // a member of the other kind (`$this->m` where m() is asked)
	}
	if col < 0 {
		return position{}, false
	}
	if inString(text, col) {
		return position{}, false // a callback or hook name: servers answer no definition there
	}
	return positionAt(ln, text, col), true
}

func wordIndex(text, name string) int {
	lt, ln := strings.ToLower(text), strings.ToLower(name)
	for off := 0; ; {
		i := strings.Index(lt[off:], ln)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(ln)
		// a variable of the same name is not the symbol
		if (i == 0 || !wordByte(lt[i-1]) && lt[i-1] != '$') && (end >= len(lt) || !wordByte(lt[end])) {
			return i
		}
		off = i + 1
	}
}

// memberIndex finds a member's name after `::` or `->`, where a method's is
// followed by `(` and a property's or constant's is not, so `$this->m` (a
// property) is not taken for a call of m(); -1 when there is none.
func memberIndex(text string, n fact.Node) int {
	if n.Kind != fact.Method && n.Kind != fact.Constant && n.Kind != fact.Property {
		return -1
	}
	lt, name := strings.ToLower(text), strings.ToLower(n.Name)
	if n.Kind == fact.Constant {
		lt, name = text, n.Name
	}
	for _, sep := range []string{"::", "->"} {
		for off := 0; ; {
			i := strings.Index(lt[off:], sep+name)
			if i < 0 {
				break
			}
			i += off
			start, end := i+len(sep), i+len(sep)+len(name)
			off = end
			if end < len(lt) && wordByte(lower(lt[end])) {
				continue
			}
			call := strings.HasPrefix(strings.TrimLeft(lt[end:], " \t"), "(")
			if call == (n.Kind == fact.Method) {
				return start
			}
		}
	}
	return -1
}

// caseIndex is the first occurrence of name as a whole word, case kept.
func caseIndex(text, name string) int {
	for off := 0; off < len(text); {
		i := strings.Index(text[off:], name)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(name)
		if (i == 0 || !wordByte(lower(text[i-1])) && text[i-1] != '$') && (end >= len(text) || !wordByte(lower(text[end]))) {
			return i
		}
		off = i + 1
	}
	return -1
}

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// useIndex is wordIndex skipping names that a declaration on the line
// declares: in `class Pdf extends PdfLib` (PdfLib an alias of another Pdf)
// the use is not at `Pdf`, and asking there gets the declaration's own place.
func useIndex(text, name string) int {
	for off := 0; off < len(text); {
		i := wordIndex(text[off:], name)
		if i < 0 {
			return -1
		}
		i += off
		before := strings.Fields(strings.ToLower(text[:i]))
		if len(before) == 0 || !declKeyword[before[len(before)-1]] {
			return i
		}
		off = i + len(name)
	}
	return -1
}

// selfInDocType tells whether a docblock line names constant name through
// self:: or static:: (`@psalm-var self::SUPPORT_NO|self::SUPPORT_YES`).
func selfInDocType(line, name string) bool {
	return strings.HasPrefix(strings.TrimLeft(strings.TrimSpace(line), "/"), "*") &&
		(strings.Contains(line, "self::"+name) || strings.Contains(line, "static::"+name))
}

// onlyInStrings tells whether name occurs on the line as a word and every
// occurrence is inside a quoted string literal. For a function or a global
// constant (member false), a name after `->` or `::` is a member of that
// name, neither a use nor a string.
func onlyInStrings(text, name string, member bool) bool {
	seen := false
	for off := 0; off < len(text); {
		i := wordIndex(text[off:], name)
		if i < 0 {
			break
		}
		at := off + i
		off = at + len(name)
		if !member && at >= 2 && (text[at-2:at] == "->" || text[at-2:at] == "::") {
			continue // `$this->app` is no use of the function app()
		}
		if !inString(text, at) {
			return false
		}
		seen = true
	}
	return seen
}

// isMember tells whether n belongs to a class: method, property or class
// constant.
func isMember(n fact.Node) bool {
	return n.Kind == fact.Method || n.Kind == fact.Property || strings.Contains(n.QName, "::")
}

// inString tells whether byte col of a line is inside a quoted string
// literal that opens on that line.
func inString(text string, col int) bool {
	var quote byte
	for i := 0; i < col && i < len(text); i++ {
		switch c := text[i]; {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		}
	}
	return quote != 0
}

var declKeyword = map[string]bool{"class": true, "interface": true, "trait": true, "enum": true, "function": true, "const": true}

func wordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 0x80
}

// declPosition finds the declared name of n: the first line of its range
// (after attributes) that holds the name as a word.
func (e *evaluator) declPosition(n fact.Node) (position, bool) {
	name := n.Name
	for ln := n.StartLine; ln <= n.EndLine && ln < n.StartLine+20; ln++ {
		if t := strings.TrimSpace(e.lineText(n.Path, ln)); strings.HasPrefix(t, "#[") {
			continue
		}
		if n.Props["define"] == "true" {
			if p, ok := e.definePosition(n.Path, ln, name); ok {
				return p, true
			}
			continue
		}
		if p, ok := e.position(n.Path, ln, name); ok {
			return p, true
		}
	}
	return position{}, false
}

// definePosition finds the constant name a define() call on the line
// declares: in `if (!defined('X')) define('X', 1);` the first X is a check,
// and a server asked there lists no references.
func (e *evaluator) definePosition(p string, ln int, name string) (position, bool) {
	text := e.lineText(p, ln)
	for off := 0; off < len(text); {
		i := wordIndex(text[off:], "define")
		if i < 0 {
			return position{}, false
		}
		off += i + len("define")
		if !strings.HasPrefix(strings.TrimLeft(text[off:], " \t"), "(") {
			continue
		}
		if j := wordIndex(text[off:], name); j >= 0 {
			col := off + j
			return positionAt(ln, text, col), true
		}
	}
	return position{}, false
}

func (e *evaluator) lineText(p string, ln int) string {
	l := e.lines(p)
	if ln < 1 || ln > len(l) {
		return ""
	}
	return l[ln-1]
}
