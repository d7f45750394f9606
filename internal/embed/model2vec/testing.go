package model2vec

import (
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
)

// WriteTiny writes a small model2vec model into dir for tests elsewhere: a
// BERT-like WordPiece tokenizer over vocab (after [UNK], [CLS], [SEP]), an
// F32 embeddings tensor of dim columns and config.json with normalize on.
// Row i is given by group(vocab[i]) when group is not nil (words of one
// group get the same direction, so a test can tell what is near what), else
// by a hash of the word.
func WriteTiny(dir string, vocab []string, dim int, group func(word string) int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	all := append([]string{"[UNK]", "[CLS]", "[SEP]"}, vocab...)
	tok := wordPieceJSON(all)
	var data []byte
	for _, w := range all {
		seed := uint64(0)
		if group != nil {
			seed = uint64(group(w))
		} else {
			h := fnv.New64a()
			h.Write([]byte(w))
			seed = h.Sum64()
		}
		for j := 0; j < dim; j++ {
			seed = seed*6364136223846793005 + 1442695040888963407
			v := float32(int64(seed>>33)%1000) / 1000
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(v))
		}
	}
	header, err := json.Marshal(map[string]any{
		"embeddings": map[string]any{"dtype": "F32", "shape": []int{len(all), dim}, "data_offsets": []int{0, len(data)}},
	})
	if err != nil {
		return err
	}
	st := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	st = append(append(st, header...), data...)
	for name, b := range map[string][]byte{
		"tokenizer.json":    tok,
		"config.json":       []byte(`{"normalize": true}`),
		"model.safetensors": st,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// wordPieceJSON is a small BERT-like tokenizer.json over vocab, whose first
// three entries are [UNK], [CLS] and [SEP].
func wordPieceJSON(vocab []string) []byte {
	ids := map[string]int{}
	for i, v := range vocab {
		ids[v] = i
	}
	b, _ := json.Marshal(map[string]any{
		"added_tokens": []any{
			map[string]any{"id": 0, "content": "[UNK]", "special": true},
			map[string]any{"id": 1, "content": "[CLS]", "special": true},
			map[string]any{"id": 2, "content": "[SEP]", "special": true},
		},
		"normalizer":    map[string]any{"type": "BertNormalizer", "lowercase": true},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"model":         map[string]any{"type": "WordPiece", "vocab": ids, "unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100},
		"post_processor": map[string]any{"type": "TemplateProcessing",
			"single": []any{
				map[string]any{"SpecialToken": map[string]any{"id": "[CLS]", "type_id": 0}},
				map[string]any{"Sequence": map[string]any{"id": "A", "type_id": 0}},
				map[string]any{"SpecialToken": map[string]any{"id": "[SEP]", "type_id": 0}},
			},
			"special_tokens": map[string]any{
				"[CLS]": map[string]any{"id": "[CLS]", "ids": []int{1}, "tokens": []string{"[CLS]"}},
				"[SEP]": map[string]any{"id": "[SEP]", "ids": []int{2}, "tokens": []string{"[SEP]"}},
			}},
	})
	return b
}
