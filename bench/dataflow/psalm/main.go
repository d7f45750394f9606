// Command psalm measures flow on Psalm's taint tests (github.com/vimeo/psalm,
// MIT): tests/TaintTest.php holds PHP snippets in data providers, "valid"
// ones where Psalm reports no taint and "invalid" ones where it reports an
// issue type (TaintedSql, TaintedHtml, …). Every snippet is written alone
// as a project, indexed, and asked for flows from each line that may read a
// source of the shipped models to the sink model of the issue type
// (TaintedSql → sink:sql, TaintedHtml → sink:output, …), or, for a safe
// snippet, to every sink model. Psalm's annotations on a function or
// method are mapped for the run: @psalm-taint-source makes its calls
// http_input sources and @psalm-taint-escape makes it a sanitizer (both
// through the project's dataflow.models), @psalm-taint-sink makes the
// parameter it names a flow target; snippets with other taint annotations
// (an escape on a statement, @psalm-flow, specialize, suppress, …) are
// counted apart. The suite is read from a checkout and never copied into this
// repository.
//
//	go run ./bench/dataflow/psalm --suite /tmp/psalm [--misses] [--only NAME]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ragraf/ragraf/bench/dataflow/suite"
	"github.com/ragraf/ragraf/internal/dataflow"
)

// sinkOf maps Psalm's issue types onto the shipped sink models; the others
// (TaintedCallable, TaintedHeader, TaintedCookie, …) have none.
var sinkOf = map[string]string{
	"TaintedHtml":           "output",
	"TaintedTextWithQuotes": "output",
	"TaintedSql":            "sql",
	"TaintedShell":          "shell",
	"TaintedInclude":        "include",
	"TaintedUnserialize":    "unserialize",
	"TaintedFile":           "file",
	"TaintedEval":           "code",
	"TaintedLdap":           "ldap",
	"TaintedXpath":          "xpath",
}

type snippet struct {
	name, code string
	issues     []string // empty: safe
	group      string   // plain, mapped, other annotations
	skipped    bool
}

type target struct {
	to, variable string
}

type outcome struct {
	s                 *snippet
	sources           int
	found             map[string]bool // issue type → found
	why               map[string]string
	reported, unsanit bool
	reportedTo        string
	badSteps          int
	err               string
}

const file = "somefile.php"

func main() {
	dir := flag.String("suite", "/tmp/psalm", "a checkout of vimeo/psalm")
	misses := flag.Bool("misses", false, "print every miss and false report")
	only := flag.String("only", "", "run only the snippets whose name contains this")
	flag.Parse()
	snips, err := load(filepath.Join(*dir, "tests", "TaintTest.php"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "psalm:", err)
		os.Exit(1)
	}
	models, err := dataflow.DefaultModels()
	if err != nil {
		fmt.Fprintln(os.Stderr, "psalm:", err)
		os.Exit(1)
	}
	var outs []outcome
	for _, s := range snips {
		if !strings.Contains(s.name, *only) {
			continue
		}
		if s.skipped {
			outs = append(outs, outcome{s: s})
			continue
		}
		outs = append(outs, run(s, models.SinkNames()))
	}
	report(outs, *misses)
}

// load reads the snippets of the three providers of TaintTest.php.
func load(path string) ([]*snippet, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	src := string(b)
	var out []*snippet
	for _, prov := range []string{"providerValidCodeParse", "providerInvalidCodeParse", "multipleTaintIssuesAreDetectedDataProvider"} {
		at := strings.Index(src, "function "+prov)
		if at < 0 {
			return nil, fmt.Errorf("no provider %s", prov)
		}
		v, err := suite.ParseArray(src, at+strings.Index(src[at:], "return"))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", prov, err)
		}
		for i, e := range v.List {
			code, _ := e.Get("code")
			s := &snippet{name: v.Keys[i], code: code.Str, skipped: strings.Contains(v.Keys[i], "SKIPPED-")}
			if m, ok := e.Get("error_message"); ok {
				s.issues = []string{firstWord(m.Str)}
			}
			if m, ok := e.Get("expectedIssueTypes"); ok {
				for _, x := range m.List {
					if t := strings.SplitN(x.Str, "{", 2)[0]; !contains(s.issues, t) {
						s.issues = append(s.issues, t)
					}
				}
			}
			s.group = annotations(s.code).group
			out = append(out, s)
		}
	}
	return out, nil
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var (
	docRE        = regexp.MustCompile(`(?s)/\*\*(.*?)\*/`)
	funcRE       = regexp.MustCompile(`(?i)\bfunction\s+&?\s*(\w+)\s*\(`)
	annotationRE = regexp.MustCompile(`@psalm-(taint-[a-z]+|flow|assert-untainted|specialize-call|suppress\s+Tainted\w*)(?:\s+\w+\s+\$(\w+))?`)
)

