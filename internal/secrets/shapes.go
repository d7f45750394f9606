// This file holds the detectors that look past one assignment on one line:
// a value on the line after its key, YAML block scalars, call arguments
// (positional passwords, setters, key-value calls), SQL (INSERT columns,
// IDENTIFIED BY, PASSWORD '...'), credentials inside string literals
// (KEY=value, HTTP headers), markup (<password>…</password>) and prose
// (comments, docblocks, Markdown: "the password is …").

package secrets

import (
	"bytes"
	"regexp"
)

// scanJunction handles a key whose value is on the next line: a line that
// ends with a separator ('pass' =>, $token =, "secret":), or a quoted key
// whose separator opens the next line ('password' NL => 'v'). The two lines
// are scanned as one.
func scanJunction(src, line []byte, start, end int, spans []span) []span {
	t := bytes.TrimRight(line, " \t\r")
	if len(t) == 0 || end >= len(src) {
		return spans
	}
	last := t[len(t)-1]
	sepEnd := last == '=' && (len(t) < 2 || bytes.IndexByte([]byte("=!<>"), t[len(t)-2]) < 0) ||
		last == '>' && len(t) > 1 && t[len(t)-2] == '=' || last == ':'
	if !sepEnd && last != '\'' && last != '"' {
		return spans
	}
	// the next line that is not blank
	n := end + 1
	for n < len(src) {
		e := bytes.IndexByte(src[n:], '\n')
		if e < 0 {
			e = len(src)
		} else {
			e += n
		}
		if len(bytes.TrimSpace(src[n:e])) > 0 {
			next := bytes.TrimLeft(src[n:e], " \t")
			quoted := next[0] == '\'' || next[0] == '"'
			if sepEnd && quoted || !sepEnd && (bytes.HasPrefix(next, []byte("=>")) || next[0] == ':') {
				return scanAssignments(src, src[start:e], start, spans)
			}
			return spans
		}
		n = e + 1
	}
	return spans
}

// blockScalar returns the indentation of a line "key: |" (or ">", "|-" ...)
// whose key is secret-named, so the following more indented lines are its
// value; -1 otherwise.
func blockScalar(line []byte) int {
	t := bytes.TrimRight(line, " \t\r")
	i := bytes.LastIndexByte(t, ':')
	if i < 0 {
		return -1
	}
	v := bytes.TrimSpace(t[i+1:])
	if len(v) == 0 || v[0] != '|' && v[0] != '>' || len(bytes.Trim(v, "|>-+0123456789")) != 0 {
		return -1
	}
	k := bytes.TrimSpace(t[:i])
	k = bytes.Trim(k, `"'`)
	if len(k) == 0 || classify(k) == notSecret {
		return -1
	}
	return indent(line)
}

func indent(line []byte) int {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return i
}

// keyValueCalls take a name and its value: define('DB_PASSWORD', '…').
// Their values are redacted even when they look like names.
var keyValueCalls = map[string]bool{"define": true, "env": true, "getenv": true, "putenv": true, "set": true}

// gettext functions take a message and a text domain, never a secret.
var gettext = map[string]bool{
	"__": true, "_e": true, "_x": true, "_ex": true, "_n": true, "_nx": true, "_n_noop": true,
	"_nx_noop": true, "esc_html__": true, "esc_attr__": true, "esc_html_e": true, "esc_attr_e": true,
	"esc_html_x": true, "esc_attr_x": true, "translate": true, "trans": true, "_": true, "gettext": true,
	"dgettext": true, "ngettext": true, "__d": true, "lang": true, "t": true,
}

