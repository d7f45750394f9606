// Command progpilot measures flow on progpilot's tests
// (github.com/designsecurity/progpilot, MIT): projects/tests/RunAll.php
// pairs each test file with the vulnerabilities progpilot must report, each
// as (tainted variable, its line, vulnerability name), or with none. Every
// test file is indexed on its own (with the files it includes by a literal
// path) and, for each expected vulnerability, asked for a flow from the
// expected line to the sink model of the vulnerability (xss → sink:output,
// sql_injection → sink:sql, …), and whether a source of the shipped models
// reaches that line (flow from source:http_input to it). A test with no
// expected vulnerability is asked for a flow from every line that may read
// a source to every sink model: any path found is a non-flow reported.
// The suite is read from a checkout and never copied into this repository.
//
//	go run ./bench/dataflow/progpilot --suite /tmp/progpilot/projects/tests [--misses] [--only PATH]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/bench/dataflow/suite"
	"github.com/ragraf/ragraf/internal/dataflow"
)

// sinkOf maps progpilot's vulnerability names onto the shipped sink models
// (none: not measured). progpilot reports unserialize as code injection,
// hence two models for it.
var sinkOf = map[string][]string{
	"xss":                            {"output"},
	"sql_injection":                  {"sql"},
	"command_injection":              {"shell"},
	"file_inclusion":                 {"include"},
	"path_traversal":                 {"file"},
	"code_injection":                 {"code", "unserialize"},
	"create_function code_injection": {"code"},
	"ldap_injection":                 {"ldap"},
	"xml_injection":                  {"xpath"},
}

type expected struct {
	names []string
	lines []string
	vuln  string
}

type test struct {
	group, file string
	vulns       []expected // empty: progpilot reports nothing
	custom      int        // expectations of custom (non-taint) rules, not measured
}

type vulnOutcome struct {
	exp                      expected
	found, sourced, unmapped bool
	why                      string
}

type outcome struct {
	t                 *test
	vulns             []vulnOutcome
	sourceLines       int
	reported, unsanit bool
	reportedTo        string
	badSteps          int
	err               string
	files             int
}

func main() {
	dir := flag.String("suite", "/tmp/progpilot/projects/tests", "progpilot's projects/tests directory")
	misses := flag.Bool("misses", false, "print every miss and false report")
	only := flag.String("only", "", "run only the tests whose file path contains this")
	flag.Parse()
	tests, err := load(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "progpilot:", err)
		os.Exit(1)
	}
	models, err := dataflow.DefaultModels()
	if err != nil {
		fmt.Fprintln(os.Stderr, "progpilot:", err)
		os.Exit(1)
	}
	var outs []outcome
	for _, t := range tests {
		if !strings.Contains(t.file, *only) {
			continue
		}
		outs = append(outs, run(*dir, t, models.SinkNames()))
	}
	report(outs, *misses)
}

