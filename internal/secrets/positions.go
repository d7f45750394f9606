// This file holds what stands in a credential's position: the expression
// assigned to a strong key (strongValues, over lines, through ternaries,
// wrappers and heredocs), the rule for a value found there (isCredential),
// and the positions no key word names: property hooks and getters of a
// secret, Markdown tables, command lines (sshpass -p, curl -u), XML
// parameters and the password arguments of connection and auth calls.

package secrets

import (
	"bytes"
	"regexp"
)

// isCredential decides whether a literal that stands in a credential's
// position (the value of a secret-named key, the password argument of a
// connection call, a secret column, the value after -p) is redacted. The
// rule is positional: under a strong name any value is, whatever it looks
// like ('SuperSecret1815', 'letmein', 'admin_pass'), except what cannot
// hold one: nothing, a reference ($var, ${X}, %env(X)%), a placeholder
// without a letter or digit, a YAML scalar or type name (null, string), a
// class or handler written as a string, and the name of another secret
// written as a constant or a dotted key (FTP_PASS, passwords.token). Weak
// names keep the entropy rule of isSecretValue.
func isCredential(s strength, v []byte) bool {
	if s != strong {
		return isSecretValue(s, v)
	}
	if len(v) == 0 || isReference(v) || !hasAlnum(v) || isCodeName(v) || secretName(v) {
		return false
	}
	var low [16]byte
	if len(v) <= len(low) {
		for i, c := range v {
			low[i] = c | 0x20*b2u(isUpper(c))
		}
		if plainWords[string(low[:len(v)])] || string(low[:len(v)]) == "n/a" {
			return false
		}
	}
	return true
}

// secretName reports a constant (FTP_PASS, DB_PASSWORD) or a dotted key
// (passwords.token, mail.password) that holds a key word and no digit: the
// name of a secret, not its value.
func secretName(v []byte) bool {
	if len(v) > 64 || !keyWordSet.in(v) {
		return false
	}
	lower, upper := false, false
	for _, c := range v {
		switch {
		case isUpper(c):
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c == '_' || c == '.':
		default:
			return false
		}
	}
	dot := bytes.IndexByte(v, '.')
	if upper && !lower {
		// FTP_PASS, or PASSWORD standing for one
		return dot < 0 && (bytes.IndexByte(v, '_') >= 0 || keyWordsExact[string(bytes.ToLower(v))])
	}
	return lower && !upper && dot > 0 && v[len(v)-1] != '.'
}

// strongValues adds every literal of the expression at src[v:] that stands
// in a strong key's value: 'a' . 'b', both branches of a ternary,
// $_ENV['X'] ?? 'v', getenv('X') ?: 'v', md5('v'), a heredoc, and the same
// continued on the next lines ('a' .NL 'b'). Literals inside brackets and
// call arguments are subscripts and parameters, not the value, except in
// calls that wrap the value (md5, base64_decode, Hash::make); ",", ";", a
// closing bracket, a comment or the end of a complete line ends the
// expression. A literal is read to its closing quote however long it is; a
// new one must start within maxExpr bytes of the last.
func strongValues(src []byte, v int, spans []span) []span {
	return strongValuesFrom(src, v, 0, spans)
}

