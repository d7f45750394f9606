// Command mcpsize measures what MCP answers cost an agent, in cl100k tokens of
// what the model receives: for symbol, outline, references, callers,
// callees, impact, search and entry_points it asks 200 varied questions on a
// corpus and prints per operation the median and p95 of three encodings of
// each answer: detailed JSON (the answers before the concise shape), concise
// JSON (the MCP answer before the text encoding: structuredContent, which
// Claude Code, VS Code and Codex hand the model, and the same bytes as text)
// and text (facade.RenderText, the MCP default: content only). For symbol it
// also prints what grep shows for the same definitions (path:line:text).
//
//	go run ./bench/mcpsize --corpus ~/.cache/ragraf-corpora/wordpress
//
// The corpus is copied to a temporary directory and indexed there; the
// original is only read.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
)

func main() {
	corpus := flag.String("corpus", "", "corpus directory (copied, never modified)")
	flag.Parse()
	if *corpus == "" {
		fmt.Fprintln(os.Stderr, "mcpsize: --corpus is required")
		os.Exit(2)
	}
	if err := run(context.Background(), *corpus); err != nil {
		fmt.Fprintln(os.Stderr, "mcpsize:", err)
		os.Exit(1)
	}
}

var ops = []string{"symbol", "outline", "references", "callers", "callees", "impact", "search", "entry_points"}

func run(ctx context.Context, src string) error {
	tmp, err := os.MkdirTemp("", "ragraf-mcpsize-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	root := filepath.Join(tmp, "corpus")
	if out, err := exec.Command("cp", "-r", src, root).CombinedOutput(); err != nil {
		return fmt.Errorf("cp: %v: %s", err, out)
	}
	_ = os.RemoveAll(filepath.Join(root, rev.Dir))
	t0 := time.Now()
	info, err := rev.Build(ctx, rev.Options{Root: root, Config: config.Default()})
	if err != nil {
		return err
	}
	fmt.Printf("index: %s, %d files, %d nodes, %d edges in %v\n", info.Rev, info.FilesTotal, info.Nodes, info.Edges, time.Since(t0).Round(time.Millisecond))
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		return err
	}
	defer svc.Close()
	reqs, err := facade.CorpusRequests(ctx, svc)
	if err != nil {
		return err
	}
	reqs["callees"] = append(reqs["callees"], reqs["references"]...)
	reqs["entry_points"], err = entryRequests(ctx, svc)
	if err != nil {
		return err
	}
	var greps []string
	reqs["symbol"], reqs["outline"], greps, err = definitionRequests(ctx, svc, root)
	if err != nil {
		return err
	}
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding("cl100k_base")
	if err != nil {
		return err
	}
	fmt.Println("| operation | calls | detailed JSON p50 / p95 | concise JSON (before) p50 / p95 | text (after) p50 / p95 | after / before (p50) |")
	fmt.Println("|---|---|---|---|---|---|")
	count := func(s string) int { return len(enc.Encode(s, nil, nil)) }
	for _, op := range ops {
		var tok [3][]int
		for _, args := range reqs[op] {
			for i, detail := range []string{facade.FormatDetailed, facade.FormatConcise} {
				env, err := svc.Call(ctx, op, []byte(strings.TrimSuffix(args, "}")+`,"detail":"`+detail+`"}`))
				if err != nil {
					return fmt.Errorf("%s %s: %w", op, args, err)
				}
				b, err := facade.EncodeCompactJSON(env)
				if err != nil {
					return err
				}
				tok[i] = append(tok[i], count(string(b)))
				if i == 1 {
					tok[2] = append(tok[2], count(facade.RenderText(env)))
				}
			}
		}
		fmt.Printf("| `%s` | %d | %d / %d | %d / %d | %d / %d | %.0f %% |\n", op, len(reqs[op]),
			pct(tok[0], 50), pct(tok[0], 95), pct(tok[1], 50), pct(tok[1], 95), pct(tok[2], 50), pct(tok[2], 95),
			100*float64(pct(tok[2], 50))/float64(max(pct(tok[1], 50), 1)))
	}
	var grep []int
	for _, g := range greps {
		grep = append(grep, count(g))
	}
	fmt.Printf("| grep's line for the same `symbol` definitions | %d | | | %d / %d | |\n", len(grep), pct(grep, 50), pct(grep, 95))
	return nil
}

// definitionRequests are 200 symbol lookups by qualified name of methods
// and functions, the outline of each one's file, and for each the line grep
// prints for its definition (path:line:text).
func definitionRequests(ctx context.Context, svc *facade.Service, root string) (syms, outlines, greps []string, err error) {
	var defs []facade.Symbol
	for _, q := range []string{`{"name":"get","fuzzy":true,"kind":"method","limit":150}`, `{"name":"get","fuzzy":true,"kind":"function","limit":150}`} {
		env, err := svc.Call(ctx, "symbol", []byte(q))
		if err != nil {
			return nil, nil, nil, err
		}
		defs = append(defs, env.Result.(facade.SymbolResult).Symbols...)
	}
	if len(defs) == 0 {
		return nil, nil, nil, fmt.Errorf("no definitions to ask about")
	}
	for i := 0; i < 200; i++ {
		d := defs[i*7%len(defs)]
		syms = append(syms, fmt.Sprintf(`{"qname":%q}`, d.QName))
		outlines = append(outlines, fmt.Sprintf(`{"path":%q}`, d.Path))
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d.Path)))
		if err != nil {
			return nil, nil, nil, err
		}
		lines := strings.Split(string(b), "\n")
		if d.Line >= 1 && d.Line <= len(lines) {
			greps = append(greps, fmt.Sprintf("%s:%d:%s\n", d.Path, d.Line, lines[d.Line-1]))
		}
	}
	return syms, outlines, greps, nil
}

// entryRequests are 200 entry_points questions: by each kind, and by the
// directories that declare entry points.
func entryRequests(ctx context.Context, svc *facade.Service) ([]string, error) {
	env, err := svc.Call(ctx, "entry_points", []byte(`{"limit":1000}`))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var dirs []string
	for _, e := range env.Result.(facade.EntryPointsResult).EntryPoints {
		for d := path.Dir(e.Path); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	slices.Sort(dirs)
	kinds := []string{"web_route", "http_endpoint", "cli_command", "cron_job"}
	var out []string
	for i := 0; i < 200; i++ {
		if i%5 == 0 || len(dirs) == 0 {
			out = append(out, fmt.Sprintf(`{"kind":%q}`, kinds[i/5%len(kinds)]))
			continue
		}
		out = append(out, fmt.Sprintf(`{"path":%q}`, dirs[i%len(dirs)]))
	}
	return out, nil
}

// pct is the p-th percentile of xs (nearest rank).
func pct(xs []int, p int) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := (p*len(s) + 99) / 100
	return s[max(i-1, 0)]
}
