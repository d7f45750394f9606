package model2vec

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/embed/tokenizer"
)

// testTensor is a tensor to write: dtype, shape and its values.
type testTensor struct {
	dtype  string
	shape  []int
	floats []float64 // F32, F16 (only exactly representable values), F64
	ints   []int64   // I64
}

// writeSafetensors writes a safetensors file: header length, JSON header,
// little-endian data.
func writeSafetensors(t *testing.T, path string, tensors map[string]testTensor) {
	t.Helper()
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var data []byte
	names := make([]string, 0, len(tensors))
	for n := range tensors {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		tt := tensors[name]
		begin := len(data)
		switch tt.dtype {
		case "F32":
			for _, v := range tt.floats {
				data = binary.LittleEndian.AppendUint32(data, math.Float32bits(float32(v)))
			}
		case "F64":
			for _, v := range tt.floats {
				data = binary.LittleEndian.AppendUint64(data, math.Float64bits(v))
			}
		case "F16":
			for _, v := range tt.floats {
				data = binary.LittleEndian.AppendUint16(data, floatToHalf(t, v))
			}
		case "I8":
			for _, v := range tt.floats {
				data = append(data, byte(int8(v)))
			}
		case "I64":
			for _, v := range tt.ints {
				data = binary.LittleEndian.AppendUint64(data, uint64(v))
			}
		}
		header[name] = map[string]any{"dtype": tt.dtype, "shape": tt.shape, "data_offsets": []int{begin, len(data)}}
	}
	h, _ := json.Marshal(header)
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	out = append(append(out, h...), data...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// floatToHalf encodes the few values the tests use (sign, exponent, 10
// fraction bits, no rounding).
func floatToHalf(t *testing.T, v float64) uint16 {
	t.Helper()
	if v == 0 {
		return 0
	}
	var sign uint16
	if v < 0 {
		sign, v = 0x8000, -v
	}
	frac, exp := math.Frexp(v) // v = frac × 2^exp, frac in [0.5, 1)
	m := frac*2 - 1            // v = (1+m) × 2^(exp-1)
	bits := m * 1024
	if bits != math.Trunc(bits) || exp-1+15 <= 0 || exp-1+15 >= 31 {
		t.Fatalf("%v is not exactly a normal half", v)
	}
	return sign | uint16(exp-1+15)<<10 | uint16(bits)
}

var testVocab = []string{"[UNK]", "[CLS]", "[SEP]", "hello", "world", "##s", "save", "prefs"}

// rows gives token i the row (2(i+1), -(i+1), 2, i): integers, exact in
// every dtype, and a mean easy to compute by hand.
func rows(n int) []float64 {
	var out []float64
	for i := 0; i < n; i++ {
		out = append(out, 2*float64(i+1), -float64(i+1), 2, float64(i))
	}
	return out
}

func row(i int) []float64 { return rows(i + 1)[4*i:] }

// writeModel writes a model directory and returns it.
func writeModel(t *testing.T, tokJSON []byte, config string, tensors map[string]testTensor) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tiny-model")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), tokJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSafetensors(t, filepath.Join(dir, "model.safetensors"), tensors)
	return dir
}

func embeddings(dtype string, n int) map[string]testTensor {
	return map[string]testTensor{"embeddings": {dtype: dtype, shape: []int{n, 4}, floats: rows(n)}}
}

// mean of the rows of ids, L2-normalised when norm is set.
func mean(ids []int, weights []float64, norm bool) []float32 {
	sum := make([]float64, 4)
	for k, id := range ids {
		w := 1.0
		if weights != nil {
			w = weights[k]
		}
		for j, v := range row(id) {
			sum[j] += w * v
		}
	}
	l := 0.0
	for j := range sum {
		sum[j] /= float64(len(ids))
		l += sum[j] * sum[j]
	}
	out := make([]float32, 4)
	for j := range sum {
		if norm {
			out[j] = float32(sum[j] / math.Sqrt(l))
		} else {
			out[j] = float32(sum[j])
		}
	}
	return out
}

func near(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-6 {
			return false
		}
	}
	return true
}

