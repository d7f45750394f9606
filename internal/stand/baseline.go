// This file is the baseline: a scripted agent with no index. It greps the
// project's PHP files for the name (GNU grep -E, as `grep -rn` would, over the
// same files the index covers), then opens each hit's file around the hit
// (±30 lines, as agents read), until every truth line is among the lines it
// has seen or it has spent its call budget. Its calls and the cl100k tokens
// of everything it read are counted as ragraf's answers are.

package stand

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Baseline rules (stand.md prints them).
const (
	baselineWindow   = 30  // lines read either side of a hit
	baselineBudget   = 20  // calls per task, grep included
	baselineMaxHits  = 200 // grep output lines shown, as agent grep tools cut long outputs
	baselineLineCut  = 300 // characters of one grep output line shown
	grepChunkOfFiles = 1000
)

// Hit is one grep output line.
type Hit struct {
	Path string
	Line int
	Text string
}

// SideRun is what one side did for one task.
type SideRun struct {
	First  Judgement `json:"first"`  // its first answer (M1)
	Calls  int       `json:"calls"`  // until it had the answer or gave up (M3)
	Tokens int       `json:"tokens"` // cl100k of everything it read
	// TokensJSON is ragraf's Tokens counted on the compact JSON envelope
	// instead of the text MCP sends (0 for the baseline)
	TokensJSON int  `json:"tokens_json,omitempty"`
	Covered    bool `json:"covered"` // it saw every truth place
}

// baseline answers tasks over files (relative to root).
type baseline struct {
	root  string
	files []string
	lines map[string][]string // file contents by line, read on demand
}

func newBaseline(root string, files []string) *baseline {
	return &baseline{root: root, files: files, lines: map[string][]string{}}
}

// grep runs grep -HnE pat over files (or the given ones) and returns its
// hits in output order.
func (b *baseline) grep(ctx context.Context, pat string, ci bool, files []string) ([]Hit, error) {
	if files == nil {
		files = b.files
	}
	var hits []Hit
	for i := 0; i < len(files); i += grepChunkOfFiles {
		chunk := files[i:min(i+grepChunkOfFiles, len(files))]
		args := []string{"-HnE", "--binary-files=without-match"}
		if ci {
			args = append(args, "-i")
		}
		args = append(append(args, "-e", pat, "--"), chunk...)
		cmd := exec.CommandContext(ctx, "grep", args...)
		cmd.Dir = b.root
		out, err := cmd.Output()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("grep %q: %w", pat, err)
		}
		for _, l := range strings.Split(string(out), "\n") {
			p, rest, ok := strings.Cut(l, ":")
			if !ok {
				continue
			}
			n, text, ok := strings.Cut(rest, ":")
			ln, err := strconv.Atoi(n)
			if !ok || err != nil {
				continue
			}
			hits = append(hits, Hit{Path: p, Line: ln, Text: text})
		}
	}
	return hits, nil
}

// shown is the grep output an agent reads: the first baselineMaxHits
// lines, each cut at baselineLineCut characters.
func shown(hits []Hit) ([]Hit, string) {
	if len(hits) > baselineMaxHits {
		hits = hits[:baselineMaxHits]
	}
	var sb strings.Builder
	for _, h := range hits {
		t := h.Text
		if len(t) > baselineLineCut {
			t = t[:baselineLineCut]
		}
		fmt.Fprintf(&sb, "%s:%d:%s\n", h.Path, h.Line, t)
	}
	return hits, sb.String()
}

