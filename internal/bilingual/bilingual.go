// Package bilingual turns a Russian question into the English words code is
// written in: each Russian word is stemmed (Snowball) and looked up in a
// glossary of programming words committed with ragraf, then in the FreeDict
// English–Russian dictionary when dictd's files are installed (read at run
// time, inverted from English → Russian; never copied). Words in Latin
// letters (identifiers such as saveOrder) are kept as they are.
package bilingual

import (
	_ "embed"
	"os"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/russian"
)

// DictEnv names the environment variable that overrides where the FreeDict
// dictionary is read from: the path without .index/.dict.dz, or "none".
const DictEnv = "RAGRAF_DICT"

// DefaultDict is where Debian's dict-freedict-eng-rus installs its files.
const DefaultDict = "/usr/share/dictd/freedict-eng-rus"

//go:embed glossary.tsv
var glossaryTSV string

// Candidate is one English word for a Russian one, with a weight in (0, 1]:
// the glossary's first word weighs 1, later ones less; the dictionary's
// words share 0.5 among them.
type Candidate struct {
	Word   string  `json:"word"`
	Weight float64 `json:"weight"`
	From   string  `json:"from"` // glossary | dictionary
}

// Word is one content word of the query and what it became.
type Word struct {
	Text    string      `json:"text"`
	Stem    string      `json:"stem,omitempty"` // Russian words only
	English []Candidate `json:"english,omitempty"`
	Kept    bool        `json:"kept,omitempty"` // a Latin word or identifier, searched as written
}

// Expansion is a query's content words, in order; stop words are left out.
type Expansion struct {
	Words []Word `json:"words"`
}

// Dictionary says which dictionary a lexicon read.
type Dictionary struct {
	Name     string `json:"name"`              // e.g. FreeDict eng-rus 0.3.1
	Path     string `json:"path"`              // without .index/.dict.dz
	Entries  int    `json:"entries"`           // Russian stems it maps
	Missing  string `json:"missing,omitempty"` // why no dictionary is read
	Glossary int    `json:"glossary"`          // Russian stems of the glossary
}

// Lexicon maps Russian stems to English candidates.
type Lexicon struct {
	glossary map[string][]Candidate
	dict     map[string][]Candidate
	info     Dictionary
}

var (
	loadedMu sync.Mutex
	loaded   = map[string]*Lexicon{}
)

// DictPath is the dictionary path in force: $RAGRAF_DICT, else DefaultDict.
func DictPath() string {
	if p := os.Getenv(DictEnv); p != "" {
		return p
	}
	return DefaultDict
}

// Load returns the lexicon of the glossary and the dictionary at path (see
// DictPath), read once per process and path. A missing or unreadable
// dictionary leaves the glossary alone, with Info().Missing saying why.
func Load(path string) *Lexicon {
	loadedMu.Lock()
	defer loadedMu.Unlock()
	if l, ok := loaded[path]; ok {
		return l
	}
	l := &Lexicon{glossary: parseGlossary(glossaryTSV)}
	l.info = Dictionary{Path: path, Glossary: len(l.glossary)}
	if path == "none" {
		l.info.Missing = "switched off (" + DictEnv + "=none)"
	} else if d, name, err := readFreeDict(path); err != nil {
		l.info.Missing = "the FreeDict English–Russian dictionary is not readable at " + path + " (" + err.Error() + "; install dict-freedict-eng-rus)"
	} else {
		l.dict, l.info.Name, l.info.Entries = d, name, len(d)
	}
	loaded[path] = l
	return l
}

// Info says which dictionary the lexicon holds.
func (l *Lexicon) Info() Dictionary { return l.info }

// HasCyrillic reports whether s holds a Cyrillic letter.
func HasCyrillic(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			return true
		}
	}
	return false
}

// Stem is the Snowball stem of a Russian word, lower-cased, ё read as е.
func Stem(w string) string {
	w = strings.ReplaceAll(strings.ToLower(w), "ё", "е")
	return russian.Stem(w, true)
}

// stop words of questions: the stemmer's list and a few question verbs that
// name no concept of code.
var stopExtra = map[string]bool{"какие": true, "каких": true, "который": true, "которая": true, "которые": true,
	"свой": true, "своя": true, "свое": true, "свои": true, "своего": true, "своей": true, "свою": true,
	"нужно": true, "надо": true, "как": true, "где": true, "это": true, "этот": true, "эта": true, "ли": true,
	"также": true, "чтобы": true, "через": true, "на": true, "в": true}

func isStop(w string) bool {
	w = strings.ReplaceAll(w, "ё", "е")
	return russian.IsStopWord(w) && w != "другой" || stopExtra[w]
}

// Expand splits the query into words: Russian ones stemmed and translated,
// the rest (identifiers, English words) kept as written.
func (l *Lexicon) Expand(query string) Expansion {
	var out Expansion
	for _, w := range words(query) {
		if !HasCyrillic(w) {
			out.Words = append(out.Words, Word{Text: w, Kept: true})
			continue
		}
		lw := strings.ToLower(w)
		if isStop(lw) {
			continue
		}
		st := Stem(lw)
		out.Words = append(out.Words, Word{Text: w, Stem: st, English: l.lookup(st)})
	}
	return out
}

// maxCandidates is how many English words one Russian word brings.
const maxCandidates = 4

// lookup finds the stem in the glossary, then in the dictionary; a stem
// not found as it is may be a longer form of a known one (сохраня of
// сохран): the longest known stem it starts with, at least four letters and
// at most two letters shorter.
func (l *Lexicon) lookup(stem string) []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	add := func(cs []Candidate) {
		for _, c := range cs {
			if !seen[c.Word] && len(out) < maxCandidates {
				seen[c.Word] = true
				out = append(out, c)
			}
		}
	}
	for _, m := range []map[string][]Candidate{l.glossary, l.dict} {
		if cs, ok := m[stem]; ok {
			add(cs)
			continue
		}
		if cs, ok := prefixOf(m, stem); ok {
			add(cs)
		}
	}
	return out
}

func prefixOf(m map[string][]Candidate, stem string) ([]Candidate, bool) {
	rs := []rune(stem)
	for n := len(rs) - 1; n >= 4 && n >= len(rs)-2; n-- {
		if cs, ok := m[string(rs[:n])]; ok {
			return cs, true
		}
	}
	return nil, false
}

// words splits text into runs of letters, digits and underscores.
func words(s string) []string {
	var out []string
	start := -1
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		in := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
		if in && start < 0 {
			start = i
		} else if !in && start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// parseGlossary reads glossary.tsv into stems → candidates, the first
// English word weighing 1, each later one 0.1 less.
func parseGlossary(tsv string) map[string][]Candidate {
	m := map[string][]Candidate{}
	for _, line := range strings.Split(tsv, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ru, en, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		st := Stem(ru)
		for i, e := range strings.Fields(en) {
			m[st] = append(m[st], Candidate{Word: e, Weight: 1 - 0.1*float64(i), From: "glossary"})
		}
	}
	for st, cs := range m {
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].Weight > cs[j].Weight })
		m[st] = cs
	}
	return m
}
