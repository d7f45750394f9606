// Package model2vec reads a model2vec static embedding model the user
// installed and embeds text with it, as model2vec's StaticModel.encode does:
// no network, no runtime, one table lookup per token.
//
// A model is a directory with model.safetensors (an "embeddings" tensor,
// F32, F16, F64 or I8, [vocab, dim]; optionally "weights", a float factor
// per token id, and "mapping", an integer per token id naming its row),
// tokenizer.json (read by internal/embed/tokenizer) and config.json (its
// "normalize" is honoured; model2vec's default is false).
//
// A text's vector: the text is cut to 512 × the median token length
// characters, encoded without special tokens, the unknown token (of a
// WordPiece model) dropped, cut to 512 tokens; the mean of the tokens' rows
// (each times its weight when the model has weights), L2-normalised when
// config.json says so; a text with no token is the zero vector.
package model2vec

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"unicode/utf8"

	"github.com/ragraf/ragraf/internal/embed/tokenizer"
)

// Embedder turns texts into vectors of Dim() dimensions.
//
// ID names the model and its files, so that vectors cached under it are
// reused only for the same model. Embed returns one vector per text, in
// order; it is safe for concurrent use.
type Embedder interface {
	ID() string
	Dim() int
	Embed(texts []string) ([][]float32, error)
}

var _ Embedder = (*Model)(nil)

// MaxTokens is how many tokens of a text are pooled (model2vec's default
// max_length).
const MaxTokens = 512

// Model is a loaded model2vec model.
type Model struct {
	id        string
	dim       int
	emb       []float32 // rows × dim
	weights   []float32 // per token id, nil: all 1
	mapping   []int     // token id → row, nil: the identity
	tok       *tokenizer.Tokenizer
	unk       int // dropped before pooling; -1: none
	normalize bool
	maxChars  int // MaxTokens × the median token length
}

// Load reads the model in dir.
func Load(dir string) (*Model, error) {
	h := sha256.New()
	tokJSON, err := os.ReadFile(filepath.Join(dir, "tokenizer.json"))
	if err != nil {
		return nil, fmt.Errorf("model2vec %q: %w", dir, err)
	}
	tok, err := tokenizer.LoadBytes(tokJSON)
	if err != nil {
		return nil, fmt.Errorf("model2vec %q: tokenizer.json: %w", dir, err)
	}
	h.Write(tokJSON)
	cfgJSON, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, fmt.Errorf("model2vec %q: %w", dir, err)
	}
	var cfg struct {
		Normalize *bool `json:"normalize"`
	}
	if err := json.Unmarshal(cfgJSON, &cfg); err != nil {
		return nil, fmt.Errorf("model2vec %q: config.json: %w", dir, err)
	}
	h.Write(cfgJSON)
	st, err := os.ReadFile(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		return nil, fmt.Errorf("model2vec %q: %w", dir, err)
	}
	h.Write(st)
	tensors, err := readSafetensors(st)
	if err != nil {
		return nil, fmt.Errorf("model2vec %q: model.safetensors: %w", dir, err)
	}
	m := &Model{tok: tok, unk: -1, normalize: cfg.Normalize != nil && *cfg.Normalize}
	if id, ok := tok.UnkTokenID(); ok {
		m.unk = id
	}
	e, ok := tensors["embeddings"]
	if !ok {
		return nil, fmt.Errorf("model2vec %q: model.safetensors has no \"embeddings\" tensor", dir)
	}
	if len(e.shape) != 2 || e.shape[1] == 0 {
		return nil, fmt.Errorf("model2vec %q: embeddings has shape %v, want [vocab, dim]", dir, e.shape)
	}
	rows := e.shape[0]
	m.dim = e.shape[1]
	if m.emb, err = e.floats(); err != nil {
		return nil, fmt.Errorf("model2vec %q: embeddings: %w", dir, err)
	}
	vocab := tok.VocabSize()
	if w, ok := tensors["weights"]; ok {
		if m.weights, err = w.floats(); err != nil {
			return nil, fmt.Errorf("model2vec %q: weights: %w", dir, err)
		}
		if len(m.weights) < vocab {
			return nil, fmt.Errorf("model2vec %q: %d weights for a vocabulary of %d", dir, len(m.weights), vocab)
		}
	}
	if mp, ok := tensors["mapping"]; ok {
		if m.mapping, err = mp.ints(); err != nil {
			return nil, fmt.Errorf("model2vec %q: mapping: %w", dir, err)
		}
		if len(m.mapping) < vocab {
			return nil, fmt.Errorf("model2vec %q: mapping has %d entries for a vocabulary of %d", dir, len(m.mapping), vocab)
		}
		for i, r := range m.mapping {
			if r < 0 || r >= rows {
				return nil, fmt.Errorf("model2vec %q: mapping[%d] = %d, outside the %d rows", dir, i, r, rows)
			}
		}
	} else if rows < vocab {
		return nil, fmt.Errorf("model2vec %q: %d embedding rows for a vocabulary of %d", dir, rows, vocab)
	}
	m.maxChars = MaxTokens * medianTokenLength(tok.Vocab())
	m.id = "model2vec:" + filepath.Base(filepath.Clean(dir)) + "@" + hex.EncodeToString(h.Sum(nil))[:12]
	return m, nil
}

