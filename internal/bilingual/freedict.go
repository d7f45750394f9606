// This file reads a dictd database (the .index and the dictzip'd .dict.dz of
// Debian's dict-freedict-eng-rus) and inverts it: the stem of each one-word
// Russian translation → the English headwords it translates.

package bilingual

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// readFreeDict reads path.index and path.dict.dz.
func readFreeDict(path string) (map[string][]Candidate, string, error) {
	f, err := os.Open(path + ".dict.dz")
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f) // dictzip is gzip with a chunk table in its extra field
	if err != nil {
		return nil, "", err
	}
	body, err := io.ReadAll(zr)
	if err != nil {
		return nil, "", err
	}
	idx, err := os.Open(path + ".index")
	if err != nil {
		return nil, "", err
	}
	defer idx.Close()
	byStem := map[string]map[string]bool{}
	name := "FreeDict eng-rus"
	sc := bufio.NewScanner(idx)
	for sc.Scan() {
		p := strings.Split(sc.Text(), "\t")
		if len(p) != 3 {
			continue
		}
		off, err1 := b64(p[1])
		n, err2 := b64(p[2])
		if err1 != nil || err2 != nil || off+n > len(body) {
			return nil, "", fmt.Errorf("%s.index: bad entry %q", path, p[0])
		}
		entry := string(body[off : off+n])
		if strings.HasPrefix(p[0], "00database") {
			if p[0] == "00databaseshort" || p[0] == "00-database-short" {
				name = strings.TrimSpace(lastLine(entry))
			}
			continue
		}
		head := strings.ToLower(strings.TrimSpace(p[0]))
		if strings.ContainsAny(head, " -'.") || !isASCIIWord(head) {
			continue // phrases and names of places say little about code
		}
		for _, ru := range translations(entry) {
			st := Stem(ru)
			if byStem[st] == nil {
				byStem[st] = map[string]bool{}
			}
			byStem[st][head] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, "", err
	}
	if len(byStem) == 0 {
		return nil, "", errors.New("no entries")
	}
	out := make(map[string][]Candidate, len(byStem))
	for st, heads := range byStem {
		ws := make([]string, 0, len(heads))
		for h := range heads {
			ws = append(ws, h)
		}
		sort.Strings(ws)
		for _, w := range ws {
			out[st] = append(out[st], Candidate{Word: w, Weight: 0.5 / float64(len(ws)), From: "dictionary"})
		}
	}
	if v := version(body); v != "" && !strings.Contains(name, v) {
		name += " " + v
	}
	return out, name, nil
}

var editionRe = regexp.MustCompile(`(?m)^Edition:\s*(\S+)`)

func version(body []byte) string {
	head := body[:min(len(body), 4096)]
	if m := editionRe.FindSubmatch(head); m != nil {
		return string(m[1])
	}
	return ""
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func isASCIIWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

var (
	numbered = regexp.MustCompile(`^\s*\d+\.\s*`)
	parens   = regexp.MustCompile(`\([^)]*\)|\[[^]]*\]|<[^>]*>`)
)

// translations are the one-word Russian translations of an entry: the lines
// after the headword's, numbering and remarks in brackets removed, split at
// commas and semicolons.
func translations(entry string) []string {
	lines := strings.Split(entry, "\n")
	var out []string
	for _, line := range lines[1:] {
		line = parens.ReplaceAllString(numbered.ReplaceAllString(line, ""), "")
		for _, part := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ';' }) {
			part = strings.TrimSpace(part)
			if part == "" || strings.ContainsAny(part, " ") || !HasCyrillic(part) {
				continue
			}
			out = append(out, strings.ToLower(part))
		}
	}
	return out
}

// b64 decodes dictd's base64 numbers (big-endian digits).
func b64(s string) (int, error) {
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	n := 0
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(digits, s[i])
		if d < 0 {
			return 0, fmt.Errorf("bad digit %q", s[i])
		}
		n = n*64 + d
	}
	return n, nil
}
