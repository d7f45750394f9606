// This file reads PHP literal arrays, which is all the suites' expectation
// files and data providers are made of: strings, nested arrays ([…] or
// array(…)), keys with =>, concatenation with . and bare constants.

package suite

import (
	"fmt"
	"strings"
)

// Value is a PHP literal: a string (Str; constants are kept by name), or an
// array (List, with Keys[i] the key of List[i], "" when positional).
type Value struct {
	Str     string
	IsArray bool
	List    []Value
	Keys    []string
}

// Get returns the element under key k of an array.
func (v Value) Get(k string) (Value, bool) {
	for i, key := range v.Keys {
		if key == k {
			return v.List[i], true
		}
	}
	return Value{}, false
}

type lexer struct {
	s   string
	pos int
}

// ParseArray parses the first array literal at or after offset from in
// src ("[" or "array(").
func ParseArray(src string, from int) (Value, error) {
	i := strings.IndexAny(src[from:], "[")
	j := strings.Index(strings.ToLower(src[from:]), "array(")
	if i < 0 && j < 0 {
		return Value{}, fmt.Errorf("no array after offset %d", from)
	}
	if i < 0 || j >= 0 && j < i {
		i = j
	}
	l := &lexer{s: src, pos: from + i}
	return l.value()
}

func (l *lexer) skip() {
	for l.pos < len(l.s) {
		c := l.s[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			l.pos++
		case strings.HasPrefix(l.s[l.pos:], "//") || c == '#':
			if k := strings.IndexByte(l.s[l.pos:], '\n'); k >= 0 {
				l.pos += k
			} else {
				l.pos = len(l.s)
			}
		case strings.HasPrefix(l.s[l.pos:], "/*"):
			if k := strings.Index(l.s[l.pos+2:], "*/"); k >= 0 {
				l.pos += k + 4
			} else {
				l.pos = len(l.s)
			}
		default:
			return
		}
	}
}

func (l *lexer) peek(tok string) bool {
	l.skip()
	return strings.HasPrefix(strings.ToLower(l.s[l.pos:]), tok)
}

func (l *lexer) errf(format string, a ...any) error {
	line := strings.Count(l.s[:min(l.pos, len(l.s))], "\n") + 1
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, a...))
}

// value parses one expression: a term, then any . concatenations.
func (l *lexer) value() (Value, error) {
	v, err := l.term()
	if err != nil {
		return v, err
	}
	for l.peek(".") && !v.IsArray {
		l.pos++
		w, err := l.term()
		if err != nil {
			return v, err
		}
		v.Str += w.Str
	}
	return v, nil
}

func (l *lexer) term() (Value, error) {
	l.skip()
	if l.pos >= len(l.s) {
		return Value{}, l.errf("unexpected end")
	}
	switch c := l.s[l.pos]; {
	case c == '\'':
		return l.single()
	case c == '"':
		return l.double()
	case c == '[':
		l.pos++
		return l.array("]")
	case l.peek("array("):
		l.pos += len("array(")
		return l.array(")")
	default:
		start := l.pos
		for l.pos < len(l.s) && (isWord(l.s[l.pos]) || l.s[l.pos] == '\\' || l.s[l.pos] == ':') {
			l.pos++
		}
		if start == l.pos {
			return Value{}, l.errf("unexpected %q", l.s[l.pos])
		}
		name := strings.TrimLeft(l.s[start:l.pos], "\\")
		if name == "DIRECTORY_SEPARATOR" {
			return Value{Str: "/"}, nil
		}
		return Value{Str: name}, nil
	}
}

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (l *lexer) array(end string) (Value, error) {
	v := Value{IsArray: true}
	for {
		if l.peek(end) {
			l.pos++
			return v, nil
		}
		e, err := l.value()
		if err != nil {
			return v, err
		}
		key := ""
		if l.peek("=>") {
			l.pos += 2
			key = e.Str
			if e, err = l.value(); err != nil {
				return v, err
			}
		}
		v.List, v.Keys = append(v.List, e), append(v.Keys, key)
		if l.peek(",") {
			l.pos++
		} else if !l.peek(end) {
			return v, l.errf("expected , or %s", end)
		}
	}
}

// single reads a single-quoted string: only \' and \\ are escapes.
func (l *lexer) single() (Value, error) {
	var b strings.Builder
	for l.pos++; l.pos < len(l.s); l.pos++ {
		c := l.s[l.pos]
		if c == '\\' && l.pos+1 < len(l.s) && (l.s[l.pos+1] == '\'' || l.s[l.pos+1] == '\\') {
			l.pos++
			b.WriteByte(l.s[l.pos])
			continue
		}
		if c == '\'' {
			l.pos++
			return Value{Str: b.String()}, nil
		}
		b.WriteByte(c)
	}
	return Value{}, l.errf("unterminated string")
}

// double reads a double-quoted string with the common escapes; the
// expectation files never interpolate.
func (l *lexer) double() (Value, error) {
	var b strings.Builder
	for l.pos++; l.pos < len(l.s); l.pos++ {
		c := l.s[l.pos]
		if c == '\\' && l.pos+1 < len(l.s) {
			l.pos++
			switch e := l.s[l.pos]; e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '"', '\\', '$':
				b.WriteByte(e)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
			continue
		}
		if c == '"' {
			l.pos++
			return Value{Str: b.String()}, nil
		}
		b.WriteByte(c)
	}
	return Value{}, l.errf("unterminated string")
}