// strongValuesFrom is strongValues that judges only literals starting at
// or after from: those before were added by an earlier key.
func strongValuesFrom(src []byte, v, from int, spans []span) []span {
	var stack []bool // for each open bracket: does it wrap the value
	depth := 0       // open brackets that hold parameters
	lines := 0
	last := v
	for i := v; i < len(src); i++ {
		if i-last > maxExpr || i-v > maxExprBytes {
			return spans
		}
		c := src[i]
		switch {
		case c == '\'' || c == '"':
			end := closingQuote(src[:min(len(src), i+maxLiteral)], i)
			if end < 0 {
				return spans
			}
			if val := src[i+1 : end]; depth == 0 && i >= from && isCredential(strong, val) && !textBefore(src, val, end) && !compared(src, i, end) {
				spans = append(spans, span{i + 1, end})
			}
			i = end
			last = end
		case c == '<' && depth == 0 && bytes.HasPrefix(src[i:], []byte("<<<")):
			return heredocValue(src, i, spans)
		case c == '(' || c == '[' || c == '{':
			wrap := c == '(' && depth == 0 && wrapsValue(src, v, i)
			stack = append(stack, wrap)
			if !wrap {
				depth++
			}
		case c == ')' || c == ']' || c == '}':
			if len(stack) == 0 {
				return spans
			}
			if !stack[len(stack)-1] {
				depth--
			}
			stack = stack[:len(stack)-1]
		case depth > 0:
		case c == ';' || c == ',' && len(stack) == 0:
			return spans
		case c == '\n':
			lines++
			if lines > maxExprLines || len(stack) == 0 && !continues(src, v, i) {
				return spans
			}
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'), c == '#':
			return spans // a comment to the end of the line
		}
	}
	return spans
}

// textBefore reports a literal that is the text in front of a value the
// code adds: '--password=' . $p, 'Password: ' . $p.
func textBefore(src, val []byte, end int) bool {
	if !bytes.HasSuffix(val, []byte("=")) && !bytes.HasSuffix(bytes.TrimRight(val, " "), []byte(":")) {
		return false
	}
	k := skipSpace(src, end+1)
	return k < len(src) && (src[k] == '.' || src[k] == '+')
}

// compared reports a literal (src[i] to its closing quote at src[end]) that
// is compared, not assigned: ( 'direct' !== $method ), $a == 'x'.
func compared(src []byte, i, end int) bool {
	k := skipSpace(src, end+1)
	if k+1 < len(src) && (src[k] == '=' || src[k] == '!') && src[k+1] == '=' || k < len(src) && (src[k] == '<' || src[k] == '>') {
		return true
	}
	j := i - 1
	for j >= 0 && isSpace(src[j]) {
		j--
	}
	if j >= 1 && src[j] == '=' && bytes.IndexByte([]byte("=!<>"), src[j-1]) >= 0 {
		return true // == 'x', !== 'x', <= 'x'
	}
	return j >= 0 && (src[j] == '<' || src[j] == '>' && (j == 0 || src[j-1] != '=' && src[j-1] != '-'))
}

const (
	// maxExprLines and maxExprBytes bound how far a strong key's expression
	// is read: its last literal may start that far on.
	maxExprLines = 16
	maxExprBytes = 1024
	// maxLiteral bounds how far one literal is read for its closing quote.
	maxLiteral = 64 << 10
)

// continues reports whether the expression that started at src[v] goes on
// after the line break at src[i]: nothing of it is on the line yet, the line
// ends with an operator ('a' .), or the next line starts with one (. 'b',
// ? 'x', : 'y').
func continues(src []byte, v, i int) bool {
	j := i - 1
	for j >= v && isSpace(src[j]) {
		j--
	}
	if j < v || bytes.IndexByte([]byte(".?:+=(|&"), src[j]) >= 0 {
		return true
	}
	k := skipSpace(src, i+1)
	return k < len(src) && (src[k] == '.' && (k+1 >= len(src) || src[k+1] != '.') || src[k] == '?' || src[k] == ':' && (k+1 >= len(src) || src[k+1] != ':'))
}

// valueWrappers are calls whose argument is the value itself: a password
// hashed or decoded where it is assigned.
var valueWrappers = map[string]bool{
	"md5": true, "sha1": true, "password_hash": true, "bcrypt": true, "make": true, "crypt": true,
	"base64_decode": true, "base64_encode": true, "hex2bin": true, "str_rot13": true, "strrev": true, "trim": true,
	"urldecode": true, "rawurldecode": true, "encrypt": true, "decrypt": true, "sha2": true, "unhex": true,
	"from_base64": true, "password": true, "strval": true,
}