// annotated is what the run makes of a snippet's taint annotations.
type annotated struct {
	sources, sanitizers []call
	sinks               []target
	group               string // plain (none), mapped (all mapped), other annotations
}

type call struct {
	name   string
	method bool
}

// annotations maps Psalm's taint annotations on functions and methods:
// sources and sanitizers by name, sink parameters as flow targets at the
// line declaring the parameter, narrowed to it. Any other taint annotation
// (or one on a statement) makes the snippet "other annotations".
func annotations(code string) annotated {
	a := annotated{group: "plain"}
	lines := strings.Split(code, "\n")
	other := false
	for _, d := range docRE.FindAllStringSubmatchIndex(code, -1) {
		doc := code[d[2]:d[3]]
		ms := annotationRE.FindAllStringSubmatch(doc, -1)
		if len(ms) == 0 {
			continue
		}
		rest := code[d[1]:]
		fm := funcRE.FindStringSubmatchIndex(rest)
		if fm == nil || !onlyModifiers(rest[:fm[0]]) {
			other = true // on a statement or a property
			continue
		}
		fn := call{name: rest[fm[2]:fm[3]], method: depth(code[:d[0]]) > 0}
		declLine := strings.Count(code[:d[1]+fm[0]], "\n") + 1
		for _, m := range ms {
			switch m[1] {
			case "taint-source":
				a.sources = append(a.sources, fn)
			case "taint-escape":
				a.sanitizers = append(a.sanitizers, fn)
			case "taint-sink":
				at := declLine
				for l := declLine; l <= len(lines) && l < declLine+6; l++ {
					if m[2] != "" && regexp.MustCompile(`\$`+m[2]+`\b`).MatchString(lines[l-1]) {
						at = l
						break
					}
				}
				a.sinks = append(a.sinks, target{to: fmt.Sprintf("%s:%d", file, at), variable: m[2]})
			default:
				other = true
			}
			if a.group == "plain" {
				a.group = "mapped"
			}
		}
	}
	if other {
		a.group = "other annotations"
	}
	return a
}

// depth is the brace depth at the end of s: above 0 inside a class.
func depth(s string) int {
	return strings.Count(s, "{") - strings.Count(s, "}")
}

// projectYAML is a project.yaml adding the mapped sources and sanitizers to
// the shipped models (nil when there are none).
func (a annotated) projectYAML() []byte {
	if len(a.sources) == 0 && len(a.sanitizers) == 0 {
		return nil
	}
	entry := func(c call) string {
		if c.method {
			return "{method: " + c.name + "}"
		}
		return "{function: " + c.name + "}"
	}
	var b strings.Builder
	b.WriteString("dataflow:\n  models:\n")
	if len(a.sources) > 0 {
		b.WriteString("    sources:\n      http_input:\n        calls:\n")
		for _, c := range a.sources {
			b.WriteString("          - " + entry(c) + "\n")
		}
	}
	if len(a.sanitizers) > 0 {
		b.WriteString("    sanitizers:\n")
		for _, c := range a.sanitizers {
			b.WriteString("      - " + entry(c) + "\n")
		}
	}
	return []byte(b.String())
}

func onlyModifiers(s string) bool {
	for _, w := range strings.Fields(s) {
		switch strings.ToLower(w) {
		case "public", "private", "protected", "static", "final", "abstract":
		default:
			return false
		}
	}
	return true
}

