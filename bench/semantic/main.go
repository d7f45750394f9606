// Command semantic scores search on the judged queries of
// bench/semantic/CORPUS.tsv: hit@10 and nDCG@10 of the lexical, semantic and
// hybrid modes, per corpus, language and split (tune, held). It copies each
// corpus into WORK/CORPUS (once: a copy already indexed is reused unless
// --reindex), writes embeddings.model into its project.yaml, indexes it with
// the binary (under /usr/bin/time -v when present, to report the build's CPU
// and memory), and asks the facade of that index, as ragraf query search does.
//
//	go build -o bin/ragraf ./cmd/ragraf
//	go run ./bench/semantic --work /tmp/judged/base
//
// The corpora directory is only read.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/ragraf/ragraf/internal/facade"
)

var modes = []string{"lexical", "semantic", "hybrid"}

type query struct {
	lang, split, text string
	qnames            []string
}

// score is the sum of hit@10 and nDCG@10 over n queries.
type score struct {
	n         int
	hit, ndcg float64
}

func (s *score) add(hit, ndcg float64) { s.n++; s.hit += hit; s.ndcg += ndcg }

func (s score) String() string {
	if s.n == 0 {
		return "– | –"
	}
	return fmt.Sprintf("%.3f | %.3f", s.hit/float64(s.n), s.ndcg/float64(s.n))
}