// wrapsValue reports whether the call whose "(" is at src[open] (at or
// after v) is one of valueWrappers.
func wrapsValue(src []byte, v, open int) bool {
	j := open
	for j > v && isSpace(src[j-1]) {
		j--
	}
	n1 := j
	for j > v && (isAlnum(src[j-1]) || src[j-1] == '_') {
		j--
	}
	if n1-j == 0 {
		return true // ( … ): a group of the expression
	}
	if n1-j > 16 {
		return false
	}
	return valueWrappers[string(bytes.ToLower(src[j:n1]))]
}

// heredocValue redacts the body of the heredoc or nowdoc that opens at
// src[i] ("<<<"): every line up to its closing label.
func heredocValue(src []byte, i int, spans []span) []span {
	j := skipSpace(src, i+3)
	if j < len(src) && (src[j] == '\'' || src[j] == '"') {
		j++
	}
	l0 := j
	for j < len(src) && (isAlnum(src[j]) || src[j] == '_') {
		j++
	}
	label := src[l0:j]
	nl := bytes.IndexByte(src[j:], '\n')
	if len(label) == 0 || nl < 0 {
		return spans
	}
	for start, n := j+nl+1, 0; start < len(src) && start-i < maxLiteral; n++ {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		line := src[start:end]
		t := bytes.TrimLeft(line, " \t")
		if bytes.HasPrefix(t, label) && (len(t) == len(label) || !isAlnum(t[len(label)]) && t[len(label)] != '_') {
			return spans
		}
		if ind := indent(line); len(bytes.TrimSpace(line)) > 0 {
			spans = append(spans, span{start + ind, end})
		}
		start = end + 1
	}
	return spans
}

