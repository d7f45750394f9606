// This file is the JSONC editor the installers use for .mcp.json,
// settings.json and the other JSON configs: it parses JSON with comments and
// trailing commas into nodes that remember their byte spans, and edits the
// text by splicing those spans, so comments, key order, indentation and line
// endings outside the edited member stay byte for byte. Values it inserts are
// indented like their siblings. The TOML half is toml.go.

package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// nodeKind is the JSON type of a node.
type nodeKind int

const (
	kindObject nodeKind = iota
	kindArray
	kindString
	kindNumber
	kindLiteral // true, false, null
)

// node is one parsed JSON value and its span [start, end) in the text.
type node struct {
	kind       nodeKind
	start, end int
	members    []member // objects
	elems      []*node  // arrays
}

// member is one key of an object.
type member struct {
	key      string
	keyStart int
	value    *node
}

// get returns the value of key in an object, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kindObject {
		return nil
	}
	for i := len(n.members) - 1; i >= 0; i-- { // the last duplicate wins, as in encoding/json
		if n.members[i].key == key {
			return n.members[i].value
		}
	}
	return nil
}

// jsoncDoc is a JSONC text and its parse.
type jsoncDoc struct {
	src  []byte
	root *node
}

// jsonSyntaxError is a parse failure at a byte offset.
type jsonSyntaxError struct {
	off int
	msg string
}

func (e *jsonSyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.off, e.msg) }

// parseJSONC parses src. An empty or blank text is an empty object.
func parseJSONC(src []byte) (*jsoncDoc, error) {
	p := &jsoncParser{src: src}
	p.skip()
	if p.i == len(src) {
		return &jsoncDoc{src: src}, nil
	}
	root, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skip()
	if p.i != len(src) {
		return nil, &jsonSyntaxError{p.i, "text after the top-level value"}
	}
	return &jsoncDoc{src: src, root: root}, nil
}

type jsoncParser struct {
	src []byte
	i   int
}

// skip passes whitespace and comments.
func (p *jsoncParser) skip() {
	for p.i < len(p.src) {
		c := p.src[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || (c == 0xEF && bytes.HasPrefix(p.src[p.i:], []byte("\xEF\xBB\xBF")) && p.i == 0):
			if c == 0xEF {
				p.i += 3
			} else {
				p.i++
			}
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '/':
			for p.i < len(p.src) && p.src[p.i] != '\n' {
				p.i++
			}
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '*':
			end := bytes.Index(p.src[p.i+2:], []byte("*/"))
			if end < 0 {
				p.i = len(p.src)
				return
			}
			p.i += 2 + end + 2
		default:
			return
		}
	}
}

func (p *jsoncParser) value(depth int) (*node, error) {
	if depth > 200 {
		return nil, &jsonSyntaxError{p.i, "nesting too deep"}
	}
	if p.i >= len(p.src) {
		return nil, &jsonSyntaxError{p.i, "unexpected end of text"}
	}
	start := p.i
	switch c := p.src[p.i]; {
	case c == '{':
		n := &node{kind: kindObject, start: start}
		p.i++
		for {
			p.skip()
			if p.i >= len(p.src) {
				return nil, &jsonSyntaxError{p.i, "unterminated object"}
			}
			if p.src[p.i] == '}' {
				p.i++
				n.end = p.i
				return n, nil
			}
			if len(n.members) > 0 {
				if p.src[p.i] != ',' {
					return nil, &jsonSyntaxError{p.i, "expected , or } in object"}
				}
				p.i++
				p.skip()
				if p.i < len(p.src) && p.src[p.i] == '}' { // trailing comma
					p.i++
					n.end = p.i
					return n, nil
				}
			}
			if p.i >= len(p.src) || p.src[p.i] != '"' {
				return nil, &jsonSyntaxError{p.i, "expected a string key"}
			}
			ks := p.i
			kn, err := p.str()
			if err != nil {
				return nil, err
			}
			var key string
			if err := json.Unmarshal(p.src[kn.start:kn.end], &key); err != nil {
				return nil, &jsonSyntaxError{ks, "bad key: " + err.Error()}
			}
			p.skip()
			if p.i >= len(p.src) || p.src[p.i] != ':' {
				return nil, &jsonSyntaxError{p.i, "expected : after key"}
			}
			p.i++
			p.skip()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.members = append(n.members, member{key: key, keyStart: ks, value: v})
		}
	case c == '[':
		n := &node{kind: kindArray, start: start}
		p.i++
		for {
			p.skip()
			if p.i >= len(p.src) {
				return nil, &jsonSyntaxError{p.i, "unterminated array"}
			}
			if p.src[p.i] == ']' {
				p.i++
				n.end = p.i
				return n, nil
			}
			if len(n.elems) > 0 {
				if p.src[p.i] != ',' {
					return nil, &jsonSyntaxError{p.i, "expected , or ] in array"}
				}
				p.i++
				p.skip()
				if p.i < len(p.src) && p.src[p.i] == ']' {
					p.i++
					n.end = p.i
					return n, nil
				}
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, v)
		}
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		for p.i < len(p.src) && strings.IndexByte("+-.eE0123456789", p.src[p.i]) >= 0 {
			p.i++
		}
		if !json.Valid(p.src[start:p.i]) {
			return nil, &jsonSyntaxError{start, "bad number"}
		}
		return &node{kind: kindNumber, start: start, end: p.i}, nil
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if bytes.HasPrefix(p.src[p.i:], []byte(lit)) {
				p.i += len(lit)
				return &node{kind: kindLiteral, start: start, end: p.i}, nil
			}
		}
		return nil, &jsonSyntaxError{p.i, fmt.Sprintf("unexpected character %q", c)}
	}
}

