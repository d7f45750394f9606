// This file generates the navigation tasks of M1 and M3 from the independent
// truth (truth.go) with a seed, and reads and writes a task file (--tasks).
// Each task carries its truth places and says where they came from.

package stand

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
)

// Task kinds.
const (
	KindDefinition      = "definition"      // where is X defined
	KindCallers         = "callers"         // who calls X
	KindImplementations = "implementations" // what implements I
	KindTableWrites     = "table_writes"    // which code writes table T
	KindRouteHandler    = "route_handler"   // which handler serves route R
	KindFileDeclares    = "file_declares"   // what does this file declare
	KindCoChange        = "co_change"       // what else must change with X (asked on the revision before a replayed commit)
	KindTests           = "tests"           // which tests exercise X
)

// Kinds lists the task kinds in report order.
var Kinds = []string{KindDefinition, KindCallers, KindImplementations, KindTableWrites, KindRouteHandler, KindFileDeclares,
	KindCoChange, KindTests}

// Place is a place in the tree: a line, or lines Line..End.
type Place struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	End  int    `json:"end,omitempty"`
}

func (p Place) end() int { return max(p.End, p.Line) }

// Task is one question with its truth.
type Task struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Question string `json:"question"`
	Name     string `json:"name,omitempty"` // X, I, T or R
	Sub      string `json:"sub,omitempty"`  // function or method, for callers
	Path     string `json:"path,omitempty"` // the file of file_declares
	// Target is X as an agent names it to ragraf (Class::method or a
	// function's name), for co_change and tests
	Target string `json:"target,omitempty"`
	// Commit is the replayed commit a co_change task was asked before
	Commit string  `json:"commit,omitempty"`
	Truth  []Place `json:"truth"`
	Source string  `json:"truth_source"` // ctags, php-tokenizer, intelephense
}

// skipped says why a task kind has no tasks.
type skipped map[string]string

// routeReason is why route tasks are not generated: their truth would be the
// framework's own route list, which needs the application running.
const routeReason = "no independent route list: the framework's own list needs the application booted; ragraf's routes are not used as truth"

// coChangeReason is why co_change tasks are not among the generated ones:
// they are asked while history is replayed (history.go).
const coChangeReason = "asked while history is replayed: no replayed commit changed two to 30 functions or methods"

// genTasks draws up to perKind tasks of each kind from t with seed.
func genTasks(t Truth, files []string, perKind int, seed uint64) ([]Task, skipped) {
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	sk := skipped{KindRouteHandler: routeReason, KindCoChange: coChangeReason}
	var out []Task
	add := func(kind string, ts []Task) {
		if len(ts) == 0 {
			if _, ok := sk[kind]; !ok {
				sk[kind] = "no candidate in the tree"
			}
			return
		}
		rng.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
		if len(ts) > perKind {
			ts = ts[:perKind]
		}
		sort.Slice(ts, func(i, j int) bool { return ts[i].Name+ts[i].Path < ts[j].Name+ts[j].Path })
		out = append(out, ts...)
	}
	add(KindDefinition, definitionTasks(t))
	add(KindCallers, callerTasks(t))
	add(KindImplementations, implementationTasks(t))
	add(KindTableWrites, tableTasks(t))
	add(KindFileDeclares, declareTasks(t, files))
	add(KindTests, testTasks(t))
	for i := range out {
		out[i].ID = fmt.Sprintf("T%03d", i+1)
	}
	return out, sk
}

// defKinds are the ctags kinds a definition task asks about.
var defKinds = map[string]bool{"class": true, "interface": true, "trait": true, "function": true, "enum": true, "method": true}

// definitionTasks: names defined exactly once (PHP names are case-insensitive).
func definitionTasks(t Truth) []Task {
	type def struct {
		name string
		p    Place
	}
	var defs []def
	if t.Tags != nil {
		for _, tg := range t.Tags {
			if defKinds[tg.Kind] {
				defs = append(defs, def{tg.Name, Place{Path: tg.Path, Line: tg.Line}})
			}
		}
	} else {
		for _, d := range t.Decls {
			defs = append(defs, def{d.Name, Place{Path: d.Path, Line: d.Line}})
		}
	}
	count := map[string]int{}
	for _, d := range defs {
		count[strings.ToLower(d.name)]++
	}
	var out []Task
	for _, d := range defs {
		if count[strings.ToLower(d.name)] != 1 || strings.HasPrefix(d.name, "__") || len(d.name) < 3 {
			continue
		}
		out = append(out, Task{Kind: KindDefinition, Name: d.name, Question: "where is " + d.name + " defined?",
			Truth: []Place{d.p}, Source: t.DefSource})
	}
	return out
}

