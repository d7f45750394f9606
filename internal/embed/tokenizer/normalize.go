// normalize.go builds the normalizer of tokenizer.json: BertNormalizer,
// Precompiled (charsmap.go), Replace, Strip, StripAccents, Lowercase, Prepend,
// NFC/NFD/NFKC/NFKD and Sequence, each with the semantics of Hugging Face's
// Rust implementation.
package tokenizer

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// normalizer rewrites a piece of text before pre-tokenization.
type normalizer func(string) string

func buildNormalizer(raw json.RawMessage) (normalizer, error) {
	if isNull(raw) {
		return nil, nil
	}
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("normalizer: %w", err)
	}
	switch head.Type {
	case "Sequence":
		var c struct {
			Normalizers []json.RawMessage `json:"normalizers"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("normalizer Sequence: %w", err)
		}
		var seq []normalizer
		for _, r := range c.Normalizers {
			n, err := buildNormalizer(r)
			if err != nil {
				return nil, err
			}
			if n != nil {
				seq = append(seq, n)
			}
		}
		return func(s string) string {
			for _, n := range seq {
				s = n(s)
			}
			return s
		}, nil
	case "BertNormalizer":
		c := struct {
			CleanText          bool  `json:"clean_text"`
			HandleChineseChars bool  `json:"handle_chinese_chars"`
			StripAccents       *bool `json:"strip_accents"`
			Lowercase          bool  `json:"lowercase"`
		}{CleanText: true, HandleChineseChars: true, Lowercase: true}
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("normalizer BertNormalizer: %w", err)
		}
		strip := c.Lowercase
		if c.StripAccents != nil {
			strip = *c.StripAccents
		}
		return func(s string) string {
			if c.CleanText {
				s = bertCleanText(s)
			}
			if c.HandleChineseChars {
				s = spaceChineseChars(s)
			}
			if strip {
				s = stripAccents(norm.NFD.String(s))
			}
			if c.Lowercase {
				s = lowercase(s)
			}
			return s
		}, nil
	case "Precompiled":
		var c struct {
			Charsmap *string `json:"precompiled_charsmap"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("normalizer Precompiled: %w", err)
		}
		if c.Charsmap == nil || *c.Charsmap == "" {
			// Hugging Face treats a missing charsmap as the identity
			return nil, nil
		}
		b, err := base64.StdEncoding.DecodeString(*c.Charsmap)
		if err != nil {
			return nil, fmt.Errorf("normalizer Precompiled: precompiled_charsmap is not base64: %w", err)
		}
		cm, err := parseCharsmap(b)
		if err != nil {
			return nil, fmt.Errorf("normalizer Precompiled: %w", err)
		}
		return cm.normalize, nil
	case "Replace":
		var c struct {
			Pattern pattern `json:"pattern"`
			Content string  `json:"content"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("normalizer Replace: %w", err)
		}
		re, err := c.Pattern.compile()
		if err != nil {
			return nil, fmt.Errorf("normalizer Replace: %w", err)
		}
		return func(s string) string { return re.ReplaceAllLiteralString(s, c.Content) }, nil
	case "Strip":
		c := struct {
			Left  bool `json:"strip_left"`
			Right bool `json:"strip_right"`
		}{Left: true, Right: true}
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("normalizer Strip: %w", err)
		}
		return func(s string) string {
			if c.Left {
				s = strings.TrimLeftFunc(s, unicode.IsSpace)
			}
			if c.Right {
				s = strings.TrimRightFunc(s, unicode.IsSpace)
			}
			return s
		}, nil
	case "StripAccents":
		// Rust's StripAccents only drops nonspacing marks; an NFD before it
		// is the tokenizer.json's business
		return stripAccents, nil
	case "Lowercase":
		return lowercase, nil
	case "Prepend":
		var c struct {
			Prepend string `json:"prepend"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("normalizer Prepend: %w", err)
		}
		return func(s string) string {
			if s == "" {
				return s
			}
			return c.Prepend + s
		}, nil
	case "NFC":
		return norm.NFC.String, nil
	case "NFD":
		return norm.NFD.String, nil
	case "NFKC":
		return norm.NFKC.String, nil
	case "NFKD":
		return norm.NFKD.String, nil
	}
	return nil, unsupported("normalizer", head.Type)
}

// pattern is tokenizer.json's {"String": s} or {"Regex": r}.
type pattern struct {
	String *string `json:"String"`
	Regex  *string `json:"Regex"`
}

// compile turns the pattern into a Go regexp. Hugging Face compiles Regex
// with Oniguruma; a pattern RE2 cannot read is an error, never a guess.
func (p pattern) compile() (*regexp.Regexp, error) {
	switch {
	case p.String != nil:
		if *p.String == "" {
			return nil, fmt.Errorf("empty pattern")
		}
		return regexp.MustCompile(regexp.QuoteMeta(*p.String)), nil
	case p.Regex != nil:
		re, err := regexp.Compile(*p.Regex)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", *p.Regex, err)
		}
		return re, nil
	}
	return nil, fmt.Errorf("pattern has neither String nor Regex")
}

// bertCleanText drops NUL, U+FFFD and control characters and turns every
// whitespace character into a space.
func bertCleanText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == 0 || r == 0xFFFD || isControl(r) {
			continue
		}
		if r == '\t' || r == '\n' || r == '\r' || unicode.IsSpace(r) {
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isControl is Rust's char::is_other (Cc, Cf, Cn, Co, Cs) less tab, newline
// and carriage return, as BertNormalizer has it.
func isControl(r rune) bool {
	switch r {
	case '\t', '\n', '\r':
		return false
	}
	if r < 0x80 {
		// the common case, without a table lookup
		return r < 0x20 || r == 0x7F
	}
	if unicode.IsLetter(r) {
		return false
	}
	if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) {
		return true
	}
	// Cn: a code point of no category
	return !unicode.In(r, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z)
}

// isChineseChar is BERT's CJK Unified Ideographs test.
func isChineseChar(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) ||
		(r >= 0x3400 && r <= 0x4DBF) ||
		(r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) ||
		(r >= 0x2B740 && r <= 0x2B81F) ||
		(r >= 0x2B920 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) ||
		(r >= 0x2F800 && r <= 0x2FA1F)
}

func spaceChineseChars(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if isChineseChar(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// stripAccents drops nonspacing marks (Mn).
func stripAccents(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, s)
}

// lowercase maps each character to its lowercase as Rust's char::to_lowercase
// does: the full mapping (U+0130 becomes "i̇"), no context (a final sigma
// stays σ).
func lowercase(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == 0x130 {
			b.WriteString("i\u0307")
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