var (
	// hookRe: a property with hooks, public string $password {.
	hookRe = regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)\s*\{`)
	// hookGetRe: its get hook, get => 'v' or get { return 'v'; }.
	hookGetRe = regexp.MustCompile(`\bget\s*(?:=>|\{\s*return\b)`)
	// getterRe: function getPassword(): string { return 'v'; }.
	getterRe = regexp.MustCompile(`\bfunction\s+&?\s*get_?([A-Za-z0-9_]+)\s*\([^)]*\)[^{;]*\{\s*return\b`)
)

// hookValues redacts what the get hook of a secret-named property (PHP 8.4)
// or a secret's getter returns: the value stands in the property's position.
func hookValues(src, line []byte, base int, spans []span) []span {
	if bytes.IndexByte(line, '{') < 0 && !bytes.Contains(line, []byte("function")) {
		return spans
	}
	if bytes.IndexByte(line, '$') >= 0 {
		for _, m := range hookRe.FindAllSubmatchIndex(line, -1) {
			if classify(line[m[2]:m[3]]) != strong {
				continue
			}
			open := base + m[1] - 1
			body := src[open:blockEnd(src, open)]
			if g := hookGetRe.FindIndex(body); g != nil {
				spans = strongValues(src, open+g[1], spans)
			}
		}
	}
	if bytes.Contains(line, []byte("function")) {
		for at := 0; ; {
			k := bytes.Index(line[at:], []byte("function"))
			if k < 0 {
				break
			}
			k += at
			at = k + len("function")
			m := getterRe.FindSubmatchIndex(src[base+k : min(len(src), base+k+512)])
			if m == nil || m[0] != 0 {
				continue
			}
			if classify(src[base+k+m[2]:base+k+m[3]]) == strong {
				spans = strongValues(src, base+k+m[1], spans)
			}
		}
	}
	return spans
}

// blockEnd returns the offset after the "}" that closes the "{" at
// src[open], or a bound 2 KB on; quoted strings are skipped.
func blockEnd(src []byte, open int) int {
	limit := min(len(src), open+2048)
	depth := 0
	for i := open; i < limit; i++ {
		switch src[i] {
		case '\'', '"':
			if e := closingQuote(src[:limit], i); e > 0 {
				i = e
			}
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return limit
}

var (
	// sshpassRe: sshpass -p 'v'.
	sshpassRe = regexp.MustCompile(`\bsshpass\s+-p\s*(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))`)
	// curlUserRe: curl -u user:v, --user 'user:v', and -U for a proxy.
	curlUserRe = regexp.MustCompile(`\bcurl\b[^\n]*?\s(?:-[uU]\s*|--(?:proxy-)?user[\s=]+)(?:'[^':\s]*:([^'\n]+)'|"[^":\s]*:([^"\n]+)"|[^\s:'"]*:([^\s'"]+))`)
	// paramTagRe: <parameter key="mailer_password">v</parameter>.
	paramTagRe = regexp.MustCompile(`<([A-Za-z_][\w.:\-]*)\s[^<>]*?\b(?:key|name|id)\s*=\s*["']([^"'<>]+)["'][^<>]*>([^<]+)</([A-Za-z_][\w.:\-]*)>`)
)

// scanCommands redacts the password of command lines: sshpass -p v and
// curl -u user:v.
func scanCommands(line []byte, base int, spans []span) []span {
	for _, re := range []*regexp.Regexp{sshpassRe, curlUserRe} {
		for _, m := range re.FindAllSubmatchIndex(line, -1) {
			for k := 2; k+1 < len(m); k += 2 {
				if m[k] >= 0 && isCredential(strong, line[m[k]:m[k+1]]) {
					spans = append(spans, span{base + m[k], base + m[k+1]})
				}
			}
		}
	}
	return spans
}

// scanParamTags redacts the text of an element whose key, name or id
// attribute names a secret.
func scanParamTags(line []byte, base int, spans []span) []span {
	if !bytes.Contains(line, []byte("</")) {
		return spans
	}
	for _, m := range paramTagRe.FindAllSubmatchIndex(line, -1) {
		if !bytes.Equal(line[m[2]:m[3]], line[m[8]:m[9]]) {
			continue
		}
		v0, v1 := m[6], m[7]
		for v0 < v1 && isSpace(line[v0]) {
			v0++
		}
		for v1 > v0 && isSpace(line[v1-1]) {
			v1--
		}
		if isCredential(classify(line[m[4]:m[5]]), line[v0:v1]) {
			spans = append(spans, span{base + v0, base + v1})
		}
	}
	return spans
}

// mdTable follows a Markdown table: the columns its header names secrets
// (| user | password |), whose cells in the rows below are values.
type mdTable struct {
	prev    []span // the cells of the row before, a header when a rule follows
	secrets map[int]strength
}

// row redacts the secret cells of one table row at src[start:end]: cells
// of a secret column, and the value of a two-cell row whose first cell
// names a secret (| password | v |).
func (t *mdTable) row(src []byte, start, end int, spans []span) []span {
	line := src[start:end]
	cells := tableCells(line, start)
	if isRule(line) {
		t.secrets = nil
		for k, c := range t.prev {
			if st := cellKey(src[c.start:c.end]); st != notSecret {
				if t.secrets == nil {
					t.secrets = map[int]strength{}
				}
				t.secrets[k] = st
			}
		}
		t.prev = nil
		return spans
	}
	t.prev = cells
	for k, c := range cells {
		if st, ok := t.secrets[k]; ok {
			spans = cellValue(src, c, st, spans)
		}
	}
	if len(cells) == 2 {
		if st := cellKey(src[cells[0].start:cells[0].end]); st != notSecret {
			spans = cellValue(src, cells[1], st, spans)
		}
	}
	return spans
}

func (t *mdTable) reset() { t.prev, t.secrets = nil, nil }

// tableCells splits a table row into its cells' spans of src (trimmed).
func tableCells(line []byte, base int) []span {
	i := indent(line) + 1 // the leading "|"
	var out []span
	for i < len(line) {
		j := i
		for j < len(line) && line[j] != '|' {
			if line[j] == '\\' {
				j++
			}
			j++
		}
		j = min(j, len(line))
		s, e := i, j
		for s < e && isSpace(line[s]) {
			s++
		}
		for e > s && isSpace(line[e-1]) {
			e--
		}
		if j < len(line) || s < e {
			out = append(out, span{base + s, base + e})
		}
		i = j + 1
	}
	return out
}

// isRule reports the line under a table header: |---|:---:|.
func isRule(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) > 2 && bytes.Trim(t, "|-: \t") == nil && bytes.Contains(t, []byte("---"))
}

// cellKey classifies a header or key cell: password, **DB password**,
// `API_KEY`.
func cellKey(c []byte) strength {
	c = bytes.Trim(c, "*_` ")
	if len(c) == 0 || len(c) > 40 || !keyWordSet.in(c) {
		return notSecret
	}
	k := bytes.ReplaceAll(c, []byte(" "), []byte("_"))
	for _, b := range k {
		if !isAlnum(b) && b != '_' && b != '-' && b != '.' {
			return notSecret
		}
	}
	return classify(k)
}

// cellValue redacts a value cell, inside its `code` or quotes.
func cellValue(src []byte, c span, st strength, spans []span) []span {
	s, e := c.start, c.end
	for s < e && (src[s] == '`' || src[s] == '*' || src[s] == '"' || src[s] == '\'') && (src[e-1] == src[s]) {
		s, e = s+1, e-1
	}
	if v := src[s:e]; s < e && !bytes.ContainsAny(v, " \t") && isCredential(st, v) {
		spans = append(spans, span{s, e})
	}
	return spans
}

// positional gives, for calls that take a password among their positional
// arguments, its index (from 0).
var positional = map[string]int{
	"pdo": 2, "mysqli": 2, "mysqli_connect": 2, "mysql_connect": 2, "mysql_pconnect": 2,
	"mysqli_real_connect": 3, "real_connect": 2, "ftp_login": 2, "ldap_bind": 2, "ldap_sasl_bind": 2,
	"ssh2_auth_password": 2, "ssh2_auth_pubkey_file": 4, "imap_open": 2, "odbc_connect": 2, "odbc_pconnect": 2,
	"oci_connect": 1, "oci_pconnect": 1, "oci_new_connect": 1, "ocilogon": 1, "ociplogon": 1, "ocinlogon": 1,
	"sqlsrv_connect": -1, "mssql_connect": 2, "mssql_pconnect": 2, "sybase_connect": 2, "ibase_connect": 2,
	"ibase_pconnect": 2, "db2_connect": 2, "db2_pconnect": 2, "ifx_connect": 2, "fbsql_connect": 2,
	"cubrid_connect": 4, "mysqli_change_user": 2, "openssl_pkey_get_private": 1, "openssl_pkcs12_read": 2,
	"openssl_pkey_export": 2, "openssl_pkey_export_to_file": 2, "hash_hmac": 2,
}

// positionalMethods are the same for methods ($redis->auth('v'),
// $ssh->login('u', 'v')): only called on an object or a class.
var positionalMethods = map[string]int{
	"auth": 0, "login": 1, "change_user": 1, "authenticate": 1, "setsaslauthdata": 1,
}

// passwordArg returns the index of the password among the arguments of the
// call named name (lower case) that ends at line[n1], or -1.
func passwordArg(line []byte, j int, name string) int {
	if idx, ok := positional[name]; ok {
		return idx
	}
	idx, ok := positionalMethods[name]
	if !ok {
		return -1
	}
	for j > 0 && isSpace(line[j-1]) {
		j--
	}
	if j >= 2 && (string(line[j-2:j]) == "->" || string(line[j-2:j]) == "::") {
		return idx
	}
	return -1
}
