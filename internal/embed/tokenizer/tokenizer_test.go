package tokenizer

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// daulet/tokenizers ships real tokenizer.json files in its test data;
// scripts/test.sh downloads the module into the module cache.
const dauletVersion = "v1.24.0"

// oracleStrings are the texts both tokenizers encode: English, Russian with
// long words, PHP code, accents (composed and decomposed), CJK, emoji,
// whitespace runs, control characters, special tokens in the text.
var oracleStrings = []string{
	"",
	" ",
	"Hello world",
	"Hello, World! How are you today?",
	"The quick brown fox jumps over the lazy dog.",
	"save user preferences",
	"Unbelievable performance: 3.14159 × 2 = 6.28318",
	"don't won't can't it's",
	"e-mail addresses like john.doe@example.com and https://example.org/path?q=1&r=2",
	"Сохранить пользовательские настройки",
	"пользователь настройки сохранить конфигурации безопасности",
	"достопримечательности",
	"Здравствуйте, как дела?",
	"высокопроизводительный электроэнергетический",
	"Ёлка и ёжик",
	"<?php echo $user->getName(); ?>",
	"function save_prefs(array $prefs): bool { return update_option('prefs', $prefs); }",
	"$wpdb->prepare(\"SELECT * FROM {$wpdb->posts} WHERE ID = %d\", $id);",
	"namespace App\\Http\\Controllers;\nuse Illuminate\\Support\\Facades\\DB;",
	"// TODO: fix the unserialize() call\n/** @param int $id */",
	"if ($a !== null && $b >= 10 || !$c) { $x[] = $y ?? 'default'; }",
	"Café crème brûlée, naïve résumé",
	"Ångström, Øresund, São Paulo, Zürich, Kraków",
	"Cafe\u0301 nai\u0308ve",
	"İstanbul Ispanya",
	"Ελληνικά γράμματα",
	"你好世界",
	"日本語のテキスト",
	"東京タワーへ行く",
	"中文字测试 mixed English",
	"한국어 텍스트",
	"I ❤ PHP 👍",
	"👨‍👩‍👧 family",
	"party 🎉 time",
	"  leading spaces",
	"trailing spaces  ",
	"a\t\tb\n\nc",
	"multiple     spaces   inside",
	"\u00a0nbsp\u3000ideographic space",
	"line one\r\nline two",
	"a\u0000b\u0007c",
	"zero\u200bwidth",
	"ＡＢＣ１２３ fullwidth",
	"ﬁnance ½ ² ① ™",
	"[CLS] hello [SEP]",
	"<s> hi </s>",
	"fill the <mask> here",
	"supercalifragilisticexpialidocious",
	strings.Repeat("a", 120),
	"UPPER lower MiXeD",
	"snake_case_identifier camelCaseIdentifier PascalCase",
	"€100 and ¥200",
	"numbers 1234567890 and 3.5e-10",
}

// oracleDir is where @huggingface/tokenizers is installed (scripts/test.sh
// installs it); RAGRAF_TOKENIZERS_ORACLE overrides.
func oracleDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found: the @huggingface/tokenizers oracle cannot run (scripts/test.sh installs it)")
	}
	dir := os.Getenv("RAGRAF_TOKENIZERS_ORACLE")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Skip("no home directory for the oracle")
		}
		dir = filepath.Join(home, ".cache", "ragraf-tokenizers-oracle")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@huggingface", "tokenizers", "package.json")); err != nil {
		t.Skipf("@huggingface/tokenizers not installed in %s (scripts/test.sh installs it; RAGRAF_TOKENIZERS_ORACLE overrides)", dir)
	}
	return dir
}

// oracleIDs encodes texts with the JS library.
func oracleIDs(t *testing.T, lib, tokenizerPath string, texts []string) [][]int64 {
	t.Helper()
	in := filepath.Join(t.TempDir(), "strings.json")
	b, _ := json.Marshal(texts)
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join("testdata", "oracle.mjs"), lib, tokenizerPath, in)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	var ids [][]int64
	if err := json.Unmarshal(out, &ids); err != nil {
		t.Fatalf("oracle output: %v", err)
	}
	if len(ids) != len(texts) {
		t.Fatalf("oracle returned %d encodings for %d strings", len(ids), len(texts))
	}
	return ids
}