func main() {
	home, _ := os.UserHomeDir()
	corpora := flag.String("corpora", filepath.Join(home, ".cache", "ragraf-corpora"), "directory of the corpora (only read)")
	work := flag.String("work", "", "directory for the indexed copies (required), e.g. /tmp/judged/base")
	bin := flag.String("bin", "bin/ragraf", "the ragraf binary that indexes")
	model := flag.String("model", "static:project", "embeddings.model of the copies")
	sets := flag.String("sets", "bench/semantic", "directory of the judged query files")
	only := flag.String("only", "wordpress,phpmyadmin,laravel", "corpora to score, comma-separated")
	reindex := flag.Bool("reindex", false, "index again a copy already indexed")
	names := flag.Bool("names", false, "ask each query's first target by its own name instead (wp_check_password: \"wp check password\"): a control where the words match")
	misses := flag.String("misses", "", "list the queries hybrid misses in this split (tune, held or all), with the best three hits")
	flag.Parse()
	if *work == "" {
		fmt.Fprintln(os.Stderr, "semantic: --work is required")
		os.Exit(2)
	}
	if err := run(context.Background(), *corpora, *work, *bin, *model, *sets, strings.Split(*only, ","), *reindex, *names, *misses); err != nil {
		fmt.Fprintln(os.Stderr, "semantic:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, corpora, work, bin, model, sets string, only []string, reindex, names bool, misses string) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	total := map[string]*score{}  // lang/split/mode over every corpus
	paired := map[string]*score{} // lang/mode over the queries asked in both languages for the same targets
	took := map[string][]time.Duration{}
	for _, corpus := range only {
		qs, err := readQueries(filepath.Join(sets, corpus+".tsv"))
		if err != nil {
			return err
		}
		if names {
			qs = nameQueries(qs)
		}
		root := filepath.Join(work, corpus)
		if err := prepare(filepath.Join(corpora, corpus), root, bin, model, reindex); err != nil {
			return fmt.Errorf("%s: %w", corpus, err)
		}
		s, err := facade.New(root, facade.Options{})
		if err != nil {
			return err
		}
		per := map[string]*score{}
		var missed []string
		byTargets := map[string]map[string][]float64{} // targets -> lang -> hit@10 per mode (first query)
		for _, q := range qs {
			targets, want, err := resolve(ctx, s, q.qnames)
			if err != nil {
				return err
			}
			if want == 0 {
				return fmt.Errorf("%s: %q: none of %v exists", corpus, q.text, q.qnames)
			}
			for _, mode := range modes {
				start := time.Now()
				env, err := s.Search(ctx, facade.SearchArgs{Query: q.text, Mode: mode, Page: facade.Page{Limit: 10}})
				took[q.lang+"/"+mode] = append(took[q.lang+"/"+mode], time.Since(start))
				if err != nil {
					return fmt.Errorf("%s: %q: %w", corpus, q.text, err)
				}
				hits := env.Result.(facade.SearchResult).Hits
				hit, ndcg := judge(hits, targets, want)
				tk := strings.Join(q.qnames, "|")
				if byTargets[tk] == nil {
					byTargets[tk] = map[string][]float64{}
				}
				if len(byTargets[tk][q.lang]) < len(modes) {
					byTargets[tk][q.lang] = append(byTargets[tk][q.lang], hit)
				}
				for _, k := range []string{q.lang + "/all/" + mode, q.lang + "/" + q.split + "/" + mode} {
					bucket(per, k).add(hit, ndcg)
					bucket(total, k).add(hit, ndcg)
				}
				if mode == "hybrid" && hit == 0 && (misses == "all" || misses == q.split) {
					var top []string
					for _, h := range hits[:min(3, len(hits))] {
						top = append(top, name(h))
					}
					missed = append(missed, fmt.Sprintf("  %s %s %q → want %s; got %s", q.lang, q.split, q.text,
						strings.Join(q.qnames, "|"), strings.Join(top, ", ")))
				}
			}
		}
		s.Close()
		for _, langs := range byTargets {
			if len(langs["en"]) == len(modes) && len(langs["ru"]) == len(modes) {
				for i, mode := range modes {
					bucket(paired, "en/"+mode).add(langs["en"][i], 0)
					bucket(paired, "ru/"+mode).add(langs["ru"][i], 0)
				}
			}
		}
		fmt.Printf("\n### %s (model %s)\n\n", corpus, model)
		table(per)
		if len(missed) > 0 {
			fmt.Printf("\nhybrid misses:\n%s\n", strings.Join(missed, "\n"))
		}
	}
	fmt.Printf("\n### all corpora (model %s)\n\n", model)
	table(total)
	fmt.Printf("\n### the same targets asked in English and in Russian\n\n")
	fmt.Println("| mode | pairs | en hit@10 | ru hit@10 |")
	fmt.Println("|---|---|---|---|")
	for _, mode := range modes {
		en, ru := get(paired, "en/"+mode), get(paired, "ru/"+mode)
		if en.n > 0 {
			fmt.Printf("| %s | %d | %.3f | %.3f |\n", mode, en.n, en.hit/float64(en.n), ru.hit/float64(ru.n))
		}
	}
	fmt.Printf("\n### search time, every corpus (ms)\n\n")
	fmt.Println("| lang | mode | calls | p50 | p95 |")
	fmt.Println("|---|---|---|---|---|")
	for _, lang := range []string{"en", "ru"} {
		for _, mode := range modes {
			ds := took[lang+"/"+mode]
			if len(ds) == 0 {
				continue
			}
			slices.Sort(ds)
			fmt.Printf("| %s | %s | %d | %.1f | %.1f |\n", lang, mode, len(ds),
				ms(ds[len(ds)/2]), ms(ds[min(len(ds)-1, len(ds)*95/100)]))
		}
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func bucket(m map[string]*score, k string) *score {
	if m[k] == nil {
		m[k] = &score{}
	}
	return m[k]
}

// table prints one row per language and mode: every query, then the tune
// and held-out halves.
func table(m map[string]*score) {
	fmt.Println("| lang | mode | n | hit@10 | nDCG@10 | tune hit@10 | tune nDCG@10 | held hit@10 | held nDCG@10 |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, lang := range []string{"en", "ru"} {
		for _, mode := range modes {
			all := m[lang+"/all/"+mode]
			if all == nil {
				continue
			}
			fmt.Printf("| %s | %s | %d | %s | %s | %s |\n", lang, mode, all.n, all,
				get(m, lang+"/tune/"+mode), get(m, lang+"/held/"+mode))
		}
	}
}

func get(m map[string]*score, k string) score {
	if s := m[k]; s != nil {
		return *s
	}
	return score{}
}

func name(h facade.Hit) string {
	if h.QName != "" {
		return h.QName
	}
	return fmt.Sprintf("%s %s:%d", h.Kind, h.Path, h.Line)
}

// resolve maps every node of the qualified names to the index of its name;
// want is how many of the names exist.
func resolve(ctx context.Context, s *facade.Service, qnames []string) (map[string]int, int, error) {
	targets := map[string]int{}
	want := 0
	for i, qn := range qnames {
		env, err := s.Symbol(ctx, facade.SymbolArgs{QName: qn, Page: facade.Page{Limit: 100}})
		if err != nil {
			return nil, 0, fmt.Errorf("symbol %s: %w", qn, err)
		}
		syms := env.Result.(facade.SymbolResult).Symbols
		if len(syms) == 0 {
			fmt.Fprintf(os.Stderr, "semantic: no symbol %s\n", qn)
			continue
		}
		want++
		for _, sym := range syms {
			targets[sym.ID] = i
		}
	}
	return targets, want, nil
}

// judge scores one ranked list: hit@10 is 1 when a target is among the
// first ten; nDCG@10 gains 1/log2(rank+1) for the first hit of each target
// name (a docblock or comment of a target counts as the target), over the
// ideal gain of min(want, 10) names at the top.
func judge(hits []facade.Hit, targets map[string]int, want int) (float64, float64) {
	seen := map[int]bool{}
	var dcg float64
	for i, h := range hits[:min(10, len(hits))] {
		t, ok := targets[h.ID]
		if !ok && h.NodeID != "" {
			t, ok = targets[h.NodeID]
		}
		if ok && !seen[t] {
			seen[t] = true
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	var idcg float64
	for i := 0; i < min(want, 10); i++ {
		idcg += 1 / math.Log2(float64(i+2))
	}
	if len(seen) == 0 {
		return 0, 0
	}
	return 1, dcg / idcg
}

// nameQueries asks for each English query's first target by the words of
// its own name, the target alone: the control where lexical search is at
// home, to see what fusion costs there.
func nameQueries(qs []query) []query {
	var out []query
	for _, q := range qs {
		if q.lang != "en" {
			continue
		}
		qn := q.qnames[0]
		if i := strings.LastIndexAny(qn, `\:`); i >= 0 {
			qn = qn[i+1:]
		}
		q.text = strings.Join(strings.Fields(strings.ReplaceAll(camel.ReplaceAllString(qn, "$1 $2"), "_", " ")), " ")
		if q.text == "" {
			q.text = qn // __
		}
		q.qnames = q.qnames[:1]
		out = append(out, q)
	}
	return out
}

// camel finds the camelCase boundaries of an identifier.
var camel = regexp.MustCompile(`([a-z0-9])([A-Z])`)

func readQueries(path string) ([]query, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []query
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := strings.Split(line, "\t")
		if len(p) != 4 {
			return nil, fmt.Errorf("%s:%d: want lang, split, query and names separated by tabs", path, n)
		}
		qs = append(qs, query{lang: p[0], split: p[1], text: p[2], qnames: strings.Split(p[3], "|")})
	}
	return qs, sc.Err()
}

// prepare copies the corpus into root (without any .ragraf of its own),
// sets the model and indexes it, unless root is indexed already.
func prepare(src, root, bin, model string, reindex bool) error {
	if _, err := os.Stat(filepath.Join(root, ".ragraf", "CURRENT")); err == nil && !reindex {
		fmt.Printf("%s: indexed already, reused\n", root)
		return nil
	}
	if _, err := os.Stat(src); err != nil {
		return err
	}
	if err := os.RemoveAll(root); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(root), 0o755); err != nil {
		return err
	}
	if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
		return fmt.Errorf("cp: %v: %s", err, out)
	}
	if err := os.RemoveAll(filepath.Join(root, ".ragraf")); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(root, ".ragraf"), 0o755); err != nil {
		return err
	}
	yaml := fmt.Sprintf("embeddings:\n  model: %q\n", model)
	if err := os.WriteFile(filepath.Join(root, ".ragraf", "project.yaml"), []byte(yaml), 0o644); err != nil {
		return err
	}
	args := []string{bin, "index"}
	timed := false
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		args = append([]string{"/usr/bin/time", "-v"}, args...)
		timed = true
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = root
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("index: %v: %s", err, stderr.String())
		}
		return err
	}
	fmt.Printf("%s: %s", root, out)
	if timed {
		fmt.Printf("%s: %s\n", root, resources(stderr.String()))
	}
	return nil
}

var timeLine = regexp.MustCompile(`(?m)^\s*(User time \(seconds\)|System time \(seconds\)|Elapsed \(wall clock\) time \(h:mm:ss or m:ss\)|Maximum resident set size \(kbytes\)): (\S+)`)

// resources picks the CPU, wall and memory figures of /usr/bin/time -v.
func resources(report string) string {
	got := map[string]string{}
	for _, m := range timeLine.FindAllStringSubmatch(report, -1) {
		got[m[1]] = m[2]
	}
	return fmt.Sprintf("user %s s, system %s s, wall %s, max RSS %s kB",
		got["User time (seconds)"], got["System time (seconds)"],
		got["Elapsed (wall clock) time (h:mm:ss or m:ss)"], got["Maximum resident set size (kbytes)"])
}