func TestModel2VecMeanOfTokenRows(t *testing.T) {
	for _, dtype := range []string{"F32", "F16", "F64", "I8"} {
		t.Run(dtype, func(t *testing.T) {
			m, err := Load(writeModel(t, wordPieceJSON(testVocab), `{"normalize": true}`, embeddings(dtype, len(testVocab))))
			if err != nil {
				t.Fatal(err)
			}
			if m.Dim() != 4 {
				t.Fatalf("Dim = %d", m.Dim())
			}
			for _, c := range []struct {
				text string
				ids  []int // the tokens pooled: no [CLS]/[SEP], no [UNK]
			}{
				{"Hello worlds", []int{3, 4, 5}},
				{"save prefs", []int{6, 7}},
				{"hello zzz qqq", []int{3}}, // unknown words dropped, not pooled
				{"HELLO", []int{3}},
			} {
				if got, want := m.EmbedText(c.text), mean(c.ids, nil, true); !near(got, want) {
					t.Errorf("%q: got %v, want %v", c.text, got, want)
				}
			}
			for _, text := range []string{"", "zzz", "   "} {
				if got := m.EmbedText(text); !slices.Equal(got, make([]float32, 4)) {
					t.Errorf("%q: got %v, want the zero vector", text, got)
				}
			}
		})
	}
}

func TestModel2VecNormalizesOnlyWhenConfigSays(t *testing.T) {
	for _, c := range []struct {
		config string
		norm   bool
	}{{`{"normalize": true}`, true}, {`{"normalize": false}`, false}, {`{}`, false}} {
		m, err := Load(writeModel(t, wordPieceJSON(testVocab), c.config, embeddings("F32", len(testVocab))))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := m.EmbedText("hello world"), mean([]int{3, 4}, nil, c.norm); !near(got, want) {
			t.Errorf("config %s: got %v, want %v", c.config, got, want)
		}
	}
}

func TestModel2VecWeightsAndMapping(t *testing.T) {
	n := len(testVocab)
	weights := make([]float64, n)
	for i := range weights {
		weights[i] = 0.25 * float64(i+1)
	}
	// token i is stored in row n-1-i
	stored := make([]float64, 0, 4*n)
	mapping := make([]int64, n)
	for i := 0; i < n; i++ {
		stored = append(stored, row(n-1-i)...)
		mapping[i] = int64(n - 1 - i)
	}
	m, err := Load(writeModel(t, wordPieceJSON(testVocab), `{"normalize": true}`, map[string]testTensor{
		"embeddings": {dtype: "F32", shape: []int{n, 4}, floats: stored},
		"weights":    {dtype: "F64", shape: []int{n}, floats: weights},
		"mapping":    {dtype: "I64", shape: []int{n}, ints: mapping},
	}))
	if err != nil {
		t.Fatal(err)
	}
	// after the mapping, token i's row is row(i) again; weighted by weights[i]
	if got, want := m.EmbedText("hello prefs"), mean([]int{3, 7}, []float64{weights[3], weights[7]}, true); !near(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// model2vec cuts a text to 512 × the median token length characters, then
// its tokens to 512.
func TestModel2VecTruncatesLikeModel2Vec(t *testing.T) {
	vocab := append(slices.Clone(testVocab), "a", "b", "c", "d")
	m, err := Load(writeModel(t, wordPieceJSON(vocab), `{"normalize": false}`, embeddings("F32", len(vocab))))
	if err != nil {
		t.Fatal(err)
	}
	// lengths 1 1 1 1 3 4 5 5 5 5 5 5: median 4.5, truncated to 4 as
	// int(np.median(...)) does, so 2,048 characters
	if m.maxChars != 2048 {
		t.Fatalf("maxChars = %d, want 2048", m.maxChars)
	}
	a, b := len(testVocab), len(testVocab)+1
	for _, c := range []struct {
		name, text string
		want       []int
	}{
		// 601 tokens in 1,201 characters: the 512-token cut drops b
		{"tokens", strings.Repeat("a ", 600) + "b", []int{a}},
		// 400 tokens in 2,405 characters: the character cut drops world
		{"characters", strings.Repeat("hello ", 400) + "world", []int{3}},
		{"neither", strings.Repeat("a ", 100) + "b", append(slices.Repeat([]int{a}, 100), b)},
	} {
		if got, want := m.EmbedText(c.text), mean(c.want, nil, false); !near(got, want) {
			t.Errorf("%s: got %v, want %v", c.name, got, want)
		}
	}
}

func TestModel2VecEmbedderAndID(t *testing.T) {
	dir := writeModel(t, wordPieceJSON(testVocab), `{"normalize": true}`, embeddings("F32", len(testVocab)))
	m, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var e Embedder = m
	vs, err := e.Embed([]string{"hello", "save prefs", ""})
	if err != nil || len(vs) != 3 || !near(vs[1], m.EmbedText("save prefs")) {
		t.Fatalf("Embed = %v, %v", vs, err)
	}
	if !strings.HasPrefix(e.ID(), "model2vec:tiny-model@") || len(e.ID()) != len("model2vec:tiny-model@")+12 {
		t.Errorf("ID = %q", e.ID())
	}
	again, _ := Load(dir)
	if again.ID() != m.ID() {
		t.Errorf("ID not stable: %q, %q", again.ID(), m.ID())
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"normalize": false}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if changed, _ := Load(dir); changed.ID() == m.ID() {
		t.Errorf("ID %q did not change with config.json", changed.ID())
	}
}

// The multilingual path: an XLM-R-like Unigram tokenizer (no unk_token, so
// nothing is dropped, as model2vec does for Unigram models).
func TestModel2VecWithUnigramTokenizer(t *testing.T) {
	tokJSON := tokenizer.SyntheticUnigramJSON()
	tok, err := tokenizer.LoadBytes(tokJSON)
	if err != nil {
		t.Fatal(err)
	}
	n := tok.VocabSize()
	m, err := Load(writeModel(t, tokJSON, `{"normalize": true}`, embeddings("F32", n)))
	if err != nil {
		t.Fatal(err)
	}
	vocab := tok.Vocab()
	id := slices.Index(vocab, "▁пользователь")
	if got, want := m.EmbedText("пользователь"), mean([]int{id}, nil, true); !near(got, want) {
		t.Errorf("got %v, want the row of ▁пользователь %v", got, want)
	}
}

func TestModel2VecLoadRefusesBadFiles(t *testing.T) {
	tok := wordPieceJSON(testVocab)
	for _, c := range []struct {
		name    string
		tensors map[string]testTensor
		want    string
	}{
		{"no embeddings", map[string]testTensor{"other": {dtype: "F32", shape: []int{8, 4}, floats: rows(8)}}, `no "embeddings"`},
		{"too few rows", embeddings("F32", 5), "5 embedding rows"},
		{"one dimension", map[string]testTensor{"embeddings": {dtype: "F32", shape: []int{32}, floats: rows(8)}}, "shape"},
		{"mapping out of range", map[string]testTensor{
			"embeddings": {dtype: "F32", shape: []int{2, 4}, floats: rows(2)},
			"mapping":    {dtype: "I64", shape: []int{8}, ints: []int64{0, 1, 0, 1, 0, 1, 0, 9}}}, "mapping[7] = 9"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(writeModel(t, tok, `{}`, c.tensors))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one saying %q", err, c.want)
			}
		})
	}
	if _, err := Load(t.TempDir()); err == nil {
		t.Error("an empty directory loaded")
	}
}

