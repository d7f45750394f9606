// tokenizer.go reads tokenizer.json and runs its pipeline: added tokens,
// normalizer (normalize.go), pre_tokenizer (pretokenize.go), model
// (model.go), post_processor (postprocess.go), truncation.
package tokenizer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Encoding is one encoded text, ready for a transformer: IDs, TypeIDs
// (token_type_ids) and Mask (attention_mask, all 1: there is no padding)
// have one entry per token; Tokens are the pieces the ids stand for.
type Encoding struct {
	IDs, TypeIDs, Mask []int64
	Tokens             []string
}

// Tokenizer encodes text as the tokenizer.json it was loaded from does. It
// is safe for concurrent use: Encode only reads it.
type Tokenizer struct {
	normalize normalizer   // nil: identity
	preTok    preTokenizer // nil: the whole text is one word
	model     model
	post      postProcessor
	added     addedVocab
	tokens    []string // id → piece, added tokens included
}

// UnsupportedError names a component type of tokenizer.json this package
// does not implement; Load refuses such a file rather than encode it wrong.
type UnsupportedError struct {
	Component string // "normalizer", "pre_tokenizer", "model", "post_processor"
	Type      string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("tokenizer.json: unsupported %s type %q", e.Component, e.Type)
}

func unsupported(component, typ string) error {
	return &UnsupportedError{Component: component, Type: typ}
}

func isNull(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// Load reads a tokenizer.json file.
func Load(path string) (*Tokenizer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading tokenizer %q: %w", path, err)
	}
	t, err := LoadBytes(b)
	if err != nil {
		return nil, fmt.Errorf("loading tokenizer %q: %w", path, err)
	}
	return t, nil
}

