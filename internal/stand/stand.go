// This file runs the stand: the scratch copy, the full index, the task runs
// on both sides, then the history; the metrics are computed in metrics.go and
// history.go, the report written by report.go.

package stand

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
)

// Options configures a stand run.
type Options struct {
	Project string        // the project directory (a git working tree for M2, M5, M7-incremental); only read
	Out     string        // where stand.json and stand.md go
	Config  config.Config // the project's config (its languages, excludes)
	Tasks   string        // a task file to use instead of generating tasks
	History int           // commits to replay after the indexed one (0: none)
	Seed    uint64        // for every sample
	PerKind int           // generated tasks per kind (default 10)
	Facts   int           // facts sampled for M6 (default 1000)
	Slices  int           // symbols sliced for M4 (default 20)
	// Progress receives one line per step (stderr in the CLI); nil is quiet.
	Progress io.Writer
	// Now is the clock (tests fix it).
	Now func() time.Time
	// Hook, when set, is called as each step starts with "stand N" (N of
	// 7), after its progress line; interrupt tests stop the process there.
	Hook func(stage string)
}

// SetDefaults fills zero fields.
func (o *Options) SetDefaults() {
	if o.PerKind <= 0 {
		o.PerKind = 10
	}
	if o.Facts <= 0 {
		o.Facts = 1000
	}
	if o.Slices <= 0 {
		o.Slices = 20
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if len(o.Config.Languages) == 0 {
		o.Config = config.Default()
	}
}

// ErrPartial wraps an interruption: the metrics measured so far are in
// stand.partial.json, and stand.json and stand.md are not written.
var ErrPartial = errors.New("stand interrupted; partial results in stand.partial.json")

// Run measures the project and writes the report. The project directory is
// only read: the stand works on a scratch copy under a temporary directory.
func Run(ctx context.Context, opts Options) (*Report, error) {
	opts.SetDefaults()
	start := opts.Now()
	abs, err := filepath.Abs(opts.Project)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opts.Out, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", opts.Out, err)
	}
	removeStale(os.TempDir())
	tmp, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", tmpPrefix, os.Getpid()))
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	s := &stand{opts: opts, project: abs, tree: filepath.Join(tmp, "tree"), tmp: tmp,
		rep: &Report{Project: abs, Seed: opts.Seed, HistoryAsked: opts.History, Started: start.UTC().Format(time.RFC3339)}}
	err = s.run(ctx)
	s.rep.ElapsedS = round(opts.Now().Sub(start).Seconds())
	if err != nil {
		if ctx.Err() != nil {
			s.rep.Complete = false
			_ = writeJSON(filepath.Join(opts.Out, "stand.partial.json"), s.rep)
			return s.rep, fmt.Errorf("%w: %w", ErrPartial, ctx.Err())
		}
		return s.rep, err
	}
	s.rep.Complete = true
	_ = os.Remove(filepath.Join(opts.Out, "stand.partial.json"))
	if err := writeJSON(filepath.Join(opts.Out, "stand.json"), s.rep); err != nil {
		return s.rep, err
	}
	if err := os.WriteFile(filepath.Join(opts.Out, "stand.md"), []byte(markdown(s.rep)), 0o644); err != nil {
		return s.rep, err
	}
	return s.rep, nil
}

type stand struct {
	opts    Options
	project string
	tree    string // the scratch copy the index is built in
	tmp     string
	rep     *Report
	git     bool
	base    string   // the indexed commit
	replay  []string // commits replayed after it, oldest first
	files   []string // PHP files of the corpus, relative
	truth   Truth
	svc     *facade.Service
	ask     *asker
	step    int
	sk      skipped      // why a kind has no generated task
	coTasks []Task       // co_change tasks, asked while history is replayed
	coRes   []TaskResult // their results
}

const steps = 7

func (s *stand) progress(format string, args ...any) {
	s.step++
	fmt.Fprintf(s.opts.Progress, "stand [%d/%d] %s\n", min(s.step, steps), steps, fmt.Sprintf(format, args...))
	if s.opts.Hook != nil {
		s.opts.Hook(fmt.Sprintf("stand %d", s.step))
	}
}

func (s *stand) note(format string, args ...any) {
	fmt.Fprintf(s.opts.Progress, "stand       %s\n", fmt.Sprintf(format, args...))
}

