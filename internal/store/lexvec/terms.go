// This file defines Terms, the code-aware tokenizer shared by indexing and
// querying: identifiers are kept whole and also split at namespace separators,
// underscores and camelCase humps.

package lexvec

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Terms returns s as space-separated lower-case tokens: every identifier whole,
// then its parts. "App\\Http\\UserController::findByEmail" gives "app http
// usercontroller user controller findbyemail find by email": words are runs of
// letters, digits and underscores, namespace and member separators split them,
// and each word longer than one part is followed by its camelCase and
// snake_case parts.
//
// It runs over every chunk and symbol of a build, so ASCII words take a path
// that allocates nothing per word; other words go through splitIdent. The
// output equals termsReference (terms_test.go), checked by FuzzTerms.
func Terms(s string) string {
	b := make([]byte, 0, len(s)+len(s)/2)
	var parts [][2]int
	for i := 0; i < len(s); {
		if !wordAt(s, i) {
			_, size := nextRune(s, i)
			i += size
			continue
		}
		j := i
		ascii := true
		for j < len(s) && wordAt(s, j) {
			if s[j] >= utf8.RuneSelf {
				ascii = false
			}
			_, size := nextRune(s, j)
			j += size
		}
		seg := s[i:j]
		i = j
		if len(b) > 0 {
			b = append(b, ' ')
		}
		if !ascii {
			b = append(b, strings.ToLower(seg)...)
			if sub := splitIdent(seg); len(sub) > 1 {
				for _, p := range sub {
					b = append(b, ' ')
					b = append(b, p...)
				}
			}
			continue
		}
		b = appendLower(b, seg)
		parts = splitASCII(seg, parts[:0])
		if len(parts) > 1 {
			for _, p := range parts {
				b = append(b, ' ')
				b = appendLower(b, seg[p[0]:p[1]])
			}
		}
	}
	return string(b)
}

// wordAt reports whether the rune at s[i] belongs to a word: a letter, a digit
// or an underscore.
func wordAt(s string, i int) bool {
	c := s[i]
	if c < utf8.RuneSelf {
		return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func nextRune(s string, i int) (rune, int) {
	if s[i] < utf8.RuneSelf {
		return rune(s[i]), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// splitASCII is splitIdent for an ASCII word, as byte ranges.
func splitASCII(s string, parts [][2]int) [][2]int {
	start := 0
	flush := func(end int) {
		if end > start {
			parts = append(parts, [2]int{start, end})
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			flush(i)
			start = i + 1
			continue
		}
		if i > start && isUpper(c) {
			prev := s[i-1]
			nextLower := i+1 < len(s) && isLower(s[i+1])
			if isLower(prev) || isDigit(prev) || (isUpper(prev) && nextLower) {
				flush(i)
				start = i
			}
		}
	}
	flush(len(s))
	return parts
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