// LoadBytes reads tokenizer.json from memory.
func LoadBytes(b []byte) (*Tokenizer, error) {
	var f struct {
		AddedTokens   []addedToken    `json:"added_tokens"`
		Normalizer    json.RawMessage `json:"normalizer"`
		PreTokenizer  json.RawMessage `json:"pre_tokenizer"`
		Model         json.RawMessage `json:"model"`
		PostProcessor json.RawMessage `json:"post_processor"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("tokenizer.json: %w", err)
	}
	if isNull(f.Model) {
		return nil, fmt.Errorf("tokenizer.json: no model")
	}
	t := &Tokenizer{}
	var err error
	if t.normalize, err = buildNormalizer(f.Normalizer); err != nil {
		return nil, err
	}
	if t.preTok, err = buildPreTokenizer(f.PreTokenizer); err != nil {
		return nil, err
	}
	if t.model, err = buildModel(f.Model); err != nil {
		return nil, err
	}
	t.tokens = slices.Clone(t.model.vocab())
	for i := range f.AddedTokens {
		a := &f.AddedTokens[i]
		if a.ID < 0 || a.ID > 1<<24 {
			return nil, fmt.Errorf("tokenizer.json: added token %q has id %d", a.Content, a.ID)
		}
		if a.Content == "" {
			continue
		}
		if a.ID >= len(t.tokens) {
			t.tokens = append(t.tokens, make([]string, a.ID+1-len(t.tokens))...)
		}
		t.tokens[a.ID] = a.Content
	}
	if wp, ok := t.model.(*wordPiece); ok && wp.unk < 0 {
		for _, a := range f.AddedTokens {
			if a.Content == wp.unkToken {
				wp.unk = a.ID
			}
		}
		if wp.unk < 0 {
			return nil, fmt.Errorf("model WordPiece: unk_token %q is neither in the vocabulary nor an added token", wp.unkToken)
		}
	}
	t.added = newAddedVocab(f.AddedTokens, t.normalize)
	if t.post, err = buildPostProcessor(f.PostProcessor); err != nil {
		return nil, err
	}
	for _, id := range t.post.specialIDs() {
		if id < 0 || id >= len(t.tokens) {
			return nil, fmt.Errorf("tokenizer.json: post_processor special id %d is outside the vocabulary of %d", id, len(t.tokens))
		}
	}
	return t, nil
}

// UnkTokenID is the id of the model's unk_token, for a model that names
// one (WordPiece). A Unigram model names an unk_id instead and reports none,
// as model2vec, which drops unknown tokens before pooling, reads it.
func (t *Tokenizer) UnkTokenID() (int, bool) {
	if wp, ok := t.model.(*wordPiece); ok {
		return wp.unk, true
	}
	return 0, false
}

// Vocab is the piece of every id, added tokens included ("" for an id that
// names nothing); the slice is the caller's.
func (t *Tokenizer) Vocab() []string { return slices.Clone(t.tokens) }

// VocabSize is one more than the largest id Encode can return.
func (t *Tokenizer) VocabSize() int { return len(t.tokens) }

// Encode encodes text as a single sequence with the special tokens of the
// post_processor. With maxTokens > 0 the text's tokens are cut so that the
// whole encoding, special tokens included, holds at most maxTokens (the
// final special token is kept, as Hugging Face truncates before adding
// them). Invalid UTF-8 is read as U+FFFD.
func (t *Tokenizer) Encode(text string, maxTokens int) Encoding {
	ids := t.Tokenize(text)
	if maxTokens > 0 {
		if room := maxTokens - t.post.numSpecial(); len(ids) > room {
			ids = ids[:max(room, 0)]
		}
	}
	ids, types := t.post.apply(ids)
	if maxTokens > 0 && len(ids) > maxTokens {
		// fewer slots than special tokens: keep the first ones and the last
		ids = append(ids[:maxTokens-1], ids[len(ids)-1])
		types = append(types[:maxTokens-1], types[len(types)-1])
	}
	e := Encoding{IDs: make([]int64, len(ids)), TypeIDs: make([]int64, len(ids)),
		Mask: make([]int64, len(ids)), Tokens: make([]string, len(ids))}
	for i, id := range ids {
		e.IDs[i] = int64(id)
		e.TypeIDs[i] = int64(types[i])
		e.Mask[i] = 1
		e.Tokens[i] = t.tokens[id]
	}
	return e
}

// Tokenize is the ids of text without special tokens and untruncated.
func (t *Tokenizer) Tokenize(text string) []int {
	text = strings.ToValidUTF8(text, "\uFFFD")
	var ids []int
	first := true
	for _, seg := range t.added.split(text, nil) {
		if seg.token != nil {
			ids = append(ids, seg.token.ID)
			first = false
			continue
		}
		norm := seg.text
		if t.normalize != nil {
			norm = t.normalize(norm)
		}
		for _, sub := range t.added.split(norm, t.added.normalized) {
			if sub.token != nil {
				ids = append(ids, sub.token.ID)
				continue
			}
			ps := []piece{{text: sub.text, atStart: first && seg.start == 0 && sub.start == 0}}
			if t.preTok != nil {
				ps = t.preTok(ps)
			}
			for _, p := range ps {
				if p.text != "" {
					ids = t.model.encode(ids, p.text)
				}
			}
		}
		first = false
	}
	return ids
}

// addedToken is an entry of added_tokens: text matched before the model
// sees it and encoded as its id.
type addedToken struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized *bool  `json:"normalized"`
	Special    bool   `json:"special"`
}

// addedVocab holds the added tokens matched on the raw text (raw) and those
// matched on the normalised text (normalized), each keyed by the token's
// first byte, longest first.
type addedVocab struct {
	raw, normalized *addedSet
}

type addedSet struct {
	byFirst map[byte][]matcher
}

type matcher struct {
	text string // what is matched: the content, normalised for a normalised token
	tok  *addedToken
}

func newAddedVocab(toks []addedToken, n normalizer) addedVocab {
	v := addedVocab{raw: &addedSet{byFirst: map[byte][]matcher{}}, normalized: &addedSet{byFirst: map[byte][]matcher{}}}
	for i := range toks {
		a := &toks[i]
		if a.Content == "" {
			continue
		}
		normalized := !a.Special
		if a.Normalized != nil {
			normalized = *a.Normalized
		}
		set, text := v.raw, a.Content
		if normalized {
			set = v.normalized
			if n != nil {
				text = n(text)
			}
		}
		if text == "" {
			continue
		}
		set.byFirst[text[0]] = append(set.byFirst[text[0]], matcher{text: text, tok: a})
	}
	for _, set := range []*addedSet{v.raw, v.normalized} {
		for _, ms := range set.byFirst {
			// longest first: the leftmost-longest match of Hugging Face's
			// aho-corasick automaton; of equal length, the first listed
			slices.SortStableFunc(ms, func(a, b matcher) int { return len(b.text) - len(a.text) })
		}
	}
	return v
}

// segment is a part of a text: an added token (token != nil) or text for
// the model, starting at byte start of the text split.
type segment struct {
	text  string
	start int
	token *addedToken
}

// split cuts s at the matches of set (the raw set when set is nil). A
// single_word token matches only between non-word characters; lstrip and
// rstrip tokens take the whitespace beside them. Empty text parts are
// dropped.
func (v addedVocab) split(s string, set *addedSet) []segment {
	if set == nil {
		set = v.raw
	}
	if len(set.byFirst) == 0 {
		if s == "" {
			return nil
		}
		return []segment{{text: s}}
	}
	var out []segment
	done := 0 // end of the last token taken
	emit := func(from, to int) {
		if from < to {
			out = append(out, segment{text: s[from:to], start: from})
		}
	}
	for i := 0; i < len(s); {
		var hit *matcher
		for k, m := range set.byFirst[s[i]] {
			if strings.HasPrefix(s[i:], m.text) {
				hit = &set.byFirst[s[i]][k]
				break
			}
		}
		if hit == nil {
			i++
			continue
		}
		start, stop := i, i+len(hit.text)
		if hit.tok.SingleWord && (endsWithWord(s[:start]) || startsWithWord(s[stop:])) {
			i = stop
			continue
		}
		if hit.tok.LStrip {
			start = max(done, len(strings.TrimRightFunc(s[:start], unicode.IsSpace)))
		}
		if hit.tok.RStrip {
			stop = len(s) - len(strings.TrimLeftFunc(s[stop:], unicode.IsSpace))
		}
		emit(done, start)
		out = append(out, segment{text: s[start:stop], start: start, token: hit.tok})
		done, i = stop, stop
	}
	emit(done, len(s))
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' }

func endsWithWord(s string) bool {
	r, n := utf8.DecodeLastRuneInString(s)
	return n > 0 && isWordRune(r)
}

func startsWithWord(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return n > 0 && isWordRune(r)
}
