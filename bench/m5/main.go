// Command m5 measures drift tracking (metric M5) on a real corpus: it copies
// the corpus into a temporary git repository, indexes it, times `compare` on
// the unchanged tree, applies real-looking edits to 20 files (modify, add,
// delete, rename, extract-method), runs 200 answers that cite the edited
// paths and counts answers that cite an edited path without a stale warning
// (incidents; must be 0). It then times a reindex after editing 5 files.
//
//	go run ./bench/m5 --corpus ~/.cache/ragraf-corpora/phpmyadmin
//
// The corpus directory is only read.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/graph"
)

func main() {
	corpusDir := flag.String("corpus", "", "corpus directory (copied, never modified)")
	queries := flag.Int("queries", 200, "answers to run against edited paths")
	flag.Parse()
	if *corpusDir == "" {
		fmt.Fprintln(os.Stderr, "m5: --corpus is required")
		os.Exit(2)
	}
	if err := run(context.Background(), *corpusDir, *queries); err != nil {
		fmt.Fprintln(os.Stderr, "m5:", err)
		os.Exit(1)
	}
}

func sh(dir string, args ...string) error {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %v: %s", args, err, out)
	}
	return nil
}

type target struct {
	path   string
	fn     fact.Node // a function or method of the file with a body of a few lines
	action string
}

func run(ctx context.Context, src string, nq int) error {
	tmp, err := os.MkdirTemp("", "ragraf-m5-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	root := filepath.Join(tmp, "corpus")
	if err := sh(tmp, "cp", "-r", src, root); err != nil {
		return err
	}
	_ = os.RemoveAll(filepath.Join(root, rev.Dir))
	for _, c := range [][]string{{"git", "init", "-q"}, {"git", "add", "-A"}, {"git", "-c", "user.email=m5@example.org", "-c", "user.name=m5", "commit", "-qm", "base"}} {
		if err := sh(root, c...); err != nil {
			return err
		}
	}
	cfg := config.Default()
	t0 := time.Now()
	info, err := rev.Build(ctx, rev.Options{Root: root, Config: cfg})
	if err != nil {
		return err
	}
	fmt.Printf("index: %s, %d files, %d nodes, %d edges in %v\n", info.Rev, info.FilesTotal, info.Nodes, info.Edges, time.Since(t0).Round(time.Millisecond))

	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		return err
	}
	defer svc.Close()
	// compare on the unchanged tree: best of 5 after one warm-up
	best := time.Hour
	for range 6 {
		t := time.Now()
		if _, err := svc.DriftDetect(ctx, facade.DriftDetectArgs{Method: "compare"}); err != nil {
			return err
		}
		best = min(best, time.Since(t))
	}
	fmt.Printf("compare on the unchanged tree: %v (best of 5)\n", best.Round(time.Microsecond))

	targets, err := pickTargets(ctx, root, info.Rev, 20)
	if err != nil {
		return err
	}
	edited := map[string]string{} // path an answer may cite -> action
	for _, tg := range targets {
		if err := apply(root, tg); err != nil {
			return err
		}
		edited[tg.path] = tg.action
	}
	// answers that cite the edited paths: outline, symbol in the file, code of a function
	answers, warned, incidents, factsChanged, factsMarked := 0, 0, 0, 0, 0
	var incidentList []string
	for i := 0; answers < nq; i++ {
		tg := targets[i%len(targets)]
		var op string
		var args any
		switch (i / len(targets)) % 3 {
		case 0:
			op, args = "outline", map[string]any{"path": tg.path}
		case 1:
			op, args = "symbol", map[string]any{"qname": tg.fn.QName}
		default:
			op, args = "code", map[string]any{"id": tg.fn.ID}
		}
		raw, _ := json.Marshal(args)
		env, err := svc.Call(ctx, op, raw)
		if err != nil {
			return fmt.Errorf("%s %s: %w", op, raw, err)
		}
		answers++
		body, _ := json.Marshal(env.Result)
		if !strings.Contains(string(body), tg.path) {
			continue // the answer cites nothing edited
		}
		var warning *facade.StaleWarning
		for i, w := range env.StaleWarnings {
			if w.Path == tg.path {
				warning = &env.StaleWarnings[i]
			}
		}
		if warning == nil {
			incidents++
			incidentList = append(incidentList, fmt.Sprintf("%s %s (%s)", op, tg.path, tg.action))
			continue
		}
		warned++
		// every cited fact of the edited file whose lines changed carries its own mark
		var result any
		_ = json.Unmarshal(body, &result)
		for _, f := range citedFacts(result) {
			if f.path != tg.path || !overlaps(warning, f.line, f.end) {
				continue
			}
			factsChanged++
			if f.marked {
				factsMarked++
			} else {
				incidents++
				incidentList = append(incidentList, fmt.Sprintf("%s %s:%d unmarked (%s)", op, f.path, f.line, tg.action))
			}
		}
	}
	fmt.Printf("answers: %d, citing an edited path with a warning: %d, without (incidents): %d, stale share %.0f%%\n",
		answers, warned, incidents, 100*float64(warned)/float64(max(warned+incidents, 1)))
	fmt.Printf("cited facts in changed lines: %d, marked stale: %d\n", factsChanged, factsMarked)
	for _, s := range incidentList {
		fmt.Println("  incident:", s)
	}
	env, err := svc.Drift(ctx, facade.DriftArgs{Limit: 1000})
	if err != nil {
		return err
	}
	kinds := map[string]int{}
	for _, e := range env.Result.(facade.DriftResult).Entries {
		kinds[e.Kind]++
	}
	fmt.Printf("ledger: %d entries by kind %v\n", env.Drift.Entries, kinds)

	// reindex after these edits, then after editing 5 more files
	t1 := time.Now()
	if _, err := svc.DriftDetect(ctx, facade.DriftDetectArgs{Method: "compare"}); err != nil {
		return err
	}
	r1, err := rev.Reindex(ctx, rev.Options{Root: root, Config: cfg})
	if err != nil {
		return err
	}
	fmt.Printf("reindex --commit after the 20 edits: %s in %v\n", r1.Rev, time.Since(t1).Round(time.Millisecond))
	more, err := pickTargets(ctx, root, r1.Rev, 40)
	if err != nil {
		return err
	}
	n := 0
	for _, tg := range more {
		if _, ok := edited[tg.path]; ok || n == 5 {
			continue
		}
		tg.action = "modify"
		if err := apply(root, tg); err != nil {
			return err
		}
		n++
	}
	// as `ragraf reindex --commit` does: compare while the next revision is
	// built, every change in the ledger before it is published
	t2 := time.Now()
	var detect time.Duration
	detected := make(chan error, 1)
	go func() {
		_, err := svc.DriftDetect(ctx, facade.DriftDetectArgs{Method: "compare"})
		detect = time.Since(t2)
		detected <- err
	}()
	r2, err := rev.Reindex(ctx, rev.Options{Root: root, Config: cfg, BeforePublish: func() error { return <-detected }})
	if err != nil {
		return err
	}
	fmt.Printf("reindex --commit after editing 5 files: %s in %v (compare %v)\n", r2.Rev, time.Since(t2).Round(time.Millisecond), detect.Round(time.Millisecond))
	if incidents > 0 {
		return fmt.Errorf("%d incidents", incidents)
	}
	return nil
}

