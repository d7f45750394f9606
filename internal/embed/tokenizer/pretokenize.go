// pretokenize.go builds the pre_tokenizer of tokenizer.json: BertPreTokenizer,
// Metaspace, WhitespaceSplit, Whitespace and Sequence. A pre-tokenizer splits
// the normalised text into the words the model encodes one by one.
package tokenizer

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// piece is a pre-token. atStart tells whether it begins at the start of the
// input (Metaspace's prepend_scheme "first" prepends only there).
type piece struct {
	text    string
	atStart bool
}

type preTokenizer func([]piece) []piece

func buildPreTokenizer(raw json.RawMessage) (preTokenizer, error) {
	if isNull(raw) {
		return nil, nil
	}
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("pre_tokenizer: %w", err)
	}
	switch head.Type {
	case "Sequence":
		var c struct {
			PreTokenizers []json.RawMessage `json:"pretokenizers"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("pre_tokenizer Sequence: %w", err)
		}
		var seq []preTokenizer
		for _, r := range c.PreTokenizers {
			p, err := buildPreTokenizer(r)
			if err != nil {
				return nil, err
			}
			if p != nil {
				seq = append(seq, p)
			}
		}
		return func(ps []piece) []piece {
			for _, p := range seq {
				ps = p(ps)
			}
			return ps
		}, nil
	case "WhitespaceSplit":
		return splitEach(func(s string) []span { return splitRemoved(s, unicode.IsSpace) }), nil
	case "BertPreTokenizer":
		return splitEach(bertSplit), nil
	case "Whitespace":
		return splitEach(wordSplit), nil
	case "Metaspace":
		return buildMetaspace(raw)
	}
	return nil, unsupported("pre_tokenizer", head.Type)
}

// span is a part of a piece's text: [start, end).
type span struct{ start, end int }

// splitEach applies a splitter to every piece; a part keeps atStart only
// when it begins where its piece begins.
func splitEach(split func(string) []span) preTokenizer {
	return func(ps []piece) []piece {
		var out []piece
		for _, p := range ps {
			for _, sp := range split(p.text) {
				out = append(out, piece{text: p.text[sp.start:sp.end], atStart: p.atStart && sp.start == 0})
			}
		}
		return out
	}
}

// splitRemoved splits s at the characters for which isDelim holds, dropping
// them and empty parts.
func splitRemoved(s string, isDelim func(rune) bool) []span {
	var out []span
	start := -1
	for i, r := range s {
		if isDelim(r) {
			if start >= 0 {
				out = append(out, span{start, i})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, span{start, len(s)})
	}
	return out
}

// isBertPunct is ASCII punctuation (which includes the symbols $+<=>^`|~)
// or a character of Unicode category P.
func isBertPunct(r rune) bool {
	if r < 0x80 {
		return (r >= 0x21 && r <= 0x2F) || (r >= 0x3A && r <= 0x40) || (r >= 0x5B && r <= 0x60) || (r >= 0x7B && r <= 0x7E)
	}
	return unicode.IsPunct(r)
}

// bertSplit splits on whitespace (dropped) and isolates each punctuation
// character.
func bertSplit(s string) []span {
	var out []span
	for _, w := range splitRemoved(s, unicode.IsSpace) {
		start := w.start
		for i := w.start; i < w.end; {
			r, n := utf8.DecodeRuneInString(s[i:])
			if isBertPunct(r) {
				if start < i {
					out = append(out, span{start, i})
				}
				out = append(out, span{i, i + n})
				start = i + n
			}
			i += n
		}
		if start < w.end {
			out = append(out, span{start, w.end})
		}
	}
	return out
}

// isWordChar is Oniguruma's Unicode \w: alphabetic characters (letters and
// letter numbers), marks, decimal digits and connector punctuation.
func isWordChar(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.In(r, unicode.Nd, unicode.Nl, unicode.Pc)
}

// wordSplit is the Whitespace pre-tokenizer: runs of \w, and runs of
// characters that are neither \w nor whitespace.
func wordSplit(s string) []span {
	var out []span
	start, kind := -1, 0 // kind 1: word run, 2: other run
	for i, r := range s {
		k := 2
		if unicode.IsSpace(r) {
			k = 0
		} else if isWordChar(r) {
			k = 1
		}
		if k != kind && start >= 0 {
			out = append(out, span{start, i})
			start = -1
		}
		if k != 0 && start < 0 {
			start = i
		}
		kind = k
	}
	if start >= 0 {
		out = append(out, span{start, len(s)})
	}
	return out
}

func buildMetaspace(raw json.RawMessage) (preTokenizer, error) {
	c := struct {
		Replacement    string  `json:"replacement"`
		PrependScheme  *string `json:"prepend_scheme"`
		AddPrefixSpace *bool   `json:"add_prefix_space"`
		Split          *bool   `json:"split"`
	}{Replacement: "▁"}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("pre_tokenizer Metaspace: %w", err)
	}
	rep, n := utf8.DecodeRuneInString(c.Replacement)
	if n == 0 || n != len(c.Replacement) {
		return nil, fmt.Errorf("pre_tokenizer Metaspace: replacement %q is not one character", c.Replacement)
	}
	scheme := "always"
	switch {
	case c.PrependScheme != nil:
		scheme = *c.PrependScheme
	case c.AddPrefixSpace != nil && !*c.AddPrefixSpace:
		scheme = "never"
	}
	if scheme != "always" && scheme != "never" && scheme != "first" {
		return nil, fmt.Errorf("pre_tokenizer Metaspace: unsupported prepend_scheme %q", scheme)
	}
	split := c.Split == nil || *c.Split
	repStr := string(rep)
	return func(ps []piece) []piece {
		var out []piece
		for _, p := range ps {
			s := strings.ReplaceAll(p.text, " ", repStr)
			if s != "" && !strings.HasPrefix(s, repStr) && (scheme == "always" || (scheme == "first" && p.atStart)) {
				s = repStr + s
			}
			if !split {
				out = append(out, piece{text: s, atStart: p.atStart})
				continue
			}
			for i, part := range splitMergedWithNext(s, rep) {
				out = append(out, piece{text: part, atStart: p.atStart && i == 0})
			}
		}
		return out
	}, nil
}

// splitMergedWithNext splits s before each run of delim characters, the
// run staying with the text after it ("▁a▁▁b" → "▁a", "▁▁b"), as Hugging
// Face's SplitDelimiterBehavior::MergedWithNext does.
func splitMergedWithNext(s string, delim rune) []string {
	var out []string
	start, prevMatch := 0, false
	for i, r := range s {
		match := r == delim
		if match && !prevMatch && i > start {
			out = append(out, s[start:i])
			start = i
		}
		prevMatch = match
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
