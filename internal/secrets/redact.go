// This file defines Redact. Key-name classification lives in keys.go.

package secrets

import (
	"bytes"
	"regexp"
	"slices"
)

// Placeholder replaces every redacted value.
const Placeholder = "[REDACTED]"

// wordSet is a set of lower-case ASCII words, each tagged with group bits,
// indexed by first byte in both cases, for a case-insensitive "which groups
// occur" in one pass over the input.
type wordSet [256][]taggedWord

type taggedWord struct {
	w    string
	mask uint8
}

// Trigger groups: which detectors a line needs.
const (
	gAssign uint8 = 1 << iota // secret-named keys
	gToken                    // provider token prefixes
	gDSN                      // scheme://user:pass@host
	gCall                     // define(...), env(...)
)

func newWordSet(mask uint8, words ...string) *wordSet {
	var t wordSet
	t.add(mask, words...)
	return &t
}

func (t *wordSet) add(mask uint8, words ...string) *wordSet {
	for _, w := range words {
		c := w[0]
		t[c] = append(t[c], taggedWord{w, mask})
		if c >= 'a' && c <= 'z' {
			t[c-'a'+'A'] = append(t[c-'a'+'A'], taggedWord{w, mask})
		}
	}
	return t
}

// groups returns the union of the group bits of the words b contains,
// ignoring ASCII case.
func (t *wordSet) groups(b []byte) uint8 {
	var m uint8
	for i, c := range b {
		for _, w := range t[c] {
			if m&w.mask != w.mask && hasPrefixFold(b[i:], w.w) {
				m |= w.mask
			}
		}
	}
	return m
}

// in reports whether b contains one of the words.
func (t *wordSet) in(b []byte) bool { return t.groups(b) != 0 }

// hasPrefixFold reports whether b starts with the lower-case ASCII prefix p,
// ignoring the case of b.
func hasPrefixFold(b []byte, p string) bool {
	if len(b) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := b[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != p[i] {
			return false
		}
	}
	return true
}

var (
	// keyWords: every secret-named key contains one; classify runs only then.
	keyWords = []string{"pass", "pwd", "secret", "token", "key", "salt", "credential",
		"hash", "sig", "auth", "private", "cookie", "bearer"}
	// lineTriggers tell which detectors a line needs; a line with none is not
	// given to any detector, which keeps Redact fast on ordinary code.
	lineTriggers = newWordSet(gAssign, keyWords...).
			add(gToken, "akia", "asia", "ghp_", "gho_", "ghu_", "ghs_", "ghr_",
			"github_pat_", "glpat-", "xox", "_live_", "aiza", "eyj").
		add(gDSN, "://").
		add(gCall, "define", "env")
	keyWordSet = newWordSet(gAssign, keyWords...)
)

var (
	// tokenRe matches provider tokens recognisable by shape alone.
	tokenRe = regexp.MustCompile(`\b(?:(?:AKIA|ASIA)[0-9A-Z]{16}\b|gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|glpat-[A-Za-z0-9_\-]{20,}|xox[abpr]-[A-Za-z0-9-]{10,}|[sr]k_live_[A-Za-z0-9]{16,}|AIza[0-9A-Za-z_\-]{35}|eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,})`)
	// dsnRe matches the password of scheme://user:password@host.
	dsnRe = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@'"]*:([^\s@'"/]+)@`)
	// callRe matches define('KEY', '...') and env('KEY', '...').
	callRe = regexp.MustCompile(`\b(?:define|env|getenv|putenv)\s*\(\s*['"]([A-Za-z0-9_.\-]+)['"]\s*,\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")`)
)

type span struct{ start, end int }

