package stand

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The scripted project: an interface with two implementations (one of them
// declared over two lines, which a line-based grep cannot see), a call
// chain total_area → Circle::area → Circle::radius, a save_report that
// calls total_area and writes audit_log, and two commits after the base:
// the first changes Circle::area and Circle::radius, the second save_report.
var scripted = []map[string]string{
	{
		"src/Shape.php": "<?php\nnamespace App;\n\ninterface Shape\n{\n    public function area(): float;\n}\n",
		"src/Circle.php": "<?php\nnamespace App;\n\nclass Circle implements Shape\n{\n    private float $r = 1.0;\n\n" +
			"    public function area(): float\n    {\n        return 3.14 * $this->radius() * $this->radius();\n    }\n\n" +
			"    public function radius(): float\n    {\n        return $this->r;\n    }\n}\n",
		"src/Square.php": "<?php\nnamespace App;\n\nfinal class Square implements\n    Shape\n{\n    public function area(): float\n    {\n        return 4.0;\n    }\n}\n",
		"src/Report.php": "<?php\nnamespace App;\n\nfunction total_area(): float\n{\n    $c = new Circle();\n    return $c->area();\n}\n\n" +
			"function save_report(\\PDO $db): void\n{\n    $db->exec(\"INSERT INTO audit_log (total) VALUES (\" . total_area() . \")\");\n}\n",
		"schema.sql": "CREATE TABLE audit_log (total FLOAT, at DATETIME);\n",
	},
	{
		"src/Circle.php": "<?php\nnamespace App;\n\nclass Circle implements Shape\n{\n    private float $r = 1.0;\n\n" +
			"    public function area(): float\n    {\n        return M_PI * $this->radius() * $this->radius();\n    }\n\n" +
			"    public function radius(): float\n    {\n        return abs($this->r);\n    }\n}\n",
	},
	{
		"src/Report.php": "<?php\nnamespace App;\n\nfunction total_area(): float\n{\n    $c = new Circle();\n    return $c->area();\n}\n\n" +
			"function save_report(\\PDO $db): void\n{\n    $db->exec(\"INSERT INTO audit_log (total, at) VALUES (\" . total_area() . \", NOW())\");\n}\n",
	},
}

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return string(out)
}

func needTools(t testing.TB) {
	for _, b := range []string{"git", "php", "grep"} {
		if _, err := exec.LookPath(b); err != nil {
			t.Skipf("%s not installed", b)
		}
	}
}

var (
	runOnce sync.Once
	runRep  *Report
	runErr  error
	runDir  string
	runHead string
)

// scriptedRun runs the stand once on the scripted project for every test.
func scriptedRun(t *testing.T) *Report {
	t.Helper()
	needTools(t)
	runOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ragraf-stand-test-")
		if err != nil {
			runErr = err
			return
		}
		runDir = dir
		proj := filepath.Join(dir, "proj")
		git(t, dir, "init", "-q", proj)
		for i, files := range scripted {
			for p, s := range files {
				abs := filepath.Join(proj, filepath.FromSlash(p))
				_ = os.MkdirAll(filepath.Dir(abs), 0o755)
				if err := os.WriteFile(abs, []byte(s), 0o644); err != nil {
					runErr = err
					return
				}
			}
			git(t, proj, "add", "-A")
			git(t, proj, "commit", "-qm", "c"+string(rune('1'+i)))
		}
		runHead = git(t, proj, "rev-parse", "HEAD")
		runRep, runErr = Run(context.Background(), Options{Project: proj, Out: filepath.Join(dir, "out"), History: 2, Seed: 7})
	})
	if runErr != nil {
		t.Fatal(runErr)
	}
	return runRep
}

func TestMain(m *testing.M) {
	code := m.Run()
	if runDir != "" && os.Getenv("STAND_TEST_KEEP") == "" {
		os.RemoveAll(runDir)
	}
	os.Exit(code)
}