func (s *stand) run(ctx context.Context) error {
	s.progress("copying %s into a scratch tree", s.project)
	if err := s.scratch(ctx); err != nil {
		return err
	}
	s.progress("full index of %s", s.short(s.base))
	t0 := time.Now()
	info, err := rev.Build(ctx, rev.Options{Root: s.tree, Config: s.opts.Config})
	if err != nil {
		return fmt.Errorf("indexing the scratch tree: %w", err)
	}
	full := time.Since(t0).Seconds()
	s.rep.Revision, s.rep.FilesIndexed, s.rep.Capability = info.Rev, info.FilesTotal, info.Capability
	s.rep.M7 = &M7{FullS: round(full), Method: m7Method, Seed: s.opts.Seed, Files: info.FilesTotal}
	s.note("indexed %d files (%d nodes, %d edges) in %.1fs", info.FilesTotal, info.Nodes, info.Edges, full)
	if s.files, err = phpFiles(ctx, s.tree, s.opts.Config); err != nil {
		return err
	}
	s.rep.PHPFiles = len(s.files)
	if s.truth, err = gatherTruth(ctx, s.tree, s.files); err != nil {
		return err
	}
	s.rep.TruthSources = map[string]string{"definitions": s.truth.DefSource, "references": "php-tokenizer", "implementations": "php-tokenizer", "tables": "php-tokenizer",
		"tests": "php-tokenizer (test files calling X by name)", "co_change": "git (the other functions and methods the replayed commit changed)"}
	if s.svc, err = facade.New(s.tree, facade.Options{}); err != nil {
		return err
	}
	defer func() { s.svc.Close() }()
	s.ask = &asker{svc: s.svc}

	s.progress("M1, M3: navigation tasks against the baseline")
	tasks, sk, err := s.tasks()
	if err != nil {
		return err
	}
	results, err := s.navigate(ctx, tasks)
	if err != nil {
		return err
	}
	s.rep.Tasks, s.sk = results, sk
	s.rep.M1, s.rep.M3 = scoreM1(results, sk, s.opts.Seed), scoreM3(results, s.opts.Seed)
	if err := writeJSON(filepath.Join(s.opts.Out, "tasks.json"), tasks); err != nil {
		return err
	}

	s.progress("M4: slice compression")
	if s.rep.M4, err = s.sliceCompression(ctx); err != nil {
		return err
	}

	s.progress("M6: link verifiability")
	s.rep.M6 = s.verify(s.ask.facts)

	s.progress("history: replaying %d commits (M2, M5, M7 incremental)", len(s.replay))
	if err := s.history(ctx); err != nil {
		return err
	}
	if len(s.coRes) > 0 { // co_change tasks join M1 and M3
		for i := range s.coTasks {
			s.coTasks[i].ID = fmt.Sprintf("C%03d", i+1)
			s.coRes[i].ID = s.coTasks[i].ID
		}
		s.rep.Tasks = append(s.rep.Tasks, s.coRes...)
		s.rep.M1, s.rep.M3 = scoreM1(s.rep.Tasks, s.sk, s.opts.Seed), scoreM3(s.rep.Tasks, s.opts.Seed)
		all := append(append([]Task(nil), tasks...), s.coTasks...)
		if err := writeJSON(filepath.Join(s.opts.Out, "tasks.json"), all); err != nil {
			return err
		}
	}
	s.progress("writing %s", s.opts.Out)
	return nil
}

func (s *stand) short(c string) string {
	if c == "" {
		return "the tree"
	}
	return c[:min(len(c), 12)]
}

// scratch copies the project: a git working tree is fetched into a new
// repository (the project's .git only read) and checked out at the commit
// History commits before its HEAD; any other directory is copied.
func (s *stand) scratch(ctx context.Context) error {
	top, err := gitOut(ctx, s.project, "rev-parse", "--show-toplevel")
	if err == nil && sameDir(strings.TrimSpace(top), s.project) {
		s.git = true
	}
	if !s.git {
		s.rep.HistoryReason = "not a git working tree: no history to replay"
		if out, err := exec.CommandContext(ctx, "cp", "-a", s.project, s.tree).CombinedOutput(); err != nil {
			return fmt.Errorf("copying the project: %v: %s", err, out)
		}
		return os.RemoveAll(filepath.Join(s.tree, rev.Dir))
	}
	list, err := gitOut(ctx, s.project, "rev-list", "--first-parent", fmt.Sprintf("--max-count=%d", s.opts.History+1), "HEAD")
	if err != nil {
		return err
	}
	commits := strings.Fields(list)
	if len(commits) == 0 {
		return fmt.Errorf("%s: no commit", s.project)
	}
	s.base = commits[len(commits)-1]
	for i := len(commits) - 2; i >= 0; i-- {
		s.replay = append(s.replay, commits[i])
	}
	if len(s.replay) < s.opts.History {
		s.note("only %d commits before HEAD: replaying those", len(s.replay))
	}
	s.rep.Commit = s.base
	for _, c := range [][]string{{"init", "-q", s.tree}} {
		if _, err := gitOut(ctx, s.tmp, c...); err != nil {
			return err
		}
	}
	// The commits replayed are fetched (--depth), and behind the indexed one
	// the window impact's co_changed block mines (co_change.commits), as a
	// clone of the project has it; a shallow clone, or a partial one missing
	// older objects, has the replayed ones at least.
	depth := len(commits) + max(0, s.opts.Config.CoChange.Commits)
	if _, err := gitOut(ctx, s.tree, "fetch", "-q", "--no-tags", fmt.Sprintf("--depth=%d", depth), s.project, "HEAD"); err != nil {
		if ctx.Err() != nil {
			return err
		}
		if m := s.missingObject(ctx, commits); m != "" {
			return errors.New(m)
		}
		return err
	}
	_, err = gitOut(ctx, s.tree, "-c", "advice.detachedHead=false", "checkout", "-q", "--detach", s.base)
	return err
}

