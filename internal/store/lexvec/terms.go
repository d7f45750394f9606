// This file defines Terms, the code-aware tokenizer shared by indexing and
// querying: identifiers are kept whole and also split at namespace separators,
// underscores and camelCase humps.

package lexvec

import (
	"strings"
	"unicode"
)

// Terms returns s as space-separated lower-case tokens: every identifier whole,
// then its parts. "App\Http\UserController::findByEmail" gives
// "app\http\usercontroller::findbyemail app http user controller find by email"-like
// tokens (the whole form keeps only letters, digits and underscores per word).
func Terms(s string) string {
	var out []string
	for _, word := range strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '\\' || r == ':' || r == '$')
	}) {
		word = strings.Trim(word, `\:$`)
		if word == "" {
			continue
		}
		var parts []string
		for _, seg := range strings.FieldsFunc(word, func(r rune) bool { return r == '\\' || r == ':' || r == '$' }) {
			whole := strings.ToLower(seg)
			parts = append(parts, whole)
			sub := splitIdent(seg)
			if len(sub) > 1 {
				parts = append(parts, sub...)
			}
		}
		out = append(out, parts...)
	}
	return strings.Join(out, " ")
}

// splitIdent splits at underscores and camelCase boundaries, lower-cased:
// "parseHTTPRequest_v2" -> parse http request v2.
func splitIdent(s string) []string {
	var parts []string
	rs := []rune(s)
	start := 0
	flush := func(end int) {
		if end > start {
			parts = append(parts, strings.ToLower(string(rs[start:end])))
		}
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '_' {
			flush(i)
			start = i + 1
			continue
		}
		if i > start && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush(i)
				start = i
			}
		}
	}
	flush(len(rs))
	return parts
}
