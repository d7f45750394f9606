// This file holds the words the static model reads: Words splits a text
// into code-aware terms without stopwords, Stem reduces English words.

package embed

import (
	"strings"

	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// stopwords are English words too common to mean anything here.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of to in on for and or is are be by with as at it its this that from
		if not no into than then else can will was were has have had do does should would may
		param return returns var type string int bool array mixed null true false void since see
		php default optional`) {
		m[w] = true
	}
	return m
}()

// Words returns the words of text the model reads: the code-aware terms of
// lexvec.Terms (whole identifiers and their parts), lower-case, without
// stopwords, numbers and one-letter words.
func Words(text string) []string {
	var out []string
	for _, t := range strings.Fields(lexvec.Terms(text)) {
		if len(t) < 2 || stopwords[t] || isNumber(t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// Stem reduces an English word of ASCII letters to a crude stem: plural
// and verb endings (-ies, -es, -s, -ing, -ed) and a final e go, a doubled
// last consonant is undoubled ("running" -> "run"). Identifiers with
// underscores or digits, short words and other scripts stay as they are.
func Stem(w string) string {
	if len(w) < 4 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		w = undouble(w[:len(w)-2])
	}
	if strings.HasSuffix(w, "e") && len(w) > 4 {
		w = w[:len(w)-1]
	}
	return w
}

func undouble(w string) string {
	if n := len(w); n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("lsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
