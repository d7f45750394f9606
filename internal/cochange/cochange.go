// Package cochange mines which files and definitions changed together from
// the repository's history, for impact's co_changed block. A build reads
// the newest commits of the checked-out branch with git (a bounded window;
// merges and sweeping commits skipped) and writes what each changed into
// the revision; the next build reads only the commits since and carries the
// rest over. A definition is a function or method named in a PHP hunk's
// header (git's php function-name pattern) or declared on a changed line;
// paths follow renames up to the mined head.
package cochange

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// FileName is the history's file in a revision directory.
const FileName = "cochange.json"

// version changes when the file's meaning does; an older file is mined again.
const version = 1

// Options bound the mining.
type Options struct {
	Commits  int // newest commits read; 0 reads none
	MaxFiles int // commits touching more files are skipped
}

// Commit is what one commit changed: files by their path at the mined head,
// and definitions as "path#name".
type Commit struct {
	Hash    string   `json:"h"`
	Time    int64    `json:"t"`
	Files   []string `json:"f"`
	Symbols []string `json:"s,omitempty"`
}

// History is the mined window, newest commit first.
type History struct {
	Version  int      `json:"version"`
	Head     string   `json:"head"`
	Window   int      `json:"window"`
	MaxFiles int      `json:"max_files"`
	Commits  []Commit `json:"commits"`
	// Bulk counts the commits of the window skipped for touching more than
	// MaxFiles files; Mined the commits this build read (the rest reused).
	Bulk   int `json:"bulk"`
	Mined  int `json:"mined"`
	Reused int `json:"reused"`
	// Reason says why there is no history (not a git repository, git
	// missing, window 0); then Commits is empty.
	Reason string `json:"reason,omitempty"`
}

// Key is a definition's key in Commit.Symbols.
func Key(path, name string) string { return path + "#" + name }

// Load reads the history in revision directory dir; nil when it has none.
func Load(dir string) (*History, error) {
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var h History
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", FileName, err)
	}
	return &h, nil
}

// Write stores h in revision directory dir.
func Write(dir string, h *History) error {
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, FileName), append(b, '\n'), 0o644)
}