func run(s *snippet, sinks []string) (o outcome) {
	o.s, o.found, o.why = s, map[string]bool{}, map[string]string{}
	ctx := context.Background()
	ann := annotations(s.code)
	p, err := suite.Index(ctx, map[string][]byte{file: []byte(s.code)}, ann.projectYAML())
	if err != nil {
		o.err = err.Error()
		return o
	}
	defer p.Close()
	var srcNames []string
	for _, c := range ann.sources {
		srcNames = append(srcNames, c.name)
	}
	annSinks := ann.sinks
	lines, err := suite.SourceLines([]byte(s.code), srcNames)
	if err != nil {
		o.err = err.Error()
		return o
	}
	o.sources = len(lines)
	ask := func(l int, t target) suite.Answer {
		a, err := p.Flow(ctx, fmt.Sprintf("%s:%d", file, l), "", t.to, t.variable)
		if err != nil {
			o.err = err.Error()
		}
		o.badSteps += a.BadSteps
		return a
	}
	if len(s.issues) == 0 {
		ts := annSinks
		for _, m := range sinks {
			ts = append(ts, target{to: "sink:" + m})
		}
		for _, l := range lines {
			for _, t := range ts {
				if a := ask(l, t); a.Found {
					if !o.reported || !o.unsanit && len(a.Sanitizers) == 0 {
						o.reportedTo = fmt.Sprintf("line %d → %s %s", l, t.to, strings.Join(a.Sanitizers, ","))
					}
					o.reported = true
					if len(a.Sanitizers) == 0 {
						o.unsanit = true
					}
				}
			}
		}
		return o
	}
	for _, issue := range s.issues {
		ts := annSinks
		if m := sinkOf[issue]; m != "" {
			ts = append([]target{{to: "sink:" + m}}, ts...)
		}
		switch {
		case len(ts) == 0:
			o.why[issue] = "no sink model for " + issue
		case len(lines) == 0:
			o.why[issue] = "no line reads a modelled source"
		}
		for _, l := range lines {
			for _, t := range ts {
				if o.found[issue] {
					break
				}
				a := ask(l, t)
				if a.Found {
					o.found[issue] = true
				} else if o.why[issue] == "" || o.why[issue] == "complete: no path" {
					o.why[issue] = a.Reason()
				}
			}
		}
	}
	return o
}

type row struct {
	vulnerable, found, foundMapped, unmapped, safe, reported, unsanit, skipped int
}

func report(outs []outcome, misses bool) {
	groups := map[string]*row{"plain": {}, "mapped": {}, "other annotations": {}}
	total := &row{}
	why := map[string]int{}
	var errs, bad int
	for _, o := range outs {
		g := groups[o.s.group]
		if o.err != "" {
			errs++
			fmt.Printf("error  %s: %s\n", o.s.name, o.err)
		}
		bad += o.badSteps
		for _, r := range []*row{g, total} {
			if o.s.skipped {
				r.skipped++
				continue
			}
			if len(o.s.issues) == 0 {
				r.safe++
				if o.reported {
					r.reported++
				}
				if o.unsanit {
					r.unsanit++
				}
			}
			for _, is := range o.s.issues {
				r.vulnerable++
				if sinkOf[is] == "" {
					r.unmapped++
				}
				if o.found[is] {
					r.found++
					if sinkOf[is] != "" {
						r.foundMapped++
					}
				}
			}
		}
		if o.s.skipped {
			continue
		}
		for _, is := range o.s.issues {
			if !o.found[is] {
				why[o.why[is]]++
				if misses {
					fmt.Printf("miss   %-60s %-22s %-18s %s\n", o.s.name, is, o.s.group, o.why[is])
				}
			}
		}
		if o.reported && misses {
			fmt.Printf("false  %-60s %-18s %s\n", o.s.name, o.s.group, o.reportedTo)
		}
	}
	fmt.Printf("\nsnippets %d (errors %d, skipped by Psalm's SKIPPED- names %d)\n", len(outs), errs, total.skipped)
	fmt.Println("\n| snippets | vulnerable (issues) | found | issue type without a sink model | safe | reported | reported, no sanitizer |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, k := range []string{"plain", "mapped", "other annotations", "all"} {
		r := groups[k]
		if k == "all" {
			r = total
		}
		fmt.Printf("| %s | %d | %d | %d | %d | %d | %d |\n", k, r.vulnerable, r.found, r.unmapped, r.safe, r.reported, r.unsanit)
	}
	fmt.Printf("\nvulnerable found: %d of %d = %.2f (issue types with a sink model: %d of %d = %.2f)\n", total.found, total.vulnerable, suite.Ratio(total.found, total.vulnerable), total.foundMapped, total.vulnerable-total.unmapped, suite.Ratio(total.foundMapped, total.vulnerable-total.unmapped))
	fmt.Printf("safe reported:    %d of %d = %.2f (no sanitizer on the path: %d = %.2f)\n", total.reported, total.safe, suite.Ratio(total.reported, total.safe), total.unsanit, suite.Ratio(total.unsanit, total.safe))
	fmt.Printf("steps off the snippet's lines: %d\n", bad)
	suite.PrintMisses(why)
}