// medianTokenLength is numpy's median of the tokens' lengths in
// characters, truncated to an integer, as model2vec computes it.
func medianTokenLength(vocab []string) int {
	var lens []int
	for _, t := range vocab {
		if t != "" {
			lens = append(lens, utf8.RuneCountInString(t))
		}
	}
	if len(lens) == 0 {
		return 1
	}
	slices.Sort(lens)
	n := len(lens)
	if n%2 == 1 {
		return lens[n/2]
	}
	return (lens[n/2-1] + lens[n/2]) / 2
}

// ID is "model2vec:" + the directory's name + "@" + the first 12 hex
// digits of the sha256 of its tokenizer.json, config.json and
// model.safetensors.
func (m *Model) ID() string { return m.id }

// Dim is the number of dimensions of a vector.
func (m *Model) Dim() int { return m.dim }

// Embed embeds each text (EmbedText); it never fails.
func (m *Model) Embed(texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = m.EmbedText(t)
	}
	return out, nil
}

// EmbedText is the vector of one text.
func (m *Model) EmbedText(text string) []float32 {
	if utf8.RuneCountInString(text) > m.maxChars {
		n := 0
		for i := range text {
			if n == m.maxChars {
				text = text[:i]
				break
			}
			n++
		}
	}
	ids := m.tok.Tokenize(text)
	kept := ids[:0]
	for _, id := range ids {
		if id != m.unk {
			kept = append(kept, id)
		}
	}
	if len(kept) > MaxTokens {
		kept = kept[:MaxTokens]
	}
	sum := make([]float64, m.dim)
	for _, id := range kept {
		row := id
		if m.mapping != nil {
			row = m.mapping[id]
		}
		w := 1.0
		if m.weights != nil {
			w = float64(m.weights[id])
		}
		for j, v := range m.emb[row*m.dim : (row+1)*m.dim] {
			sum[j] += w * float64(v)
		}
	}
	out := make([]float32, m.dim)
	if len(kept) == 0 {
		return out
	}
	norm := 0.0
	for j := range sum {
		sum[j] /= float64(len(kept))
		norm += sum[j] * sum[j]
	}
	scale := 1.0
	if m.normalize {
		scale = 1 / (math.Sqrt(norm) + 1e-32)
	}
	for j, v := range sum {
		out[j] = float32(v * scale)
	}
	return out
}

// tensor is one entry of a safetensors file.
type tensor struct {
	dtype string
	shape []int
	data  []byte
}