// Redact returns a copy of src with secret-looking values replaced by
// Placeholder, and how many were replaced. Line breaks inside a replaced value
// (a private key block) are kept, so the number of lines never changes.
func Redact(src []byte) ([]byte, int) {
	spans := pemSpans(src, nil)
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		if line := src[start:end]; len(line) > 0 {
			if g := lineTriggers.groups(line); g != 0 {
				spans = scanLine(line, g, start, spans)
			}
		}
		start = end + 1
	}
	if len(spans) == 0 {
		return bytes.Clone(src), 0
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	merged := spans[:1]
	for _, s := range spans[1:] {
		last := &merged[len(merged)-1]
		if s.start <= last.end {
			last.end = max(last.end, s.end)
			continue
		}
		merged = append(merged, s)
	}
	out := make([]byte, 0, len(src))
	prev := 0
	for _, s := range merged {
		out = append(out, src[prev:s.start]...)
		out = append(out, Placeholder...)
		for _, b := range src[s.start:s.end] {
			if b == '\n' || b == '\r' {
				out = append(out, b)
			}
		}
		prev = s.end
	}
	out = append(out, src[prev:]...)
	return out, len(merged)
}

var (
	pemBegin = []byte("-----BEGIN ")
	pemEnd   = []byte("-----END ")
	pemDash  = []byte("-----")
)

// pemSpans adds the bodies of PEM private key blocks; the BEGIN and END lines
// stay so a reader still sees that a key was there. An unterminated block is
// redacted to the end of src.
func pemSpans(src []byte, spans []span) []span {
	for pos := 0; ; {
		i := bytes.Index(src[pos:], pemBegin)
		if i < 0 {
			return spans
		}
		i += pos + len(pemBegin)
		j := bytes.Index(src[i:], pemDash)
		if j < 0 {
			return spans
		}
		label := src[i : i+j]
		bodyStart := i + j + len(pemDash)
		pos = bodyStart
		if !bytes.Contains(label, []byte("PRIVATE KEY")) || bytes.IndexByte(label, '\n') >= 0 {
			continue
		}
		end := bytes.Index(src[bodyStart:], pemEnd)
		if end < 0 {
			end = len(src)
		} else {
			end += bodyStart
		}
		if end > bodyStart {
			spans = append(spans, span{bodyStart, end})
		}
		pos = end
	}
}

// scanLine adds the secret values of one line; base is its offset in src.
func scanLine(line []byte, g uint8, base int, spans []span) []span {
	if g&gToken != 0 {
		for _, m := range tokenRe.FindAllIndex(line, -1) {
			spans = append(spans, span{base + m[0], base + m[1]})
		}
	}
	if g&gDSN != 0 && bytes.IndexByte(line, '@') >= 0 {
		for _, m := range dsnRe.FindAllSubmatchIndex(line, -1) {
			v := line[m[2]:m[3]]
			if !isReference(v) {
				spans = append(spans, span{base + m[2], base + m[3]})
			}
		}
	}
	if g&gAssign == 0 {
		return spans
	}
	spans = scanAssignments(line, base, spans)
	if g&gCall != 0 {
		for _, m := range callRe.FindAllSubmatchIndex(line, -1) {
			spans = addValue(line, m, base, spans)
		}
	}
	if k0, k1, v0, v1, ok := configLine(line); ok {
		if isSecretValue(classify(line[k0:k1]), line[v0:v1]) {
			spans = append(spans, span{base + v0, base + v1})
		}
	}
	return spans
}