// maxTruth bounds the truth of one task: a name called in hundreds of places
// is a question no agent reads to the end.
const maxTruth = 60

// callerTasks: functions and methods whose name is declared once; the truth
// is every caller: the innermost function or method around each call by
// that name of the same shape (a method is called with -> or ::, a function
// without), or the call's line in code outside any function.
func callerTasks(t Truth) []Task {
	fns := map[string][]Decl{}
	for _, d := range t.Decls {
		if d.Kind == "function" || d.Kind == "method" {
			fns[d.Path] = append(fns[d.Path], d)
		}
	}
	caller := func(p Place) Place {
		best := Place{}
		for _, d := range fns[p.Path] {
			if d.Line <= p.Line && p.Line <= d.End && (best.Path == "" || d.Line >= best.Line) {
				best = Place{Path: d.Path, Line: d.Line, End: d.End}
			}
		}
		if best.Path == "" {
			return p
		}
		return best
	}
	count := map[string]int{}
	for _, d := range t.Decls {
		if d.Kind == "function" || d.Kind == "method" {
			count[strings.ToLower(d.Name)]++
		}
	}
	sites := map[string][]Place{}
	for _, c := range t.Calls {
		k := strings.ToLower(c.Name) + "/" + map[bool]string{true: "function", false: "method"}[c.Via == "fn"]
		ps := sites[k]
		if n := len(ps); n > 0 && ps[n-1].Path == c.Path && ps[n-1].Line == c.Line {
			continue
		}
		sites[k] = append(ps, Place{Path: c.Path, Line: c.Line})
	}
	var out []Task
	for _, d := range t.Decls {
		if (d.Kind != "function" && d.Kind != "method") || count[strings.ToLower(d.Name)] != 1 || strings.HasPrefix(d.Name, "__") {
			continue
		}
		if d.Kind == "function" && t.Builtins[strings.ToLower(d.Name)] {
			continue // its calls by name are PHP's function's too
		}
		var ps []Place
		for _, site := range sites[strings.ToLower(d.Name)+"/"+d.Kind] {
			ps = append(ps, caller(site))
		}
		ps = uniqPlaces(ps)
		if len(ps) == 0 || len(ps) > maxTruth {
			continue
		}
		out = append(out, Task{Kind: KindCallers, Name: d.Name, Sub: d.Kind, Path: d.Path,
			Question: "who calls " + qualified(d) + "?", Truth: ps, Source: "php-tokenizer"})
	}
	return out
}

func qualified(d Decl) string {
	if d.Scope != "" {
		return d.Scope + "::" + d.Name
	}
	return d.Name
}

// implementationTasks: interfaces declared once; the truth is every class,
// interface or enum that implements or extends it, directly or through
// another such type (by short name).
func implementationTasks(t Truth) []Task {
	count := map[string]int{}
	sub := map[string][]Decl{} // short name lowercased -> types naming it
	for _, d := range t.Decls {
		switch d.Kind {
		case "class", "interface", "trait", "enum":
			count[strings.ToLower(d.Name)]++
			for _, n := range append(append([]string{}, d.Ext...), d.Impl...) {
				sub[strings.ToLower(n)] = append(sub[strings.ToLower(n)], d)
			}
		}
	}
	var out []Task
	for _, d := range t.Decls {
		if d.Kind != "interface" || count[strings.ToLower(d.Name)] != 1 {
			continue
		}
		seen := map[string]bool{strings.ToLower(d.Name): true}
		var truth []Place
		queue := []string{strings.ToLower(d.Name)}
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			for _, s := range sub[n] {
				k := strings.ToLower(s.Name)
				if seen[k] {
					continue
				}
				seen[k] = true
				truth = append(truth, Place{Path: s.Path, Line: s.Line})
				queue = append(queue, k)
			}
		}
		if len(truth) == 0 || len(truth) > maxTruth {
			continue
		}
		sortPlaces(truth)
		out = append(out, Task{Kind: KindImplementations, Name: d.Name, Path: d.Path,
			Question: "what implements " + d.Name + "?", Truth: truth, Source: "php-tokenizer"})
	}
	return out
}

// tableTasks: tables a string literal writes by name.
func tableTasks(t Truth) []Task {
	by := map[string][]Place{}
	var names []string
	for _, s := range t.SQL {
		k := strings.ToLower(s.Table)
		if _, ok := by[k]; !ok {
			names = append(names, k)
		}
		by[k] = append(by[k], Place{Path: s.Path, Line: s.Line, End: s.End})
	}
	sort.Strings(names)
	var out []Task
	for _, n := range names {
		if len(by[n]) > maxTruth || len(n) < 3 {
			continue
		}
		out = append(out, Task{Kind: KindTableWrites, Name: n, Question: "which code writes table " + n + "?",
			Truth: by[n], Source: "php-tokenizer"})
	}
	return out
}

