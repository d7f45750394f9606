// This file turns a Template into SQL text a MySQL parser accepts; analyze.go
// parses that text and maps the marker identifiers back to tables.

package sqltext

import (
	"regexp"
	"strconv"
	"strings"
)

// Part is one piece of a template: exactly one of Lit and Hole is set.
// Hole is the PHP expression text, e.g. "$wpdb->posts", "$table", "$id".
type Part struct {
	Lit  string
	Hole string
}

// Template is a SQL candidate from PHP code. Line is the line of the first part.
type Template struct {
	Parts []Part
	Path  string
	Line  int
}

// Marker identifiers written into the rewritten SQL. They are chosen so no real
// schema uses them; analyze.go maps them back.
const (
	inferredMark = "ragraf_inf_"  // table name that came from a hole
	holeMark     = "ragraf_hole_" // identifier whose value is unknown
)

// wpTables are the $wpdb properties that name core WordPress tables.
var wpTables = map[string]bool{
	"posts": true, "postmeta": true, "options": true, "users": true, "usermeta": true,
	"terms": true, "term_taxonomy": true, "term_relationships": true, "termmeta": true,
	"comments": true, "commentmeta": true, "links": true, "blogs": true, "site": true,
	"sitemeta": true, "signups": true, "registration_log": true, "blogmeta": true,
	"blog_versions": true,
}

var (
	wpdbProp   = regexp.MustCompile(`^\{?\$wpdb->(\w+)\}?$`)
	prefixHole = regexp.MustCompile(`(?i)^\{?\$(?:\w+->)*\w*prefix\}?$`)
	// collateHole holds table options such as "DEFAULT CHARSET=utf8mb4"
	// (WordPress's $charset_collate); it carries no table or column.
	// clauseHole holds a whole clause built elsewhere ($join, $where,
	// $orderby, $limits, ...): it names no table here, so it is dropped; the
	// tables it may name are found where the clause is built.
	clauseHole  = regexp.MustCompile(`(?i)^\{?\$(?:\w+->)*[a-z]?(?:join|where|groupby|orderby|order|limits?|sort|distinct|found_rows|having)\}?$`)
	collateHole = regexp.MustCompile(`(?i)^\{?\$(?:\w+->)*\w*(charset|collate)\w*(\(\))?\}?$`)
)

// tableKeywords are the words after which a table name follows.
var tableKeywords = map[string]bool{
	"FROM": true, "JOIN": true, "INTO": true, "UPDATE": true, "TABLE": true,
	"EXISTS": true, "TABLES": true, "REFERENCES": true, "DESCRIBE": true,
}

// rewriter accumulates the rewritten SQL and the meaning of its markers.
type rewriter struct {
	b     strings.Builder
	quote byte // current quote char: ' " ` or 0
	holes []string
}

// newHole records a hole expression and returns its marker identifier.
func (r *rewriter) newHole(expr string) string {
	r.holes = append(r.holes, expr)
	return holeMark + strconv.Itoa(len(r.holes)) + "_"
}

// lastWord returns the last word written outside quotes, upper-cased, or the
// last punctuation character when the text ends in one.
func (r *rewriter) lastWord() string {
	s := strings.TrimRight(r.b.String(), " \t\r\n")
	if s == "" {
		return ""
	}
	i := len(s)
	for i > 0 && isIdent(s[i-1]) {
		i--
	}
	if i == len(s) {
		return s[len(s)-1:]
	}
	return strings.ToUpper(s[i:])
}

// gluedLeft reports whether the text ends in an identifier character.
func (r *rewriter) gluedLeft() bool {
	s := r.b.String()
	return s != "" && isIdent(s[len(s)-1])
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// hole writes the replacement for one PHP expression; next is the literal that
// follows it ("" if none).
func (r *rewriter) hole(expr, next string) {
	expr = strings.TrimSpace(expr)
	if r.quote == '\'' || r.quote == '"' {
		r.b.WriteString("h") // inside a SQL string: any text will do
		return
	}
	if m := wpdbProp.FindStringSubmatch(expr); m != nil && wpTables[m[1]] {
		r.b.WriteString(inferredMark + m[1])
		return
	}
	if collateHole.MatchString(expr) || clauseHole.MatchString(expr) {
		return
	}
	if prefixHole.MatchString(expr) {
		r.b.WriteString(inferredMark)
		return
	}
	gluedRight := next != "" && isIdent(next[0])
	if r.quote == '`' || r.gluedLeft() || gluedRight || tableKeywords[r.lastWord()] {
		r.b.WriteString(r.newHole(expr))
		return
	}
	r.b.WriteString("?")
}

// literal copies SQL text, tracking quotes and rewriting placeholders.
func (r *rewriter) literal(s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if r.quote != 0 {
			r.b.WriteByte(c)
			switch {
			case c == '\\' && r.quote != '`' && i+1 < len(s):
				i++
				r.b.WriteByte(s[i])
			case c == r.quote:
				if i+1 < len(s) && s[i+1] == c { // doubled quote
					i++
					r.b.WriteByte(c)
				} else {
					r.quote = 0
				}
			}
			continue
		}
		switch c {
		case '\'', '"', '`':
			r.quote = c
			r.b.WriteByte(c)
		case '%':
			n := placeholderLen(s[i:])
			switch {
			case n == 0:
				r.b.WriteByte(c)
			case s[i+n-1] == '%':
				r.b.WriteByte('%')
			case s[i+n-1] == 'i':
				r.b.WriteString(r.newHole(s[i : i+n]))
			default:
				r.b.WriteByte('?')
			}
			if n > 0 {
				i += n - 1
			}
		case '$':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j > i+1 && (j == len(s) || !isIdent(s[j])) && !r.gluedLeft() {
				r.b.WriteByte('?')
				i = j - 1
			} else {
				r.b.WriteByte(c)
			}
		default:
			r.b.WriteByte(c)
		}
	}
}

// placeholderLen returns the length of a wpdb::prepare placeholder at the start
// of s ("%s", "%d", "%f", "%F", "%i", "%1$s", "%%"), or 0.
func placeholderLen(s string) int {
	if len(s) < 2 {
		return 0
	}
	if s[1] == '%' {
		return 2
	}
	j := 1
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j > 1 {
		if j >= len(s) || s[j] != '$' {
			return 0
		}
		j++
	}
	if j >= len(s) {
		return 0
	}
	switch s[j] {
	case 's', 'd', 'f', 'F', 'i':
		if j+1 < len(s) && isIdent(s[j+1]) && s[j+1] != '$' {
			return 0
		}
		return j + 1
	}
	return 0
}

// rewrite returns the parseable SQL for t and the hole expressions by marker number.
func rewrite(t Template) (string, []string) {
	var r rewriter
	for i, p := range t.Parts {
		if p.Hole != "" {
			next := ""
			if i+1 < len(t.Parts) {
				next = t.Parts[i+1].Lit
			}
			r.hole(p.Hole, next)
			continue
		}
		r.literal(p.Lit)
	}
	return r.b.String(), r.holes
}
