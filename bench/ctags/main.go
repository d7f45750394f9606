// Command ctags measures the definitions of ragraf's tree-parsed languages
// against universal-ctags: for each directory it lists the files of one
// language as the index would (corpus.Walk, the default excludes), reads their
// declarations with ragraf's front end in process, runs ctags over the same
// files, and compares the two as sets.
//
//	go run ./bench/ctags --lang go $(go env GOROOT)/src/net/http $(go env GOROOT)/src/go/types
//	go run ./bench/ctags --lang python --misses 20 /usr/lib/python3.11/email
//
// Kinds are mapped per language into two classes, callables (functions,
// methods) and types (classes, interfaces, structs, enums, traits, modules,
// type aliases); ctags kinds ragraf does not index (variables, fields,
// constants, macros, enumerators, imports) are left out on both sides. A
// ctags tag matches a ragraf declaration of the same file, class and name
// (the last segment of a qualified name); among several, the nearest line.
// Recall is matched over ctags' tags, precision matched over ragraf's
// declarations, line agreement the matched pairs on the same line. ctags is
// the oracle, not the truth: --misses prints the disagreements to read.
// Without ctags on PATH the command says so and exits 0.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/lang/all"
)

// oracle is how ctags names a language and which of its kinds count.
type oracle struct {
	name  string
	kinds map[string]string // ctags long kind -> class ("f" callable, "t" type)
	extra []string          // extra ctags options
	// weak are ctags kinds that may name what ragraf reads as a callable
	// or type (JavaScript's const f = () => {} is a "constant" to ctags):
	// they count only where a ragraf declaration of the name is on their line.
	weak map[string]bool
	// keep tells whether a tag of a mapped kind counts (nil: all).
	keep func(t tag) bool
}

var (
	fn = "f"
	ty = "t"
)

var oracles = map[string]oracle{
	"go":     {name: "Go", kinds: map[string]string{"func": fn, "methodSpec": fn, "type": ty, "struct": ty, "interface": ty, "talias": ty}},
	"python": {name: "Python", kinds: map[string]string{"function": fn, "member": fn, "class": ty}},
	"javascript": {name: "JavaScript", kinds: map[string]string{"function": fn, "method": fn, "generator": fn, "getter": fn, "setter": fn, "class": ty},
		weak: map[string]bool{"constant": true, "variable": true, "property": true, "field": true}},
	"typescript": {name: "TypeScript", kinds: map[string]string{"function": fn, "method": fn, "generator": fn, "class": ty, "interface": ty, "enum": ty, "namespace": ty, "alias": ty},
		weak: map[string]bool{"constant": true, "variable": true, "property": true}},
	"java":   {name: "Java", kinds: map[string]string{"method": fn, "class": ty, "interface": ty, "enum": ty, "annotation": ty}},
	"csharp": {name: "C#", kinds: map[string]string{"method": fn, "class": ty, "interface": ty, "enum": ty, "struct": ty, "namespace": ty}},
	"ruby":   {name: "Ruby", kinds: map[string]string{"method": fn, "singletonMethod": fn, "class": ty, "module": ty}},
	"rust":   {name: "Rust", kinds: map[string]string{"function": fn, "method": fn, "struct": ty, "enum": ty, "interface": ty, "module": ty, "typedef": ty}},
	"c":      {name: "C", kinds: map[string]string{"function": fn, "struct": ty, "union": ty, "enum": ty, "typedef": ty}},
	"cpp": {name: "C++", kinds: map[string]string{"function": fn, "prototype": fn, "class": ty, "struct": ty, "union": ty, "enum": ty, "typedef": ty, "namespace": ty},
		extra: []string{"--kinds-C++=+p"},
		// a prototype counts inside a class (a method declared there);
		// ragraf does not index free function prototypes
		keep: func(t tag) bool {
			return t.Kind != "prototype" || t.ScopeKind == "class" || t.ScopeKind == "struct" || t.ScopeKind == "union"
		}},
	"bash":   {name: "Sh", kinds: map[string]string{"function": fn}},
	"kotlin": {name: "Kotlin", kinds: map[string]string{"method": fn, "class": ty, "interface": ty, "object": ty, "typealias": ty}},
	"lua":    {name: "Lua", kinds: map[string]string{"function": fn}},
}