func task(t *testing.T, r *Report, q string) TaskResult {
	t.Helper()
	for _, x := range r.Tasks {
		if x.Question == q {
			return x
		}
	}
	t.Fatalf("no task %q", q)
	return TaskResult{}
}

func eq[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func val(p *float64) float64 {
	if p == nil {
		return -1
	}
	return *p
}

// Hand count: 6 definition tasks (Shape, Circle, radius, Square,
// total_area, save_report: area is declared three times), 2 callers tasks
// (radius, total_area), 1 implementations (Shape), 1 table (audit_log), 4
// files. The baseline's grep misses Square, whose implements list is on the
// next line: 13 of 14. ragraf answers all 14. No test file: no tests task.
// The replayed commit 2 adds one co_change task that neither side gets
// right (TestM1_CoChangeTaskAskedBeforeItsCommit): 14 of 15 and 13 of 15.
func TestM1_FirstAnswerAccuracyOnScriptedProject(t *testing.T) {
	r := scriptedRun(t)
	eq(t, "tasks", len(r.Tasks), 15)
	eq(t, "M1.sample", r.M1.Sample, 15)
	eq(t, "M1.accuracy", val(r.M1.Accuracy), 0.933)                  // 14/15
	eq(t, "M1.baseline_accuracy", val(r.M1.BaselineAccuracy), 0.867) // 13/15
	eq(t, "tests reason", r.M1.ByKind[KindTests].Reason, "no candidate in the tree")
	for k, n := range map[string]int{KindDefinition: 6, KindCallers: 2, KindImplementations: 1, KindTableWrites: 1, KindFileDeclares: 4,
		KindRouteHandler: 0, KindCoChange: 1, KindTests: 0} {
		eq(t, "tasks of "+k, r.M1.ByKind[k].Tasks, n)
	}
	eq(t, "route reason", r.M1.ByKind[KindRouteHandler].Reason, routeReason)
	impl := task(t, r, "what implements Shape?")
	eq(t, "implements truth", impl.Truth, 2)
	eq(t, "baseline covered of implements", impl.Baseline.First.Covered, 1)
	eq(t, "baseline recall of implements", impl.Baseline.First.Recall(), 0.5)
	eq(t, "ragraf covered of implements", impl.Ragraf.First.Covered, 2)
	eq(t, "callers radius truth", task(t, r, "who calls Circle::radius?").Truth, 1)
	eq(t, "declares Circle.php truth", task(t, r, "what does src/Circle.php declare?").Truth, 4)
}

// Hand count: the baseline spends one grep on each of 13 tasks; on Shape it
// greps, greps for what extends Circle, opens Circle.php and gives up (3).
// ragraf: 6 symbol, 2×(symbol+callers), symbol+implementations,
// table_usage, 4 outline = 17. Tokens of the first definition task are the
// grep line itself. The co_change task: the baseline greps and opens
// Report.php (2), ragraf asks impact once (1): 18 and 18.
func TestM3_CallsAndTokensOnScriptedProject(t *testing.T) {
	r := scriptedRun(t)
	eq(t, "baseline calls", r.M3.BaselineCalls, 18)
	eq(t, "ragraf calls", r.M3.RagrafCalls, 18)
	eq(t, "call_ratio", val(r.M3.CallRatio), 1.0)
	eq(t, "baseline covered", r.M3.BaseCovered, 13)
	eq(t, "ragraf covered", r.M3.RagrafCovered, 14)
	def := task(t, r, "where is Shape defined?")
	want, _ := tokens("src/Shape.php:4:interface Shape\n")
	eq(t, "baseline tokens of the Shape definition", def.Baseline.Tokens, want)
	eq(t, "baseline calls of implements", task(t, r, "what implements Shape?").Baseline.Calls, 3)
	sum := 0
	for _, x := range r.Tasks {
		sum += x.Baseline.Tokens
	}
	eq(t, "baseline tokens sum", r.M3.BaselineTokens, sum)
	eq(t, "token_ratio", val(r.M3.TokenRatio), val(ratio(r.M3.BaselineTokens, r.M3.RagrafTokens)))
	// ragraf is counted on the text MCP sends, and on the JSON envelope beside it
	js := 0
	for _, x := range r.Tasks {
		js += x.Ragraf.TokensJSON
		if x.Ragraf.Calls > 0 && (x.Ragraf.Tokens == 0 || x.Ragraf.TokensJSON <= x.Ragraf.Tokens) {
			t.Errorf("%s: text %d tokens, JSON %d", x.Question, x.Ragraf.Tokens, x.Ragraf.TokensJSON)
		}
	}
	eq(t, "ragraf JSON tokens sum", r.M3.RagrafTokensJSON, js)
	eq(t, "token_ratio_json", val(r.M3.TokenRatioJSON), val(ratio(r.M3.BaselineTokens, js)))
}

// Hand count on commit 2 (Circle::area and Circle::radius change): impact
// of radius reaches area (depth 1), total_area (2), save_report (3); impact
// of area reaches total_area (1), save_report (2). Truth of each is the
// other: hits 1 at every depth, predicted 2, 4, 5, truth 2.
func TestM2_CoChangeImpactOnScriptedHistory(t *testing.T) {
	r := scriptedRun(t)
	eq(t, "commits", r.M2.Commits, 1)
	eq(t, "seeds", r.M2.Seeds, 2)
	for d, want := range map[string][3]int{"1": {1, 2, 2}, "2": {1, 4, 2}, "3": {1, 5, 2}} {
		got := r.M2.ByDepth[d].Stated
		eq(t, "depth "+d+" stated hits/predicted/truth", [3]int{got.Hits, got.Predicted, got.Truth}, want)
	}
	// one earlier commit declared both methods: support 1, under
	// co_changed's floor of 2, so the block predicts nothing yet
	co := r.M2.ByBlock["1"]["co_change"]
	eq(t, "co_change hits/predicted/truth at depth 1", [3]int{co.Hits, co.Predicted, co.Truth}, [3]int{0, 0, 2})
	eq(t, "all blocks at depth 1 hit what calls hit", r.M2.ByBlock["1"]["all"].Hits, r.M2.ByBlock["1"]["calls"].Hits)
	eq(t, "calls block is by_depth's all", r.M2.ByBlock["3"]["calls"].Hits, r.M2.ByDepth["3"].All.Hits)
	eq(t, "M2.precision (depth 3, all)", val(r.M2.Precision), 0.2)
	eq(t, "M2.recall", val(r.M2.Recall), 0.5)
}

// Hand count: per commit one changed file; outline, symbol, code and
// callers of its first changed declaration: 8 answers. Each cites the
// changed file (callers name their target's place even when nobody calls
// it), every one is warned; no incident.
func TestM5_FreshnessOnScriptedHistory(t *testing.T) {
	r := scriptedRun(t)
	eq(t, "answers", r.M5.Answers, 8)
	eq(t, "touching", r.M5.Touching, 8)
	eq(t, "marked", r.M5.Marked, 8)
	eq(t, "incidents", *r.M5.Incidents, 0)
	eq(t, "stale_share", val(r.M5.StaleShare), 1.0)
}

func TestM6_EveryCitedFactIsInTheTree(t *testing.T) {
	r := scriptedRun(t)
	eq(t, "sample is the population (under 1000)", r.M6.Sample, r.M6.Population)
	eq(t, "valid", r.M6.Valid, r.M6.Sample)
	eq(t, "valid_share", val(r.M6.ValidShare), 1.0)

	dir := t.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "a.php"), []byte("1\n2\n3\n"), 0o644)
	m := checkFacts(dir, []cited{
		{Place: Place{Path: "a.php", Line: 1, End: 3}}, {Place: Place{Path: "a.php", Line: 3}},
		{Place: Place{Path: "a.php", Line: 4}}, {Place: Place{Path: "a.php", Line: 2, End: 5}}, {Place: Place{Path: "b.php", Line: 1}},
	}, 1000, 1)
	eq(t, "valid of 5", m.Valid, 2)
	eq(t, "valid_share", val(m.ValidShare), 0.4)
}

