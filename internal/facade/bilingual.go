// This file defines how search answers a question in Russian about code
// written in English (internal/bilingual): the Russian words are stemmed and
// translated through the glossary and the dictionary, identifiers are kept
// as written, and the weighted English words are what the lexical, semantic
// and expanded lists search; a Russian word also matches itself in Russian
// comments and docblocks (its stem as a prefix).

package facade

import (
	"strings"
	"unicode/utf8"

	"github.com/ragraf/ragraf/internal/bilingual"
	"github.com/ragraf/ragraf/internal/embed"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// Translation says how a question with Russian words was searched.
type Translation struct {
	Language   string           `json:"language"` // ru
	Words      []bilingual.Word `json:"words"`
	English    string           `json:"english"`              // the words searched, weighted as Words says
	Dictionary string           `json:"dictionary,omitempty"` // the dictionary read beside the glossary
	Missing    string           `json:"missing,omitempty"`    // why no dictionary was read: the glossary alone translated
}

// xlQuery is a translated query: what the lexical and the vector lists
// search instead of the question's own words.
type xlQuery struct {
	strict  string    // FTS5: every content word, as itself or one of its translations
	loose   string    // FTS5: any of them
	own     string    // FTS5: any Russian word of the question (its stem as a prefix)
	english string    // the English words and kept identifiers, for the common-term filter and the expansion
	kept    []string  // identifiers and Latin words of the question, lower-cased: exact names
	words   []string  // the words the static model embeds
	weights []float64 // their weights
}

// Lexicon is the Russian → English lexicon in force: the glossary and the
// dictionary at $RAGRAF_DICT or where dict-freedict-eng-rus installs it.
func Lexicon() *bilingual.Lexicon { return bilingual.Load(bilingual.DictPath()) }

// translate builds the translated query of a question with Cyrillic letters.
func translate(query string) (*xlQuery, *Translation) {
	lex := Lexicon()
	exp := lex.Expand(query)
	info := lex.Info()
	tr := &Translation{Language: "ru", Words: exp.Words, Dictionary: info.Name, Missing: info.Missing}
	xl := &xlQuery{}
	quote := func(t string) string { return `"` + strings.ReplaceAll(t, `"`, `""`) + `"` }
	prefix := func(t string) string {
		if utf8.RuneCountInString(t) >= 4 {
			return quote(t) + "*"
		}
		return quote(t)
	}
	var groups, any, owns, english []string
	for _, w := range exp.Words {
		if w.Kept {
			g := lexvec.StrictQuery(w.Text)
			groups = append(groups, g)
			for _, t := range strings.Fields(lexvec.Terms(w.Text)) {
				any = append(any, quote(t))
			}
			english = append(english, w.Text)
			xl.kept = append(xl.kept, strings.ToLower(w.Text))
			for _, t := range embed.Words(w.Text) {
				xl.words, xl.weights = append(xl.words, t), append(xl.weights, 1)
			}
			continue
		}
		own := prefix(strings.ToLower(w.Stem))
		alts := []string{own}
		any = append(any, own)
		owns = append(owns, own)
		var sum float64
		for _, c := range w.English {
			sum += c.Weight
		}
		for _, c := range w.English {
			alts = append(alts, prefix(c.Word))
			any = append(any, prefix(c.Word))
			english = append(english, c.Word)
			xl.words, xl.weights = append(xl.words, c.Word), append(xl.weights, c.Weight/sum)
		}
		if len(w.English) > 0 { // an untranslated word would keep every English hit out
			groups = append(groups, "("+strings.Join(alts, " OR ")+")")
		}
	}
	xl.strict = strings.Join(groups, " AND ")
	xl.loose = strings.Join(dedupe(any), " OR ")
	xl.english = strings.Join(english, " ")
	xl.own = strings.Join(dedupe(owns), " OR ")
	tr.English = xl.english
	return xl, tr
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	out := xs[:0:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// keeps reports whether name is one of the question's identifiers, as
// written there (case aside): such a symbol is an exact match.
func (xl *xlQuery) keeps(name string) bool {
	if xl == nil {
		return false
	}
	for _, k := range xl.kept {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}
