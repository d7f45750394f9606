// Package suite holds what the data-flow suite benchmarks share
// (bench/dataflow/progpilot, bench/dataflow/psalm; testability keeps its
// own copy of the project set-up): a temporary project indexed with the real build and asked
// flow through the facade, the lines of a file where a source model may be
// read, and a reader of PHP literal arrays (phplit.go) for the suites'
// expectation files.
package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/dataflow"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
)

// Project is a temporary directory holding some files, indexed.
type Project struct {
	Dir   string
	files map[string][]byte
	svc   *facade.Service
}

// Index writes files (relative slash paths) into a new temporary
// directory, builds a revision of it and opens the facade on it; a
// projectYAML is written as its project.yaml after the build (the data-flow
// models are read at query time).
func Index(ctx context.Context, files map[string][]byte, projectYAML []byte) (*Project, error) {
	tmp, err := os.MkdirTemp("", "dfsuite-")
	if err != nil {
		return nil, err
	}
	p := &Project{Dir: tmp, files: files}
	for rel, b := range files {
		dst := filepath.Join(tmp, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			p.Close()
			return nil, err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			p.Close()
			return nil, err
		}
	}
	if _, err := rev.Build(ctx, rev.Options{Root: tmp, Config: config.Default()}); err != nil {
		p.Close()
		return nil, fmt.Errorf("indexing: %w", err)
	}
	if projectYAML != nil {
		if err := os.WriteFile(rev.Layout{Root: tmp}.Config(), projectYAML, 0o644); err != nil {
			p.Close()
			return nil, err
		}
	}
	if p.svc, err = facade.New(tmp, facade.Options{}); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// Close removes the project.
func (p *Project) Close() {
	if p.svc != nil {
		p.svc.Close()
	}
	os.RemoveAll(p.Dir)
}

// Answer is what one flow query said.
type Answer struct {
	Found, Complete bool
	NotFound        bool     // no data-flow node at a place given
	Cuts            []string // reasons, deduplicated and sorted
	Sanitizers      []string
	Lines           []string // path:line of every step
	BadSteps        int      // steps whose path:line is not a line of the project's files
}

// Flow asks flow from → to (path:line, source:NAME or sink:NAME; the
// variables narrow a path:line end when set) at depth 5.
func (p *Project) Flow(ctx context.Context, from, fromVar, to, toVar string) (Answer, error) {
	args := map[string]any{"from": from, "to": to, "depth": 5}
	if fromVar != "" {
		args["from_variable"] = fromVar
	}
	if toVar != "" {
		args["to_variable"] = toVar
	}
	b, _ := json.Marshal(args)
	env, err := p.svc.Call(ctx, "flow", b)
	if err != nil {
		return Answer{}, err
	}
	r := env.Result.(facade.FlowResult)
	a := Answer{Found: r.Found, Complete: r.Complete, NotFound: env.NotFound, Sanitizers: r.Sanitizers}
	seen := map[string]bool{}
	for _, c := range r.CutPoints {
		if !seen[c.Reason] {
			seen[c.Reason] = true
			a.Cuts = append(a.Cuts, c.Reason)
		}
	}
	sort.Strings(a.Cuts)
	for _, st := range r.Path {
		a.Lines = append(a.Lines, fmt.Sprintf("%s:%d", st.Path, st.Line))
		if !p.validLine(st.Path, st.Line) {
			a.BadSteps++
		}
	}
	return a, nil
}

func (p *Project) validLine(path string, line int) bool {
	b, ok := p.files[path]
	return ok && line >= 1 && line <= strings.Count(string(b), "\n")+1
}

// Reason summarises why a flow was not found: no node at an end, or the
// answer's cut points (complete: nothing seen that could carry it).
func (a Answer) Reason() string {
	if a.NotFound {
		return "no data-flow node at the source or sink line"
	}
	if len(a.Cuts) == 0 {
		return "complete: no path"
	}
	return "cut: " + strings.Join(a.Cuts, ", ")
}

// SourceLines returns the 1-based lines of src where a source of the
// shipped http_input model may be read: a superglobal of the model, or a
// call of one of its functions, or of its methods on a receiver of the
// model's names, plus calls of the extra function names. A flow query from
// such a line starts at every value the line begins with, as a query from
// a line does.
func SourceLines(src []byte, extra []string) ([]int, error) {
	m, err := dataflow.DefaultModels()
	if err != nil {
		return nil, err
	}
	model := m.Sources["http_input"]
	var alts []string
	for _, g := range model.Superglobals {
		alts = append(alts, `\$`+regexp.QuoteMeta(g)+`\b`)
	}
	call := func(name, literal string) {
		re := `\b` + regexp.QuoteMeta(name) + `\s*\(`
		if literal != "" {
			re += `\s*['"]` + regexp.QuoteMeta(literal)
		}
		alts = append(alts, re)
	}
	for _, c := range model.Calls {
		switch {
		case c.Function != "":
			call(c.Function, c.Literal)
		case len(c.Receivers) > 0:
			var rs []string
			for _, r := range c.Receivers {
				rs = append(rs, regexp.QuoteMeta(r))
			}
			alts = append(alts, `\b(?:`+strings.Join(rs, "|")+`)\s*(?:->|::)\s*`+regexp.QuoteMeta(c.Method)+`\s*\(`)
		default:
			alts = append(alts, `->\s*`+regexp.QuoteMeta(c.Method)+`\s*\(`)
		}
	}
	for _, n := range extra {
		call(n, "")
	}
	re := regexp.MustCompile(`(?i)` + strings.Join(alts, "|"))
	decl := regexp.MustCompile(`(?i)\bfunction\s+&?\s*\w+\s*\(`)
	var out []int
	for i, line := range strings.Split(string(src), "\n") {
		if re.MatchString(decl.ReplaceAllString(line, "")) {
			out = append(out, i+1)
		}
	}
	return out, nil
}

// PrintMisses prints the misses counted by what their answer said, most
// frequent first.
func PrintMisses(why map[string]int) {
	keys := make([]string, 0, len(why))
	for k := range why {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return why[keys[i]] > why[keys[j]] || why[keys[i]] == why[keys[j]] && keys[i] < keys[j]
	})
	fmt.Println("\nmisses by what the answer says:")
	for _, k := range keys {
		fmt.Printf("  %4d  %s\n", why[k], k)
	}
}

// Ratio is a / b, 0 when b is 0.
func Ratio(a, b int) float64 { return float64(a) / float64(max(b, 1)) }
