// testing.go writes test inputs for this package and for the packages that
// run models on its encodings: a sentencepiece charsmap built from rules
// (BuildCharsmap) and a small XLM-R-like Unigram tokenizer.json
// (SyntheticUnigramJSON).
package tokenizer

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// BuildCharsmap encodes rewrite rules (key → replacement; keys non-empty and
// without NUL) as a sentencepiece precompiled_charsmap: a darts-clone double
// array over the keys' bytes whose values are offsets into a pool of
// NUL-terminated replacements.
func BuildCharsmap(rules map[string]string) []byte {
	type trieNode struct {
		children map[byte]*trieNode
		value    int // offset in the pool, -1: no key ends here
	}
	newNode := func() *trieNode { return &trieNode{children: map[byte]*trieNode{}, value: -1} }
	root := newNode()
	var pool []byte
	keys := make([]string, 0, len(rules))
	for k := range rules {
		if k == "" || strings.IndexByte(k, 0) >= 0 {
			panic(fmt.Sprintf("BuildCharsmap: bad key %q", k))
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		n := root
		for i := 0; i < len(k); i++ {
			c, ok := n.children[k[i]]
			if !ok {
				c = newNode()
				n.children[k[i]] = c
			}
			n = c
		}
		n.value = len(pool)
		pool = append(append(pool, rules[k]...), 0)
	}

	units := []uint32{0}
	used := []bool{true} // slot 0 is the root
	usedBase := map[int]bool{}
	grow := func(n int) {
		for len(units) < n {
			units = append(units, 0)
			used = append(used, false)
		}
	}
	var place func(n *trieNode, pos int)
	place = func(n *trieNode, pos int) {
		var labels []int
		if n.value >= 0 {
			labels = append(labels, 0) // the leaf sits at label 0 of the node
		}
		for c := range n.children {
			labels = append(labels, int(c))
		}
		slices.Sort(labels)
		if len(labels) == 0 {
			return
		}
		base := 256
	search:
		for ; ; base++ {
			if usedBase[base] {
				continue
			}
			for _, c := range labels {
				if q := base ^ c; q < len(used) && used[q] {
					continue search
				}
			}
			break
		}
		usedBase[base] = true
		for _, c := range labels {
			grow(base ^ c + 1)
			used[base^c] = true
		}
		offset := uint32(pos ^ base)
		if offset >= 1<<21 {
			panic("BuildCharsmap: trie too large")
		}
		units[pos] |= offset << 10
		if n.value >= 0 {
			units[pos] |= 1 << 8
			units[base] = uint32(n.value) | 1<<31
		}
		for _, c := range labels {
			if c == 0 {
				continue
			}
			units[base^c] |= uint32(c)
			place(n.children[byte(c)], base^c)
		}
	}
	place(root, 0)

	out := binary.LittleEndian.AppendUint32(nil, uint32(4*len(units)))
	for _, u := range units {
		out = binary.LittleEndian.AppendUint32(out, u)
	}
	return append(out, pool...)
}

// nmtRules are the rewrite rules of the synthetic charsmap: what
// sentencepiece's nmt_nfkc does to the characters of the ranges below
// (control characters dropped, whitespace-like characters to a space, then
// NFKC of each character), plus the NFC composition of ASCII letters with
// common combining marks ("e" + U+0301 → "é").
func nmtRules() map[string]string {
	rules := map[string]string{}
	drop := func(r rune) bool {
		return (r >= 0x01 && r <= 0x08) || r == 0x0B || (r >= 0x0E && r <= 0x1F) || r == 0x7F || r == 0x8F || r == 0x9F
	}
	space := func(r rune) bool {
		switch r {
		case 0x09, 0x0A, 0x0C, 0x0D, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x2581, 0x3000, 0xFEFF, 0xFFFD:
			return true
		}
		return r >= 0x2000 && r <= 0x200F
	}
	ranges := [][2]rune{{0x01, 0x24F}, {0x2B0, 0x36F}, {0x1680, 0x1680}, {0x2000, 0x2BFF}, {0x3000, 0x33FF},
		{0xFB00, 0xFB4F}, {0xFE30, 0xFE4F}, {0xFF00, 0xFF5D}, {0xFF5F, 0xFFEF}, {0xFEFF, 0xFEFF}, {0xFFFD, 0xFFFD}}
	for _, rg := range ranges {
		for r := rg[0]; r <= rg[1]; r++ {
			s := string(r)
			var want string
			switch {
			case drop(r):
				want = ""
			case space(r):
				want = " "
			default:
				want = norm.NFKC.String(s)
			}
			if want != s {
				rules[s] = want
			}
		}
	}
	for _, base := range "aeiouyncAEIOUYNC" {
		for mark := rune(0x300); mark <= 0x30C; mark++ {
			k := string(base) + string(mark)
			if c := norm.NFC.String(k); c != k {
				rules[k] = c
			}
		}
	}
	return rules
}

// syntheticPieces are the multi-character pieces of the synthetic Unigram
// vocabulary with their scores. The Cyrillic words are longer than 20 bytes
// and score better than any split of them, so a tokenizer that caps piece
// length splits them and is caught.
var syntheticPieces = []struct {
	piece string
	score float64
}{
	{"▁", -2.5}, {"▁the", -3.1}, {"▁a", -3.4}, {"▁of", -3.6}, {"▁and", -3.7}, {"▁to", -3.8}, {"s", -3.9},
	{"▁Hello", -6.2}, {"▁hello", -6.3}, {"▁world", -6.4}, {"▁save", -6.9}, {"▁user", -6.7}, {"▁pre", -6.1},
	{"ferences", -7.3}, {"▁function", -7.1}, {"▁return", -7.2}, {"▁echo", -7.6}, {"▁php", -7.9}, {"php", -8.1},
	{"▁<?", -7.8}, {"->", -6.6}, {"();", -6.8}, {"▁$", -5.1}, {"ing", -5.3}, {"tion", -5.6}, {"er", -5.2},
	{"▁un", -5.9}, {"▁re", -5.4}, {"ed", -5.0}, {"▁get", -6.0}, {"Name", -7.4}, {"_", -4.4}, {"▁//", -6.5},
	{"▁Caf", -8.6}, {"é", -7.7}, {"▁na", -6.05}, {"ï", -9.1}, {"ve", -5.7}, {"▁é", -8.9},
	{"▁пользователь", -9.2}, {"▁поль", -7.05}, {"зова", -7.15}, {"тель", -6.95}, {"ские", -7.25},
	{"▁настройки", -9.4}, {"▁на", -5.55}, {"строй", -7.35}, {"ки", -5.65},
	{"▁сохранить", -9.6}, {"▁со", -5.75}, {"хра", -7.45}, {"нить", -7.55},
	{"▁конфигурации", -9.8}, {"▁кон", -6.15}, {"фигу", -8.05}, {"рации", -7.65},
	{"▁безопасности", -9.9}, {"▁без", -6.25}, {"опас", -8.15}, {"ности", -6.35},
	{"▁достопримечательности", -11.2}, {"▁Здравствуйте", -10.1}, {"▁как", -5.85}, {"▁дела", -7.85},
	{"▁你好", -8.25}, {"世界", -8.35}, {"▁日本", -8.45}, {"語", -9.15}, {"▁東京", -8.55},
}

// syntheticChars are the characters the synthetic vocabulary has as single
// pieces (every one a test string uses, save those meant to be unknown).
func syntheticChars() []rune {
	var rs []rune
	add := func(lo, hi rune) {
		for r := lo; r <= hi; r++ {
			rs = append(rs, r)
		}
	}
	add('!', '~')
	add(0xC0, 0x17F)  // Latin-1 letters, Latin Extended-A
	add(0x391, 0x3C9) // Greek
	add(0x400, 0x45F) // Cyrillic
	add(0x3041, 0x30FF)
	add(0x1F600, 0x1F64F)
	for _, r := range "你好世界日本語東京中文字测试한국어텍스트❤👍👨👩👧🎉€½⁄①²™" {
		rs = append(rs, r)
	}
	slices.Sort(rs)
	return slices.Compact(rs)
}

// SyntheticUnigramJSON is a small tokenizer.json shaped like XLM-R's (as in
// paraphrase-multilingual-MiniLM-L12-v2): a Precompiled charsmap then a
// Replace of space runs, Metaspace, a Unigram model of about 1,000 pieces
// with "<s>", "<pad>", "</s>", "<unk>" first and "<mask>" last, and the
// template "<s> $A </s>". testdata/xlmr-synthetic.tokenizer.json holds the
// same bytes.
func SyntheticUnigramJSON() []byte { return syntheticUnigram(false) }

// syntheticUnigram with legacy set has the older shape instead: Precompiled
// alone, WhitespaceSplit then Metaspace with add_prefix_space.
func syntheticUnigram(legacy bool) []byte {
	type addedTok struct {
		ID         int    `json:"id"`
		Content    string `json:"content"`
		SingleWord bool   `json:"single_word"`
		LStrip     bool   `json:"lstrip"`
		RStrip     bool   `json:"rstrip"`
		Normalized bool   `json:"normalized"`
		Special    bool   `json:"special"`
	}
	vocab := [][2]any{{"<s>", 0.0}, {"<pad>", 0.0}, {"</s>", 0.0}, {"<unk>", 0.0}}
	seen := map[string]bool{}
	for _, p := range syntheticPieces {
		vocab = append(vocab, [2]any{p.piece, p.score})
		seen[p.piece] = true
	}
	for i, r := range syntheticChars() {
		if !seen[string(r)] {
			// distinct scores: no two paths tie
			vocab = append(vocab, [2]any{string(r), -10.0 - float64(i)*0.00137})
		}
	}
	mask := len(vocab)
	vocab = append(vocab, [2]any{"<mask>", 0.0})
	added := []addedTok{
		{ID: 0, Content: "<s>", Special: true}, {ID: 1, Content: "<pad>", Special: true},
		{ID: 2, Content: "</s>", Special: true}, {ID: 3, Content: "<unk>", Special: true},
		{ID: mask, Content: "<mask>", LStrip: true, Special: true},
	}
	precompiled := map[string]any{"type": "Precompiled",
		"precompiled_charsmap": base64.StdEncoding.EncodeToString(BuildCharsmap(nmtRules()))}
	var normalizer, preTok any
	if legacy {
		normalizer = precompiled
		preTok = map[string]any{"type": "Sequence", "pretokenizers": []any{
			map[string]any{"type": "WhitespaceSplit"},
			map[string]any{"type": "Metaspace", "replacement": "▁", "add_prefix_space": true},
		}}
	} else {
		normalizer = map[string]any{"type": "Sequence", "normalizers": []any{precompiled,
			map[string]any{"type": "Replace", "pattern": map[string]string{"Regex": " {2,}"}, "content": " "}}}
		preTok = map[string]any{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": true}
	}
	special := func(tok string, id int) map[string]any {
		return map[string]any{"id": tok, "ids": []int{id}, "tokens": []string{tok}}
	}
	f := map[string]any{
		"version":       "1.0",
		"truncation":    nil,
		"padding":       nil,
		"added_tokens":  added,
		"normalizer":    normalizer,
		"pre_tokenizer": preTok,
		"post_processor": map[string]any{
			"type": "TemplateProcessing",
			"single": []any{
				map[string]any{"SpecialToken": map[string]any{"id": "<s>", "type_id": 0}},
				map[string]any{"Sequence": map[string]any{"id": "A", "type_id": 0}},
				map[string]any{"SpecialToken": map[string]any{"id": "</s>", "type_id": 0}},
			},
			"pair": []any{
				map[string]any{"SpecialToken": map[string]any{"id": "<s>", "type_id": 0}},
				map[string]any{"Sequence": map[string]any{"id": "A", "type_id": 0}},
				map[string]any{"SpecialToken": map[string]any{"id": "</s>", "type_id": 0}},
				map[string]any{"SpecialToken": map[string]any{"id": "</s>", "type_id": 0}},
				map[string]any{"Sequence": map[string]any{"id": "B", "type_id": 0}},
				map[string]any{"SpecialToken": map[string]any{"id": "</s>", "type_id": 0}},
			},
			"special_tokens": map[string]any{"<s>": special("<s>", 0), "</s>": special("</s>", 2)},
		},
		"decoder": map[string]any{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": true},
		"model":   map[string]any{"type": "Unigram", "unk_id": 3, "vocab": vocab, "byte_fallback": false},
	}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}
