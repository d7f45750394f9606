// model.go holds the two models of tokenizer.json this package encodes with:
// WordPiece (greedy longest match with a continuing-subword prefix) and
// Unigram (Viterbi over the vocabulary's log-probabilities).
package tokenizer

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// model turns one pre-token into ids, appending them to dst.
type model interface {
	encode(dst []int, word string) []int
	vocab() []string // id → piece
}

// modelConfig is the model section of tokenizer.json, read once: the vocab
// is kept raw and decoded by the model it belongs to.
type modelConfig struct {
	Type                    string          `json:"type"`
	Vocab                   json.RawMessage `json:"vocab"`
	Merges                  json.RawMessage `json:"merges"`
	UnkToken                *string         `json:"unk_token"`
	ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
	MaxInputCharsPerWord    *int            `json:"max_input_chars_per_word"`
	UnkID                   *int            `json:"unk_id"`
	ByteFallback            bool            `json:"byte_fallback"`
}

func buildModel(raw json.RawMessage) (model, error) {
	var c modelConfig
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	typ := c.Type
	if typ == "" {
		// older files carry no type; infer it as Hugging Face's untagged
		// deserialisation does
		switch {
		case len(c.Vocab) > 0 && c.Vocab[0] == '[':
			typ = "Unigram"
		case len(c.Merges) > 0:
			typ = "BPE"
		case c.ContinuingSubwordPrefix != nil || c.MaxInputCharsPerWord != nil:
			typ = "WordPiece"
		default:
			return nil, fmt.Errorf("model: no type and not recognisable")
		}
	}
	switch typ {
	case "WordPiece":
		return buildWordPiece(c)
	case "Unigram":
		return buildUnigram(c)
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

func buildWordPiece(c modelConfig) (*wordPiece, error) {
	var vocab map[string]int
	if err := json.Unmarshal(c.Vocab, &vocab); err != nil {
		return nil, fmt.Errorf("model WordPiece: vocab: %w", err)
	}
	m := &wordPiece{ids: vocab, unk: -1, unkToken: "[UNK]", prefix: "##", maxChars: 100}
	if c.UnkToken != nil {
		m.unkToken = *c.UnkToken
	}
	if c.ContinuingSubwordPrefix != nil {
		m.prefix = *c.ContinuingSubwordPrefix
	}
	if c.MaxInputCharsPerWord != nil {
		m.maxChars = *c.MaxInputCharsPerWord
	}
	for tok, id := range vocab {
		if id < 0 || id > 1<<24 {
			return nil, fmt.Errorf("model WordPiece: id %d of %q out of range", id, tok)
		}
		if id >= len(m.pieces) {
			m.pieces = append(m.pieces, make([]string, id+1-len(m.pieces))...)
		}
		m.pieces[id] = tok
	}
	if id, ok := vocab[m.unkToken]; ok {
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

func buildUnigram(c modelConfig) (*unigram, error) {
	pieces, scores, err := parseUnigramVocab(c.Vocab)
	if err != nil {
		return nil, fmt.Errorf("model Unigram: vocab: %w", err)
	}
	if len(pieces) == 0 {
		return nil, fmt.Errorf("model Unigram: empty vocabulary")
	}
	m := &unigram{ids: make(map[string]int, len(pieces)), pieces: pieces, scores: scores, unk: -1, byteFallback: c.ByteFallback}
	minScore := math.Inf(1)
	for i, p := range pieces {
		// a repeated piece maps to its last id, as in Hugging Face
		m.ids[p] = i
		minScore = min(minScore, scores[i])
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

// parseUnigramVocab reads [["piece", score], ...] in one pass: the vocab
// of a multilingual model has 250,000 entries, and decoding each through
// encoding/json costs seconds.
func parseUnigramVocab(b []byte) ([]string, []float64, error) {
	var pieces []string
	var scores []float64
	i := 0
	ws := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
	}
	expect := func(c byte) error {
		ws()
		if i >= len(b) || b[i] != c {
			return fmt.Errorf("entry %d: expected %q at byte %d", len(pieces), c, i)
		}
		i++
		return nil
	}
	if err := expect('['); err != nil {
		return nil, nil, err
	}
	if ws(); i < len(b) && b[i] == ']' {
		return nil, nil, nil
	}
	for {
		if err := expect('['); err != nil {
			return nil, nil, err
		}
		if err := expect('"'); err != nil {
			return nil, nil, err
		}
		start, escaped := i-1, false
		for i < len(b) && b[i] != '"' {
			if b[i] == '\\' {
				escaped = true
				i++
			}
			i++
		}
		if i >= len(b) {
			return nil, nil, fmt.Errorf("entry %d: unterminated string", len(pieces))
		}
		i++
		raw := b[start:i]
		var piece string
		if escaped || !utf8.Valid(raw) {
			if err := json.Unmarshal(raw, &piece); err != nil {
				return nil, nil, fmt.Errorf("entry %d: %w", len(pieces), err)
			}
		} else {
			piece = string(raw[1 : len(raw)-1])
		}
		if err := expect(','); err != nil {
			return nil, nil, err
		}
		ws()
		numStart := i
		for i < len(b) && strings.IndexByte("+-0123456789.eE", b[i]) >= 0 {
			i++
		}
		score, err := strconv.ParseFloat(string(b[numStart:i]), 64)
		if err != nil {
			return nil, nil, fmt.Errorf("entry %d: score: %w", len(pieces), err)
		}
		if err := expect(']'); err != nil {
			return nil, nil, err
		}
		pieces = append(pieces, piece)
		scores = append(scores, score)
		ws()
		if i < len(b) && b[i] == ',' {
			i++
			continue
		}
		if err := expect(']'); err != nil {
			return nil, nil, err
		}
		return pieces, scores, nil
	}
}