// Mine reads the history of the git work tree at root. prev, the previous
// revision's history (nil for none), is extended when its head is an
// ancestor of HEAD under the same bounds; otherwise the window is read
// again. It never fails: a history it cannot read carries the reason.
func Mine(ctx context.Context, root string, prev *History, o Options) *History {
	h := &History{Version: version, Window: o.Commits, MaxFiles: o.MaxFiles, Commits: []Commit{}}
	if o.Commits <= 0 {
		h.Reason = "co_change.commits is 0 in project.yaml"
		return h
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		h.Reason = "the project is not a git repository"
		return h
	}
	head, err := git(ctx, root, nil, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	if err != nil {
		h.Reason = "git cannot read the repository's HEAD: " + firstLine(err.Error())
		return h
	}
	h.Head = strings.TrimSpace(string(head))
	rng := []string{h.Head}
	reuse := prev != nil && prev.Reason == "" && prev.Version == version && prev.Window == o.Commits &&
		prev.MaxFiles == o.MaxFiles && prev.Head != ""
	if reuse && prev.Head == h.Head {
		*h = *prev
		h.Reused, h.Mined = len(prev.Commits), 0
		return h
	}
	if reuse {
		if _, err := git(ctx, root, nil, "merge-base", "--is-ancestor", prev.Head, h.Head); err != nil {
			reuse = false // history rewritten or another branch: read the window again
		} else {
			rng = []string{prev.Head + ".." + h.Head}
		}
	}
	fresh, bulk, renames, err := mine(ctx, root, rng, o)
	if err != nil {
		h.Reason = "reading the history with git failed: " + firstLine(err.Error())
		return h
	}
	h.Commits, h.Bulk, h.Mined = fresh, bulk, len(fresh)
	if reuse {
		for _, c := range prev.Commits {
			if len(h.Commits) >= o.Commits {
				break
			}
			h.Commits = append(h.Commits, rename(c, renames))
			h.Reused++
		}
		h.Bulk += prev.Bulk
	}
	if len(h.Commits) > o.Commits {
		h.Commits = h.Commits[:o.Commits]
	}
	return h
}

// rename maps c's paths through renames made after it.
func rename(c Commit, renames map[string]string) Commit {
	if len(renames) == 0 {
		return c
	}
	out := Commit{Hash: c.Hash, Time: c.Time, Files: make([]string, len(c.Files)), Symbols: make([]string, len(c.Symbols))}
	for i, f := range c.Files {
		out.Files[i] = follow(renames, f)
	}
	for i, s := range c.Symbols {
		p, name, _ := strings.Cut(s, "#")
		out.Symbols[i] = Key(follow(renames, p), name)
	}
	return out
}

func follow(renames map[string]string, p string) string {
	if q, ok := renames[p]; ok {
		return q
	}
	return p
}

// mine reads the commits of rng newest first: their files (first pass,
// renames followed), then the definitions the non-bulk ones changed in PHP
// files (second pass). It returns the renames it saw, old path to head path.
func mine(ctx context.Context, root string, rng []string, o Options) ([]Commit, int, map[string]string, error) {
	args := append([]string{"log", "--no-merges", "--no-color", "-M", "--name-status", "--format=%x01%H %ct",
		"-n", strconv.Itoa(o.Commits)}, rng...)
	out, err := git(ctx, root, nil, args...)
	if err != nil {
		return nil, 0, nil, err
	}
	renames := map[string]string{}
	var commits []Commit
	bulk := 0
	var cur *Commit
	seen := map[string]bool{}
	flush := func() {
		if cur == nil {
			return
		}
		if len(cur.Files) > o.MaxFiles {
			bulk++
		} else if len(cur.Files) > 0 {
			commits = append(commits, *cur)
		}
		cur = nil
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "\x01") {
			flush()
			hash, ts, _ := strings.Cut(line[1:], " ")
			t, _ := strconv.ParseInt(ts, 10, 64)
			cur = &Commit{Hash: hash, Time: t, Files: []string{}}
			seen = map[string]bool{}
			continue
		}
		if cur == nil || line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		var p string
		switch {
		case len(f) == 3 && (f[0][0] == 'R' || f[0][0] == 'C'):
			p = follow(renames, f[2])
			if f[0][0] == 'R' {
				renames[f[1]] = p
			}
		case len(f) == 2:
			p = follow(renames, f[1])
		default:
			continue
		}
		if !seen[p] {
			seen[p] = true
			cur.Files = append(cur.Files, p)
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		return nil, 0, nil, err
	}
	if err := symbols(ctx, root, commits, renames); err != nil {
		return nil, 0, nil, err
	}
	return commits, bulk, renames, nil
}

// funcDecl finds a function or method declaration (git's php function-name
// pattern, or a changed line declaring one).
var funcDecl = regexp.MustCompile(`^[+-]?[\t ]*(?:(?:public|protected|private|static|abstract|final)[\t ]+)*function[\t ]+&?[\t ]*([A-Za-z_]\w*)[\t ]*\(`)

// symbols fills the definitions each commit changed in PHP files: the
// function a hunk's header names and those declared on its changed lines.
func symbols(ctx context.Context, root string, commits []Commit, renames map[string]string) error {
	if len(commits) == 0 {
		return nil
	}
	attrs, err := os.CreateTemp("", "ragraf-cochange-*.attributes")
	if err != nil {
		return err
	}
	defer os.Remove(attrs.Name())
	if _, err := attrs.WriteString("*.php diff=php\n"); err != nil {
		attrs.Close()
		return err
	}
	if err := attrs.Close(); err != nil {
		return err
	}
	by := make(map[string]*Commit, len(commits))
	var in strings.Builder
	for i := range commits {
		by[commits[i].Hash] = &commits[i]
		in.WriteString(commits[i].Hash + "\n")
	}
	out, err := git(ctx, root, strings.NewReader(in.String()), "-c", "core.attributesFile="+attrs.Name(),
		"log", "--no-walk=unsorted", "--stdin", "--no-color", "--no-ext-diff", "-M", "-p", "-U0",
		"--format=%x01%H", "--", "*.php")
	if err != nil {
		return err
	}
	var cur *Commit
	var path string
	seen := map[string]bool{}
	add := func(name string) {
		if cur == nil || path == "" || name == "" {
			return
		}
		k := Key(path, name)
		if !seen[k] {
			seen[k] = true
			cur.Symbols = append(cur.Symbols, k)
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "\x01"):
			cur, path, seen = by[line[1:]], "", map[string]bool{}
		case strings.HasPrefix(line, "diff --git "):
			path = ""
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "):
			// a diff names the file as the commit had it
			if p, ok := strings.CutPrefix(line[4:], "b/"); ok {
				path = headPath(cur, p, renames)
			} else if p, ok := strings.CutPrefix(line[4:], "a/"); ok && path == "" {
				path = headPath(cur, p, renames)
			}
		case strings.HasPrefix(line, "@@"):
			if i := strings.Index(line[2:], "@@"); i >= 0 {
				if m := funcDecl.FindStringSubmatch(strings.TrimSpace(line[2+i+2:])); m != nil {
					add(m[1])
				}
			}
		case strings.HasPrefix(line, "+"), strings.HasPrefix(line, "-"):
			if m := funcDecl.FindStringSubmatch(line); m != nil {
				add(m[1])
			}
		}
	}
	for i := range commits {
		sort.Strings(commits[i].Symbols)
	}
	return sc.Err()
}