func (p *jsoncParser) str() (*node, error) {
	start := p.i
	p.i++
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case '\\':
			p.i += 2
		case '"':
			p.i++
			if !json.Valid(p.src[start:p.i]) {
				return nil, &jsonSyntaxError{start, "bad string"}
			}
			return &node{kind: kindString, start: start, end: p.i}, nil
		case '\n':
			return nil, &jsonSyntaxError{p.i, "newline in string"}
		default:
			p.i++
		}
	}
	return nil, &jsonSyntaxError{start, "unterminated string"}
}

// plainJSON returns the span of n as strict JSON: comments and trailing
// commas removed.
func (d *jsoncDoc) plainJSON(n *node) []byte {
	var b bytes.Buffer
	var walk func(n *node)
	walk = func(n *node) {
		switch n.kind {
		case kindObject:
			b.WriteByte('{')
			for i, m := range n.members {
				if i > 0 {
					b.WriteByte(',')
				}
				kn := &jsoncParser{src: d.src, i: m.keyStart}
				k, _ := kn.str()
				b.Write(d.src[k.start:k.end])
				b.WriteByte(':')
				walk(m.value)
			}
			b.WriteByte('}')
		case kindArray:
			b.WriteByte('[')
			for i, e := range n.elems {
				if i > 0 {
					b.WriteByte(',')
				}
				walk(e)
			}
			b.WriteByte(']')
		default:
			b.Write(d.src[n.start:n.end])
		}
	}
	walk(n)
	return b.Bytes()
}

// decode returns the value of n as encoding/json would decode it.
func (d *jsoncDoc) decode(n *node) any {
	var v any
	_ = json.Unmarshal(d.plainJSON(n), &v)
	return v
}

// sameValue reports whether n holds the same JSON value as want.
func (d *jsoncDoc) sameValue(n *node, want any) bool {
	return reflect.DeepEqual(d.decode(n), normalize(want))
}

// normalize turns want into the generic form encoding/json decodes to.
func normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// obj is a JSON object whose keys keep the order they are given in.
type obj []kv

type kv struct {
	k string
	v any
}

// MarshalJSON writes the members in order.
func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.k)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshal(m.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// style is how a file lays out its text: the newline and one indent step.
type style struct {
	nl, unit string
}

// detectStyle reads the newline and indent step of src (default LF and two
// spaces).
func detectStyle(src []byte) style {
	s := style{nl: "\n", unit: "  "}
	if bytes.Contains(src, []byte("\r\n")) {
		s.nl = "\r\n"
	}
	for _, line := range bytes.Split(src, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) == len(line) || len(bytes.TrimSpace(trimmed)) == 0 {
			continue
		}
		s.unit = string(line[:len(line)-len(trimmed)])
		break
	}
	return s
}

// lineIndent returns the indentation of the line holding offset off.
func lineIndent(src []byte, off int) string {
	ls := bytes.LastIndexByte(src[:off], '\n') + 1
	e := ls
	for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
		e++
	}
	return string(src[ls:e])
}

// render marshals v as a value that starts on a line indented by indent:
// objects one member a line, arrays of scalars on one line when short.
func (s style) render(v any, indent string) (string, error) {
	b, err := marshal(v)
	if err != nil {
		return "", err
	}
	d, err := parseJSONC(b)
	if err != nil {
		return "", err
	}
	var out strings.Builder
	s.pretty(&out, d, d.root, indent)
	return out.String(), nil
}

