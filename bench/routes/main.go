// Command routes measures handler recall and precision of entry points: it
// indexes a copy of a corpus, reads every handles edge of its entry points,
// and compares them with a truth made without ragraf by a PHP script run with
// php-cli (wp.php: PHP's tokenizer over WordPress's register_rest_route and
// AJAX/admin-post calls; laravel.php: Laravel's own router loading the
// application's route files).
//
//	go run ./bench/routes --framework wordpress --corpus ~/.cache/ragraf-corpora/wordpress
//	go run ./bench/routes --framework laravel --corpus ~/.cache/ragraf-corpora/wide/bookstack
//
// Both sides are reduced to (kind, key, target) triples, compared as sets:
// for WordPress the key is path:line:role of the callback, for Laravel the
// HTTP method and URI. A truth handler that is a closure or built at run
// time has no symbol to link and is counted apart. The corpus is only read.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/graph"
)

func main() {
	fw := flag.String("framework", "wordpress", "wordpress, laravel, symfony, fastroute or slim")
	truthFile := flag.String("truth", "", "a truth file (kind<TAB>key<TAB>target lines) instead of the framework's script")
	corpusDir := flag.String("corpus", "", "corpus directory (copied, never modified)")
	show := flag.Int("show", 40, "misses and extras listed per kind")
	flag.Parse()
	if *corpusDir == "" {
		fmt.Fprintln(os.Stderr, "routes: --corpus is required")
		os.Exit(2)
	}
	if err := run(context.Background(), *fw, *corpusDir, *truthFile, *show); err != nil {
		fmt.Fprintln(os.Stderr, "routes:", err)
		os.Exit(1)
	}
}

// triple is one handler: kind (rest, ajax, laravel), key, lower-case target.
type triple struct{ kind, key, target string }

func run(ctx context.Context, fw, corpusDir, truthFile string, show int) error {
	out, err := truthOf(fw, corpusDir, truthFile)
	if err != nil {
		return err
	}
	truth, unlinkable := readTruth(out)
	truthRoutes := readRoutes(out)

	root, err := os.MkdirTemp("", "routes-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	if err := copyTree(corpusDir, root); err != nil {
		return err
	}
	info, err := rev.Build(ctx, rev.Options{Root: root, Config: config.Default(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return err
	}
	g, err := graph.Open(ctx, filepath.Join(rev.Layout{Root: root}.Rev(info.Rev), rev.GraphDB))
	if err != nil {
		return err
	}
	defer g.Close()
	got, err := linked(ctx, g, fw)
	if err != nil {
		return err
	}
	report(os.Stdout, truth, unlinkable, got, show)
	if len(truthRoutes) > 0 {
		routes, err := routesOf(ctx, g, fw)
		if err != nil {
			return err
		}
		reportRoutes(os.Stdout, truthRoutes, routes, show)
	}
	return nil
}

// truthOf reads the truth file, or runs the framework's truth script.
func truthOf(fw, corpusDir, truthFile string) ([]byte, error) {
	if truthFile != "" {
		return os.ReadFile(truthFile)
	}
	scripts := map[string]string{"wordpress": "wp.php", "laravel": "laravel.php", "symfony": "symfony.php", "fastroute": "fastroute.php"}
	if scripts[fw] == "" {
		return nil, fmt.Errorf("no truth script for %s: give --truth", fw)
	}
	here, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	script := filepath.Join(here, "bench", "routes", scripts[fw])
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("run from the repository root (%v)", err)
	}
	out, err := exec.Command("php", script, corpusDir).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			os.Stderr.Write(ee.Stderr)
		}
		return nil, fmt.Errorf("truth script: %w", err)
	}
	return out, nil
}

// readTruth reads "kind<TAB>key<TAB>target" lines; targets that are closures,
// built at run time or missing from the code are returned apart.
func readTruth(b []byte) (map[triple]bool, map[string][]string) {
	truth := map[triple]bool{}
	unlinkable := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 && len(f) != 4 {
			continue
		}
		t := triple{f[0], f[1], strings.ToLower(f[2])}
		if t.kind != "rest" && t.kind != "ajax" {
			verb, uri, _ := strings.Cut(f[1], " ")
			t.key = laravelKey(verb, uri)
		}
		if t.target == "closure" || strings.HasPrefix(t.target, "dynamic:") || strings.HasPrefix(t.target, "missing:") {
			unlinkable[t.kind] = append(unlinkable[t.kind], t.key+" "+f[2])
			continue
		}
		truth[t] = true
	}
	return truth, unlinkable
}