// scanCalls looks at every call on the line: a password among positional
// arguments (new PDO(dsn, user, pass)), a setter of a secret
// (->setPassword('v'), withToken('v')), and a secret-named key with its value
// ('mail.password', 'v'). Arguments may continue on later lines of src.
func scanCalls(src, line []byte, base int, spans []span) []span {
	for i := 0; i < len(line); i++ {
		if line[i] != '(' {
			continue
		}
		j := i
		for j > 0 && isSpace(line[j-1]) {
			j--
		}
		n1 := j
		for j > 0 && (isAlnum(line[j-1]) || line[j-1] == '_') {
			j--
		}
		var buf [32]byte
		if n1-j > len(buf) {
			continue
		}
		name := buf[:n1-j]
		for k, c := range line[j:n1] {
			name[k] = c | 0x20*b2u(isUpper(c))
		}
		if idx := passwordArg(line, j, string(name)); idx >= 0 {
			if a := callArgs(src, base+i); idx < len(a) {
				spans = strongValues(src, a[idx].start, spans)
			}
			continue
		}
		if !keyWordSet.in(src[base+i:min(len(src), base+i+66)]) && !keyWordSet.in(name) {
			continue // neither the name nor a first argument is a key
		}
		if len(name) == 0 {
			// a key-value tuple without a call: ('smtp_password', 'v') in SQL
			spans = keyValueArgs(src, base+i, nil, spans)
			continue
		}
		if gettext[string(name)] {
			continue
		}
		if st := setterStrength(line[j:n1]); st != notSecret {
			if a := callArgs(src, base+i); len(a) > 0 {
				if st == strong {
					spans = strongValues(src, a[0].start, spans)
				} else {
					spans = addLiteralIf(src, a[0], weak, spans)
				}
			}
			continue
		}
		spans = keyValueArgs(src, base+i, name, spans)
	}
	return spans
}

// setterStrength classifies setPassword, withToken, useApiKey: the name
// after set/with/use.
func setterStrength(name []byte) strength {
	for _, p := range []string{"set", "with", "use"} {
		if len(name) > len(p) && string(bytes.ToLower(name[:len(p)])) == p && (name[len(p)] >= 'A' && name[len(p)] <= 'Z' || name[len(p)] == '_') {
			return classify(name[len(p):])
		}
	}
	return notSecret
}

// keyValueArgs redacts the second argument of a call (or tuple) at src[open]
// whose first argument is a literal secret-named key.
func keyValueArgs(src []byte, open int, name []byte, spans []span) []span {
	if q := skipSpace(src, open+1); q >= len(src) || src[q] != '\'' && src[q] != '"' {
		return spans
	}
	a := callArgs(src, open)
	if len(a) < 2 {
		return spans
	}
	k, ok := literal(src, a[0])
	if !ok || !keyLike(k) {
		return spans
	}
	st := classify(k)
	if st == notSecret {
		return spans
	}
	if st == strong && keyValueCalls[string(name)] {
		// define('DB_PASSWORD', $prod ? 'a' : 'b'): the whole expression
		return strongValues(src, a[1].start, spans)
	}
	v, ok := literal(src, a[1])
	if !ok || !isCredential(st, v) || !keyValueCalls[string(name)] && nameLike(v) {
		return spans
	}
	s := skipSpace(src[:a[1].end], a[1].start)
	return append(spans, span{s + 1, s + 1 + len(v)})
}

// keyLike reports a key literal: one word of letters, digits, "_", "." and
// "-", in one case or with "_" or "." (a label such as 'Password' is not).
func keyLike(k []byte) bool {
	if len(k) == 0 || len(k) > 64 {
		return false
	}
	lower, upper, sep := false, false, false
	for _, c := range k {
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c == '_' || c == '.' || c == '-':
			sep = true
		case c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return sep || !(lower && upper)
}

// nameLike reports a value that reads as a name (password_nonce, default):
// lower-case letters and "_" only, with a "_" or short.
func nameLike(v []byte) bool {
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c == '_') {
			return false
		}
	}
	return len(v) <= 12 || bytes.IndexByte(v, '_') >= 0
}

// callArgs splits the arguments of the call whose "(" is at src[open], up to
// the matching ")" (at most 16 KB on): spans of src, one per argument.
func callArgs(src []byte, open int) []span {
	var args []span
	depth := 0
	start := open + 1
	limit := min(len(src), open+16384)
	for i := open + 1; i < limit; i++ {
		switch c := src[i]; c {
		case '\'', '"':
			e := closingQuote(src[:limit], i)
			if e < 0 {
				return args
			}
			i = e
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				if c != ')' {
					return nil
				}
				return append(args, span{start, i})
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, span{start, i})
				start = i + 1
			}
		case ';':
			return nil
		}
	}
	return nil
}

// literal returns the content of an argument that is one quoted literal.
func literal(src []byte, a span) ([]byte, bool) {
	s := skipSpace(src[:a.end], a.start)
	e := a.end
	for e > s && isSpace(src[e-1]) {
		e--
	}
	if e-s < 2 || src[s] != '\'' && src[s] != '"' || closingQuote(src[:e], s) != e-1 {
		return nil, false
	}
	v := src[s+1 : e-1]
	if src[s] == '"' && interpolates(v) {
		return nil, false // "/js/app$suffix.js": a value the code builds
	}
	return v, true
}

