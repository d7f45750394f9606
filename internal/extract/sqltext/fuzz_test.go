package sqltext

import (
	"strings"
	"testing"
)

// FuzzRewrite checks that rewriting never panics, that Analyze either succeeds
// or returns a ParseError, and that literal SQL without placeholders passes
// through unchanged (the reference model is the identity).
func FuzzRewrite(f *testing.F) {
	f.Add("SELECT * FROM ", "$wpdb->posts", " WHERE ID = %d")
	f.Add("INSERT INTO t (a) VALUES ('", "$x", "')")
	f.Add("UPDATE `", "$table", "` SET a = %1$s")
	f.Fuzz(func(t *testing.T, lit1, hole, lit2 string) {
		tp := Template{Parts: []Part{{Lit: lit1}, {Hole: hole}, {Lit: lit2}}}
		if hole == "" {
			tp.Parts = []Part{{Lit: lit1}, {Lit: lit2}}
		}
		q, err := Analyze(tp, Options{TablePrefixes: []string{"wp_"}})
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
		} else {
			for _, u := range q.Tables {
				if u.Table == "" || strings.Contains(u.Table, holeMark) {
					t.Fatalf("table use with marker or empty name: %+v", u)
				}
			}
		}
		if !strings.ContainsAny(lit1, "%$") {
			if got, _ := rewrite(Template{Parts: []Part{{Lit: lit1}}}); got != lit1 {
				t.Fatalf("rewrite(%q) = %q", lit1, got)
			}
		}
	})
}