// paramRE matches a route parameter, {id} or {id?}, compared by position.
var paramRE = regexp.MustCompile(`\{[^}]*\}`)

// laravelKey is "METHOD /uri" with parameters written {}.
func laravelKey(verb, uri string) string {
	uri = "/" + strings.Trim(uri, "/")
	return strings.ToUpper(verb) + " " + paramRE.ReplaceAllString(uri, "{}")
}

// anyVerbs are the methods Laravel's Route::any registers (HEAD aside).
var anyVerbs = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// linked reads ragraf's side: every handles edge of an entry point of the
// framework, as triples.
func linked(ctx context.Context, g *graph.Store, fw string) (map[triple]bool, error) {
	nodes, err := g.AllNodes(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*fact.Node, len(nodes))
	for i := range nodes {
		byID[nodes[i].ID] = &nodes[i]
	}
	edges, err := g.EdgesOfKinds(ctx, []fact.EdgeKind{fact.Handles})
	if err != nil {
		return nil, err
	}
	got := map[triple]bool{}
	for _, e := range edges {
		from, to := byID[e.From], byID[e.To]
		if from == nil || to == nil || from.Props["framework"] != fw && !(fw == "symfony" && from.Props["framework"] == "attribute") {
			continue
		}
		target := strings.ToLower(to.QName)
		switch fw {
		case "wordpress":
			role := "callback"
			if e.Props["role"] == "permission" {
				role = "permission"
			}
			kind := ""
			switch from.Props["type"] {
			case "rest":
				kind = "rest"
			case "wp_ajax", "wp_ajax_nopriv", "admin_post", "admin_post_nopriv":
				kind = "ajax"
			default:
				continue
			}
			got[triple{kind, e.EvidencePath + ":" + strconv.Itoa(e.EvidenceLine) + ":" + role, target}] = true
		case "fastroute", "slim":
			if from.Kind != fact.WebRoute {
				continue
			}
			got[triple{fw, laravelKey(from.Props["method"], from.Props["uri"]), target}] = true
		case "symfony":
			if from.Kind != fact.WebRoute {
				continue
			}
			got[triple{"symfony", laravelKey(from.Props["method"], from.Props["uri"]), target}] = true
		case "laravel":
			if from.Kind != fact.WebRoute {
				continue
			}
			for _, v := range strings.Split(from.Props["method"], ",") {
				if v == "ANY" {
					for _, a := range anyVerbs {
						got[triple{"laravel", laravelKey(a, from.Props["uri"]), target}] = true
					}
					continue
				}
				got[triple{"laravel", laravelKey(v, from.Props["uri"]), target}] = true
			}
		}
	}
	return got, nil
}

func report(w io.Writer, truth map[triple]bool, unlinkable map[string][]string, got map[triple]bool, show int) {
	kinds := map[string]bool{}
	for t := range truth {
		kinds[t.kind] = true
	}
	for t := range got {
		kinds[t.kind] = true
	}
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	fmt.Fprintf(w, "%-8s %6s %6s %7s %7s %8s %9s\n", "kind", "truth", "linked", "correct", "recall", "precision", "no-symbol")
	for _, k := range ks {
		var nt, ng, ok int
		var miss, extra []string
		for t := range truth {
			if t.kind != k {
				continue
			}
			nt++
			if got[t] {
				ok++
			} else {
				miss = append(miss, t.key+" -> "+t.target)
			}
		}
		for t := range got {
			if t.kind != k {
				continue
			}
			ng++
			if !truth[t] {
				extra = append(extra, t.key+" -> "+t.target)
			}
		}
		fmt.Fprintf(w, "%-8s %6d %6d %7d %7.3f %8.3f %9d\n", k, nt, ng, ok, ratio(ok, nt), ratio(ok, ng), len(unlinkable[k]))
		printDiffs(w, miss, extra, show)
		for i, u := range unlinkable[k] {
			if i == show {
				break
			}
			fmt.Fprintln(w, "  nosym ", u)
		}
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// copyTree copies the regular files of src into dst, without .git and .ragraf.
func copyTree(src, dst string) error {
	return filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			if rel == ".git" || rel == ".ragraf" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}
