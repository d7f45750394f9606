// model.go holds the two models of tokenizer.json this package encodes with:
// WordPiece (greedy longest match with a continuing-subword prefix) and
// Unigram (Viterbi over the vocabulary's log-probabilities).
package tokenizer

import (
	"encoding/json"
	"fmt"
	"math"
	"unicode/utf8"
)

// model turns one pre-token into ids, appending them to dst.
type model interface {
	encode(dst []int, word string) []int
	vocab() []string // id → piece
}

func buildModel(raw json.RawMessage) (model, error) {
	var head struct {
		Type                    string          `json:"type"`
		Vocab                   json.RawMessage `json:"vocab"`
		Merges                  json.RawMessage `json:"merges"`
		ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    *int            `json:"max_input_chars_per_word"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	typ := head.Type
	if typ == "" {
		// older files carry no type; infer it as Hugging Face's untagged
		// deserialisation does
		switch {
		case len(head.Vocab) > 0 && head.Vocab[0] == '[':
			typ = "Unigram"
		case len(head.Merges) > 0:
			typ = "BPE"
		case head.ContinuingSubwordPrefix != nil || head.MaxInputCharsPerWord != nil:
			typ = "WordPiece"
		default:
			return nil, fmt.Errorf("model: no type and not recognisable")
		}
	}
	switch typ {
	case "WordPiece":
		return buildWordPiece(raw)
	case "Unigram":
		return buildUnigram(raw)
	}
	return nil, unsupported("model", typ)
}

type wordPiece struct {
	ids      map[string]int
	pieces   []string
	unk      int
	unkToken string
	prefix   string
	maxChars int
}

func buildWordPiece(raw json.RawMessage) (*wordPiece, error) {
	c := struct {
		Vocab    map[string]int `json:"vocab"`
		Unk      string         `json:"unk_token"`
		Prefix   string         `json:"continuing_subword_prefix"`
		MaxChars int            `json:"max_input_chars_per_word"`
	}{Unk: "[UNK]", Prefix: "##", MaxChars: 100}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("model WordPiece: %w", err)
	}
	m := &wordPiece{ids: c.Vocab, unk: -1, prefix: c.Prefix, maxChars: c.MaxChars}
	for tok, id := range c.Vocab {
		if id < 0 || id > 1<<24 {
			return nil, fmt.Errorf("model WordPiece: id %d of %q out of range", id, tok)
		}
		if id >= len(m.pieces) {
			m.pieces = append(m.pieces, make([]string, id+1-len(m.pieces))...)
		}
		m.pieces[id] = tok
	}
	m.unkToken = c.Unk
	if id, ok := c.Vocab[c.Unk]; ok {
		m.unk = id
	}
	// else LoadBytes looks for it among the added tokens
	return m, nil
}

func (m *wordPiece) vocab() []string { return m.pieces }

// encode is greedy longest-match-first; a word with a part no piece covers,
// or longer than max_input_chars_per_word characters, is one unknown token.
func (m *wordPiece) encode(dst []int, word string) []int {
	if utf8.RuneCountInString(word) > m.maxChars {
		return append(dst, m.unk)
	}
	n0 := len(dst)
	for start := 0; start < len(word); {
		end := len(word)
		found := -1
		for start < end {
			sub := word[start:end]
			if start > 0 {
				sub = m.prefix + sub
			}
			if id, ok := m.ids[sub]; ok {
				found = id
				break
			}
			_, n := utf8.DecodeLastRuneInString(word[start:end])
			end -= n
		}
		if found < 0 {
			return append(dst[:n0], m.unk)
		}
		dst = append(dst, found)
		start = end
	}
	return dst
}

// unigram is sentencepiece's unigram language model as Hugging Face runs
// it: the best segmentation under the sum of piece scores, pieces of any
// length, characters no piece covers scored min(score) - 10 and runs of them
// fused into one unknown token.
type unigram struct {
	ids          map[string]int
	pieces       []string
	scores       []float64
	unk          int
	unkScore     float64
	maxPieceLen  int // bytes, of the longest piece: bounds the prefix search
	byteFallback bool
	byteIDs      [256]int // <0xXX> pieces, -1 when absent
}

func buildUnigram(raw json.RawMessage) (*unigram, error) {
	var c struct {
		UnkID        *int              `json:"unk_id"`
		Vocab        []json.RawMessage `json:"vocab"`
		ByteFallback bool              `json:"byte_fallback"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("model Unigram: %w", err)
	}
	if len(c.Vocab) == 0 {
		return nil, fmt.Errorf("model Unigram: empty vocabulary")
	}
	m := &unigram{ids: make(map[string]int, len(c.Vocab)), pieces: make([]string, len(c.Vocab)),
		scores: make([]float64, len(c.Vocab)), unk: -1, byteFallback: c.ByteFallback}
	minScore := math.Inf(1)
	for i, r := range c.Vocab {
		var pair [2]json.RawMessage
		if err := json.Unmarshal(r, &pair); err != nil {
			return nil, fmt.Errorf("model Unigram: vocab entry %d: %w", i, err)
		}
		var p string
		var s float64
		if err := json.Unmarshal(pair[0], &p); err != nil {
			return nil, fmt.Errorf("model Unigram: vocab entry %d: %w", i, err)
		}
		if err := json.Unmarshal(pair[1], &s); err != nil {
			return nil, fmt.Errorf("model Unigram: vocab entry %d: %w", i, err)
		}
		m.pieces[i], m.scores[i] = p, s
		if _, dup := m.ids[p]; !dup {
			m.ids[p] = i
		}
		minScore = min(minScore, s)
		m.maxPieceLen = max(m.maxPieceLen, len(p))
	}
	m.unkScore = minScore - 10
	// Hugging Face loads a model without unk_id and fails on the first
	// character it cannot cover; refusing it here keeps Encode total
	if c.UnkID == nil {
		return nil, fmt.Errorf("model Unigram: no unk_id")
	}
	if *c.UnkID < 0 || *c.UnkID >= len(m.pieces) {
		return nil, fmt.Errorf("model Unigram: unk_id %d out of range", *c.UnkID)
	}
	m.unk = *c.UnkID
	for b := range m.byteIDs {
		m.byteIDs[b] = -1
		if id, ok := m.ids[fmt.Sprintf("<0x%02X>", b)]; ok {
			m.byteIDs[b] = id
		}
	}
	return m, nil
}

