// This file builds the static model's corpus: each symbol's text (name,
// qualified name, signature, path, docblock, comments) read into a document
// of term ids, every word numbered once as it is read (termTable).

package embed

import (
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// doc is the text of one symbol as the model reads it, as term ids (the
// Corpus's terms).
type doc struct {
	id    string
	name  []int32 // name and qualified-name words
	words []int32 // the whole sequence: name, signature, path, docblock
}

// termTable numbers the words the model trains on as they are read: the
// Words of a text, each reduced to its stem (Stem), so that "stored",
// "storing" and "store" are one term. Each word occurrence is hashed once,
// here, and nowhere after (vocabulary and encode index arrays by term id).
type termTable struct {
	raw   map[string]int32   // a word of Words -> its stem's term id, -1 skipped
	ids   map[string]int32   // stem -> term id
	terms []string           // term id -> stem
	memo  map[string][]int32 // a path or signature -> its term ids
}

func newTermTable() *termTable {
	return &termTable{raw: map[string]int32{}, ids: map[string]int32{}, memo: map[string][]int32{}}
}

// add appends the term ids of the stemmed Words of text to dst.
func (t *termTable) add(dst []int32, text string) []int32 {
	return t.addTerms(dst, lexvec.Terms(text))
}

// addUpTo is add that stops once dst holds limit ids: it reads text a
// piece at a time, each cut at a space, where Terms splits anyway (a long
// docblock is read only as far as the model keeps it).
func (t *termTable) addUpTo(dst []int32, text string, limit int) []int32 {
	const piece = 1024
	for text != "" && len(dst) < limit {
		head := text
		if len(text) > piece {
			if i := strings.IndexByte(text[piece:], ' '); i >= 0 {
				head = text[:piece+i]
			}
		}
		text = text[len(head):]
		dst = t.addTerms(dst, lexvec.Terms(head))
	}
	return dst
}

// addTerms appends the term ids of the words of ts, a Terms output.
func (t *termTable) addTerms(dst []int32, ts string) []int32 {
	for len(ts) > 0 {
		w := ts
		if i := strings.IndexByte(ts, ' '); i >= 0 {
			w, ts = ts[:i], ts[i+1:]
		} else {
			ts = ""
		}
		if w == "" {
			continue
		}
		id, ok := t.raw[w]
		if !ok {
			id = -1
			if len(w) >= 2 && !stopwords[w] && !isNumber(w) {
				st := Stem(w)
				if id, ok = t.ids[st]; !ok {
					id = int32(len(t.terms))
					t.terms = append(t.terms, st)
					t.ids[st] = id
				}
			}
			t.raw[strings.Clone(w)] = id
		}
		if id >= 0 {
			dst = append(dst, id)
		}
	}
	return dst
}

// addMemo is add for texts many symbols share (paths, signatures).
func (t *termTable) addMemo(dst []int32, text string) []int32 {
	ids, ok := t.memo[text]
	if !ok {
		ids = t.add(nil, text)
		t.memo[text] = ids
	}
	return append(dst, ids...)
}

// symText is what a symbol's document is read from.
type symText struct {
	id, name, sig, path string   // name: its name and qualified name
	docblocks, comments []string // sorted
}

// symbolTexts gathers the text of every symbol (files excepted), sorted by id.
func symbolTexts(nodes []fact.Node, chunks []fact.TextChunk) []symText {
	docblocks, comments := map[string][]string{}, map[string][]string{}
	for i := range chunks {
		c := &chunks[i]
		switch {
		case c.NodeID == "":
		case c.Kind == "docblock":
			docblocks[c.NodeID] = append(docblocks[c.NodeID], c.Text)
		case c.Kind == "comment":
			comments[c.NodeID] = append(comments[c.NodeID], c.Text)
		}
	}
	var out []symText
	for i := range nodes {
		n := &nodes[i]
		if n.Kind == fact.File {
			continue
		}
		st := symText{id: n.ID, name: n.Name + " " + n.QName, sig: n.Signature, path: strings.TrimSuffix(n.Path, ".php"),
			docblocks: docblocks[n.ID], comments: comments[n.ID]}
		sort.Strings(st.docblocks)
		sort.Strings(st.comments)
		out = append(out, st)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// documents builds the document of each symbol text, in their order, and
// the terms their ids name.
func documents(syms []symText) ([]doc, []string) {
	t := newTermTable()
	docs := make([]doc, 0, len(syms))
	var dw []int32
	for i := range syms {
		st := &syms[i]
		d := doc{id: st.id, name: t.add(nil, st.name)}
		d.words = append(d.words, d.name...)
		d.words = t.addMemo(d.words, st.sig)
		d.words = t.addMemo(d.words, st.path)
		for _, texts := range [][]string{st.docblocks, st.comments} {
			dw = dw[:0]
			for _, x := range texts {
				dw = t.addUpTo(dw, x, maxDocWords)
			}
			if len(dw) > maxDocWords {
				dw = dw[:maxDocWords]
			}
			d.words = append(d.words, dw...)
		}
		docs = append(docs, d)
	}
	return docs, t.terms
}