func TestHalfToFloat(t *testing.T) {
	for _, c := range []struct {
		h    uint16
		want float32
	}{{0x3C00, 1}, {0xC000, -2}, {0x3555, 0.333251953125}, {0x0001, 5.960464477539063e-08}, {0x7BFF, 65504}, {0x8000, 0}} {
		if got := halfToFloat(c.h); got != c.want {
			t.Errorf("halfToFloat(%#04x) = %v, want %v", c.h, got, c.want)
		}
	}
	if !math.IsInf(float64(halfToFloat(0x7C00)), 1) || !math.IsNaN(float64(halfToFloat(0x7E00))) {
		t.Error("inf/nan")
	}
}

// FuzzReadSafetensors: any bytes either fail to parse or give tensors whose
// data has exactly the bytes their shape and dtype need.
func FuzzReadSafetensors(f *testing.F) {
	h := []byte(`{"embeddings":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"__metadata__":{}}`)
	seed := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	seed = append(append(seed, h...), make([]byte, 16)...)
	f.Add(seed)
	f.Add([]byte{255, 255, 255, 255, 255, 255, 255, 255})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		ts, err := readSafetensors(b)
		if err != nil {
			return
		}
		for name, tt := range ts {
			n := dtypeSize[tt.dtype]
			for _, d := range tt.shape {
				n *= int64(d)
			}
			if int64(len(tt.data)) != n {
				t.Fatalf("%s: %d bytes for shape %v %s", name, len(tt.data), tt.shape, tt.dtype)
			}
			if _, err := tt.floats(); err != nil {
				if _, err := tt.ints(); err != nil {
					t.Fatalf("%s: a known dtype %s decodes as neither floats nor ints", name, tt.dtype)
				}
			}
		}
	})
}