// declareKinds are the ctags kinds an outline should name.
var declareKinds = map[string]bool{"class": true, "interface": true, "trait": true, "function": true, "enum": true, "define": true}

// declareTasks: files with at least one declaration; the truth is each.
func declareTasks(t Truth, files []string) []Task {
	by := map[string][]Place{}
	if t.Tags != nil {
		for _, tg := range t.Tags {
			if declareKinds[tg.Kind] || (tg.Kind == "variable" && tg.ScopeKind != "" && tg.ScopeKind != "namespace") {
				by[tg.Path] = append(by[tg.Path], Place{Path: tg.Path, Line: tg.Line})
			}
		}
	} else {
		for _, d := range t.Decls {
			by[d.Path] = append(by[d.Path], Place{Path: d.Path, Line: d.Line})
		}
	}
	var out []Task
	for _, f := range files {
		ps := by[f]
		if len(ps) == 0 || len(ps) > maxTruth*2 {
			continue
		}
		ps = uniqPlaces(ps)
		out = append(out, Task{Kind: KindFileDeclares, Path: f, Name: f, Question: "what does " + f + " declare?",
			Truth: ps, Source: t.DefSource})
	}
	return out
}

// isTestPath says whether a PHP file is a test: under a tests or test
// directory, or named *Test.php.
func isTestPath(p string) bool {
	lp := strings.ToLower(p)
	return strings.HasPrefix(lp, "tests/") || strings.HasPrefix(lp, "test/") || strings.Contains(lp, "/tests/") ||
		strings.Contains(lp, "/test/") || strings.HasSuffix(p, "Test.php")
}

// testTasks: functions and methods outside tests whose name is declared
// once and that a test file calls by name (the call's shape as for
// callers); the truth is each such test file, all of its lines.
func testTasks(t Truth) []Task {
	count := map[string]int{}
	ends := map[string]int{} // the last line of a file's last declaration
	for _, d := range t.Decls {
		if d.Kind == "function" || d.Kind == "method" {
			count[strings.ToLower(d.Name)]++
		}
		ends[d.Path] = max(ends[d.Path], d.End)
	}
	files := map[string]map[string]bool{} // name/shape -> test files calling it
	for _, c := range t.Calls {
		if !isTestPath(c.Path) {
			continue
		}
		k := strings.ToLower(c.Name) + "/" + map[bool]string{true: "function", false: "method"}[c.Via == "fn"]
		if files[k] == nil {
			files[k] = map[string]bool{}
		}
		files[k][c.Path] = true
		ends[c.Path] = max(ends[c.Path], c.Line)
	}
	var out []Task
	for _, d := range t.Decls {
		if (d.Kind != "function" && d.Kind != "method") || count[strings.ToLower(d.Name)] != 1 ||
			strings.HasPrefix(d.Name, "__") || isTestPath(d.Path) {
			continue
		}
		if d.Kind == "function" && t.Builtins[strings.ToLower(d.Name)] {
			continue
		}
		fs := files[strings.ToLower(d.Name)+"/"+d.Kind]
		if len(fs) == 0 || len(fs) > maxTruth {
			continue
		}
		var ps []Place
		for f := range fs {
			ps = append(ps, Place{Path: f, Line: 1, End: ends[f]})
		}
		sortPlaces(ps)
		out = append(out, Task{Kind: KindTests, Name: d.Name, Sub: d.Kind, Path: d.Path, Target: qualified(d),
			Question: "which tests exercise " + qualified(d) + "?", Truth: ps, Source: "php-tokenizer"})
	}
	return out
}

func sortPlaces(ps []Place) {
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Path != ps[j].Path {
			return ps[i].Path < ps[j].Path
		}
		return ps[i].Line < ps[j].Line
	})
}

func uniqPlaces(ps []Place) []Place {
	sortPlaces(ps)
	out := ps[:0]
	for i, p := range ps {
		if i > 0 && p.Path == ps[i-1].Path && p.Line == ps[i-1].Line {
			continue
		}
		out = append(out, p)
	}
	return out
}

// readTasks reads a task file written by writeTasks (or by hand).
func readTasks(path string) ([]Task, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var ts []Task
	if err := json.Unmarshal(b, &ts); err != nil {
		return nil, fmt.Errorf("reading tasks %s: %w", path, err)
	}
	for i, t := range ts {
		if t.ID == "" {
			ts[i].ID = fmt.Sprintf("T%03d", i+1)
		}
		if !knownKind(t.Kind) {
			return nil, fmt.Errorf("reading tasks %s: task %d: unknown kind %q", path, i+1, t.Kind)
		}
	}
	return ts, nil
}

func knownKind(k string) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}