// pickTargets chooses n PHP files, evenly over the sorted list, each with a
// function or method whose body has at least four lines, and assigns actions.
func pickTargets(ctx context.Context, root, name string, n int) ([]target, error) {
	g, err := graph.Open(ctx, filepath.Join(rev.Layout{Root: root}.Rev(name), rev.GraphDB))
	if err != nil {
		return nil, err
	}
	defer g.Close()
	fns, err := g.AllNodes(ctx, fact.Function, fact.Method)
	if err != nil {
		return nil, err
	}
	byPath := map[string]fact.Node{}
	for _, f := range fns {
		if f.EndLine-f.StartLine >= 6 && strings.HasSuffix(f.Path, ".php") {
			if cur, ok := byPath[f.Path]; !ok || f.StartLine < cur.StartLine {
				byPath[f.Path] = f
			}
		}
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if len(paths) < n {
		return nil, fmt.Errorf("only %d candidate files", len(paths))
	}
	actions := []string{"modify", "modify", "modify", "modify", "extract", "rename", "delete", "modify", "append", "modify"}
	var out []target
	for i := range n {
		p := paths[i*len(paths)/n]
		out = append(out, target{path: p, fn: byPath[p], action: actions[i%len(actions)]})
	}
	return out, nil
}

// apply edits one file the way a developer would.
func apply(root string, tg target) error {
	abs := filepath.Join(root, filepath.FromSlash(tg.path))
	b, err := os.ReadFile(abs)
	if err != nil {
		return err
	}
	lines := strings.SplitAfter(string(b), "\n")
	fnBody := tg.fn.StartLine + 2 // a line inside the body, 0-based index of line StartLine+3
	switch tg.action {
	case "modify":
		lines = append(lines[:fnBody:fnBody], append([]string{"        $ragrafM5 = 1; // edited\n"}, lines[fnBody:]...)...)
	case "append":
		lines = append(lines, "\nfunction ragraf_m5_added_"+fmt.Sprint(len(lines))+"() { return 42; }\n")
	case "extract":
		// move two body lines into a new function at the end of the file
		moved := strings.Join(lines[fnBody:fnBody+2], "")
		lines = append(lines[:fnBody:fnBody], lines[fnBody+2:]...)
		lines = append(lines, "\nfunction ragraf_m5_extracted()\n{\n"+moved+"}\n")
	case "delete":
		return os.Remove(abs)
	case "rename":
		dst := strings.TrimSuffix(abs, ".php") + "Moved.php"
		return os.Rename(abs, dst)
	}
	return os.WriteFile(abs, []byte(strings.Join(lines, "")), 0o644)
}

// citedFact is an object of an answer with a path and a line.
type citedFact struct {
	path      string
	line, end int
	marked    bool
}

// citedFacts finds every object with "path" and "line" in a decoded answer.
func citedFacts(v any) []citedFact {
	var out []citedFact
	switch x := v.(type) {
	case map[string]any:
		p, okp := x["path"].(string)
		l, okl := x["line"].(float64)
		if okp && okl {
			e, _ := x["end_line"].(float64)
			_, marked := x["stale"]
			out = append(out, citedFact{path: p, line: int(l), end: max(int(e), int(l)), marked: marked})
		}
		for _, c := range x {
			out = append(out, citedFacts(c)...)
		}
	case []any:
		for _, c := range x {
			out = append(out, citedFacts(c)...)
		}
	}
	return out
}

// overlaps says whether lines start..end meet a changed range of w (a file
// deleted or renamed away changed as a whole).
func overlaps(w *facade.StaleWarning, start, end int) bool {
	if w.Kind == "delete" || w.Kind == "rename" {
		return true
	}
	for i := 0; i+1 < len(w.Lines); i += 2 {
		if start <= w.Lines[i+1] && w.Lines[i] <= end {
			return true
		}
	}
	return false
}