func addLiteralIf(src []byte, a span, st strength, spans []span) []span {
	v, ok := literal(src, a)
	if !ok || !isCredential(st, v) {
		return spans
	}
	s := skipSpace(src[:a.end], a.start)
	return append(spans, span{s + 1, s + 1 + len(v)})
}

// insertRe finds INSERT INTO t (columns) VALUES.
var insertRe = regexp.MustCompile("^(?is)insert\\s+(?:ignore\\s+)?into\\s+[\\w.`\"\\[\\]]+\\s*\\(([^()]{1,1000})\\)\\s*values\\s*")

// scanInsert redacts, in INSERT statements starting on the line, the values
// of secret-named columns in every tuple.
func scanInsert(src, line []byte, base int, spans []span) []span {
	for from := 0; ; {
		k := indexFold(line[from:], "insert")
		if k < 0 {
			return spans
		}
		k += from
		from = k + len("insert")
		if i := skipSpace(line, from); !hasPrefixFold(line[i:], "into") && !hasPrefixFold(line[i:], "ignore") {
			continue
		}
		m := insertRe.FindSubmatchIndex(src[base+k : min(len(src), base+k+2048)])
		if m == nil {
			continue
		}
		spans = insertValues(src, base+k, m, spans)
	}
}

// insertValues redacts the secret columns' values of one INSERT statement;
// m is insertRe's match at src[at:].
func insertValues(src []byte, at int, m []int, spans []span) []span {
	cols := bytes.Split(src[at+m[2]:at+m[3]], []byte(","))
	secret := make([]strength, len(cols))
	anySecret := false
	for k, c := range cols {
		c = bytes.Trim(bytes.TrimSpace(c), "`\"[]'")
		secret[k] = classify(c)
		anySecret = anySecret || secret[k] != notSecret
	}
	if !anySecret {
		return spans
	}
	// the tuples: (…), (…), …
	for pos := at + m[1]; pos < len(src) && src[pos] == '('; {
		a := callArgs(src, pos)
		if a == nil {
			break
		}
		for k := range min(len(a), len(secret)) {
			if secret[k] != notSecret {
				spans = addLiteralIf(src, a[k], secret[k], spans)
			}
		}
		pos = skipSpace(src, a[len(a)-1].end+1)
		if pos < len(src) && src[pos] == ',' {
			pos = skipSpace(src, pos+1)
		}
	}
	return spans
}

var (
	// sqlPasswordRe: IDENTIFIED [WITH plugin] BY [PASSWORD] '…', PASSWORD('…'),
	// [WITH] PASSWORD '…'.
	sqlPasswordRe = regexp.MustCompile(`^(?i)(?:identified\s+(?:with\s+\S+\s+)?by\s+(?:password\s+)?|password(?:\s*\(\s*|\s+))(?:'((?:[^'\\]|\\.)+)'|"((?:[^"\\]|\\.)+)")`)
	// mysqlFlagRe: mysql -pSECRET, the password glued to -p.
	mysqlFlagRe = regexp.MustCompile(`\bmysql(?:dump|admin|import|check|show)?\b[^\n'"]*?\s-p([^\s'"]+)`)
	// userpwdRe: CURLOPT_USERPWD, 'user:password'.
	userpwdRe = regexp.MustCompile(`^(?i)USERPWD\s*,\s*(?:'[^':]*:((?:[^'\\]|\\.)+)'|"[^":]*:((?:[^"\\]|\\.)+)")`)
)

func scanSQLPassword(line []byte, base int, spans []span) []span {
	// the expressions are tried only where their first word is: they are
	// too slow to try at every offset of every line with a key word
	for _, w := range []string{"identified", "password", "userpwd"} {
		re := sqlPasswordRe
		if w == "userpwd" {
			re = userpwdRe
		}
		for from := 0; ; {
			k := indexFold(line[from:], w)
			if k < 0 {
				break
			}
			k += from
			from = k + len(w)
			if k > 0 && isAlnum(line[k-1]) {
				continue
			}
			m := re.FindSubmatchIndex(line[k:min(len(line), k+512)])
			if m == nil {
				continue
			}
			v0, v1 := m[2], m[3]
			if v0 < 0 {
				v0, v1 = m[4], m[5]
			}
			if v0 >= 0 && isCredential(strong, line[k+v0:k+v1]) && !bytes.ContainsAny(line[k+v0:k+v1], `'"$`) {
				spans = append(spans, span{base + k + v0, base + k + v1})
			}
		}
	}
	return spans
}

