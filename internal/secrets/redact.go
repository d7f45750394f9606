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
type wordSet struct {
	first  [256][]taggedWord
	second [256][4]uint64 // for each first byte, the lower-case second bytes of its words
}

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
	gPos                      // calls with a password among their positional arguments
	gSQL                      // INSERT ... VALUES
)

func newWordSet(mask uint8, words ...string) *wordSet {
	t := &wordSet{}
	t.add(mask, words...)
	return t
}

func (t *wordSet) add(mask uint8, words ...string) *wordSet {
	for _, w := range words {
		// every word is lower-case ASCII of two bytes or more
		cs := []byte{w[0]}
		if w[0] >= 'a' && w[0] <= 'z' {
			cs = append(cs, w[0]-'a'+'A')
		}
		for _, c := range cs {
			t.first[c] = append(t.first[c], taggedWord{w, mask})
			t.second[c][w[1]>>6] |= 1 << (w[1] & 63)
		}
	}
	return t
}

// groups returns the union of the group bits of the words b contains,
// ignoring ASCII case.
func (t *wordSet) groups(b []byte) uint8 {
	var m uint8
	for i, c := range b {
		ws := t.first[c]
		if len(ws) == 0 || i+1 >= len(b) {
			continue
		}
		c2 := b[i+1] | 0x20*b2u(isUpper(b[i+1]))
		if t.second[c][c2>>6]&(1<<(c2&63)) == 0 {
			continue
		}
		for _, w := range ws {
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
			"github_pat_", "glpat-", "xox", "_live_", "_test_", "aiza", "eyj", "whsec_", "sg.", "sk-",
			"npm_", "key-", "shpat_", "shpss_", "shpca_", "hooks.slack.com", "/api/webhooks/").
		add(gDSN, "://").
		add(gCall, "define", "env").
		add(gToken, "webhook.office.com", "outlook.office", "telegram.org").
		add(gPos, "pdo", "mysql", "ftp_login", "ldap_bind", "ssh2_auth", "imap_open", "connect", "login",
			"logon", "curl", "openssl_pkey", "openssl_pkcs12", "hash_hmac", "change_user").
		add(gSQL, "insert").
		add(gAssign, "identified")
	keyWordSet = newWordSet(gAssign, keyWords...)
)

var (
	// tokenRe matches provider tokens recognisable by shape alone.
	tokenRe = regexp.MustCompile(`\b(?:(?:AKIA|ASIA)[0-9A-Z]{16}\b|gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|glpat-[A-Za-z0-9_\-]{20,}|xox[abpre]-[A-Za-z0-9-]{10,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}|AIza[0-9A-Za-z_\-]{35}|eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}|sk-(?:proj-|ant-[a-z0-9]+-)?[A-Za-z0-9_-]{32,}|npm_[A-Za-z0-9]{36}|key-[0-9a-f]{32}\b|shp(?:at|ss|ca|pa)_[0-9a-fA-F]{32})|hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/\-]{8,})|/api/webhooks/[0-9]+/([A-Za-z0-9_\-]{20,})|webhook\.office\.com/webhookb2/([A-Za-z0-9@/_\-]{16,})|outlook\.office(?:365)?\.com/webhook/([A-Za-z0-9@/_\-]{16,})|api\.telegram\.org/(?:file/)?bot([0-9]{5,}:[A-Za-z0-9_\-]{20,})`)
	// dsnRe matches the password of scheme://user:password@host.
	dsnRe = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@'"]*:([^\s@'"/]+)@`)
	// callRe matches define('KEY', '...') and env('KEY', '...').
	callRe = regexp.MustCompile(`\b(?:define|env|getenv|putenv)\s*\(\s*['"]([A-Za-z0-9_.\-]+)['"]\s*,\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")`)
)

type span struct{ start, end int }

// maxExpr bounds how far the value of a strong key is read.
const maxExpr = 256

// Redact returns a copy of src with secret-looking values replaced by
// Placeholder, and how many were replaced. Line breaks inside a replaced value
// (a private key block) are kept, so the number of lines never changes.
func Redact(src []byte) ([]byte, int) {
	spans := pemSpans(src, nil)
	block := -1 // indentation of a secret key whose block scalar follows
	var table mdTable
	past := 0 // the end of the furthest span found so far
	for start := 0; start < len(src); {
		end := bytes.IndexByte(src[start:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += start
		}
		line := src[start:end]
		if end <= past {
			start = end + 1 // inside a value already redacted (a heredoc's body)
			continue
		}
		if block >= 0 {
			// the lines of a YAML block scalar under a secret key
			if ind := indent(line); ind > block || ind == len(line) {
				if ind < len(line) {
					spans = append(spans, span{start + ind, end})
				}
				start = end + 1
				continue
			}
			block = -1
		}
		if ind := indent(line); ind < len(line) && line[ind] == '|' {
			spans = table.row(src, start, end, spans)
		} else if table.prev != nil || table.secrets != nil {
			table.reset()
		}
		if len(line) > 0 {
			if g := lineTriggers.groups(line); g != 0 {
				n := len(spans)
				spans = scanLine(src, line, g, start, spans)
				for _, s := range spans[n:] {
					past = max(past, s.end)
				}
				if g&gAssign != 0 {
					spans = scanJunction(src, line, start, end, spans)
					block = blockScalar(line)
				}
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
// Detectors whose values may continue on later lines (call arguments, INSERT
// tuples) read on in src.
func scanLine(src, line []byte, g uint8, base int, spans []span) []span {
	if g&gToken != 0 {
		for _, m := range tokenRe.FindAllSubmatchIndex(line, -1) {
			s, e := m[0], m[1]
			for k := 2; k+1 < len(m); k += 2 {
				if m[k] >= 0 { // a webhook URL: the secret part of its path
					s, e = m[k], m[k+1]
				}
			}
			spans = append(spans, span{base + s, base + e})
		}
	}
	if g&gDSN != 0 && bytes.IndexByte(line, '@') >= 0 {
		for _, m := range dsnRe.FindAllSubmatchIndex(line, -1) {
			if isCredential(strong, line[m[2]:m[3]]) {
				spans = append(spans, span{base + m[2], base + m[3]})
			}
		}
	}
	if g&(gAssign|gPos|gCall) != 0 {
		spans = scanCalls(src, line, base, spans)
	}
	if g&gPos != 0 && bytes.Contains(line, []byte(" -p")) {
		for _, m := range mysqlFlagRe.FindAllSubmatchIndex(line, -1) {
			if v := line[m[2]:m[3]]; !isReference(v) {
				spans = append(spans, span{base + m[2], base + m[3]})
			}
		}
	}
	if g&gSQL != 0 {
		spans = scanInsert(src, line, base, spans)
	}
	if g&(gPos|gAssign) != 0 {
		spans = scanCommands(line, base, spans)
	}
	if g&gAssign == 0 {
		return spans
	}
	spans = hookValues(src, line, base, spans)
	spans = scanParamTags(line, base, spans)
	spans = scanAssignments(src, line, base, spans)
	spans = scanStrings(line, base, spans)
	spans = scanSQLPassword(line, base, spans)
	spans = scanMarkup(line, base, spans)
	spans = scanProse(line, base, spans)
	if g&gCall != 0 {
		for _, m := range callRe.FindAllSubmatchIndex(line, -1) {
			spans = addValue(line, m, base, spans)
		}
	}
	if k0, k1, v0, v1, ok := configLine(line); ok {
		if isCredential(classify(line[k0:k1]), line[v0:v1]) {
			spans = append(spans, span{base + v0, base + v1})
		}
	}
	return spans
}

// scanAssignments finds key = 'literal' in its many spellings ($key = '...',
// 'key' => "...", "key": "...", key: '...', $a['key'] = '...', and the
// fallbacks $_ENV['KEY'] ?? '...', getenv('KEY') ?: '...') by looking around
// each "=", "=>", ":", ":=", "??" and "?:". line may span lines (a value on
// the line after its key). Hand-written because a regular expression tried
// at every offset of every line is the slowest part of Redact.
func scanAssignments(src, line []byte, base int, spans []span) []span {
	var qs *quotes
	seen := 0 // the end of the last literal a strong key's expression added
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '=' && c != ':' && c != '?' {
			continue
		}
		sepEnd := i + 1
		next := byte(0)
		if sepEnd < len(line) {
			next = line[sepEnd]
		}
		fallback := false
		switch {
		case c == '?' && (next == '?' || next == ':'):
			sepEnd++
			fallback = true
			if sepEnd < len(line) && line[sepEnd] == '=' {
				sepEnd++ // ??=
			}
		case c == '?':
			continue
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
		// The key: back over spaces, "]" (or ")" before a fallback) and a
		// closing quote.
		j := i - 1
		for j >= 0 && isSpace(line[j]) {
			j--
		}
		if j >= 0 && (line[j] == ']' || fallback && line[j] == ')') {
			j--
		}
		var closing byte // the quote after a quoted key ('key' => …, `user_pass`='v')
		if j >= 0 && (line[j] == '\'' || line[j] == '"' || line[j] == '`') {
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
		if j >= 0 && (line[j] == '\'' || line[j] == '"' || line[j] == '`') {
			opening = line[j]
		}
		if opening == 0 && qs == nil {
			qs = newQuotes(line)
		}
		if opening != closing {
			continue
		}
		inString := opening == 0 && qs.in(k0)
		if inString {
			// a key inside a string: SQL's SET password = 'v' when the
			// value is quoted with the other quote; otherwise the
			// separator is text ("POP3 pass: " . $reply)
			if v := skipSpace(line, sepEnd); v >= len(line) || line[v] != '\'' && line[v] != '"' || line[v] == qs.q {
				continue
			}
		}
		if opening == '`' {
			// `user_pass`='v' inside a string quoted with ": a value
			// quoted like the string around the key closes that string
			if qs == nil {
				qs = newQuotes(line)
			}
			if v := skipSpace(line, sepEnd); qs.in(k0) && v < len(line) && line[v] == qs.q {
				continue
			}
		}
		before := j // the last byte before the key and its quote
		if opening != 0 {
			before--
		}
		if c == ':' && !fallback && (opening != 0 && isTernary(line, before) || isCaseLabel(line, before)) {
			continue // $t = $hidden ? 'password' : 'text'; case 'password':
		}
		st := classify(line[k0:k1])
		if st == notSecret {
			continue
		}
		v := skipSpace(line, sepEnd)
		if st == strong && !inString {
			// the scan goes on after the separator: a nested array's keys
			// are keys of their own
			// a key inside an expression already read ($a = $b = 'v')
			// finds the same literals: each is judged once
			n := len(spans)
			spans = strongValuesFrom(src, base+v, seen, spans)
			for _, sp := range spans[n:] {
				seen = max(seen, sp.end)
			}
			continue
		}
		// A weak key's value, or a key's inside a string: one quoted
		// literal right after the separator.
		if v >= len(line) || (line[v] != '\'' && line[v] != '"') {
			continue
		}
		q := line[v]
		end := closingQuote(line, v)
		if end < 0 {
			continue
		}
		val := line[v+1 : end]
		if isCredential(st, val) && !builtValue(line, k0, q, val, end) && !(st == strong && compared(line, v, end)) {
			spans = append(spans, span{base + v + 1, base + end})
		}
		i = end
	}
	return spans
}

// isTernary reports whether the code before line[j] (a key's opening quote)
// ends with "?": the key is a ternary's branch.
func isTernary(line []byte, j int) bool {
	for j >= 0 && isSpace(line[j]) {
		j--
	}
	return j >= 0 && line[j] == '?'
}

// isCaseLabel reports whether the key before line[j+1] follows "case".
func isCaseLabel(line []byte, j int) bool {
	for j >= 0 && isSpace(line[j]) {
		j--
	}
	return j >= 3 && string(line[j-3:j+1]) == "case" && (j < 4 || !isAlnum(line[j-4]))
}

// closingQuote returns the index of the quote closing the literal that opens
// at line[i], or -1 when it does not close on the line.
func closingQuote(line []byte, i int) int {
	q := line[i]
	for end := i + 1; end < len(line); end++ {
		switch line[end] {
		case '\\':
			end++
		case q:
			return end
		case '\n':
			return -1
		}
	}
	return -1
}

// inCodeString tells whether byte i of a line of code is inside a quoted
// string that opens on the line (`"POP3 pass: " . $reply`). Comment lines
// and the comment at the end of a line are prose, whose apostrophes open
// nothing: there it reports false.
func inCodeString(line []byte, i int) bool {
	return newQuotes(line).in(i)
}

// quotes answers inCodeString for one line, reading it once when asked
// about increasing offsets, as scanAssignments asks.
type quotes struct {
	line    []byte
	prose   bool // a comment line
	pos     int  // how far the line is read
	q       byte // the open quote at pos, 0 outside strings
	comment bool // a comment started before pos
}

func newQuotes(line []byte) *quotes {
	t := bytes.TrimLeft(line, " \t")
	prose := len(t) > 0 && (t[0] == '*' || t[0] == '#' || bytes.HasPrefix(t, []byte("//")) || bytes.HasPrefix(t, []byte("/*")))
	return &quotes{line: line, prose: prose}
}

func (s *quotes) in(i int) bool {
	if s.prose {
		return false
	}
	if i < s.pos {
		s.pos, s.q, s.comment = 0, 0, false
	}
	line := s.line
	for ; s.pos < i && !s.comment; s.pos++ {
		c := line[s.pos]
		switch {
		case s.q != 0 && c == '\\':
			s.pos++
		case s.q != 0 && c == s.q:
			s.q = 0
		case s.q != 0:
		case c == '\'' || c == '"':
			s.q = c
		case c == '#' && (s.pos+1 >= len(line) || line[s.pos+1] != '['), c == '/' && s.pos+1 < len(line) && (line[s.pos+1] == '/' || line[s.pos+1] == '*'):
			s.comment = true // a comment to the end of the line
		}
	}
	return !s.comment && s.q != 0
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
	if isCredential(classify(line[m[2]:m[3]]), line[v0:v1]) {
		spans = append(spans, span{base + v0, base + v1})
	}
	return spans
}

// commandSignature is a console command definition such as Laravel's
// $signature = 'shop:prune-carts {--days=30}': a name, not a secret.
var commandSignature = regexp.MustCompile(`^[a-z][a-z0-9_-]*(?::[a-z0-9_-]+)+(?:\s+\{.*)?$`)

// isSecretValue decides whether a literal assigned to a key of strength s is
// redacted. Values that name or describe a secret instead of holding it are
// not: references, placeholders without a letter or digit ('*****', '?'),
// plain words (true, null), names (FTP_PASS, user_pass, passwords.token).
func isSecretValue(s strength, v []byte) bool {
	if len(v) == 0 || isReference(v) || !hasAlnum(v) || isName(v) || isCodeName(v) {
		return false
	}
	switch s {
	case strong:
		return true
	case weak:
		return len(v) >= 20 && entropy(v) > 3.5 && classes(v) >= 2 && !commandSignature.Match(v) && !pathLike.Match(v)
	}
	return false
}

// pathLike matches MIME types and paths (application/vnd.apple.keynote).
var pathLike = regexp.MustCompile(`^[a-z0-9._+\-]+(?:/[a-z0-9._+\-]+)+$`)

// isName reports a value that is a name: a plain word (true, none), a key
// word itself (password), a constant (FTP_PASS, __PRE__), or an identifier
// with "_" or "." that holds a key word (user_pass, api_token,
// passwords.token).
func isName(v []byte) bool {
	if len(v) > 64 {
		return false
	}
	var low [64]byte
	upperSnake, ident, sep := true, true, false
	for i, c := range v {
		low[i] = c | 0x20*b2u(isUpper(c))
		switch {
		case c == '_':
			sep = true
		case isUpper(c) || c >= '0' && c <= '9':
		case c >= 'a' && c <= 'z':
			upperSnake = false
		case c == '.' || c == '-':
			sep = sep || c == '.'
			upperSnake = false
		default:
			upperSnake, ident = false, false
		}
	}
	if plainWords[string(low[:len(v)])] || keyWordsExact[string(low[:len(v)])] {
		return true
	}
	if upperSnake && bytes.IndexByte(v, '_') >= 0 {
		return true
	}
	// user_pass, passwords.token, AllowNoPassword, URLQueryEncryptionSecretKey:
	// the name of a secret
	return ident && keyWordSet.in(v) && (sep || camelName(v) && classify(v) != notSecret)
}

// codeName matches a class or a handler written as a string: a namespaced
// class (App\Http\PasswordController), a route action (SettingsController@password,
// Api\V1Controller@changePassword) or a static callable (Auth::password).
var codeName = regexp.MustCompile(`^\\?[A-Za-z_][A-Za-z0-9_]*(?:\\[A-Za-z_][A-Za-z0-9_]*)*(?:(?:@|::)[A-Za-z_][A-Za-z0-9_]*)?$`)

// isCodeName reports a value that names code, not a secret (a route's
// 'SettingsController@password' beside a 'password' key): a namespaced name,
// or a callable on a class whose name says it is code (…Controller, …Handler,
// …Action, …Command).
func isCodeName(v []byte) bool {
	if !bytes.ContainsAny(v, "\\@:") || !codeName.Match(v) {
		return false
	}
	if bytes.IndexByte(v, '\\') >= 0 {
		return true
	}
	cls := v
	if i := bytes.IndexAny(v, "@:"); i >= 0 {
		cls = v[:i]
	} else {
		return false
	}
	for _, suffix := range []string{"Controller", "Handler", "Action", "Command"} {
		if bytes.HasSuffix(cls, []byte(suffix)) {
			return true
		}
	}
	return false
}

// camelName reports a camelCase or PascalCase name of letters and digits
// only, with a hump after a lower-case letter (AllowNoPassword).
func camelName(v []byte) bool {
	hump := false
	for i, c := range v {
		if !isAlnum(c) {
			return false
		}
		hump = hump || i > 0 && isUpper(c) && v[i-1] >= 'a' && v[i-1] <= 'z'
	}
	return hump
}

// keyWordsExact are values that are a key word: a field name, not a value.
var keyWordsExact = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "secret": true, "token": true,
	"key": true, "apikey": true, "api_key": true, "salt": true, "passphrase": true, "n/a": true,
}

// hasAlnum reports a value with a letter or a digit.
func hasAlnum(v []byte) bool {
	for _, c := range v {
		if isAlnum(c) {
			return true
		}
	}
	return false
}

// classes counts the character classes of v among lower-case letters,
// upper-case letters and digits.
func classes(v []byte) int {
	var l, u, d int
	for _, c := range v {
		switch {
		case c >= 'a' && c <= 'z':
			l = 1
		case isUpper(c):
			u = 1
		case c >= '0' && c <= '9':
			d = 1
		}
	}
	return l + u + d
}

// printfVerb matches a printf placeholder standing for a value: %s, %1$s.
var printfVerb = regexp.MustCompile(`^%(?:[0-9]+\$)?[-+ 0#]*[0-9]*(?:\.[0-9]+)?[sdfuxXb]$`)

// isReference reports values that name a secret instead of holding it:
// ${VAR}, {{ var }}, %env(VAR)%, $var, PHP's {$var}, <?php echo ... ?>.
func isReference(v []byte) bool {
	return v[0] == '$' || printfVerb.Match(v) || bytes.HasPrefix(v, []byte("{{")) || bytes.HasPrefix(v, []byte("%env(")) ||
		bytes.HasPrefix(v, []byte("%s")) || bytes.Contains(v, []byte("${")) || bytes.Contains(v, []byte("{$")) ||
		bytes.HasPrefix(v, []byte("<?")) || bytes.HasPrefix(v, []byte("<%"))
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
	if sep == '=' && v0 == i && k1 == i-1 {
		// KEY=value cmd: a shell assignment ends at a space
		if sp := bytes.IndexAny(line[v0:], " \t"); sp >= 0 {
			v1 = v0 + sp
		}
	}
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

// skipSpace skips spaces, tabs and line breaks (a value may follow its key
// on the next line).
func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isAlnum(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' }
