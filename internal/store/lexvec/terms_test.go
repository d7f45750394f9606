package lexvec

import (
	"strings"
	"testing"
	"unicode"
)

// Terms returns s as space-separated lower-case tokens: every identifier whole,
// then its parts. "App\Http\UserController::findByEmail" gives
// "app\http\usercontroller::findbyemail app http user controller find by email"-like
// tokens (the whole form keeps only letters, digits and underscores per word).
func termsReference(s string) string {
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
			sub := splitIdentReference(seg)
			if len(sub) > 1 {
				parts = append(parts, sub...)
			}
		}
		out = append(out, parts...)
	}
	return strings.Join(out, " ")
}

// splitIdentReference is the original rune-by-rune splitter, kept here
// frozen as the oracle of termsReference: it splits at underscores and
// camelCase boundaries, lower-cased ("parseHTTPRequest_v2" -> parse http
// request v2), so a change to splitIdent or splitASCII that alters tokens fails.
func splitIdentReference(s string) []string {
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

func TestTerms(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`App\\Http\\UserController::findByEmail`, "app http usercontroller user controller findbyemail find by email"},
		{"parseHTTPRequest_v2()", "parsehttprequest_v2 parse http request v2"},
		{"$wpdb->posts", "wpdb posts"},
		{"wp_insert_post", "wp_insert_post wp insert post"},
		{"Grüße, Straße", "grüße straße"},
		{"", ""},
		{"  ::  ", ""},
		{"ÄrgerHTTPÜber", "ärgerhttpüber ärger http über"},
	} {
		if got := Terms(c.in); got != c.want {
			t.Errorf("Terms(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := termsReference(c.in); got != Terms(c.in) {
			t.Errorf("Terms(%q) = %q, reference %q", c.in, Terms(c.in), got)
		}
	}
}

// FuzzTerms checks the fast tokenizer against the simple reference model.
func FuzzTerms(f *testing.F) {
	for _, s := range []string{"App\\Cart::addItem", "snake_case_Name", "XMLHttpRequest2Go", "héllo_Wörld", "a$b:c\\d", "\xff\xfeabc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Terms(s), termsReference(s); got != want {
			t.Errorf("Terms(%q) = %q, reference %q", s, got, want)
		}
	})
}

func BenchmarkTerms(b *testing.B) {
	text := strings.Repeat("/** Retrieves the WP_Post object by ID: get_post_by_id($postId) in App\\Models\\PostRepository. */\n", 200)
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		Terms(text)
	}
}

func TestStrictQuery(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"findByEmail user", `("findbyemail" OR ("find" AND "by" AND "email")) AND "user"`},
		{"Shop\\Cart::add", `"shop" AND "cart" AND "add"`},
		{"wp_insert_post wp_insert_post", `("wp_insert_post" OR ("wp" AND "insert" AND "post"))`},
		{"  ::  ", ""},
	} {
		if got := StrictQuery(c.in); got != c.want {
			t.Errorf("StrictQuery(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