// readSafetensors parses a safetensors file: an 8-byte little-endian
// header length, a JSON header naming each tensor's dtype, shape and byte
// range in the data that follows.
func readSafetensors(b []byte) (map[string]tensor, error) {
	if len(b) < 8 {
		return nil, errors.New("shorter than its header length")
	}
	n := binary.LittleEndian.Uint64(b)
	if n > uint64(len(b)-8) {
		return nil, fmt.Errorf("header of %d bytes in a file of %d", n, len(b))
	}
	var header map[string]json.RawMessage
	if err := json.Unmarshal(b[8:8+n], &header); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	data := b[8+n:]
	out := map[string]tensor{}
	for name, raw := range header {
		if name == "__metadata__" {
			continue
		}
		var t struct {
			Dtype   string   `json:"dtype"`
			Shape   []int    `json:"shape"`
			Offsets [2]int64 `json:"data_offsets"`
		}
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, err)
		}
		begin, end := t.Offsets[0], t.Offsets[1]
		if begin < 0 || end < begin || end > int64(len(data)) {
			return nil, fmt.Errorf("tensor %q: data_offsets %v outside the %d data bytes", name, t.Offsets, len(data))
		}
		size, ok := dtypeSize[t.Dtype]
		if !ok {
			return nil, fmt.Errorf("tensor %q: unsupported dtype %q", name, t.Dtype)
		}
		count := int64(1)
		for _, d := range t.Shape {
			if d < 0 || (d > 0 && count > math.MaxInt32/int64(d)) {
				return nil, fmt.Errorf("tensor %q: bad shape %v", name, t.Shape)
			}
			count *= int64(d)
		}
		if count*size != end-begin {
			return nil, fmt.Errorf("tensor %q: shape %v of %s needs %d bytes, has %d", name, t.Shape, t.Dtype, count*size, end-begin)
		}
		out[name] = tensor{dtype: t.Dtype, shape: t.Shape, data: data[begin:end]}
	}
	return out, nil
}

var dtypeSize = map[string]int64{"F64": 8, "F32": 4, "F16": 2, "I8": 1, "I64": 8, "I32": 4}

// floats decodes an F64, F32, F16 or I8 tensor; int8 values are taken as
// they are, as model2vec does (the scale of a quantised table does not
// survive normalisation).
func (t tensor) floats() ([]float32, error) {
	switch t.dtype {
	case "I8":
		out := make([]float32, len(t.data))
		for i, b := range t.data {
			out[i] = float32(int8(b))
		}
		return out, nil
	case "F64":
		out := make([]float32, len(t.data)/8)
		for i := range out {
			out[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(t.data[8*i:])))
		}
		return out, nil
	case "F32":
		out := make([]float32, len(t.data)/4)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(t.data[4*i:]))
		}
		return out, nil
	case "F16":
		out := make([]float32, len(t.data)/2)
		for i := range out {
			out[i] = halfToFloat(binary.LittleEndian.Uint16(t.data[2*i:]))
		}
		return out, nil
	}
	return nil, fmt.Errorf("dtype %s is not a float type this reader knows (F64, F32, F16, I8)", t.dtype)
}

// ints decodes an I64 or I32 tensor.
func (t tensor) ints() ([]int, error) {
	switch t.dtype {
	case "I64":
		out := make([]int, len(t.data)/8)
		for i := range out {
			v := int64(binary.LittleEndian.Uint64(t.data[8*i:]))
			if v < math.MinInt32 || v > math.MaxInt32 {
				return nil, fmt.Errorf("value %d out of range", v)
			}
			out[i] = int(v)
		}
		return out, nil
	case "I32":
		out := make([]int, len(t.data)/4)
		for i := range out {
			out[i] = int(int32(binary.LittleEndian.Uint32(t.data[4*i:])))
		}
		return out, nil
	}
	return nil, fmt.Errorf("dtype %s is not an integer type this reader knows (I64, I32)", t.dtype)
}

// halfToFloat widens an IEEE 754 half-precision value.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1F
	frac := uint32(h) & 0x3FF
	switch exp {
	case 0:
		if frac == 0 {
			return math.Float32frombits(sign)
		}
		// subnormal: frac × 2^-24
		f := float32(frac) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	case 0x1F:
		return math.Float32frombits(sign | 0xFF<<23 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}
