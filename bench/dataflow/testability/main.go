// Command testability measures flow on testable-eu's SAST testability
// patterns (github.com/testable-eu/sast-testability-patterns, Apache-2.0):
// every PHP pattern instance is indexed on its own and asked for a flow from
// its expected source line to its expected sink line. It prints the share of
// expected flows found, the share of listed non-flows reported (a path
// answered through a sanitizer is counted apart, not as a report), the steps
// whose path:line is not a line of the instance, and one row per miss with
// the cut points that explain it. The suite is read from a checkout and
// never copied into this repository.
//
//	go run ./bench/dataflow/testability --suite /tmp/tp/PHP [--misses]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/bench/dataflow/suite"
	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
)

type instance struct {
	dir, pattern, name string
	Expectation        struct {
		Type       string `json:"type"`
		SinkFile   string `json:"sink_file"`
		SinkLine   int    `json:"sink_line"`
		SourceFile string `json:"source_file"`
		SourceLine int    `json:"source_line"`
		Flow       bool   `json:"expectation"`
	} `json:"expectation"`
}

type outcome struct {
	inst              *instance
	found, complete   bool
	sanitized         bool // the path found passes a sanitizer
	notFound, badStep bool
	cuts              []string
	err               string
}

func main() {
	suite := flag.String("suite", "/tmp/tp/PHP", "the PHP directory of a checkout of the suite")
	misses := flag.Bool("misses", false, "print every miss and false report")
	flag.Parse()
	insts, err := load(*suite)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testability:", err)
		os.Exit(1)
	}
	var outs []outcome
	for _, in := range insts {
		outs = append(outs, run(in))
	}
	report(outs, *misses)
}

// load finds every instance: a directory holding NAME.json with an expectation.
func load(root string) ([]*instance, error) {
	var out []*instance
	ms, err := filepath.Glob(filepath.Join(root, "*", "*", "*.json"))
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		dir := filepath.Dir(m)
		if strings.TrimSuffix(filepath.Base(m), ".json") != filepath.Base(dir) {
			continue
		}
		b, err := os.ReadFile(m)
		if err != nil {
			return nil, err
		}
		in := &instance{dir: dir, pattern: filepath.Base(filepath.Dir(dir)), name: filepath.Base(dir)}
		if json.Unmarshal(b, in) != nil || in.Expectation.SourceLine == 0 || in.Expectation.SinkLine == 0 {
			continue
		}
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dir < out[j].dir })
	return out, nil
}

// run indexes a copy of the instance's PHP files and asks the flow.
func run(in *instance) (o outcome) {
	o.inst = in
	tmp, err := os.MkdirTemp("", "testability-")
	if err != nil {
		o.err = err.Error()
		return o
	}
	defer os.RemoveAll(tmp)
	err = filepath.WalkDir(in.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".php") {
			return err
		}
		rel, _ := filepath.Rel(in.dir, p)
		dst := filepath.Join(tmp, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return copyFile(p, dst)
	})
	if err != nil {
		o.err = err.Error()
		return o
	}
	ctx := context.Background()
	if _, err := rev.Build(ctx, rev.Options{Root: tmp, Config: config.Default()}); err != nil {
		o.err = err.Error()
		return o
	}
	s, err := facade.New(tmp, facade.Options{})
	if err != nil {
		o.err = err.Error()
		return o
	}
	defer s.Close()
	e := in.Expectation
	args, _ := json.Marshal(map[string]any{
		"from":  fmt.Sprintf("%s:%d", clean(e.SourceFile), e.SourceLine),
		"to":    fmt.Sprintf("%s:%d", clean(e.SinkFile), e.SinkLine),
		"depth": 5,
	})
	env, err := s.Call(ctx, "flow", args)
	if err != nil {
		o.err = err.Error()
		return o
	}
	r := env.Result.(facade.FlowResult)
	o.found, o.complete, o.notFound = r.Found, r.Complete, env.NotFound
	o.sanitized = len(r.Sanitizers) > 0
	for _, c := range r.CutPoints {
		o.cuts = append(o.cuts, c.Reason)
	}
	for _, st := range r.Path {
		if !validLine(filepath.Join(tmp, filepath.FromSlash(st.Path)), st.Line) {
			o.badStep = true
		}
	}
	return o
}

func clean(p string) string { return strings.TrimPrefix(filepath.ToSlash(p), "./") }

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func validLine(path string, line int) bool {
	b, err := os.ReadFile(path)
	if err != nil || line < 1 {
		return false
	}
	return line <= strings.Count(string(b), "\n")+1
}

func report(outs []outcome, misses bool) {
	var flows, found, foundSan, nonflows, reported, reportedSan, bad, errs int
	why := map[string]int{}
	for _, o := range outs {
		if o.err != "" {
			errs++
			fmt.Printf("error  %s/%s: %s\n", o.inst.pattern, o.inst.name, o.err)
			continue
		}
		if o.badStep {
			bad++
		}
		if o.inst.Expectation.Flow {
			flows++
			if o.found {
				found++
				if o.sanitized {
					foundSan++
				}
				continue
			}
			k := reason(o)
			why[k]++
			if misses {
				fmt.Printf("miss   %-45s %s\n", o.inst.pattern+"/"+strings.SplitN(o.inst.name, "_", 2)[0], k)
			}
		} else {
			nonflows++
			// a non-flow whose answered path passes a sanitizer is no
			// report of a vulnerability; it is counted apart
			if o.found && o.sanitized {
				reportedSan++
				if misses {
					fmt.Printf("sanitized %s/%s\n", o.inst.pattern, o.inst.name)
				}
			}
			if o.found && !o.sanitized {
				reported++
				if misses {
					fmt.Printf("false  %s/%s\n", o.inst.pattern, o.inst.name)
				}
			}
		}
	}
	fmt.Printf("\ninstances %d (errors %d)\n", len(outs), errs)
	fmt.Printf("expected flows found: %d of %d = %.2f\n", found, flows, suite.Ratio(found, flows))
	fmt.Printf("  of them only through a sanitizer: %d\n", foundSan)
	fmt.Printf("non-flows reported:   %d of %d = %.2f\n", reported, nonflows, suite.Ratio(reported, nonflows))
	fmt.Printf("  found only through a sanitizer (not reported): %d\n", reportedSan)
	fmt.Printf("answers with a step off the instance's lines: %d\n", bad)
	suite.PrintMisses(why)
}

// reason summarises why a flow was not found: no node at an end, or the
// answer's cut points (complete: nothing seen that could carry it).
func reason(o outcome) string {
	if o.notFound {
		return "no data-flow node at the source or sink line"
	}
	if len(o.cuts) == 0 {
		return "complete: no path"
	}
	seen := map[string]bool{}
	var cs []string
	for _, c := range o.cuts {
		if !seen[c] {
			seen[c] = true
			cs = append(cs, c)
		}
	}
	sort.Strings(cs)
	return "cut: " + strings.Join(cs, ", ")
}