// missingObject names an object the project's repository lacks among those
// of the commits to replay (newest first in commits), with the newest commit
// that needs it and the file it is, so the replay that would work can be
// named; "" when none is missing. The objects are listed with
// --missing=print, which never fetches them from a promisor.
func (s *stand) missingObject(ctx context.Context, commits []string) string {
	for i := range commits {
		c := commits[i]
		out, err := gitOut(ctx, s.project, "rev-list", "--objects", "--no-walk", "--missing=print", c)
		if err != nil {
			return fmt.Sprintf("commit %s cannot be read from %s (a partial or shallow clone?): %v", s.short(c), s.project, err)
		}
		for _, line := range strings.Split(out, "\n") {
			if !strings.HasPrefix(line, "?") {
				continue
			}
			obj := strings.TrimPrefix(line, "?")
			what := "object " + obj
			if path := s.pathOf(ctx, c, obj); path != "" {
				what += " (" + path + ")"
			}
			fix := "fetch it (git fetch --refetch, or git fetch --unshallow)"
			if i >= 1 {
				fix += fmt.Sprintf(" or replay fewer commits (--history %d)", i-1)
			}
			return fmt.Sprintf("%s, needed by commit %s, is missing from %s (a partial or shallow clone): %s",
				what, s.short(c), s.project, fix)
		}
	}
	return ""
}

// pathOf is the path of obj in commit c's tree, or "".
func (s *stand) pathOf(ctx context.Context, c, obj string) string {
	out, err := gitOut(ctx, s.project, "ls-tree", "-r", "-t", c)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(out, "\n") {
		meta, path, ok := strings.Cut(line, "\t")
		if ok && strings.HasSuffix(meta, " "+obj) {
			return path
		}
	}
	return ""
}

func sameDir(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

func gitOut(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, ee.Stderr)
		}
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}

// phpFiles are the PHP files the index covers, sorted.
func phpFiles(ctx context.Context, root string, cfg config.Config) ([]string, error) {
	fs, err := corpus.Walk(ctx, corpus.Options{Root: root, Config: cfg})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range fs {
		if f.Status == corpus.Pending && f.Lang == "php" {
			out = append(out, f.Path)
		}
	}
	sort.Strings(out)
	return out, nil
}

func (s *stand) tasks() ([]Task, skipped, error) {
	if s.opts.Tasks != "" {
		ts, err := readTasks(s.opts.Tasks)
		sk := skipped{}
		for _, k := range Kinds {
			n := 0
			for _, t := range ts {
				if t.Kind == k {
					n++
				}
			}
			if n == 0 {
				sk[k] = "none in the task file"
			}
		}
		return ts, sk, err
	}
	ts, sk := genTasks(s.truth, s.files, s.opts.PerKind, s.opts.Seed)
	return ts, sk, nil
}

// navigate runs every task on both sides.
func (s *stand) navigate(ctx context.Context, tasks []Task) ([]TaskResult, error) {
	b := newBaseline(s.tree, s.files)
	var out []TaskResult
	for i, t := range tasks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if t.Kind == KindRouteHandler || t.Kind == KindCoChange {
			continue // co_change: asked on the revision before its commit (history.go)
		}
		rr, err := s.ask.run(ctx, t)
		if err != nil {
			return nil, fmt.Errorf("task %s (%s): %w", t.ID, t.Question, err)
		}
		br, err := b.run(ctx, t)
		if err != nil {
			return nil, fmt.Errorf("task %s baseline: %w", t.ID, err)
		}
		out = append(out, TaskResult{ID: t.ID, Kind: t.Kind, Question: t.Question, Truth: len(t.Truth), Source: t.Source, Ragraf: rr, Baseline: br})
		if (i+1)%10 == 0 || i+1 == len(tasks) {
			s.note("tasks %d/%d", i+1, len(tasks))
		}
	}
	return out, nil
}

// sample draws up to n of xs with rng, keeping their order.
func sample[T any](xs []T, n int, rng *rand.Rand) []T {
	if len(xs) <= n {
		return xs
	}
	idx := rng.Perm(len(xs))[:n]
	sort.Ints(idx)
	out := make([]T, n)
	for i, j := range idx {
		out[i] = xs[j]
	}
	return out
}

// tmpPrefix starts the scratch directory of a run, followed by the pid of
// the process that made it: ragraf-stand-PID-RANDOM.
const tmpPrefix = "ragraf-stand-"

// removeStale removes the scratch directories under dir left by runs whose
// process is gone (killed with SIGKILL, or the machine stopped): a run
// removes its own when it ends, and a running one (its pid alive) is kept.
func removeStale(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), tmpPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}