func TestM7_UpdateCostOnScriptedHistory(t *testing.T) {
	r := scriptedRun(t)
	if r.M7.FullS <= 0 {
		t.Errorf("full_s = %v", r.M7.FullS)
	}
	eq(t, "incremental builds", r.M7.Sample, 2)
	eq(t, "files changed", len(r.M7.FilesChanged), 2)
	q := quantiles([]float64{5, 1, 4, 2, 3})
	eq(t, "p50 of 1..5", q.P50, 3.0)
	eq(t, "p95 of 1..5", q.P95, 5.0)
	eq(t, "mean of 1..5", q.Mean, 3.0)
}

// The project is only read: no .ragraf, no new files, HEAD unchanged; the
// report is complete and says so.
func TestStandLeavesTheProjectAsItWas(t *testing.T) {
	r := scriptedRun(t)
	proj := filepath.Join(runDir, "proj")
	if _, err := os.Stat(filepath.Join(proj, ".ragraf")); !os.IsNotExist(err) {
		t.Errorf(".ragraf in the project: %v", err)
	}
	eq(t, "git status", git(t, proj, "status", "--porcelain"), "")
	eq(t, "HEAD", git(t, proj, "rev-parse", "HEAD"), runHead)
	eq(t, "complete", r.Complete, true)
	eq(t, "replayed", r.Replayed, 2)
	b, err := os.ReadFile(filepath.Join(runDir, "out", "stand.md"))
	if err != nil || !strings.Contains(string(b), "## The baseline") {
		t.Errorf("stand.md: %v", err)
	}
}