// indexFold returns the index of the lower-case ASCII word w in b, ignoring
// the case of b, or -1.
func indexFold(b []byte, w string) int {
	for i := 0; i+len(w) <= len(b); i++ {
		if c := b[i] | 0x20; c == w[0] && hasPrefixFold(b[i:], w) {
			return i
		}
	}
	return -1
}

var (
	// headerRe: a string that is one HTTP header, "Name: value".
	headerRe = regexp.MustCompile(`^\s*([A-Za-z][\w\-]*)\s*:\s*(.*\S)\s*$`)
	// authSchemeRe: the credential after an authorization scheme.
	authSchemeRe = regexp.MustCompile(`(?i)^(?:bearer|basic|token|digest|apikey|key)\s+(\S+)`)
)

// scanStrings looks inside the string literals and `inline code` of a line
// for KEY=value pairs and HTTP headers with credentials.
func scanStrings(line []byte, base int, spans []span) []span {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '\'' && c != '"' && c != '`' {
			continue
		}
		e := closingQuote(line, i)
		if e < 0 {
			return spans
		}
		body := line[i+1 : e]
		off := base + i + 1
		spans = pairsInString(body, off, spans)
		if bytes.IndexByte(body, ':') >= 0 {
			if m := headerRe.FindSubmatchIndex(body); m != nil {
				spans = headerValue(body, m[2], m[3], m[4], m[5], off, spans)
			}
		}
		i = e
	}
	return spans
}

// pairsInString redacts the values of KEY=value pairs inside a string body
// (putenv('DB_PASSWORD=v'), "host=h password=v", "--password=v",
// "?user=u&password=v"); off is the body's offset in src.
func pairsInString(body []byte, off int, spans []span) []span {
	for i := 1; i < len(body); i++ {
		if body[i] != '=' || body[i-1] == '=' || i+1 < len(body) && (body[i+1] == '=' || body[i+1] == '>') {
			continue
		}
		k := i
		for k > 0 && (isAlnum(body[k-1]) || body[k-1] == '_' || body[k-1] == '.' || body[k-1] == '-') {
			k--
		}
		if k > 0 && bytes.IndexByte([]byte(" \t&?;,("), body[k-1]) < 0 {
			continue
		}
		key := bytes.TrimLeft(body[k:i], "-")
		if len(key) == 0 || !keyWordSet.in(key) {
			continue
		}
		e := i + 1
		for e < len(body) && bytes.IndexByte([]byte(" \t'\"&;,)"), body[e]) < 0 {
			e++
		}
		if v := body[i+1 : e]; isCredential(classify(key), v) && !bytes.ContainsAny(v, "(") {
			spans = append(spans, span{off + i + 1, off + e})
		}
	}
	return spans
}

// headerValue redacts the value of header k (body[k0:k1]) at body[v0:v1]:
// after its scheme word for Authorization, whole for a secret-named header.
func headerValue(body []byte, k0, k1, v0, v1, off int, spans []span) []span {
	v := body[v0:v1]
	if isReference(v) {
		return spans
	}
	key := bytes.ToLower(body[k0:k1])
	if bytes.HasSuffix(key, []byte("authorization")) {
		if m := authSchemeRe.FindSubmatchIndex(v); m != nil {
			if c := v[m[2]:m[3]]; isCredential(strong, c) {
				spans = append(spans, span{off + v0 + m[2], off + v0 + m[3]})
			}
			return spans
		}
		if len(v) >= 8 && !bytes.ContainsAny(v, " ") && isCredential(strong, v) {
			spans = append(spans, span{off + v0, off + v1})
		}
		return spans
	}
	if bytes.ContainsAny(v, " \t(") {
		return spans // prose or code, not a header value
	}
	if isCredential(classify(key), v) {
		spans = append(spans, span{off + v0, off + v1})
	}
	return spans
}

var (
	// tagRe: <password>v</password>.
	tagRe = regexp.MustCompile(`<([A-Za-z_][\w.\-]*)>([^<]+)</([A-Za-z_][\w.\-]*)>`)
	// attrRe: key="ApiKey" value="v", name="token" value="v".
	attrRe = regexp.MustCompile(`\b(?:key|name|id)\s*=\s*"([^"]+)"\s+value\s*=\s*"([^"]*)"`)
)

