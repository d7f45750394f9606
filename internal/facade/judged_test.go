package facade

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/embed"
)

// judgedQuery is one line of bench/semantic/CORPUS.tsv:
// lang<TAB>split<TAB>query<TAB>qualified names separated by |.
type judgedQuery struct {
	line         int
	lang, split  string
	query        string
	qnames       []string
	corpus, file string
}

var judgedCorpora = []string{"wordpress", "phpmyadmin", "laravel"}

func readJudged(t *testing.T, corpus string) []judgedQuery {
	t.Helper()
	file := filepath.Join("..", "..", "bench", "semantic", corpus+".tsv")
	f, err := os.Open(file)
	must(t, err)
	defer f.Close()
	var qs []judgedQuery
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 4 || parts[2] == "" || parts[3] == "" {
			t.Errorf("%s:%d: want lang, split, query and names separated by tabs: %q", file, n, line)
			continue
		}
		qs = append(qs, judgedQuery{line: n, lang: parts[0], split: parts[1], query: parts[2],
			qnames: strings.Split(parts[3], "|"), corpus: corpus, file: file})
	}
	must(t, sc.Err())
	return qs
}

// TestJudgedQueriesFormat checks the judged query set of bench/semantic
// without an index: at least 100 English and 50 Russian queries, every
// language en or ru, the tune and held-out splits alternating within each
// language of each file in file order, no query twice.
func TestJudgedQueriesFormat(t *testing.T) {
	count := map[string]int{}
	seen := map[string]bool{}
	for _, corpus := range judgedCorpora {
		next := map[string]string{}
		for _, q := range readJudged(t, corpus) {
			if q.lang != "en" && q.lang != "ru" {
				t.Errorf("%s:%d: language %q, want en or ru", q.file, q.line, q.lang)
			}
			want := next[q.lang]
			if want == "" {
				want = "tune"
			}
			if q.split != want {
				t.Errorf("%s:%d: split %q, want %q (tune and held alternate)", q.file, q.line, q.split, want)
			}
			next[q.lang] = map[string]string{"tune": "held", "held": "tune"}[want]
			if seen[corpus+"\t"+q.query] {
				t.Errorf("%s:%d: %q appears twice", q.file, q.line, q.query)
			}
			seen[corpus+"\t"+q.query] = true
			count[q.lang]++
		}
	}
	if count["en"] < 100 || count["ru"] < 50 {
		t.Errorf("%d English and %d Russian judged queries, want at least 100 and 50", count["en"], count["ru"])
	}
}

// TestJudgedQueriesHonest checks the judged queries against indexed copies
// of the corpora in $RAGRAF_JUDGED_DIR/{wordpress,phpmyadmin,laravel} (as
// go run ./bench/semantic leaves them; skipped without it): every target
// exists, and no query word is a word of a target's name, qualified name or
// docblock, so that a hit comes from meaning, not from the words.
func TestJudgedQueriesHonest(t *testing.T) {
	dir := os.Getenv("RAGRAF_JUDGED_DIR")
	if dir == "" {
		t.Skip("RAGRAF_JUDGED_DIR is not set: go run ./bench/semantic indexes the corpora there")
	}
	ctx := context.Background()
	checked := 0
	for _, corpus := range judgedCorpora {
		root := filepath.Join(dir, corpus)
		if _, err := os.Stat(filepath.Join(root, ".ragraf", "CURRENT")); err != nil {
			t.Logf("%s: not indexed at %s", corpus, root)
			continue
		}
		s, err := New(root, Options{})
		must(t, err)
		snap, release, err := s.acquire(ctx)
		must(t, err)
		for _, q := range readJudged(t, corpus) {
			qwords := embed.Words(q.query)
			for _, qn := range q.qnames {
				ns, err := snap.graph.NodesByQName(ctx, qn)
				must(t, err)
				if len(ns) == 0 {
					t.Errorf("%s:%d %q: no symbol %s", q.file, q.line, q.query, qn)
				}
				for _, n := range ns {
					text := n.Name + " " + n.QName
					chunks, err := snap.lex.ChunksOf(ctx, n.ID)
					must(t, err)
					for _, c := range chunks {
						if c.Kind == "docblock" {
							text += " " + c.Text
						}
					}
					tw := map[string]bool{}
					for _, w := range embed.Words(text) {
						tw[w] = true
					}
					for _, w := range qwords {
						if tw[w] {
							t.Errorf("%s:%d %q: the word %q is in %s's name or docblock", q.file, q.line, q.query, w, qn)
						}
					}
				}
			}
			checked++
		}
		release()
		s.Close()
	}
	if checked == 0 {
		t.Fatalf("no corpus indexed under %s", dir)
	}
}
