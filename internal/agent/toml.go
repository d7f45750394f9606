// This file is the TOML editor for Codex's config.toml. It does not
// re-marshal the file: it finds the region of one table (its header line up
// to the next header that is not one of its sub-tables), and replaces or
// appends that region as text, so every other table, comment and blank line
// stays byte for byte. The JSONC half is jsonc.go.

package agent

import (
	"bytes"
	"fmt"
	"strings"
)

// tomlLine is one physical line of a TOML text.
type tomlLine struct {
	start, end int    // [start, end) including the newline
	header     string // the table name of a [table] or [[array]] header, normalised; "" otherwise
	array      bool   // [[array]] header
	key        string // the first bare or quoted key of a key = value line outside multi-line values
	cont       bool   // a continuation line of a multi-line value
}

// tomlLines splits src into lines and classifies them, skipping the insides
// of multi-line strings and multi-line arrays and inline tables.
func tomlLines(src []byte) ([]tomlLine, error) {
	var out []tomlLine
	inStr := "" // """ or ''' while inside a multi-line string
	depth := 0  // open [ or { of a value spanning lines
	for i := 0; i < len(src); {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i + 1
		}
		l := tomlLine{start: i, end: end}
		text := strings.TrimRight(string(src[i:end]), "\r\n")
		trim := strings.TrimLeft(text, " \t")
		if inStr == "" && depth == 0 {
			switch {
			case strings.HasPrefix(trim, "[["):
				name, err := tomlHeader(trim[2:], "]]")
				if err != nil {
					return nil, fmt.Errorf("line %d: %w", len(out)+1, err)
				}
				l.header, l.array = name, true
			case strings.HasPrefix(trim, "["):
				name, err := tomlHeader(trim[1:], "]")
				if err != nil {
					return nil, fmt.Errorf("line %d: %w", len(out)+1, err)
				}
				l.header = name
			case trim != "" && trim[0] != '#':
				if k, rest, ok := tomlKey(trim); ok {
					l.key = k
					var err error
					inStr, depth, err = scanValue(rest, "", 0)
					if err != nil {
						return nil, fmt.Errorf("line %d: %w", len(out)+1, err)
					}
				} else {
					return nil, fmt.Errorf("line %d: expected key = value or a [table] header", len(out)+1)
				}
			}
		} else {
			var err error
			l.cont = true
			inStr, depth, err = scanValue(text, inStr, depth)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", len(out)+1, err)
			}
		}
		out = append(out, l)
		i = end
	}
	if inStr != "" || depth != 0 {
		return nil, fmt.Errorf("unterminated multi-line value")
	}
	return out, nil
}

// tomlHeader reads a table name up to closer, normalising quoted parts and
// spaces: [ mcp_servers . "ragraf" ] is mcp_servers.ragraf.
func tomlHeader(s, closer string) (string, error) {
	var parts []string
	for {
		s = strings.TrimLeft(s, " \t")
		k, rest, ok := tomlKeyPart(s)
		if !ok {
			return "", fmt.Errorf("bad table header")
		}
		parts = append(parts, k)
		rest = strings.TrimLeft(rest, " \t")
		if strings.HasPrefix(rest, ".") {
			s = rest[1:]
			continue
		}
		if !strings.HasPrefix(rest, closer) {
			return "", fmt.Errorf("bad table header")
		}
		after := strings.TrimSpace(rest[len(closer):])
		if after != "" && after[0] != '#' {
			return "", fmt.Errorf("text after a table header")
		}
		return strings.Join(parts, "."), nil
	}
}

// tomlKey reads a (dotted) key and the text after its '='.
func tomlKey(s string) (key, rest string, ok bool) {
	var parts []string
	for {
		k, r, ok := tomlKeyPart(strings.TrimLeft(s, " \t"))
		if !ok {
			return "", "", false
		}
		parts = append(parts, k)
		r = strings.TrimLeft(r, " \t")
		if strings.HasPrefix(r, ".") {
			s = r[1:]
			continue
		}
		if !strings.HasPrefix(r, "=") {
			return "", "", false
		}
		return strings.Join(parts, "."), r[1:], true
	}
}

// tomlKeyPart reads one bare, "basic" or 'literal' key part.
func tomlKeyPart(s string) (string, string, bool) {
	if s == "" {
		return "", "", false
	}
	switch s[0] {
	case '"':
		for i := 1; i < len(s); i++ {
			if s[i] == '\\' {
				i++
				continue
			}
			if s[i] == '"' {
				return s[1:i], s[i+1:], true
			}
		}
		return "", "", false
	case '\'':
		if i := strings.IndexByte(s[1:], '\''); i >= 0 {
			return s[1 : i+1], s[i+2:], true
		}
		return "", "", false
	}
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] == '-' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	if i == 0 {
		return "", "", false
	}
	return s[:i], s[i:], true
}

// scanValue follows strings, brackets and comments through one line of a
// value, starting inside a multi-line string inStr and at bracket depth, and
// returns the state at the line's end.
func scanValue(s, inStr string, depth int) (string, int, error) {
	for i := 0; i < len(s); i++ {
		if inStr != "" {
			if inStr == `"""` && s[i] == '\\' {
				i++
				continue
			}
			if strings.HasPrefix(s[i:], inStr) {
				i += len(inStr) - 1
				inStr = ""
			}
			continue
		}
		switch c := s[i]; c {
		case '#':
			return "", depth, nil
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth < 0 {
				return "", 0, fmt.Errorf("unbalanced %c", c)
			}
		case '"', '\'':
			if strings.HasPrefix(s[i:], strings.Repeat(string(c), 3)) {
				inStr = strings.Repeat(string(c), 3)
				i += 2
				continue
			}
			j := i + 1
			for ; j < len(s); j++ {
				if c == '"' && s[j] == '\\' {
					j++
					continue
				}
				if s[j] == c {
					break
				}
			}
			if j >= len(s) {
				return "", 0, fmt.Errorf("unterminated string")
			}
			i = j
		}
	}
	return inStr, depth, nil
}