// load reads the expectation files RunAll.php includes, in its order.
func load(dir string) ([]*test, error) {
	runner, err := os.ReadFile(filepath.Join(dir, "RunAll.php"))
	if err != nil {
		return nil, err
	}
	var out []*test
	for _, m := range regexp.MustCompile(`include\(\s*"([\w.-]+\.php)"\s*\)`).FindAllStringSubmatch(string(runner), -1) {
		b, err := os.ReadFile(filepath.Join(dir, m[1]))
		if err != nil {
			return nil, err
		}
		src := string(b)
		v, err := suite.ParseArray(src, strings.Index(src, "return"))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m[1], err)
		}
		group := strings.TrimSuffix(m[1], ".php")
		for _, e := range v.List {
			if len(e.List) < 2 {
				continue
			}
			t := &test{group: group, file: strings.TrimPrefix(e.List[0].Str, "./")}
			for _, x := range e.List[1].List {
				if len(x.List) < 3 {
					continue
				}
				ex := expected{vuln: x.List[2].Str}
				if x.List[0].IsArray {
					for i := range x.List[0].List {
						ex.names = append(ex.names, x.List[0].List[i].Str)
						ex.lines = append(ex.lines, x.List[1].List[i].Str)
					}
				} else {
					ex.names, ex.lines = []string{x.List[0].Str}, []string{x.List[1].Str}
				}
				if !strings.HasPrefix(ex.names[0], "$") {
					t.custom++ // custom rules: (line, column, name), no flow
					continue
				}
				t.vulns = appendNew(t.vulns, ex)
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// appendNew keeps one of identical expectations: progpilot lists one per
// sink reached, and a flow to a sink model answers them alike.
func appendNew(list []expected, e expected) []expected {
	for _, x := range list {
		if x.vuln == e.vuln && strings.Join(x.names, ",") == strings.Join(e.names, ",") && strings.Join(x.lines, ",") == strings.Join(e.lines, ",") {
			return list
		}
	}
	return append(list, e)
}

var includeRE = regexp.MustCompile(`(?i)\b(?:include|require)(?:_once)?\b([^;]*);`)
var literalRE = regexp.MustCompile(`'([^']*)'|"([^"$]*)"`)

// closure returns the test file and every file it includes by a literal
// path (concatenated literals; a leading constant such as ABSPATH is looked
// up from the file's directory and its parents) or names in a string,
// keyed by path relative to the suite directory.
func closure(dir, file string) (map[string][]byte, error) {
	files := map[string][]byte{}
	todo := []string{file}
	for len(todo) > 0 && len(files) < 300 {
		rel := todo[0]
		todo = todo[1:]
		if _, ok := files[rel]; ok {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			if rel == file {
				return nil, err
			}
			continue
		}
		files[rel] = b
		var lits []string
		for _, m := range includeRE.FindAllStringSubmatch(string(b), -1) {
			var lit string
			for _, l := range literalRE.FindAllStringSubmatch(m[1], -1) {
				lit += l[1] + l[2]
			}
			lits = append(lits, lit)
		}
		// A file name in any string (define('ROOT', "x.php"), $a[0] =
		// "x.php") is what an include through a constant or a variable
		// reaches.
		for _, l := range literalRE.FindAllStringSubmatch(string(b), -1) {
			lits = append(lits, l[1]+l[2])
		}
		for _, lit := range lits {
			if !strings.HasSuffix(lit, ".php") && !strings.HasSuffix(lit, ".inc") {
				continue
			}
			if p := resolve(dir, rel, lit); p != "" {
				todo = append(todo, p)
			}
		}
	}
	return files, nil
}

func resolve(dir, from, lit string) string {
	lit = strings.TrimPrefix(lit, "/")
	for d := filepath.Dir(from); ; d = filepath.Dir(d) {
		p := filepath.ToSlash(filepath.Clean(filepath.Join(d, lit)))
		if !strings.HasPrefix(p, "../") && p != ".." {
			if st, err := os.Stat(filepath.Join(dir, p)); err == nil && !st.IsDir() {
				return p
			}
		}
		if d == "." || d == "/" {
			return ""
		}
	}
}

func run(dir string, t *test, sinks []string) (o outcome) {
	o.t = t
	files, err := closure(dir, t.file)
	if err != nil {
		o.err = err.Error()
		return o
	}
	o.files = len(files)
	ctx := context.Background()
	p, err := suite.Index(ctx, files, nil)
	if err != nil {
		o.err = err.Error()
		return o
	}
	defer p.Close()
	ask := func(from, to string) suite.Answer {
		a, err := p.Flow(ctx, from, "", to, "")
		if err != nil {
			o.err = err.Error()
		}
		o.badSteps += a.BadSteps
		return a
	}
	// progpilot names a line, not a file: with includes, the line may be
	// in any file the test brings, the test file first.
	var paths []string
	for rel := range files {
		if rel != t.file {
			paths = append(paths, rel)
		}
	}
	sort.Strings(paths)
	paths = append([]string{t.file}, paths...)
	for _, e := range t.vulns {
		vo := vulnOutcome{exp: e, found: true, sourced: true}
		sinks := sinkOf[e.vuln]
		if len(sinks) == 0 {
			vo.found, vo.unmapped, vo.why = false, true, "no sink model for "+e.vuln
		}
		for _, l := range e.lines {
			if l == "0" { // progpilot's own placeholder for an unknown line
				vo.found, vo.sourced, vo.why = false, false, "expected line 0"
				break
			}
			if len(sinks) > 0 && vo.found {
				vo.found, vo.why = reaches(ask, paths, l, sinks)
			}
			sourced := false
			for _, rel := range paths {
				if ask("source:http_input", rel+":"+l).Found {
					sourced = true
					break
				}
			}
			vo.sourced = vo.sourced && sourced
		}
		o.vulns = append(o.vulns, vo)
	}
	if len(t.vulns) == 0 && t.custom == 0 {
		lines, err := suite.SourceLines(files[t.file], nil)
		if err != nil {
			o.err = err.Error()
			return o
		}
		o.sourceLines = len(lines)
		for _, l := range lines {
			for _, s := range sinks {
				a := ask(fmt.Sprintf("%s:%d", t.file, l), "sink:"+s)
				if a.Found {
					if !o.reported || !o.unsanit && len(a.Sanitizers) == 0 {
						o.reportedTo = fmt.Sprintf("line %d → sink:%s %s", l, s, strings.Join(a.Sanitizers, ","))
					}
					o.reported = true
					if len(a.Sanitizers) == 0 {
						o.unsanit = true
					}
				}
			}
		}
	}
	return o
}

// reaches asks for a flow from line l of each path in turn to each sink
// model; the reason of a miss is the answer of the first file with a
// data-flow node at the line (the test file's when none has).
func reaches(ask func(from, to string) suite.Answer, paths []string, l string, sinks []string) (bool, string) {
	why, placed := "", false
	for _, rel := range paths {
		for _, s := range sinks {
			a := ask(rel+":"+l, "sink:"+s)
			if a.Found {
				return true, ""
			}
			if why == "" || !placed && !a.NotFound || placed && !a.NotFound && why == "complete: no path" {
				why, placed = a.Reason(), !a.NotFound
			}
		}
	}
	return false, why
}

type row struct {
	expected, found, sourced, both, unmapped int
	nonflows, withSource, reported, unsanit  int
	custom                                   int
}

func report(outs []outcome, misses bool) {
	groups := map[string]*row{}
	var order []string
	total := &row{}
	why := map[string]int{}
	var errs, bad int
	for _, o := range outs {
		g := groups[o.t.group]
		if g == nil {
			g = &row{}
			groups[o.t.group] = g
			order = append(order, o.t.group)
		}
		if o.err != "" {
			errs++
			fmt.Printf("error  %s: %s\n", o.t.file, o.err)
		}
		bad += o.badSteps
		for _, r := range []*row{g, total} {
			r.custom += o.t.custom
			if len(o.t.vulns) == 0 && o.t.custom == 0 {
				r.nonflows++
				if o.sourceLines > 0 {
					r.withSource++
				}
				if o.reported {
					r.reported++
				}
				if o.unsanit {
					r.unsanit++
				}
			}
			for _, v := range o.vulns {
				r.expected++
				if v.unmapped {
					r.unmapped++
				}
				if v.found {
					r.found++
				}
				if v.sourced {
					r.sourced++
				}
				if v.found && v.sourced {
					r.both++
				}
			}
		}
		for _, v := range o.vulns {
			if !v.found {
				why[v.why]++
				if misses {
					fmt.Printf("miss   %-90s %s %s:%s %s\n", o.t.file, v.exp.vuln, strings.Join(v.exp.names, ","), strings.Join(v.exp.lines, ","), v.why)
				}
			} else if !v.sourced && misses {
				fmt.Printf("nosrc  %-90s %s %s:%s\n", o.t.file, v.exp.vuln, strings.Join(v.exp.names, ","), strings.Join(v.exp.lines, ","))
			}
		}
		if o.reported && misses {
			fmt.Printf("false  %-90s %s\n", o.t.file, o.reportedTo)
		}
	}
	fmt.Printf("\ntests %d (errors %d), custom-rule expectations not measured %d\n", len(outs), errs, total.custom)
	fmt.Println("\n| expectations | expected flows | to the sink model | + a modelled source reaches the line | no sink model | non-flow tests | with a source line | reported | reported, no sanitizer |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, k := range append(order, "all") {
		r := groups[k]
		if k == "all" {
			r = total
		}
		fmt.Printf("| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", k, r.expected, r.found, r.both, r.unmapped, r.nonflows, r.withSource, r.reported, r.unsanit)
	}
	fmt.Printf("\nexpected flows found:  %d of %d = %.2f (with a modelled source too: %d = %.2f)\n", total.found, total.expected, suite.Ratio(total.found, total.expected), total.both, suite.Ratio(total.both, total.expected))
	fmt.Printf("non-flows reported:    %d of %d = %.2f (no sanitizer on the path: %d = %.2f)\n", total.reported, total.nonflows, suite.Ratio(total.reported, total.nonflows), total.unsanit, suite.Ratio(total.unsanit, total.nonflows))
	fmt.Printf("steps off the files' lines: %d\n", bad)
	suite.PrintMisses(why)
}
