// This file holds the cheap pre-filter that decides whether a PHP string is
// worth handing to Analyze.

package sqltext

import "strings"

// articles are words that occur in prose select lists ("Select an option from
// the list") and never in SQL select lists.
var articles = map[string]bool{
	"a": true, "an": true, "the": true, "your": true, "this": true, "these": true,
	"my": true, "our": true, "which": true, "what": true, "one": true, "some": true,
	"to": true, "for": true, "of": true, "please": true, "you": true, "here": true,
}

// LooksLikeSQL reports whether literal text starts like a SQL statement: a
// statement keyword (after whitespace and parentheses), written all upper- or
// all lower-case as SQL is, followed by the keyword that statement needs
// (FROM, INTO, SET, TABLE, ...). It rejects prose such as "Select an option
// from the list". It is a filter only: Analyze decides.
func LooksLikeSQL(text string) bool {
	s := strings.TrimLeft(text, " \t\r\n(")
	words := strings.Fields(firstN(s, 400))
	if len(words) < 2 {
		return false
	}
	kw := words[0]
	if kw != strings.ToUpper(kw) && kw != strings.ToLower(kw) {
		return false
	}
	up := make([]string, len(words))
	for i, w := range words {
		up[i] = strings.ToUpper(strings.Trim(w, "(),;"))
	}
	has := func(from int, ws ...string) bool {
		for _, w := range up[from:] {
			for _, x := range ws {
				if w == x {
					return true
				}
			}
		}
		return false
	}
	switch up[0] {
	case "SELECT":
		for i := 1; i < len(words); i++ {
			if up[i] == "FROM" {
				return i > 1 || words[1] == "*"
			}
			if articles[strings.ToLower(words[i])] {
				return false
			}
		}
		// SELECT without FROM: an expression such as FOUND_ROWS() or 1.
		w := words[1]
		return strings.ContainsAny(w, "(*@") || w[0] >= '0' && w[0] <= '9'
	case "INSERT":
		return has(1, "INTO") && !articles[strings.ToLower(words[1])]
	case "REPLACE":
		return up[1] == "INTO" || (len(up) > 2 && up[2] == "INTO")
	case "UPDATE":
		return has(2, "SET") && !articles[strings.ToLower(words[1])]
	case "DELETE":
		return up[1] == "FROM" || (has(2, "FROM") && !articles[strings.ToLower(words[1])])
	case "CREATE":
		return has(1, "TABLE", "INDEX", "VIEW", "DATABASE", "SCHEMA", "TRIGGER") &&
			oneOf(up[1], "TABLE", "TEMPORARY", "INDEX", "UNIQUE", "FULLTEXT", "SPATIAL", "VIEW", "OR", "DATABASE", "SCHEMA", "TRIGGER", "ALGORITHM", "DEFINER")
	case "ALTER", "DROP":
		return oneOf(up[1], "TABLE", "INDEX", "VIEW", "DATABASE", "SCHEMA", "TRIGGER", "TEMPORARY", "IGNORE", "ONLINE")
	case "TRUNCATE":
		return up[1] == "TABLE" || strings.ContainsAny(words[1], "`_")
	case "WITH":
		return has(1, "AS") && has(1, "SELECT", "(SELECT")
	}
	return false
}

func oneOf(w string, set ...string) bool {
	for _, x := range set {
		if w == x {
			return true
		}
	}
	return false
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