// headPath returns the head's name of path p in commit c: p followed
// through the renames when the commit lists that, else p when it lists p.
func headPath(c *Commit, p string, renames map[string]string) string {
	q := follow(renames, p)
	if c == nil {
		return q
	}
	for _, f := range c.Files {
		if f == q {
			return q
		}
	}
	for _, f := range c.Files {
		if f == p {
			return p
		}
	}
	return q
}

func git(ctx context.Context, root string, stdin *strings.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root, "-c", "core.quotepath=off"}, args...)...)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// Pair is one file or definition changed together with what is asked about.
type Pair struct {
	Key        string   // a path, or a definition's Key
	Support    int      // commits that changed both
	Confidence float64  // Support over the commits that changed what is asked about
	Commits    []string // up to maxEvidence of those commits, newest first
}

// maxEvidence is the most commits a Pair cites.
const maxEvidence = 5

// WithFile returns what changed in the commits that changed the file path:
// files and definitions, most support first, then most recent; path itself
// is left out. n counts the commits that changed path.
func (h *History) WithFile(path string) (n int, files, defs []Pair) { return h.with(path, false) }

// WithDef is WithFile for a definition's Key.
func (h *History) WithDef(key string) (n int, files, defs []Pair) { return h.with(key, true) }

func (h *History) with(key string, def bool) (n int, files, defs []Pair) {
	if h == nil {
		return 0, nil, nil
	}
	fs, ds := map[string]*Pair{}, map[string]*Pair{}
	var forder, dorder []string
	count := func(m map[string]*Pair, order *[]string, k, hash string) {
		p := m[k]
		if p == nil {
			p = &Pair{Key: k}
			m[k] = p
			*order = append(*order, k)
		}
		p.Support++
		if len(p.Commits) < maxEvidence {
			p.Commits = append(p.Commits, hash)
		}
	}
	for _, c := range h.Commits {
		list := c.Files
		if def {
			list = c.Symbols
		}
		if !contains(list, key) {
			continue
		}
		n++
		for _, f := range c.Files {
			if def || f != key {
				count(fs, &forder, f, c.Hash)
			}
		}
		for _, s := range c.Symbols {
			if s != key {
				count(ds, &dorder, s, c.Hash)
			}
		}
	}
	rank := func(m map[string]*Pair, order []string) []Pair {
		out := make([]Pair, 0, len(order))
		for _, k := range order {
			p := *m[k]
			p.Confidence = float64(p.Support) / float64(n)
			out = append(out, p)
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].Support > out[j].Support })
		return out
	}
	return n, rank(fs, forder), rank(ds, dorder)
}

func contains(list []string, k string) bool {
	for _, x := range list {
		if x == k {
			return true
		}
	}
	return false
}