func (s style) pretty(w *strings.Builder, d *jsoncDoc, n *node, indent string) {
	switch n.kind {
	case kindObject:
		if len(n.members) == 0 {
			w.WriteString("{}")
			return
		}
		w.WriteString("{")
		for i, m := range n.members {
			if i > 0 {
				w.WriteString(",")
			}
			k, _ := json.Marshal(m.key)
			w.WriteString(s.nl + indent + s.unit + string(k) + ": ")
			s.pretty(w, d, m.value, indent+s.unit)
		}
		w.WriteString(s.nl + indent + "}")
	case kindArray:
		scalars := true
		for _, e := range n.elems {
			scalars = scalars && e.kind != kindObject && e.kind != kindArray
		}
		if in := inline(d, n); scalars && len(in) <= 60 {
			w.WriteString(in)
			return
		}
		w.WriteString("[")
		for i, e := range n.elems {
			if i > 0 {
				w.WriteString(",")
			}
			w.WriteString(s.nl + indent + s.unit)
			s.pretty(w, d, e, indent+s.unit)
		}
		w.WriteString(s.nl + indent + "]")
	default:
		w.Write(d.src[n.start:n.end])
	}
}

// inline writes n on one line: {"k": v, "l": [1, 2]}.
func inline(d *jsoncDoc, n *node) string {
	var parts []string
	switch n.kind {
	case kindObject:
		for _, m := range n.members {
			k, _ := json.Marshal(m.key)
			parts = append(parts, string(k)+": "+inline(d, m.value))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case kindArray:
		for _, e := range n.elems {
			parts = append(parts, inline(d, e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return string(d.src[n.start:n.end])
}

// inlineValue renders v on one line.
func inlineValue(v any) (string, error) {
	b, err := marshal(v)
	if err != nil {
		return "", err
	}
	d, err := parseJSONC(b)
	if err != nil {
		return "", err
	}
	return inline(d, d.root), nil
}

// splice replaces src[start:end) with text.
func splice(src []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(src)+len(text))
	out = append(out, src[:start]...)
	out = append(out, text...)
	return append(out, src[end:]...)
}

// lastTokenEnd returns the offset just after the last non-space byte before
// off, passing comments' text as content so an insertion lands after them.
func lastTokenEnd(src []byte, from, off int) int {
	i := off
	for i > from && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' || src[i-1] == '\r') {
		i--
	}
	return i
}

// hasCommaAfter reports whether a comma follows offset off before the next
// value (skipping whitespace and comments), and where it ends.
func hasCommaAfter(src []byte, off int) (bool, int) {
	p := &jsoncParser{src: src, i: off}
	p.skip()
	if p.i < len(src) && src[p.i] == ',' {
		return true, p.i + 1
	}
	return false, off
}

// insertIn adds text as the last item of the container c (an object's
// member `"key": value` or an array's element); value is v rendered.
func (d *jsoncDoc) insertIn(c *node, key string, v any) ([]byte, error) {
	src := d.src
	s := detectStyle(src)
	var items []*node
	var firstStart int
	if c.kind == kindObject {
		for _, m := range c.members {
			items = append(items, m.value)
		}
		if len(c.members) > 0 {
			firstStart = c.members[0].keyStart
		}
	} else {
		items = c.elems
		if len(items) > 0 {
			firstStart = items[0].start
		}
	}
	prefix := ""
	if c.kind == kindObject {
		k, _ := json.Marshal(key)
		prefix = string(k) + ": "
	}
	closeAt := c.end - 1
	multiline := bytes.Contains(src[c.start:c.end], []byte("\n"))
	if len(items) == 0 {
		parent := lineIndent(src, c.start)
		ind := parent + s.unit
		val, err := s.render(v, ind)
		if err != nil {
			return nil, err
		}
		// an empty container becomes multi-line; whatever sat inside it (comments) stays
		inner := strings.TrimRight(string(src[c.start+1:closeAt]), " \t\r\n")
		text := inner + s.nl + ind + prefix + val + s.nl + parent
		return splice(src, c.start+1, closeAt, text), nil
	}
	last := items[len(items)-1]
	comma, afterComma := hasCommaAfter(src, last.end)
	if !multiline {
		val, err := inlineValue(v)
		if err != nil {
			return nil, err
		}
		if comma {
			return splice(src, afterComma, afterComma, " "+prefix+val+","), nil
		}
		return splice(src, last.end, last.end, ", "+prefix+val), nil
	}
	ind := lineIndent(src, firstStart)
	if bytes.IndexByte(src[c.start:firstStart], '\n') < 0 {
		ind = lineIndent(src, c.start) + s.unit // the first item shares the opening line
	}
	val, err := s.render(v, ind)
	if err != nil {
		return nil, err
	}
	at := lastTokenEnd(src, last.end, closeAt)
	if comma {
		text := s.nl + ind + prefix + val + ","
		return splice(src, at, at, text), nil
	}
	// comma right after the last value, the new item after any comment that follows it
	out := splice(src, at, at, s.nl+ind+prefix+val)
	return splice(out, last.end, last.end, ","), nil
}

// replaceValue replaces node n's text with v, rendered at n's line indent.
func (d *jsoncDoc) replaceValue(n *node, v any) ([]byte, error) {
	s := detectStyle(d.src)
	val, err := s.render(v, lineIndent(d.src, n.start))
	if err != nil {
		return nil, err
	}
	// a short value written on one line stays on one line
	if c, err := inlineValue(v); err == nil && !bytes.Contains(d.src[n.start:n.end], []byte("\n")) && len(c) <= 60 {
		val = c
	}
	return splice(d.src, n.start, n.end, val), nil
}

// errNotObject says a path runs through a value that is not an object.
type notObjectError struct{ path string }

func (e *notObjectError) Error() string { return fmt.Sprintf("%s is not a JSON object", e.path) }

// ensurePath walks keys from the root, returning the object at the end, or
// the text with the missing part of the path inserted holding v at the last
// key (then the returned node is nil).
func (d *jsoncDoc) lookup(keys []string) (*node, int, error) {
	n := d.root
	for i, k := range keys {
		if n.kind != kindObject {
			return nil, 0, &notObjectError{strings.Join(keys[:i], ".")}
		}
		c := n.get(k)
		if c == nil {
			return n, i, nil
		}
		n = c
	}
	return n, len(keys), nil
}

// nest wraps v in objects for keys, innermost last.
func nest(keys []string, v any) any {
	for i := len(keys) - 1; i >= 0; i-- {
		v = obj{{keys[i], v}}
	}
	return v
}

// setJSON sets the value at keys (a member path from the root) to v,
// creating the objects on the way; other members stay as they are.
func setJSON(src []byte, keys []string, v any) ([]byte, error) {
	d, err := parseJSONC(src)
	if err != nil {
		return nil, err
	}
	if d.root == nil {
		return []byte(strings.TrimRight(mustRender(nest(keys, v)), "\n") + "\n"), nil
	}
	n, found, err := d.lookup(keys)
	if err != nil {
		return nil, err
	}
	if found == len(keys) {
		if d.sameValue(n, v) {
			return src, nil
		}
		return d.replaceValue(n, v)
	}
	if n.kind != kindObject {
		return nil, &notObjectError{strings.Join(keys[:found], ".")}
	}
	return d.insertIn(n, keys[found], nest(keys[found+1:], v))
}

// appendJSON appends v to the array at keys (created when missing) unless an
// element matching owns is there already; owns also finds the element to
// replace when it differs from v.
func appendJSON(src []byte, keys []string, v any, owns func(any) bool) ([]byte, error) {
	d, err := parseJSONC(src)
	if err != nil {
		return nil, err
	}
	if d.root == nil {
		return []byte(mustRender(nest(keys, []any{v})) + "\n"), nil
	}
	n, found, err := d.lookup(keys)
	if err != nil {
		return nil, err
	}
	if found < len(keys) {
		if n.kind != kindObject {
			return nil, &notObjectError{strings.Join(keys[:found], ".")}
		}
		return d.insertIn(n, keys[found], nest(keys[found+1:], []any{v}))
	}
	if n.kind != kindArray {
		return nil, fmt.Errorf("%s is not a JSON array", strings.Join(keys, "."))
	}
	for _, e := range n.elems {
		if owns(d.decode(e)) {
			if d.sameValue(e, v) {
				return src, nil
			}
			return d.replaceValue(e, v)
		}
	}
	return d.insertIn(n, "", v)
}

func mustRender(v any) string {
	s, err := style{nl: "\n", unit: "  "}.render(v, "")
	if err != nil {
		panic("internal error: rendering a built-in value: " + err.Error())
	}
	return s
}