func (b *baseline) fileLines(p string) []string {
	if ls, ok := b.lines[p]; ok {
		return ls
	}
	data, err := os.ReadFile(filepath.Join(b.root, filepath.FromSlash(p)))
	var ls []string
	if err == nil {
		ls = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	b.lines[p] = ls
	return ls
}

// quote makes a PHP name safe inside an ERE.
func quote(s string) string { return regexp.QuoteMeta(s) }

const sp = "[[:space:]]"

// queries are the grep patterns a careful agent would use for a task: the
// first answers the question, the others follow up on what it found.
func firstPattern(t Task) (pat string, ci bool, files []string) {
	n := quote(t.Name)
	switch t.Kind {
	case KindDefinition:
		return `function` + sp + `+&?` + sp + `*` + n + sp + `*\(|(class|interface|trait|enum)` + sp + `+` + n + `([^A-Za-z0-9_]|$)`, false, nil
	case KindCallers, KindCoChange, KindTests:
		// what else must change with X: where X is used; which tests: the
		// same, in the test files (isTestPath, as grep -rn … tests/ would)
		if t.Sub == "method" {
			return `(->|::)` + sp + `*` + n + sp + `*\(`, false, nil
		}
		return `(^|[^A-Za-z0-9_$>:])` + n + sp + `*\(`, false, nil
	case KindImplementations:
		return heritagePattern(n), false, nil
	case KindTableWrites:
		return `(insert` + sp + `+(ignore` + sp + `+)?into|replace` + sp + `+into|update|delete` + sp + `+from)` + sp + "+[`\"']?" + n + `([^A-Za-z0-9_]|$)`, true, nil
	case KindFileDeclares:
		mods := `((abstract|final|readonly|public|protected|private|static|var)` + sp + `+)*`
		return `^` + sp + `*` + mods + `(function|class|interface|trait|enum|const)` + sp +
			`|^` + sp + `*((public|protected|private|static|var|readonly)` + sp + `+)+([?A-Za-z_\\|]+` + sp + `+)?\$`, false, []string{t.Path}
	}
	return "", false, nil
}

// heritagePattern finds `extends`/`implements` lists naming n (quoted),
// qualified or not.
func heritagePattern(n string) string {
	return `(implements|extends)` + sp + `+([^;{]*[^A-Za-z0-9_])?` + n + `([^A-Za-z0-9_]|$)`
}

var (
	classNameRe = regexp.MustCompile(`(?i)\b(class|interface|trait|enum)\s+([A-Za-z_][A-Za-z0-9_]*)`)
	funcDeclRe  = regexp.MustCompile(`function\s+&?\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
)

// run answers t and counts what it read.
func (b *baseline) run(ctx context.Context, t Task) (SideRun, error) {
	var r SideRun
	pat, ci, files := firstPattern(t)
	if pat == "" {
		return r, fmt.Errorf("baseline: no pattern for kind %s", t.Kind)
	}
	if t.Kind == KindTests {
		files = []string{}
		for _, f := range b.files {
			if isTestPath(f) {
				files = append(files, f)
			}
		}
	}
	seen := map[string]map[int]bool{}
	see := func(p string, l int) {
		if seen[p] == nil {
			seen[p] = map[int]bool{}
		}
		seen[p][l] = true
	}
	read := map[string]map[int]bool{} // lines opened, not grep lines
	var queue []Hit                   // hits to open, in order
	doGrep := func(pat string, ci bool, files []string) ([]Hit, error) {
		hits, err := b.grep(ctx, pat, ci, files)
		if err != nil {
			return nil, err
		}
		if t.Sub == "function" && (t.Kind == KindCallers || t.Kind == KindCoChange || t.Kind == KindTests) {
			// grep … | grep -v 'function NAME(' : the declaration is not a call
			kept := hits[:0]
			for _, h := range hits {
				if m := funcDeclRe.FindStringSubmatch(h.Text); m != nil && strings.EqualFold(m[1], t.Name) {
					continue
				}
				kept = append(kept, h)
			}
			hits = kept
		}
		hs, out := shown(hits)
		n, err := tokens(out)
		if err != nil {
			return nil, err
		}
		r.Calls++
		r.Tokens += n
		for _, h := range hs {
			see(h.Path, h.Line)
		}
		queue = append(queue, hs...)
		return hs, nil
	}
	hits, err := doGrep(pat, ci, files)
	if err != nil {
		return r, err
	}
	var cited []Place
	for _, h := range hits {
		cited = append(cited, Place{Path: h.Path, Line: h.Line})
	}
	r.First = judge(t.Truth, cited)
	// implementations: grep again for the types that extend what was found
	if t.Kind == KindImplementations {
		done := map[string]bool{strings.ToLower(t.Name): true}
		for i := 0; i < len(queue) && r.Calls < baselineBudget && !seenCovers(t.Truth, seen); i++ {
			m := classNameRe.FindStringSubmatch(queue[i].Text)
			if m == nil || done[strings.ToLower(m[2])] {
				continue
			}
			done[strings.ToLower(m[2])] = true
			n := quote(m[2])
			if _, err := doGrep(heritagePattern(n), false, nil); err != nil {
				return r, err
			}
		}
	}
	for i := 0; i < len(queue) && r.Calls < baselineBudget && !seenCovers(t.Truth, seen); i++ {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		h := queue[i]
		ls := b.fileLines(h.Path)
		var sb strings.Builder
		for l := max(1, h.Line-baselineWindow); l <= min(len(ls), h.Line+baselineWindow); l++ {
			if read[h.Path][l] {
				continue
			}
			if read[h.Path] == nil {
				read[h.Path] = map[int]bool{}
			}
			read[h.Path][l] = true
			see(h.Path, l)
			fmt.Fprintf(&sb, "%6d\t%s\n", l, ls[l-1])
		}
		if sb.Len() == 0 {
			continue // already read: no call
		}
		n, err := tokens(sb.String())
		if err != nil {
			return r, err
		}
		r.Calls++
		r.Tokens += n
	}
	r.Covered = seenCovers(t.Truth, seen)
	return r, nil
}

// lineCount is the number of lines of data as the index counts them.
func lineCount(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}
