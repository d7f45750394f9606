package bilingual

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func english(w Word) []string {
	var out []string
	for _, c := range w.English {
		out = append(out, c.Word)
	}
	return out
}

// TestRussianQuestions_GlossaryTranslatesInflectedWords: the glossary's words are found
// in any of their forms (Snowball stems), stop words are dropped, and the
// first English word of an entry weighs most.
func TestRussianQuestions_GlossaryTranslatesInflectedWords(t *testing.T) {
	l := Load("none")
	exp := l.Expand("удалить заказы из корзины пользователя")
	var got []string
	for _, w := range exp.Words {
		got = append(got, w.Text+"="+strings.Join(english(w), ","))
	}
	want := []string{"удалить=delete,remove", "заказы=order", "корзины=cart,basket", "пользователя=user"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if c := exp.Words[0].English; c[0].Weight <= c[1].Weight || c[0].From != "glossary" {
		t.Errorf("weights %+v", c)
	}
	// a longer form of a known stem (сохраняет of сохранить) is found too
	if e := english(l.Expand("сохраняет").Words[0]); len(e) == 0 || e[0] != "save" {
		t.Errorf("сохраняет → %v", e)
	}
}

// TestRussianQuestions_MixedQueryKeepsIdentifiers: Latin words and identifiers stay as
// written, in their place.
func TestRussianQuestions_MixedQueryKeepsIdentifiers(t *testing.T) {
	exp := Load("none").Expand("где вызывается saveOrder и order_items")
	var kept []string
	for _, w := range exp.Words {
		if w.Kept {
			kept = append(kept, w.Text)
			if len(w.English) > 0 || w.Stem != "" {
				t.Errorf("kept word translated: %+v", w)
			}
		}
	}
	if !slices.Equal(kept, []string{"saveOrder", "order_items"}) {
		t.Errorf("kept %v", kept)
	}
	if exp.Words[0].Text != "вызывается" || english(exp.Words[0])[0] != "call" {
		t.Errorf("first word %+v", exp.Words[0])
	}
}

// TestRussianQuestions_GlossaryWellFormed: every line of the glossary is a Russian word,
// a tab and English words; it holds a few hundred entries and no Russian
// word twice.
func TestRussianQuestions_GlossaryWellFormed(t *testing.T) {
	seen := map[string]bool{}
	n := 0
	for i, line := range strings.Split(glossaryTSV, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ru, en, ok := strings.Cut(line, "\t")
		if !ok || strings.ContainsAny(ru, " \t") || !HasCyrillic(ru) || len(strings.Fields(en)) == 0 || HasCyrillic(en) {
			t.Errorf("line %d: %q", i+1, line)
		}
		if seen[ru] {
			t.Errorf("line %d: %s twice", i+1, ru)
		}
		seen[ru] = true
		n++
	}
	if n < 300 {
		t.Errorf("%d entries", n)
	}
}

// writeDict writes a small dictd database in FreeDict's layout.
func writeDict(t *testing.T, entries [][2]string) string {
	t.Helper()
	dir := t.TempDir()
	var body, idx bytes.Buffer
	add := func(head, text string) {
		idx.WriteString(head + "\t" + b64enc(body.Len()) + "\t" + b64enc(len(text)) + "\n")
		body.WriteString(text)
	}
	add("00databaseshort", "00-database-short\n     Test English-Russian\n")
	for _, e := range entries {
		add(e[0], e[0]+" /x/\n"+e[1]+"\n")
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(body.Bytes())
	zw.Close()
	base := filepath.Join(dir, "freedict-eng-rus")
	if err := os.WriteFile(base+".dict.dz", z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".index", idx.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return base
}

func b64enc(n int) string {
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	if n == 0 {
		return "A"
	}
	var out []byte
	for ; n > 0; n /= 64 {
		out = append([]byte{digits[n%64]}, out...)
	}
	return string(out)
}

// TestRussianQuestions_DictionaryInverted: the dictd database is read and inverted; a
// word the glossary lacks is translated by it, after the glossary's words
// where both know it, and Info names it.
func TestRussianQuestions_DictionaryInverted(t *testing.T) {
	base := writeDict(t, [][2]string{
		{"weather", "погода"},
		{"letter", "1. письмо\n2. буква"},
		{"North Pole", "Северный полюс"},
	})
	l := Load(base)
	info := l.Info()
	if info.Missing != "" || info.Name != "Test English-Russian" || info.Entries != 2+1 {
		t.Fatalf("info %+v", info)
	}
	if e := english(l.Expand("погоду").Words[0]); !slices.Equal(e, []string{"weather"}) {
		t.Errorf("погоду → %v", e)
	}
	w := l.Expand("письма").Words[0]
	if e := english(w); len(e) < 2 || e[0] != "mail" || !slices.Contains(e, "letter") {
		t.Errorf("письма → %v", e)
	}
	if c := w.English[len(w.English)-1]; c.From != "dictionary" || c.Weight >= 1 {
		t.Errorf("dictionary candidate %+v", c)
	}
}

// TestRussianQuestions_MissingDictionaryLeavesGlossary: without the dictionary's files
// the glossary still translates and Info says what is missing.
func TestRussianQuestions_MissingDictionaryLeavesGlossary(t *testing.T) {
	l := Load(filepath.Join(t.TempDir(), "nothing"))
	if l.Info().Missing == "" || l.Info().Entries != 0 || !strings.Contains(l.Info().Missing, "dict-freedict-eng-rus") {
		t.Errorf("info %+v", l.Info())
	}
	if e := english(l.Expand("маршрут").Words[0]); !slices.Equal(e, []string{"route"}) {
		t.Errorf("маршрут → %v", e)
	}
}

// TestRussianQuestions_FreeDictAsInstalled reads Debian's dict-freedict-eng-rus where
// dictd installs it (scripts/test.sh installs it).
func TestRussianQuestions_FreeDictAsInstalled(t *testing.T) {
	if _, err := os.Stat(DefaultDict + ".index"); err != nil {
		t.Skip("dict-freedict-eng-rus is not installed")
	}
	l := Load(DefaultDict)
	if info := l.Info(); info.Missing != "" || info.Entries < 1000 || !strings.Contains(info.Name, "FreeDict") {
		t.Fatalf("info %+v", info)
	}
	if e := english(l.Expand("погода").Words[0]); !slices.Contains(e, "weather") {
		t.Errorf("погода → %v", e)
	}
}

// BenchmarkExpand is what a Russian question adds to a search before the
// store is asked: stemming and looking up every word (the lexicon loaded).
func BenchmarkExpand(b *testing.B) {
	l := Load(DictPath())
	for b.Loop() {
		l.Expand("где вызывается saveOrder при оплате заказа из корзины пользователя")
	}
}

// BenchmarkLoad is the first Russian question's one-time cost: reading the
// glossary and the installed dictionary.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		loadedMu.Lock()
		clear(loaded)
		loadedMu.Unlock()
		Load(DictPath())
	}
}