// tag is one ctags JSON line.
type tag struct {
	Type      string `json:"_type"`
	Name      string `json:"name"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Kind      string `json:"kind"`
	Scope     string `json:"scope"`
	ScopeKind string `json:"scopeKind"`
}

// decl is one declaration on either side.
type decl struct {
	path, name, class, kind string
	line                    int
}

type result struct {
	files, ctags, ragraf, matched, sameLine int
	bytes                                   int64
	ragrafTime, ctagsTime                   time.Duration
	weak                                    int // matched through a weak kind
	misses, extras                          []decl
	lineOff                                 [][2]decl
}

func main() {
	langName := flag.String("lang", "", "language: "+strings.Join(mapsKeys(oracles), ", "))
	misses := flag.Int("misses", 0, "print this many disagreements of each side and line")
	flag.Parse()
	o, ok := oracles[*langName]
	if !ok || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: ctags --lang LANG DIR...")
		os.Exit(2)
	}
	if _, err := exec.LookPath("ctags"); err != nil {
		fmt.Println("ctags not found on PATH: skipped")
		return
	}
	var total result
	for _, dir := range flag.Args() {
		r, err := measure(*langName, o, dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, dir+":", err)
			os.Exit(1)
		}
		report(dir, r, *misses)
		total.add(r)
	}
	if flag.NArg() > 1 {
		report("all", total, 0)
	}
}

func (t *result) add(r result) {
	t.files += r.files
	t.ctags += r.ctags
	t.ragraf += r.ragraf
	t.matched += r.matched
	t.sameLine += r.sameLine
	t.bytes += r.bytes
	t.ragrafTime += r.ragrafTime
	t.ctagsTime += r.ctagsTime
	t.weak += r.weak
}

func mapsKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func mbps(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / (1 << 20) / d.Seconds()
}

func report(dir string, r result, misses int) {
	fmt.Printf("%s: files %d, ctags %d, ragraf %d, matched %d (%d through a variable or constant tag): recall %.3f precision %.3f line agreement %.3f; "+
		"ragraf %.1f MB/s, ctags %.1f MB/s (%.1f MB)\n",
		dir, r.files, r.ctags, r.ragraf, r.matched, r.weak, ratio(r.matched, r.ctags), ratio(r.matched, r.ragraf),
		ratio(r.sameLine, r.matched), mbps(r.bytes, r.ragrafTime), mbps(r.bytes, r.ctagsTime), float64(r.bytes)/(1<<20))
	if misses <= 0 {
		return
	}
	byKind := func(ds []decl) string {
		c := map[string]int{}
		for _, d := range ds {
			c[d.kind]++
		}
		var parts []string
		for _, k := range mapsKeys(c) {
			parts = append(parts, fmt.Sprintf("%s %d", k, c[k]))
		}
		return strings.Join(parts, ", ")
	}
	fmt.Printf("  ctags only by kind: %s\n", byKind(r.misses))
	for _, d := range r.misses[:min(misses, len(r.misses))] {
		fmt.Printf("    ctags only: %s:%d %s %s\n", d.path, d.line, d.kind, d.name)
	}
	fmt.Printf("  ragraf only by kind: %s\n", byKind(r.extras))
	for _, d := range r.extras[:min(misses, len(r.extras))] {
		fmt.Printf("    ragraf only: %s:%d %s %s\n", d.path, d.line, d.kind, d.name)
	}
	for _, p := range r.lineOff[:min(misses, len(r.lineOff))] {
		fmt.Printf("    line: %s %s ctags %d ragraf %d\n", p[0].path, p[0].name, p[0].line, p[1].line)
	}
}

// measure compares one directory.
func measure(langName string, o oracle, dir string) (result, error) {
	var r result
	ctx := context.Background()
	cfg := config.Default()
	cfg.Languages = []string{langName}
	files, err := corpus.Walk(ctx, corpus.Options{Root: dir, Config: cfg})
	if err != nil {
		return r, err
	}
	var paths []string
	for _, f := range files {
		if f.Status == corpus.Pending && f.Lang == langName {
			paths = append(paths, f.Path)
		}
	}
	r.files = len(paths)
	fe := all.Registry()[langName]
	if fe == nil {
		return r, fmt.Errorf("no front end for %s", langName)
	}
	p, err := fe.New(lang.Options{ChunkTokens: 512, MaxFileWork: cfg.MaxFileWork, MaxFileBytes: cfg.MaxFileSize})
	if err != nil {
		return r, err
	}
	defer p.Close()
	var ours []decl
	for _, rel := range paths {
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return r, err
		}
		r.bytes += int64(len(src))
		start := time.Now()
		facts, err := p.File(ctx, rel, src)
		r.ragrafTime += time.Since(start)
		if err != nil {
			return r, fmt.Errorf("%s: %w", rel, err)
		}
		for _, n := range facts.Nodes {
			class := ""
			switch n.Kind {
			case fact.Function, fact.Method:
				class = fn
			case fact.Class, fact.Interface, fact.Enum, fact.Trait, fact.Namespace:
				class = ty
			}
			if class != "" {
				k := string(n.Kind)
				if own := n.Props["kind"]; own != "" {
					k += "/" + own
				}
				ours = append(ours, decl{path: rel, name: lastSegment(n.Name), class: class, kind: k, line: n.StartLine})
			}
		}
	}
	theirs, weak, took, err := runCtags(o, dir, paths)
	if err != nil {
		return r, err
	}
	r.ctagsTime = took
	compare(&r, theirs, ours)
	// a ragraf declaration ctags tagged on its line under a weak kind
	at := map[string]bool{}
	for _, w := range weak {
		at[w.path+"\x00"+w.name+"\x00"+fmt.Sprint(w.line)] = true
	}
	extras := r.extras[:0]
	for _, e := range r.extras {
		if at[e.path+"\x00"+e.name+"\x00"+fmt.Sprint(e.line)] {
			r.weak++
			continue
		}
		extras = append(extras, e)
	}
	r.extras = extras
	r.ctags += r.weak
	r.matched += r.weak
	r.sameLine += r.weak
	return r, nil
}

// runCtags lists the mapped tags of paths (relative to dir).
func runCtags(o oracle, dir string, paths []string) (ds, weak []decl, took time.Duration, err error) {
	args := append([]string{"--output-format=json", "--fields=+nZ", "--language-force=" + o.name, "-f", "-", "-L", "-"}, o.extra...)
	cmd := exec.Command("ctags", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return nil, nil, 0, fmt.Errorf("ctags: %v: %s", err, errb.String())
	}
	took = time.Since(start)
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var t tag
		if json.Unmarshal(sc.Bytes(), &t) != nil || t.Type != "tag" {
			continue
		}
		if strings.HasPrefix(t.Name, "<") || strings.HasPrefix(t.Name, "__anon") || strings.HasPrefix(t.Name, "AnonymousFunction") {
			continue // ctags' names of anonymous functions and types
		}
		if o.weak[t.Kind] {
			weak = append(weak, decl{path: filepath.ToSlash(t.Path), name: lastSegment(t.Name), kind: t.Kind, line: t.Line})
			continue
		}
		class := o.kinds[t.Kind]
		if class == "" || (o.keep != nil && !o.keep(t)) {
			continue
		}
		ds = append(ds, decl{path: filepath.ToSlash(t.Path), name: lastSegment(t.Name), class: class, kind: t.Kind, line: t.Line})
	}
	return ds, weak, took, sc.Err()
}

// lastSegment is a name without its qualifier: "a.b", "A::b", "A:b" are "b".
func lastSegment(s string) string {
	for _, sep := range []string{"::", ".", ":", "#"} {
		if i := strings.LastIndex(s, sep); i >= 0 && i+len(sep) < len(s) {
			s = s[i+len(sep):]
		}
	}
	return s
}

// compare pairs the two sides by file, class and name, nearest lines first.
func compare(r *result, theirs, ours []decl) {
	key := func(d decl) string { return d.path + "\x00" + d.class + "\x00" + d.name }
	group := func(ds []decl) map[string][]decl {
		m := map[string][]decl{}
		for _, d := range ds {
			m[key(d)] = append(m[key(d)], d)
		}
		return m
	}
	r.ctags, r.ragraf = len(theirs), len(ours)
	a, b := group(theirs), group(ours)
	for k, ts := range a {
		os := b[k]
		used := make([]bool, len(os))
		var left []decl
		for _, t := range ts { // same line first
			j := slices.IndexFunc(os, func(o decl) bool { return o.line == t.line })
			for j >= 0 && used[j] {
				n := slices.IndexFunc(os[j+1:], func(o decl) bool { return o.line == t.line })
				if n < 0 {
					j = -1
					break
				}
				j += 1 + n
			}
			if j >= 0 {
				used[j] = true
				r.matched++
				r.sameLine++
				continue
			}
			left = append(left, t)
		}
		for _, t := range left { // then the nearest unused
			best := -1
			for j, o := range os {
				if !used[j] && (best < 0 || abs(o.line-t.line) < abs(os[best].line-t.line)) {
					best = j
				}
			}
			if best < 0 {
				r.misses = append(r.misses, t)
				continue
			}
			used[best] = true
			r.matched++
			r.lineOff = append(r.lineOff, [2]decl{t, os[best]})
		}
		for j, o := range os {
			if !used[j] {
				r.extras = append(r.extras, o)
			}
		}
		delete(b, k)
	}
	for _, os := range b {
		r.extras = append(r.extras, os...)
	}
	order := func(x, y decl) int { return cmp.Or(strings.Compare(x.path, y.path), cmp.Compare(x.line, y.line)) }
	slices.SortFunc(r.misses, order)
	slices.SortFunc(r.extras, order)
	sort.SliceStable(r.lineOff, func(i, j int) bool { return order(r.lineOff[i][0], r.lineOff[j][0]) < 0 })
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