func scanMarkup(line []byte, base int, spans []span) []span {
	if bytes.Contains(line, []byte("</")) {
		for _, m := range tagRe.FindAllSubmatchIndex(line, -1) {
			if bytes.Equal(line[m[2]:m[3]], line[m[6]:m[7]]) && isCredential(classify(line[m[2]:m[3]]), line[m[4]:m[5]]) {
				spans = append(spans, span{base + m[4], base + m[5]})
			}
		}
	}
	if !bytes.Contains(line, []byte(`value="`)) && !bytes.Contains(line, []byte(`value = "`)) {
		return spans
	}
	for _, m := range attrRe.FindAllSubmatchIndex(line, -1) {
		if v := line[m[4]:m[5]]; isCredential(classify(line[m[2]:m[3]]), v) && !bytes.ContainsAny(v, `'"($<`) && !nameLike(v) {
			spans = append(spans, span{base + m[4], base + m[5]})
		}
	}
	return spans
}

// authProseRe: "Authorization: Bearer v" and "Bearer v" written in prose.
var authProseRe = regexp.MustCompile(`(?i)\b(?:authorization\s*:\s*(?:bearer|basic|token)|bearer)\s+([A-Za-z0-9._~+/=\-]{8,})`)

// scanProse reads the prose of a line (a comment, a docblock line, a line
// of Markdown) for "the password is v", "password: v", "API key = v",
// "with the password `v`".
func scanProse(line []byte, base int, spans []span) []span {
	if indexFold(line, "bearer") >= 0 || indexFold(line, "authorization") >= 0 {
		for _, m := range authProseRe.FindAllSubmatchIndex(line, -1) {
			if v := line[m[2]:m[3]]; !isReference(v) && hasLetterDigit(v) {
				spans = append(spans, span{base + m[2], base + m[3]})
			}
		}
	}
	p := proseStart(line)
	if p < 0 {
		return spans
	}
	text := line[p:]
	words := proseWords(text)
	strongLine := false
	for k, w := range words {
		if !keyWordSet.in(text[w.start:w.end]) {
			continue
		}
		if hasPrefixFold(text[w.start:w.end], "pass") && w.end-w.start == 4 && (w.end >= len(text) || text[w.end] != '=' && text[w.end] != ':') {
			continue // in prose "pass" is a verb: "Pass 'none' to ...", but pass=v is a key
		}
		st := classify(text[w.start:w.end])
		if k > 0 && words[k-1].end+1 == w.start {
			// "API key", "admin password": the two words as one name
			joined := append(append(bytes.Clone(text[words[k-1].start:words[k-1].end]), '_'), text[w.start:w.end]...)
			st = max(st, classify(joined))
		}
		if st == notSecret {
			continue
		}
		strongLine = strongLine || st == strong
		spans = proseValue(text, w.end, st, base+p, spans)
	}
	if strongLine {
		// quoted and `code` tokens that look like secrets: "Defaults to 'v'"
		for i := 0; i < len(text); i++ {
			if c := text[i]; c == '`' || c == '\'' || c == '"' {
				e := closingQuote(text, i)
				if e < 0 {
					break
				}
				if v := text[i+1 : e]; len(v) >= 8 && secretLike(v) && !bytes.ContainsAny(v, "/\\()<>") {
					spans = append(spans, span{base + p + i + 1, base + p + e})
				}
				i = e
			}
		}
	}
	return spans
}

// proseStart returns where the prose of a line starts: after a comment
// leader (//, #, *, /*, --, ;), at a trailing // or # comment, or at 0 for a
// line that reads as text (no code punctuation); -1 when there is none.
func proseStart(line []byte) int {
	i := indent(line)
	t := line[i:]
	if bytes.HasPrefix(t, []byte("<!--")) {
		return i + 4 // an HTML comment is prose
	}
	if len(t) > 0 && t[0] == '<' {
		return -1 // markup
	}
	for _, l := range []string{"///", "//", "/**", "/*", "*", "#", "--", ";", ">", "- ", "+ "} {
		if bytes.HasPrefix(t, []byte(l)) {
			return i + len(l)
		}
	}
	if k := bytes.Index(line, []byte(" // ")); k >= 0 && !inCodeString(line, k+1) {
		return k + 4
	}
	if k := bytes.Index(line, []byte(" # ")); k >= 0 && !inCodeString(line, k+1) {
		return k + 3
	}
	if bytes.ContainsAny(line, ";${}") || bytes.Contains(line, []byte("=>")) || bytes.Contains(line, []byte("->")) ||
		bytes.Contains(line, []byte("::")) {
		return -1
	}
	return 0
}

