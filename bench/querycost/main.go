// Command querycost measures what a Russian question costs over MCP beside an
// English one: it starts `ragraf mcp` on an indexed project (stdio, as an agent
// does), reads the judged queries of bench/semantic for that corpus, and calls
// ragraf_search for every English and every Russian query, alternating the two
// languages, for --rounds rounds. It prints p50 and p95 of the call's wall time
// per language and mode, and the difference (Russian minus English): the time
// the translation adds, measured the way a client sees it.
//
//	go build -o bin/ragraf ./cmd/ragraf
//	go run ./bench/querycost --bin bin/ragraf --project DIR --queries bench/semantic/wordpress.tsv
//
// DIR is an indexed copy of the corpus the queries were written for. The first
// call of each language is left out of the figures (it loads the dictionary or
// the vectors once per process) and reported apart.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	bin := flag.String("bin", "bin/ragraf", "the ragraf binary")
	project := flag.String("project", "", "an indexed project")
	queries := flag.String("queries", "bench/semantic/wordpress.tsv", "judged queries (lang, split, text, targets)")
	rounds := flag.Int("rounds", 3, "times every query is asked")
	modes := flag.String("modes", "lexical,hybrid", "search modes")
	flag.Parse()
	if *project == "" {
		fmt.Fprintln(os.Stderr, "querycost: --project is required")
		os.Exit(2)
	}
	if err := run(*bin, *project, *queries, *rounds, strings.Split(*modes, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "querycost:", err)
		os.Exit(1)
	}
}

func run(bin, project, queries string, rounds int, modes []string) error {
	byLang, err := read(queries)
	if err != nil {
		return err
	}
	en, ru := byLang["en"], byLang["ru"]
	if len(en) == 0 || len(ru) == 0 {
		return fmt.Errorf("%s: need English and Russian queries (have %d and %d)", queries, len(en), len(ru))
	}
	ctx := context.Background()
	cmd := exec.Command(bin, "mcp", "--project", project)
	cmd.Stderr = os.Stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "querycost", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	took := map[string][]time.Duration{}
	first := map[string]time.Duration{}
	call := func(lang, mode, q string) error {
		args, _ := json.Marshal(map[string]any{"query": q, "mode": mode, "limit": 10})
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ragraf_search", Arguments: json.RawMessage(args)})
		d := time.Since(start)
		if err != nil {
			return err
		}
		if res.IsError {
			return fmt.Errorf("search %q (%s) answered an error", q, mode)
		}
		k := lang + "/" + mode
		if _, ok := first[k]; !ok {
			first[k] = d
			return nil
		}
		took[k] = append(took[k], d)
		return nil
	}
	for r := 0; r < rounds; r++ {
		for i := 0; i < max(len(en), len(ru)); i++ {
			for _, mode := range modes {
				// Alternate which language goes first so neither always follows the other.
				order := [][2]string{{"en", en[i%len(en)]}, {"ru", ru[i%len(ru)]}}
				if (r+i)%2 == 1 {
					order[0], order[1] = order[1], order[0]
				}
				for _, o := range order {
					if err := call(o[0], mode, o[1]); err != nil {
						return err
					}
				}
			}
		}
	}
	fmt.Println("| mode | lang | calls | first call | p50 | p95 |")
	fmt.Println("|---|---|---:|---:|---:|---:|")
	for _, mode := range modes {
		for _, lang := range []string{"en", "ru"} {
			ds := took[lang+"/"+mode]
			fmt.Printf("| %s | %s | %d | %s | %s | %s |\n", mode, lang, len(ds), ms(first[lang+"/"+mode]), ms(pct(ds, 50)), ms(pct(ds, 95)))
		}
		fmt.Printf("| %s | ru − en | | %s | %s | %s |\n", mode,
			ms(first["ru/"+mode]-first["en/"+mode]), ms(pct(took["ru/"+mode], 50)-pct(took["en/"+mode], 50)),
			ms(pct(took["ru/"+mode], 95)-pct(took["en/"+mode], 95)))
	}
	return nil
}

// read returns the query texts of a judged-queries file by language.
func read(path string) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 4 {
			return nil, fmt.Errorf("%s: a line with %d columns: %q", path, len(cols), line)
		}
		out[cols[0]] = append(out[cols[0]], cols[2])
	}
	return out, sc.Err()
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)*p/100]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