// tomlRegion finds table name's region: its header line through the last
// line before the next header that is neither name nor one of its
// sub-tables. Comment and blank lines that end the region belong to what
// follows. found is false when no header names the table.
func tomlRegion(lines []tomlLine, name string) (start, end int, found bool) {
	for _, l := range lines {
		if l.header != "" {
			mine := !l.array && l.header == name || strings.HasPrefix(l.header, name+".")
			if found && !mine {
				return start, end, true
			}
			if !found && !l.array && l.header == name {
				found, start = true, l.start
			}
		}
		if found && (l.header != "" || l.key != "" || l.cont) {
			end = l.end
		}
	}
	return start, end, found
}

// tomlDefinedElsewhere reports whether name is defined without its own
// header: as a dotted key (mcp_servers.ragraf = {…}, or ragraf = {…} inside
// [mcp_servers]) — a form this editor refuses to rewrite.
func tomlDefinedElsewhere(lines []tomlLine, name string) bool {
	table := ""
	for _, l := range lines {
		if l.header != "" {
			table = l.header
			if l.array {
				table = ""
			}
			continue
		}
		if l.key == "" || table == name || strings.HasPrefix(table, name+".") {
			continue
		}
		full := l.key
		if table != "" {
			full = table + "." + l.key
		}
		if full == name || strings.HasPrefix(full, name+".") {
			return true
		}
	}
	return false
}

// setTOMLTable makes table name's region equal body (the table's lines
// after the header, LF-terminated), appending the table at the end of the
// file when absent. It returns the new text and the region's old text (nil
// when the table was absent).
func setTOMLTable(src []byte, name, body string) ([]byte, []byte, error) {
	lines, err := tomlLines(src)
	if err != nil {
		return nil, nil, err
	}
	if tomlDefinedElsewhere(lines, name) {
		return nil, nil, fmt.Errorf("%s is defined as a dotted key or inline table; move it to a [%s] table first", name, name)
	}
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	text := strings.ReplaceAll("["+name+"]\n"+body, "\n", nl)
	start, end, found := tomlRegion(lines, name)
	if !found {
		for _, l := range lines {
			if strings.HasPrefix(l.header, name+".") {
				return nil, nil, fmt.Errorf("[%s] has sub-tables but no [%s] table; this editor does not merge into that", l.header, name)
			}
		}
	}
	if found {
		old := src[start:end]
		if string(old) == text {
			return src, old, nil
		}
		return splice(src, start, end, text), old, nil
	}
	// beside its siblings: after the last table of the same parent ([mcp_servers.*])
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		parent := name[:i]
		at := -1
		for _, l := range lines {
			if l.header != "" {
				if l.header == parent || strings.HasPrefix(l.header, parent+".") {
					at = l.end
				} else if at >= 0 {
					break
				}
			}
			if at >= 0 && (l.key != "" || l.cont) {
				at = l.end
			}
		}
		if at >= 0 && at < len(src) {
			pre := nl
			if src[at-1] != '\n' {
				pre = nl + nl
			}
			return splice(src, at, at, pre+text), nil, nil
		}
	}
	out := append([]byte{}, src...)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, nl...)
	}
	if len(bytes.TrimSpace(out)) > 0 && !bytes.HasSuffix(out, []byte(nl+nl)) {
		out = append(out, nl...)
	}
	return append(out, text...), nil, nil
}

// setTOMLKey adds `key = value` to table unless the key is set already
// (whatever its value: the user's choice stands; other is called with the
// line that sets it when that is not value). The table is created at the end
// of the file when absent.
func setTOMLKey(src []byte, table, key, value string, other func(line string)) ([]byte, error) {
	lines, err := tomlLines(src)
	if err != nil {
		return nil, err
	}
	full := table + "." + key
	cur := ""
	headerAt, insertAt := -1, -1
	for _, l := range lines {
		if l.header != "" {
			cur = l.header
			if l.array {
				cur = ""
			}
			if cur == table {
				headerAt, insertAt = l.end, l.end
			}
			continue
		}
		if l.key == "" {
			if l.cont && cur == table && headerAt >= 0 {
				insertAt = l.end
			}
			continue
		}
		k := l.key
		if cur != "" {
			k = cur + "." + l.key
		}
		if k == full || k == table {
			// set, or the table given as an inline table
			if line := strings.TrimSpace(string(src[l.start:l.end])); k != full || strings.ReplaceAll(line, " ", "") != key+"="+value {
				other(line)
			}
			return src, nil
		}
		if cur == table && headerAt >= 0 {
			insertAt = l.end
		}
	}
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	line := key + " = " + value + nl
	if insertAt >= 0 {
		pre := ""
		if insertAt > 0 && src[insertAt-1] != '\n' {
			pre = nl
		}
		return splice(src, insertAt, insertAt, pre+line), nil
	}
	out := append([]byte{}, src...)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, nl...)
	}
	if len(bytes.TrimSpace(out)) > 0 && !bytes.HasSuffix(out, []byte(nl+nl)) {
		out = append(out, nl...)
	}
	return append(out, "["+table+"]"+nl+line...), nil
}