func (m *unigram) vocab() []string { return m.pieces }

// encode runs Viterbi forward over byte positions: from each character
// boundary every piece that starts there is tried (shortest first, so that
// of equal scores the earlier, shorter candidate stays, as in Hugging Face),
// and a character no single piece covers gets an unknown node.
func (m *unigram) encode(dst []int, s string) []int {
	if s == "" {
		return dst
	}
	type node struct {
		score float64
		from  int // start of the last piece, -1: unreached
		id    int
	}
	best := make([]node, len(s)+1)
	for i := 1; i <= len(s); i++ {
		best[i].from = -1
	}
	for start := 0; start < len(s); {
		_, mblen := utf8.DecodeRuneInString(s[start:])
		base := best[start].score
		single := false
		limit := min(len(s), start+m.maxPieceLen)
		for end := start + mblen; end <= limit; {
			if id, ok := m.ids[s[start:end]]; ok {
				cand := base + m.scores[id]
				if t := &best[end]; t.from < 0 || cand > t.score {
					*t = node{score: cand, from: start, id: id}
				}
				if end-start == mblen {
					single = true
				}
			}
			if end == len(s) {
				break
			}
			_, n := utf8.DecodeRuneInString(s[end:])
			end += n
		}
		if !single {
			cand := base + m.unkScore
			if t := &best[start+mblen]; t.from < 0 || cand > t.score {
				*t = node{score: cand, from: start, id: -1}
			}
		}
		start += mblen
	}
	// backtrack; consecutive unknown nodes fuse into one token
	type tok struct {
		start, end, id int
	}
	var toks []tok
	for end := len(s); end > 0; {
		n := best[end]
		if n.id < 0 && len(toks) > 0 && toks[len(toks)-1].id < 0 {
			toks[len(toks)-1].start = n.from
		} else {
			toks = append(toks, tok{n.from, end, n.id})
		}
		end = n.from
	}
	for i := len(toks) - 1; i >= 0; i-- {
		t := toks[i]
		if t.id >= 0 {
			dst = append(dst, t.id)
			continue
		}
		dst = m.unknown(dst, s[t.start:t.end])
	}
	return dst
}

// unknown encodes text no piece covers: as its bytes' <0xXX> pieces when
// byte_fallback is set and all of them exist, else as the unknown id.
func (m *unigram) unknown(dst []int, text string) []int {
	if m.byteFallback {
		ok := true
		for i := 0; i < len(text); i++ {
			if m.byteIDs[text[i]] < 0 {
				ok = false
				break
			}
		}
		if ok {
			for i := 0; i < len(text); i++ {
				dst = append(dst, m.byteIDs[text[i]])
			}
			return dst
		}
	}
	return append(dst, m.unk)
}