func TestM1_JudgeMatchesOneToOne(t *testing.T) {
	truth := []Place{{Path: "a", Line: 10}, {Path: "a", Line: 20, End: 22}, {Path: "b", Line: 5}}
	for _, c := range []struct {
		name  string
		cited []Place
		want  Judgement
	}{
		{"all, exact", []Place{{Path: "a", Line: 10}, {Path: "a", Line: 21}, {Path: "b", Line: 5}}, Judgement{3, 3, 3, 3, true}},
		{"attribute line before", []Place{{Path: "a", Line: 7}, {Path: "a", Line: 20}, {Path: "b", Line: 5}}, Judgement{3, 3, 3, 3, true}},
		{"too far before", []Place{{Path: "a", Line: 6}}, Judgement{1, 0, 3, 0, false}},
		{"two cited name one truth", []Place{{Path: "a", Line: 10}, {Path: "a", Line: 9, End: 30}}, Judgement{2, 2, 3, 1, false}},
		{"nearest of two", []Place{{Path: "a", Line: 19}}, Judgement{1, 1, 3, 1, false}},
		{"noise", []Place{{Path: "a", Line: 10}, {Path: "a", Line: 20}, {Path: "b", Line: 5}, {Path: "c", Line: 1}, {Path: "c", Line: 2}, {Path: "c", Line: 3}, {Path: "c", Line: 4}}, Judgement{7, 3, 3, 3, false}},
		{"half noise", []Place{{Path: "a", Line: 10}, {Path: "a", Line: 20}, {Path: "b", Line: 5}, {Path: "c", Line: 1}, {Path: "c", Line: 2}, {Path: "c", Line: 3}}, Judgement{6, 3, 3, 3, true}},
		{"nothing", nil, Judgement{0, 0, 3, 0, false}},
	} {
		if got := judge(truth, c.cited); got != c.want {
			t.Errorf("%s: judge = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestM2_ChangedDeclsFromDiff(t *testing.T) {
	diff := "diff --git a/x.php b/x.php\nindex 1..2 100644\n--- a/x.php\n+++ b/x.php\n@@ -10 +10 @@\n-a\n+b\n@@ -30,0 +31,2 @@\n+c\n+d\n" +
		"diff --git a/gone.php b/gone.php\ndeleted file mode 100644\n--- a/gone.php\n+++ /dev/null\n@@ -1,3 +0,0 @@\n" +
		"diff --git a/new.php b/new.php\nnew file mode 100644\n--- /dev/null\n+++ b/new.php\n@@ -0,0 +1 @@\n+x\n" +
		"diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n" +
		"diff --git a/mode.php b/mode.php\nold mode 100755\nnew mode 100644\n"
	cs := parseDiff(diff)
	eq(t, "php files", len(cs), 3)
	decls := []Decl{
		{Path: "x.php", Kind: "method", Name: "a", Line: 8, End: 12},  // line 10 changed
		{Path: "x.php", Kind: "method", Name: "b", Line: 14, End: 20}, // untouched
		{Path: "x.php", Kind: "method", Name: "c", Line: 28, End: 33}, // lines inserted after 30
		{Path: "x.php", Kind: "method", Name: "d", Line: 25, End: 30}, // insertion after its last line
		{Path: "x.php", Kind: "class", Name: "X", Line: 1, End: 40},   // not a method
		{Path: "gone.php", Kind: "function", Name: "g", Line: 2, End: 3},
	}
	var names []string
	for _, d := range changedDecls(cs, decls) {
		names = append(names, d.Name)
	}
	eq(t, "changed", strings.Join(names, ","), "a,c,g")
}

// Two calls in one method are one caller; a call outside any function is
// its own line; a project function named like one of PHP's is no task.
func TestM1_CallerTruthIsTheEnclosingDefinition(t *testing.T) {
	tr := Truth{
		Builtins: map[string]bool{"explode": true},
		Decls: []Decl{
			{Path: "c.php", Kind: "function", Name: "explode", Line: 1, End: 3},
			{Path: "a.php", Kind: "method", Name: "target", Scope: "A", Line: 3, End: 5},
			{Path: "a.php", Kind: "method", Name: "user", Scope: "A", Line: 7, End: 12},
		},
		Calls: []CallSite{
			{Path: "a.php", Name: "target", Via: "->", Line: 8}, {Path: "a.php", Name: "target", Via: "->", Line: 10},
			{Path: "b.php", Name: "target", Via: "::", Line: 2}, {Path: "b.php", Name: "target", Via: "fn", Line: 4},
		},
	}
	ts := callerTasks(tr)
	if len(ts) != 1 {
		t.Fatalf("tasks = %+v", ts)
	}
	want := []Place{{Path: "a.php", Line: 7, End: 12}, {Path: "b.php", Line: 2}}
	if fmt.Sprint(ts[0].Truth) != fmt.Sprint(want) {
		t.Errorf("truth = %v, want %v", ts[0].Truth, want)
	}
	eq(t, "question", ts[0].Question, "who calls A::target?")
}

// TestReliability_StaleScratchRemoved: a run removes the scratch
// directories of runs whose process is gone (a SIGKILLed stand), and keeps
// those of live processes and anything else in the temporary directory.
func TestReliability_StaleScratchRemoved(t *testing.T) {
	dir := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no `true` to make a finished process:", err)
	}
	dead := filepath.Join(dir, fmt.Sprintf("ragraf-stand-%d-123", gone.Process.Pid))
	live := filepath.Join(dir, fmt.Sprintf("ragraf-stand-%d-456", os.Getppid()))
	own := filepath.Join(dir, fmt.Sprintf("ragraf-stand-%d-789", os.Getpid()))
	other := filepath.Join(dir, "ragraf-stand-test-42")
	for _, d := range []string{dead, live, own, other} {
		if err := os.MkdirAll(filepath.Join(d, "tree"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	removeStale(dir)
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("%s of a finished process is still there (%v)", dead, err)
	}
	for _, d := range []string{live, own, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s removed: %v", d, err)
		}
	}
}

// scratchOf runs the stand's scratch copy of proj (History commits) and
// checks that the copy's HEAD is the commit History commits before proj's.
func scratchOf(t *testing.T, proj string, history int) (*stand, error) {
	t.Helper()
	tmp := t.TempDir()
	s := &stand{opts: Options{History: history, Progress: io.Discard}, project: proj, tree: filepath.Join(tmp, "tree"), tmp: tmp, rep: &Report{}}
	return s, s.scratch(context.Background())
}

// TestReliability_StandOnShallowAndPartialClones: `ragraf stand` on a
// repository whose old history lacks objects. A shallow clone (`git clone
// --depth 3`) replays the commits it has (before: "shallow roots are not
// allowed to be updated", then checkout failed); a partial clone whose
// replayed commits miss blobs names the missing object and the commit that
// needs it (before: "fetch-pack: invalid index-pack output" / "bad pack
// header"); a partial clone whose missing blobs are older than the replayed
// commits is fetched as far as it replays and works.
func TestReliability_StandOnShallowAndPartialClones(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	git(t, dir, "init", "-q", src)
	git(t, src, "config", "uploadpack.allowFilter", "true")
	var commits []string
	for i := 1; i <= 8; i++ {
		if err := os.WriteFile(filepath.Join(src, "f.php"), []byte(fmt.Sprintf("<?php\nfunction f%d() {}\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		git(t, src, "add", "-A")
		git(t, src, "commit", "-qm", fmt.Sprintf("c%d", i))
		commits = append(commits, strings.TrimSpace(git(t, src, "rev-parse", "HEAD")))
	}

	t.Run("shallow", func(t *testing.T) {
		shallow := filepath.Join(dir, "shallow")
		git(t, dir, "clone", "-q", "--depth", "3", "file://"+src, shallow)
		s, err := scratchOf(t, shallow, 5)
		if err != nil {
			t.Fatalf("scratch of a shallow clone: %v", err)
		}
		if s.base != commits[5] || len(s.replay) != 2 || s.replay[1] != commits[7] {
			t.Fatalf("base %s replay %v, want base %s and the two commits after it", s.base, s.replay, commits[5])
		}
		if head := strings.TrimSpace(git(t, s.tree, "rev-parse", "HEAD")); head != s.base {
			t.Errorf("scratch HEAD %s, want %s", head, s.base)
		}
		for _, c := range s.replay {
			git(t, s.tree, "cat-file", "-e", c+"^{tree}")
		}
	})

	// A partial clone: only HEAD's blobs are there (the clone checked them out).
	partial := filepath.Join(dir, "partial")
	git(t, dir, "clone", "-q", "--filter=blob:none", "file://"+src, partial)
	// The source goes away, as a remote out of reach would: nothing may be
	// fetched lazily.
	if err := os.Rename(src, src+".gone"); err != nil {
		t.Fatal(err)
	}
	t.Run("partial, replayed commits miss blobs", func(t *testing.T) {
		_, err := scratchOf(t, partial, 3)
		if err == nil {
			t.Fatal("scratch of a partial clone missing the replayed blobs succeeded")
		}
		missing := strings.TrimSpace(git(t, src+".gone", "rev-parse", commits[6]+":f.php"))
		for _, want := range []string{missing, commits[6][:12], "f.php", "partial or shallow clone", "--history 0"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not name %q", err, want)
			}
		}
		if strings.Contains(err.Error(), "index-pack") || strings.Contains(err.Error(), "pack header") {
			t.Errorf("error is git's, not ours: %v", err)
		}
	})
	t.Run("partial, missing blobs older than the replay", func(t *testing.T) {
		s, err := scratchOf(t, partial, 0)
		if err != nil {
			t.Fatalf("scratch of a partial clone, nothing replayed: %v", err)
		}
		if s.base != commits[7] {
			t.Errorf("base %s, want HEAD %s", s.base, commits[7])
		}
	})
}

// Hand count on commit 2 (Circle::area and Circle::radius change): the
// seed drawn is area; the truth is radius, lines 13-16 of the old
// Circle.php. Asked before the commit: ragraf's impact of area, its
// co_changed block alone, names nothing (area changed in one earlier commit,
// under co_changed's support floor of 2); the baseline greps
// ->area( (Report.php:7, inside total_area) and opens Report.php: neither
// names radius, and neither is right.
func TestM1_CoChangeTaskAskedBeforeItsCommit(t *testing.T) {
	r := scriptedRun(t)
	co := task(t, r, "what else must change with Circle::area?")
	eq(t, "kind", co.Kind, KindCoChange)
	eq(t, "truth", co.Truth, 1)
	eq(t, "ragraf calls", co.Ragraf.Calls, 1)
	eq(t, "ragraf cited", co.Ragraf.First.Cited, 0)
	eq(t, "ragraf true", co.Ragraf.First.TrueCited, 0)
	eq(t, "baseline calls", co.Baseline.Calls, 2)
	eq(t, "baseline cited", co.Baseline.First.Cited, 1)
	eq(t, "baseline covered", co.Baseline.Covered, false)
	ts, err := readTasks(filepath.Join(runDir, "out", "tasks.json"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, x := range ts {
		if x.Kind == KindCoChange {
			found = true
			eq(t, "co_change truth place", fmt.Sprint(x.Truth), "[{src/Circle.php 13 16}]")
			eq(t, "co_change target", x.Target, "Circle::area")
			if len(x.Commit) != 40 {
				t.Errorf("co_change commit %q", x.Commit)
			}
		}
	}
	if !found {
		t.Error("tasks.json has no co_change task")
	}
}

// The truth of "which tests exercise X": the test files (under tests/ or
// named *Test.php) that call X by name with X's shape; X declared once and
// outside the tests; a name only production code calls has no task.
func TestM1_TestsTaskTruthIsTheTestFilesCallingX(t *testing.T) {
	tr := Truth{
		Decls: []Decl{
			{Path: "src/Cart.php", Kind: "class", Name: "Cart", Line: 3, End: 20},
			{Path: "src/Cart.php", Kind: "method", Name: "add", Scope: "Cart", Line: 5, End: 8},
			{Path: "src/Cart.php", Kind: "method", Name: "total", Scope: "Cart", Line: 10, End: 12},
			{Path: "src/Cart.php", Kind: "method", Name: "clear", Scope: "Cart", Line: 14, End: 16},
			{Path: "tests/CartTest.php", Kind: "class", Name: "CartTest", Line: 4, End: 30},
			{Path: "tests/CartTest.php", Kind: "method", Name: "testAdd", Scope: "CartTest", Line: 6, End: 10},
			{Path: "src/Shop/OrderTest.php", Kind: "class", Name: "OrderTest", Line: 3, End: 12},
		},
		Calls: []CallSite{
			{Path: "tests/CartTest.php", Name: "add", Via: "->", Line: 8},
			{Path: "tests/CartTest.php", Name: "add", Via: "->", Line: 9},
			{Path: "src/Shop/OrderTest.php", Name: "add", Via: "->", Line: 7},
			{Path: "tests/CartTest.php", Name: "total", Via: "fn", Line: 9}, // a function call: not the method
			{Path: "src/Checkout.php", Name: "clear", Via: "->", Line: 4},   // not a test
		},
	}
	ts := testTasks(tr)
	if len(ts) != 1 {
		t.Fatalf("tasks %+v, want one (add)", ts)
	}
	eq(t, "question", ts[0].Question, "which tests exercise Cart::add?")
	eq(t, "target", ts[0].Target, "Cart::add")
	eq(t, "truth", fmt.Sprint(ts[0].Truth), "[{src/Shop/OrderTest.php 1 12} {tests/CartTest.php 1 30}]")
	// a cited test method inside a truth file names it; a cited source file does not
	j := judge(ts[0].Truth, []Place{{Path: "tests/CartTest.php", Line: 6}, {Path: "src/Shop/OrderTest.php", Line: 5}, {Path: "src/Cart.php", Line: 5}})
	eq(t, "true cited", j.TrueCited, 2)
	eq(t, "covered", j.Covered, 2)
}
