// Package tokenizer reads a Hugging Face tokenizer.json and encodes text the
// way the Rust tokenizers library does, in pure Go, for the sentence
// embedding models of the vector layer.
//
// Supported, each with Hugging Face's semantics (anything else is refused
// by Load with an *UnsupportedError naming the component and type):
//
//   - normalizer: BertNormalizer, Precompiled (sentencepiece's charsmap: a
//     double-array trie of rewrite rules, applied per grapheme cluster),
//     Replace, Strip, StripAccents, Lowercase, Prepend, NFC, NFD, NFKC,
//     NFKD, Sequence;
//   - pre_tokenizer: BertPreTokenizer, Metaspace (prepend_scheme or the
//     older add_prefix_space, split), WhitespaceSplit, Whitespace, Sequence;
//   - model: WordPiece (continuing-subword prefix, max_input_chars_per_word)
//     and Unigram (Viterbi over the piece scores, pieces of any length,
//     unknown characters scored min - 10 and fused, byte_fallback);
//   - post_processor: TemplateProcessing, BertProcessing, RobertaProcessing;
//   - added_tokens: matched leftmost-longest before the model, on the raw
//     text or, for normalized tokens, on the normalised text; single_word,
//     lstrip and rstrip.
//
// # Oracle
//
// The tests compare every id with @huggingface/tokenizers (npm, pure JS),
// run by testdata/oracle.mjs, on the English BERT tokenizer.json files that
// ship in the test data of the Go module github.com/daulet/tokenizers and on
// a synthetic XLM-R-like Unigram file (SyntheticUnigramJSON).
package tokenizer