type word struct{ start, end int }

// proseWords lists the words of prose: runs of letters, digits, "_", "."
// and "-" that start with a letter.
func proseWords(text []byte) []word {
	var out []word
	for i := 0; i < len(text); {
		if !isAlpha(text[i]) && text[i] != '_' {
			i++
			continue
		}
		j := i
		for j < len(text) && (isAlnum(text[j]) || text[j] == '_' || text[j] == '.' || text[j] == '-') {
			j++
		}
		for j > i && (text[j-1] == '.' || text[j-1] == '-') {
			j--
		}
		out = append(out, word{i, j})
		if j == i {
			j++
		}
		i = j
	}
	return out
}

// proseValue redacts the value after a secret-named word ending at text[i]:
// a separator (":", "=", "is", "was") then a token; or a `quoted` token
// right after the word.
func proseValue(text []byte, i int, st strength, base int, spans []span) []span {
	j := i
	for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '*') {
		j++ // **Password**: v
	}
	sep, explicit := false, false // explicit: ":" or "=", not "is"
	switch {
	case j < len(text) && (text[j] == ':' || text[j] == '='):
		if j+1 < len(text) && (text[j+1] == '=' || text[j+1] == ':' || text[j+1] == '>') {
			return spans
		}
		sep, explicit = true, true
		j++
	case bytes.HasPrefix(text[j:], []byte("is ")) || bytes.HasPrefix(text[j:], []byte("was ")):
		sep = true
		j += bytes.IndexByte(text[j:], ' ') + 1
	}
	for j < len(text) && (text[j] == ' ' || text[j] == '\t' || sep && text[j] == '*') {
		j++ // **Password:** v
	}
	if j >= len(text) {
		return spans
	}
	if c := text[j]; c == '`' || c == '\'' || c == '"' {
		e := closingQuote(text, j)
		if e < 0 {
			return spans
		}
		v := text[j+1 : e]
		if st == strong && secretLike(v) || st == weak && isSecretValue(weak, v) && !bytes.ContainsAny(v, " \t") {
			spans = append(spans, span{base + j + 1, base + e})
		}
		return spans
	}
	if !sep {
		return spans
	}
	e := j
	for e < len(text) && text[e] != ' ' && text[e] != '\t' && text[e] != '`' && text[e] != '\'' && text[e] != '"' {
		if e-j > maxExpr {
			return spans // no word of prose is that long
		}
		e++
	}
	if k := bytes.Index(text[j:e], []byte("-->")); k >= 0 {
		e = j + k // <!-- password:v-->
	}
	for e > j && bytes.IndexByte([]byte(".,;:)*/"), text[e-1]) >= 0 {
		e--
	}
	v := text[j:e]
	if len(v) < 6 || isReference(v) || bytes.ContainsAny(v, "()<>$") || bytes.Contains(v, []byte("://")) {
		return spans
	}
	// "password: v" ending its line (a Markdown list, **Password:** v, a
	// comment) is a key and its value; in a sentence the value must read
	// as a secret
	alone := explicit && len(bytes.Trim(text[e:], " \t\r*|->.")) == 0
	if st == strong && (secretLike(v) || alone && isCredential(strong, v) && !isName(v)) || st == weak && isSecretValue(weak, v) {
		spans = append(spans, span{base + j, base + e})
	}
	return spans
}

// secretLike reports a token of prose that reads as a secret, not a word:
// six or more characters without spaces, of two character classes at
// least (hunter2, Zq8Vx) or long and random, that is not a name.
func secretLike(v []byte) bool {
	return len(v) >= 6 && (classes(v) >= 2 || len(v) >= 16 && entropy(v) > 3.5) &&
		!bytes.ContainsAny(v, " \t") && isSecretValue(strong, v)
}

// interpolates reports a double-quoted PHP string body with a variable in it.
func interpolates(v []byte) bool {
	for i := 0; i+1 < len(v); i++ {
		if v[i] == '\\' {
			i++
			continue
		}
		if v[i] == '$' && (isAlpha(v[i+1]) || v[i+1] == '_' || v[i+1] == '{') {
			return true
		}
	}
	return false
}

// hasLetterDigit reports a value with both a letter and a digit.
func hasLetterDigit(v []byte) bool {
	l, d := false, false
	for _, c := range v {
		l = l || isAlpha(c)
		d = d || c >= '0' && c <= '9'
	}
	return l && d
}