// scanAssignments finds key = 'literal' in its many spellings ($key = '...',
// 'key' => "...", "key": "...", key: '...', $a['key'] = '...') by looking
// around each "=", "=>", ":" and ":=". Hand-written because a regular
// expression tried at every offset of every line is the slowest part of Redact.
func scanAssignments(line []byte, base int, spans []span) []span {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '=' && c != ':' {
			continue
		}
		sepEnd := i + 1
		next := byte(0)
		if sepEnd < len(line) {
			next = line[sepEnd]
		}
		switch {
		case c == '=' && next == '>', c == ':' && next == '=':
			sepEnd++
		case next == '=' || next == ':' && c == ':':
			// ==, ===, :: are comparisons and scope operators.
			for i+1 < len(line) && (line[i+1] == '=' || line[i+1] == ':') {
				i++
			}
			continue
		}
		if c == '=' && i > 0 && bytes.IndexByte([]byte("=!<>+-*/.%&|^?"), line[i-1]) >= 0 {
			continue
		}
		// The key: back over spaces, "]" and a closing quote.
		j := i - 1
		for j >= 0 && (line[j] == ' ' || line[j] == '\t') {
			j--
		}
		if j >= 0 && line[j] == ']' {
			j--
		}
		var closing byte // the quote after a quoted key ('key' => …)
		if j >= 0 && (line[j] == '\'' || line[j] == '"') {
			closing = line[j]
			j--
		}
		k1 := j + 1
		for j >= 0 && (isAlnum(line[j]) || line[j] == '_' || line[j] == '.' || line[j] == '-') {
			j--
		}
		k0 := j + 1
		if k0 == k1 || !keyWordSet.in(line[k0:k1]) {
			continue
		}
		// A quote on one side of the key only means the separator is inside
		// a string (`$cookieKey."=".$v`, `__( 'Password:' )`), and what
		// follows it is code, not a value.
		opening := byte(0)
		if j >= 0 && (line[j] == '\'' || line[j] == '"') {
			opening = line[j]
		}
		if opening != closing || opening == 0 && inCodeString(line, k0) {
			continue
		}
		st := classify(line[k0:k1])
		if st == notSecret {
			continue
		}
		// The value: a quoted literal right after the separator.
		v := skipSpace(line, sepEnd)
		if v >= len(line) || (line[v] != '\'' && line[v] != '"') {
			continue
		}
		q := line[v]
		end := v + 1
		for end < len(line) && line[end] != q {
			if line[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(line) {
			continue
		}
		val := line[v+1 : end]
		if isSecretValue(st, val) && !(st == weak && builtValue(line, k0, q, val, end)) {
			spans = append(spans, span{base + v + 1, base + end})
		}
		i = end
	}
	return spans
}

// inCodeString tells whether byte i of a line of code is inside a quoted
// string that opens on the line (`"POP3 pass: " . $reply`). Comment lines
// and the comment at the end of a line are prose, whose apostrophes open
// nothing: there it reports false.
func inCodeString(line []byte, i int) bool {
	if t := bytes.TrimLeft(line, " \t"); len(t) > 0 && (t[0] == '*' || t[0] == '#' || bytes.HasPrefix(t, []byte("//")) || bytes.HasPrefix(t, []byte("/*"))) {
		return false
	}
	var q byte
	for k := 0; k < i; k++ {
		c := line[k]
		switch {
		case q != 0 && c == '\\':
			k++
		case q != 0 && c == q:
			q = 0
		case q != 0:
		case c == '\'' || c == '"':
			q = c
		case c == '#' && (k+1 >= len(line) || line[k+1] != '['), c == '/' && k+1 < len(line) && (line[k+1] == '/' || line[k+1] == '*'):
			return false // a comment to the end of the line
		}
	}
	return q != 0
}

// builtValue tells whether a weak key's literal is part of a value the code
// builds: a PHP variable's double-quoted string that interpolates variables
// (`$cache_key = "find_post_by_old_slug:$key:$last_changed"`), or a literal
// the code concatenates (`$key = '_wp_attachment_' . get_stylesheet()`).
func builtValue(line []byte, k0 int, q byte, val []byte, end int) bool {
	if a := skipSpace(line, end+1); a < len(line) && line[a] == '.' && (a+1 >= len(line) || line[a+1] != '=') {
		return true
	}
	if q != '"' || k0 == 0 || line[k0-1] != '$' {
		return false
	}
	for i := 0; i+1 < len(val); i++ {
		if val[i] == '$' && (isAlpha(val[i+1]) || val[i+1] == '_' || val[i+1] == '{') {
			return true
		}
	}
	return false
}

// addValue adds the quoted value of a callRe match whose key (group 1)
// is secret-named; groups 2 and 3 are the single- and double-quoted values.
func addValue(line []byte, m []int, base int, spans []span) []span {
	v0, v1 := m[4], m[5]
	if v0 < 0 {
		v0, v1 = m[6], m[7]
	}
	if v0 < 0 {
		return spans
	}
	if isSecretValue(classify(line[m[2]:m[3]]), line[v0:v1]) {
		spans = append(spans, span{base + v0, base + v1})
	}
	return spans
}

// commandSignature is a console command definition such as Laravel's
// $signature = 'shop:prune-carts {--days=30}': a name, not a secret.
var commandSignature = regexp.MustCompile(`^[a-z][a-z0-9_-]*(?::[a-z0-9_-]+)+(?:\s+\{.*)?$`)

// isSecretValue decides whether a literal assigned to a key of strength s is
// redacted.
func isSecretValue(s strength, v []byte) bool {
	if len(v) == 0 || isReference(v) {
		return false
	}
	switch s {
	case strong:
		return true
	case weak:
		return len(v) >= 20 && entropy(v) > 3.5 && !commandSignature.Match(v)
	}
	return false
}

// isReference reports values that name a secret instead of holding it:
// ${VAR}, {{ var }}, %env(VAR)%, $var, PHP's {$var}.
func isReference(v []byte) bool {
	return v[0] == '$' || bytes.HasPrefix(v, []byte("{{")) || bytes.HasPrefix(v, []byte("%env(")) ||
		bytes.HasPrefix(v, []byte("%s")) || bytes.Contains(v, []byte("${")) || bytes.Contains(v, []byte("{$"))
}

// configLine recognises an unquoted YAML, INI or .env assignment that fills a
// whole line (key: value, KEY=value, export KEY=value) and returns the key and
// value bounds. Values that look like code (variables, calls, lists, quoted
// parts, type names) are refused.
func configLine(line []byte) (k0, k1, v0, v1 int, ok bool) {
	i := skipSpace(line, 0)
	if bytes.HasPrefix(line[i:], []byte("export ")) {
		i = skipSpace(line, i+len("export "))
	}
	k0 = i
	if i >= len(line) || !(isAlpha(line[i]) || line[i] == '_') {
		return
	}
	for i < len(line) && (isAlnum(line[i]) || line[i] == '_' || line[i] == '.' || line[i] == '-') {
		i++
	}
	k1 = i
	i = skipSpace(line, i)
	if i >= len(line) || (line[i] != '=' && line[i] != ':') {
		return
	}
	sep := line[i]
	i++
	if i < len(line) && (line[i] == '=' || line[i] == '>' || line[i] == ':') {
		return
	}
	if sep == ':' && i < len(line) && line[i] != ' ' && line[i] != '\t' {
		return
	}
	v0 = skipSpace(line, i)
	v1 = len(line)
	for _, c := range [][]byte{[]byte(" #"), []byte("\t#"), []byte(" ;")} {
		if j := bytes.Index(line[v0:], c); j >= 0 {
			v1 = min(v1, v0+j)
		}
	}
	for v1 > v0 && (line[v1-1] == ' ' || line[v1-1] == '\t' || line[v1-1] == '\r') {
		v1--
	}
	v := line[v0:v1]
	if len(v) == 0 || bytes.ContainsAny(v[:1], `'"$%{[&*!|>@(<`) || bytes.ContainsAny(v, `"'[]()`) {
		return
	}
	if last := v[len(v)-1]; last == ';' || last == ',' || last == '{' {
		return
	}
	if plainWords[string(bytes.ToLower(v))] || isDottedIdent(v) {
		return
	}
	return k0, k1, v0, v1, true
}

// plainWords are unquoted values that are never secrets: YAML scalars and type
// names from annotations such as "password: string".
var plainWords = map[string]bool{
	"null": true, "~": true, "true": true, "false": true, "yes": true, "no": true, "none": true,
	"nil": true, "string": true, "number": true, "boolean": true, "bool": true, "int": true,
	"integer": true, "str": true, "any": true, "object": true, "undefined": true, "optional": true,
}

// isDottedIdent reports a.b.c, which in code is a member access
// (process.env.DB_PASS), not a literal.
func isDottedIdent(v []byte) bool {
	parts := bytes.Split(v, []byte("."))
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if len(p) == 0 || !(isAlpha(p[0]) || p[0] == '_') {
			return false
		}
		for _, c := range p {
			if !isAlnum(c) && c != '_' {
				return false
			}
		}
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return i
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isAlnum(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' }