// dauletFile is a tokenizer.json from daulet/tokenizers' test data.
func dauletFile(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env GOMODCACHE: %v", err)
	}
	p := filepath.Join(strings.TrimSpace(string(out)), "github.com", "daulet", "tokenizers@"+dauletVersion, "test", "data", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s absent: run `go mod download github.com/daulet/tokenizers@%s` (scripts/test.sh does)", p, dauletVersion)
	}
	return p
}

// compareWithOracle encodes texts in Go and in JS and reports every
// difference with both token lists.
func compareWithOracle(t *testing.T, lib, path string, texts []string) {
	t.Helper()
	tok, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := oracleIDs(t, lib, path, texts)
	mismatches := 0
	for i, text := range texts {
		got := tok.Encode(text, 0)
		if !slices.Equal(got.IDs, want[i]) {
			mismatches++
			var wantTokens []string
			for _, id := range want[i] {
				if int(id) < len(tok.tokens) {
					wantTokens = append(wantTokens, tok.tokens[id])
				}
			}
			t.Errorf("%q:\n go %v %q\n js %v %q", text, got.IDs, got.Tokens, want[i], wantTokens)
		}
	}
	t.Logf("%s: %d strings, %d mismatches", filepath.Base(path), len(texts), mismatches)
}

func TestTokenizerMatchesHuggingFace_WordPiece(t *testing.T) {
	lib := oracleDir(t)
	for _, name := range []string{"bert-base-uncased.json", "all-minilm-l6-v2.json", "sentence-transformers-labse.json"} {
		t.Run(name, func(t *testing.T) {
			compareWithOracle(t, lib, dauletFile(t, name), oracleStrings)
		})
	}
}

func TestTokenizerMatchesHuggingFace_Unigram(t *testing.T) {
	lib := oracleDir(t)
	for _, legacy := range []bool{false, true} {
		name := "metaspace-split"
		if legacy {
			name = "whitespacesplit-add-prefix-space"
		}
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tokenizer.json")
			if err := os.WriteFile(path, syntheticUnigram(legacy), 0o644); err != nil {
				t.Fatal(err)
			}
			compareWithOracle(t, lib, path, oracleStrings)
		})
	}
}

// randomStrings are n texts drawn with a fixed seed from words of ASCII,
// Cyrillic, accented Latin (with combining accents on ASCII vowels), CJK and
// emoji, joined by spaces, tabs, newlines and punctuation. Every character
// is a piece of the synthetic Unigram vocabulary, so no run of unknown
// characters (where the JS library differs from Hugging Face) occurs.
func randomStrings(n int) []string {
	rng := rand.New(rand.NewPCG(18, 2026))
	alphabets := [][]rune{
		[]rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$"),
		[]rune("абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"),
		[]rune("àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝ"),
		[]rune("你好世界日本語東京中文字测试のテキストタワー"),
		[]rune("😀😁😂😃😉😊😍😎🙂🙃"),
	}
	seps := []string{" ", " ", " ", "  ", "\t", "\n", ", ", ". ", "->", "()", "::", "\\", "'", "\"", " = ", "{", "}", "[", "]", ";", "<", ">", "/", "-", "$"}
	words := []string{"пользователь", "настройки", "сохранить", "конфигурации", "безопасности", "достопримечательности",
		"hello", "world", "function", "return", "echo", "php", "unbelievable", "preferences"}
	var out []string
	for len(out) < n {
		var b strings.Builder
		for w := rng.IntN(12) + 1; w > 0; w-- {
			if rng.IntN(4) == 0 {
				b.WriteString(words[rng.IntN(len(words))])
			} else {
				// words mostly of one script, sometimes mixed
				al := alphabets[rng.IntN(len(alphabets))]
				for c := rng.IntN(14) + 1; c > 0; c-- {
					if rng.IntN(8) == 0 {
						al = alphabets[rng.IntN(len(alphabets))]
					}
					b.WriteRune(al[rng.IntN(len(al))])
					if rng.IntN(15) == 0 {
						b.WriteRune(rune("aeiouAEIOU"[rng.IntN(10)]))
						b.WriteRune([]rune{0x301, 0x300, 0x308, 0x302}[rng.IntN(4)])
					}
				}
			}
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		out = append(out, b.String())
	}
	return out
}

func TestTokenizerMatchesHuggingFace_RandomStrings(t *testing.T) {
	lib := oracleDir(t)
	texts := randomStrings(400)
	t.Run("bert-base-uncased", func(t *testing.T) {
		compareWithOracle(t, lib, dauletFile(t, "bert-base-uncased.json"), texts)
	})
	for _, legacy := range []bool{false, true} {
		t.Run(fmt.Sprintf("unigram-legacy-%v", legacy), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "tokenizer.json")
			if err := os.WriteFile(path, syntheticUnigram(legacy), 0o644); err != nil {
				t.Fatal(err)
			}
			compareWithOracle(t, lib, path, texts)
		})
	}
}

// withComponents is tokenizer.json base with some top-level keys replaced.
func withComponents(t *testing.T, base []byte, overrides map[string]any) string {
	t.Helper()
	var f map[string]any
	if err := json.Unmarshal(base, &f); err != nil {
		t.Fatal(err)
	}
	for k, v := range overrides {
		f[k] = v
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tokenizer.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The components the two files above do not use, each swapped into a real
// vocabulary and compared with the oracle. Whitespace runs only on ASCII:
// the JS library's \w is ASCII, Hugging Face's is Unicode.
func TestTokenizerMatchesHuggingFace_OtherComponents(t *testing.T) {
	lib := oracleDir(t)
	var ascii []string
	for _, s := range append(slices.Clone(oracleStrings), randomStrings(400)...) {
		if !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 }) {
			ascii = append(ascii, s)
		}
	}
	if len(ascii) < 30 {
		t.Fatalf("only %d ASCII strings", len(ascii))
	}
	bert, err := os.ReadFile(dauletFile(t, "bert-base-uncased.json"))
	if err != nil {
		t.Fatal(err)
	}
	seq := func(ns ...any) map[string]any { return map[string]any{"type": "Sequence", "normalizers": ns} }
	typ := func(name string) map[string]any { return map[string]any{"type": name} }
	for _, c := range []struct {
		name      string
		base      []byte
		overrides map[string]any
		texts     []string
	}{
		{"nfd-stripaccents-lowercase-strip-replace-roberta", bert, map[string]any{
			"normalizer": seq(typ("NFD"), typ("StripAccents"), typ("Lowercase"),
				map[string]any{"type": "Strip", "strip_left": true, "strip_right": true},
				map[string]any{"type": "Replace", "pattern": map[string]string{"String": "$"}, "content": " dollar "}),
			"post_processor": map[string]any{"type": "RobertaProcessing", "cls": []any{"[CLS]", 101}, "sep": []any{"[SEP]", 102}},
		}, oracleStrings},
		{"nfkc-whitespace-bertprocessing", bert, map[string]any{
			"normalizer":     seq(typ("NFKC"), typ("Lowercase")),
			"pre_tokenizer":  map[string]any{"type": "Sequence", "pretokenizers": []any{typ("WhitespaceSplit"), typ("Whitespace")}},
			"post_processor": map[string]any{"type": "BertProcessing", "cls": []any{"[CLS]", 101}, "sep": []any{"[SEP]", 102}},
		}, ascii},
		{"unigram-metaspace-first", syntheticUnigram(false), map[string]any{
			"pre_tokenizer": map[string]any{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": true},
		}, oracleStrings},
		{"unigram-metaspace-never-no-post-processor", syntheticUnigram(false), map[string]any{
			"pre_tokenizer":  map[string]any{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "never", "split": true},
			"post_processor": nil,
		}, oracleStrings},
		{"unigram-nfkc-prepend", syntheticUnigram(false), map[string]any{
			"normalizer":    seq(typ("NFKC"), map[string]any{"type": "Prepend", "prepend": "▁"}),
			"pre_tokenizer": map[string]any{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "never", "split": true},
		}, ascii},
	} {
		t.Run(c.name, func(t *testing.T) {
			compareWithOracle(t, lib, withComponents(t, c.base, c.overrides), c.texts)
		})
	}
}

func loadSynthetic(t testing.TB) *Tokenizer {
	t.Helper()
	tok, err := LoadBytes(SyntheticUnigramJSON())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func idOf(t *testing.T, tok *Tokenizer, piece string) int64 {
	t.Helper()
	i := slices.Index(tok.tokens, piece)
	if i < 0 {
		t.Fatalf("%q not in the vocabulary", piece)
	}
	return int64(i)
}

// A piece of 27 bytes (12 Cyrillic letters and ▁) is one token: no cap on
// piece length, no bonus for length.
func TestUnigramKeepsPiecesLongerThan20Bytes(t *testing.T) {
	tok := loadSynthetic(t)
	for _, word := range []string{"пользователь", "конфигурации", "безопасности", "достопримечательности"} {
		piece := "▁" + word
		if len(piece) <= 20 {
			t.Fatalf("%q is only %d bytes", piece, len(piece))
		}
		got := tok.Encode(word, 0).IDs
		want := []int64{0, idOf(t, tok, piece), 2}
		if !slices.Equal(got, want) {
			t.Errorf("%q: got %v %q, want %v", word, got, tok.Encode(word, 0).Tokens, want)
		}
	}
	// the Viterbi path, not the longest piece: "▁поль"+"зова"+"тель" scores
	// -21.15, the whole word -9.2; "▁на"+"строй"+"ки" -18.55 loses to -9.4
	if got := tok.Encode("настройки", 0).Tokens; !slices.Equal(got, []string{"<s>", "▁настройки", "</s>"}) {
		t.Errorf("настройки: %q", got)
	}
}

// Hugging Face fuses a run of characters no piece covers into one unknown
// token (the JS library does not, so the oracle strings avoid such runs).
func TestUnigramFusesUnknownRuns(t *testing.T) {
	tok := loadSynthetic(t)
	got := tok.Encode("☃☃☃ ok", 0).Tokens
	want := []string{"<s>", "▁", "<unk>", "▁", "o", "k", "</s>"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestUnigramByteFallback(t *testing.T) {
	vocab := [][2]any{{"<unk>", 0.0}, {"▁", -1.0}, {"a", -2.0}}
	for b := 0; b < 256; b++ {
		vocab = append(vocab, [2]any{"<0x" + hex2(b) + ">", -5.0})
	}
	j, _ := json.Marshal(map[string]any{
		"pre_tokenizer": map[string]any{"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always"},
		"model":         map[string]any{"type": "Unigram", "unk_id": 0, "vocab": vocab, "byte_fallback": true},
	})
	tok, err := LoadBytes(j)
	if err != nil {
		t.Fatal(err)
	}
	got := tok.Encode("aé", 0).Tokens
	want := []string{"▁", "a", "<0xC3>", "<0xA9>"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func hex2(b int) string {
	const digits = "0123456789ABCDEF"
	return string([]byte{digits[b>>4], digits[b&15]})
}

// The charsmap lookup follows spm_precompiled: the shortest rule that is a
// prefix of a grapheme cluster (under 6 bytes) replaces all of it; else
// each character is looked up alone.
func TestPrecompiledCharsmapLookup(t *testing.T) {
	cm, err := parseCharsmap(BuildCharsmap(map[string]string{
		"ﬁ":          "fi",
		"e\u0301":    "é",
		"\u00a0":     " ",
		"\u0007":     "",
		"ab":         "X",
		"abc":        "Y", // never reached: "ab" is the shorter prefix
		"Ω":          "ω",
		"\u0301":     "'",
		"ё":          "е",
		"\U0001F44D": "+1",
	}))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"ﬁnance", "finance"},
		{"cafe\u0301", "café"},
		{"a\u00a0b\u0007c", "a bc"},
		{"abc", "abc"}, // three clusters: no rule for "a", "b" or "c"
		{"Ωмега ёж", "ωмега еж"},
		{"x\u0301", "x'"}, // the cluster "x"+U+0301 has no rule: per character
		{"👍🏽", "+1🏽"},     // 8 bytes: per character
		{"plain", "plain"},
	} {
		if got := cm.normalize(c.in); got != c.want {
			t.Errorf("normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if r, ok := cm.transform("abc"); !ok || r != "X" {
		t.Errorf(`transform("abc") = %q, %v; want the shortest rule "X"`, r, ok)
	}
}

func TestEncodeTruncatesKeepingFinalSpecialToken(t *testing.T) {
	tok := loadSynthetic(t)
	text := "the quick brown fox jumps over the lazy dog and the cat"
	full := tok.Encode(text, 0)
	for _, max := range []int{1, 2, 3, 5, 8, len(full.IDs), len(full.IDs) + 5} {
		got := tok.Encode(text, max)
		n := min(max, len(full.IDs))
		if len(got.IDs) != n || len(got.TypeIDs) != n || len(got.Mask) != n || len(got.Tokens) != n {
			t.Fatalf("max %d: lengths %d %d %d %d, want %d", max, len(got.IDs), len(got.TypeIDs), len(got.Mask), len(got.Tokens), n)
		}
		if got.IDs[n-1] != 2 {
			t.Errorf("max %d: last id %d, want </s>", max, got.IDs[n-1])
		}
		if n >= 2 && (got.IDs[0] != 0 || !slices.Equal(got.IDs[1:n-1], full.IDs[1:n-1])) {
			t.Errorf("max %d: %v is not a prefix of %v closed by </s>", max, got.IDs, full.IDs)
		}
	}
}

func TestLoadRefusesUnsupportedComponents(t *testing.T) {
	wp := map[string]any{"type": "WordPiece", "vocab": map[string]int{"[UNK]": 0, "a": 1}, "unk_token": "[UNK]"}
	for _, c := range []struct {
		name, component, typ string
		file                 map[string]any
	}{
		{"bpe", "model", "BPE", map[string]any{"model": map[string]any{"type": "BPE", "vocab": map[string]int{"a": 0}, "merges": []string{}}}},
		{"bytelevel", "pre_tokenizer", "ByteLevel", map[string]any{"pre_tokenizer": map[string]any{"type": "ByteLevel"}, "model": wp}},
		{"nmt", "normalizer", "Nmt", map[string]any{"normalizer": map[string]any{"type": "Sequence", "normalizers": []any{map[string]any{"type": "Nmt"}}}, "model": wp}},
		{"post", "post_processor", "ByteLevel", map[string]any{"post_processor": map[string]any{"type": "ByteLevel"}, "model": wp}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, _ := json.Marshal(c.file)
			_, err := LoadBytes(b)
			var ue *UnsupportedError
			if !errors.As(err, &ue) || ue.Component != c.component || ue.Type != c.typ {
				t.Fatalf("err = %v, want unsupported %s %q", err, c.component, c.typ)
			}
			if !strings.Contains(err.Error(), c.typ) {
				t.Errorf("error %q does not name the type", err)
			}
		})
	}
}

func TestWordPieceLongWordAndContinuation(t *testing.T) {
	j, _ := json.Marshal(map[string]any{
		"normalizer":     map[string]any{"type": "BertNormalizer", "lowercase": true},
		"pre_tokenizer":  map[string]any{"type": "BertPreTokenizer"},
		"model":          map[string]any{"type": "WordPiece", "vocab": map[string]int{"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "un": 3, "##believ": 4, "##able": 5, "!": 6}, "unk_token": "[UNK]", "max_input_chars_per_word": 12},
		"post_processor": map[string]any{"type": "BertProcessing", "sep": []any{"[SEP]", 2}, "cls": []any{"[CLS]", 1}},
	})
	tok, err := LoadBytes(j)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in   string
		want []int64
	}{
		{"Unbelievable!", []int64{1, 3, 4, 5, 6, 2}},
		{"unbelievables", []int64{1, 0, 2}},      // 13 characters: over the limit
		{"unbelievablex", []int64{1, 0, 2}},      // no piece for the tail: the word is unknown
		{"ÚNBELIEVABLE", []int64{1, 3, 4, 5, 2}}, // accents stripped after NFD
	} {
		if got := tok.Encode(c.in, 0).IDs; !slices.Equal(got, c.want) {
			t.Errorf("%q: got %v, want %v", c.in, got, c.want)
		}
	}
}

// FuzzEncode: Encode never panics, every id is within the vocabulary, the
// template's special tokens close the encoding and maxTokens is respected.
func FuzzEncode(f *testing.F) {
	for _, s := range oracleStrings {
		f.Add(s, 0)
	}
	f.Add("\xff\xfe broken utf-8 \xc3", 4)
	f.Add("<mask><mask>  <s></s>", 3)
	tok := loadSynthetic(f)
	f.Fuzz(func(t *testing.T, text string, max int) {
		max %= 64
		e := tok.Encode(text, max)
		if max > 0 && len(e.IDs) > max {
			t.Fatalf("%d ids for max %d", len(e.IDs), max)
		}
		if len(e.IDs) == 0 || e.IDs[len(e.IDs)-1] != 2 {
			t.Fatalf("encoding %v does not end with </s>", e.IDs)
		}
		for _, id := range e.IDs {
			if id < 0 || int(id) >= tok.VocabSize() {
				t.Fatalf("id %d outside the vocabulary of %d", id, tok.VocabSize())
			}
		}
	})
}

// FuzzPrecompiledCharsmap: any blob either fails to parse or normalises any
// text to valid UTF-8 without panicking.
func FuzzPrecompiledCharsmap(f *testing.F) {
	f.Add(BuildCharsmap(map[string]string{"ﬁ": "fi", "e\u0301": "é", "\u00a0": " "}), "ﬁne cafe\u0301\u00a0x")
	f.Add([]byte{8, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 4, 0, 0}, "abc")
	f.Add([]byte{}, "")
	f.Fuzz(func(t *testing.T, blob []byte, text string) {
		cm, err := parseCharsmap(blob)
		if err != nil {
			return
		}
		text = strings.ToValidUTF8(text, "\uFFFD")
		if out := cm.normalize(text); !utf8.ValidString(out) {
			t.Fatalf("normalize(%q) = %q: not UTF-8", text, out)
		}
	})
}

// BenchmarkEncode: one symbol-sized text (signature, docblock, path) per
// op, truncated to 128 tokens as the embedder does.
func BenchmarkEncode(b *testing.B) {
	text := "function wp_save_user_preferences( int $user_id, array $prefs ): bool — Сохраняет пользовательские " +
		"настройки в базе данных. Saves the user's preferences to the options table and clears the object cache. " +
		"wp-includes/user.php"
	b.Run("unigram-synthetic", func(b *testing.B) {
		tok := loadSynthetic(b)
		for b.Loop() {
			tok.Encode(text, 128)
		}
	})
	b.Run("wordpiece-bert-base-uncased", func(b *testing.B) {
		out, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if err != nil {
			b.Skip(err)
		}
		tok, err := Load(filepath.Join(strings.TrimSpace(string(out)), "github.com", "daulet", "tokenizers@"+dauletVersion, "test", "data", "bert-base-uncased.json"))
		if err != nil {
			b.Skip(err)
		}
		for b.Loop() {
			tok.Encode(text, 128)
		}
	})
}

// FuzzParseUnigramVocab: the one-pass vocab reader agrees with
// encoding/json on every input encoding/json reads as [[string, number]...]
// with exactly two elements per entry (as Hugging Face's (String, f64)),
// and never panics on the others.
func FuzzParseUnigramVocab(f *testing.F) {
	f.Add([]byte(`[["<unk>", 0.0], ["\u2581a\"b\\", -1.5e-3], [ "x" , 2 ]]`))
	f.Add([]byte(`[]`))
	f.Add([]byte(` [ ["a",-1] , ["b", 1E+2] ] `))
	f.Add([]byte(`[["a"]]`))
	f.Add([]byte("[[\"\xff\", 1]]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		pieces, scores, err := parseUnigramVocab(b)
		var ref [][]json.RawMessage
		if json.Unmarshal(b, &ref) != nil {
			return
		}
		var wantP []string
		var wantS []float64
		for _, e := range ref {
			if len(e) != 2 {
				return
			}
			var p string
			var s float64
			if json.Unmarshal(e[0], &p) != nil || json.Unmarshal(e[1], &s) != nil {
				return
			}
			wantP, wantS = append(wantP, p), append(wantS, s)
		}
		if err != nil {
			t.Fatalf("parseUnigramVocab(%q): %v; encoding/json reads it", b, err)
		}
		if !slices.Equal(pieces, wantP) || !slices.Equal(scores, wantS) {
			t.Fatalf("parseUnigramVocab(%q) = %q %v, want %q %v", b, pieces, scores, wantP, wantS)
		}
	})
}

var update = flag.Bool("update", false, "rewrite testdata/xlmr-synthetic.tokenizer.json")

// The synthetic XLM-R-like file is committed too, for tools that are not Go
// (a Node oracle, a Python check); it must be what SyntheticUnigramJSON
// writes. go test -run TestSyntheticUnigramFileIsCurrent -update rewrites it.
func TestSyntheticUnigramFileIsCurrent(t *testing.T) {
	path := filepath.Join("testdata", "xlmr-synthetic.tokenizer.json")
	want := SyntheticUnigramJSON()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from SyntheticUnigramJSON(); rerun with -update", path)
	}
}
