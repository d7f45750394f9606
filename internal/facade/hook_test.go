package facade

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

// TestFT25_SessionStartResult: SessionStart on a copy of examples/shop gives
// the revision and its age; an edit since indexing is an unacknowledged
// entry that applies; once the file matches the index again the entry is
// counted as gone, not listed; a project without an index says so.
func TestFT25_SessionStartResult(t *testing.T) {
	s := shop(t)
	ctx := context.Background()
	r, err := s.SessionStart(ctx, SessionStartArgs{})
	if err != nil {
		t.Fatal(err)
	}
	created, err := time.Parse(time.RFC3339, r.CreatedAt)
	if err != nil || r.Rev == "" || r.NotIndexed || r.DriftErr != nil {
		t.Fatalf("fresh index: %+v (%v)", r, err)
	}
	if len(r.Entries) != 0 || r.Gone != 0 || r.ReadOnly || r.IndexRev != r.Rev || r.HeadMoved != nil {
		t.Errorf("fresh index: entries %v, gone %d, read-only %v, index rev %q of %q, head %+v",
			r.Entries, r.Gone, r.ReadOnly, r.IndexRev, r.Rev, r.HeadMoved)
	}
	r, err = s.SessionStart(ctx, SessionStartArgs{Now: created.Add(3 * time.Hour)})
	if err != nil || !r.AgeKnown || r.Age != 3*time.Hour {
		t.Errorf("age three hours after the build: %v known %v (%v)", r.Age, r.AgeKnown, err)
	}

	money := filepath.Join(s.Root(), "src", "Money", "Money.php")
	orig, err := os.ReadFile(money)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, s.Root(), "src/Money/Money.php", strings.Replace(string(orig), "return new self($this->cents + $other->cents", "return new self($other->cents + $this->cents", 1))
	r, err = s.SessionStart(ctx, SessionStartArgs{})
	if err != nil || r.DriftErr != nil {
		t.Fatalf("after an edit: %v %+v", err, r.DriftErr)
	}
	if len(r.Entries) != 1 || r.Entries[0].Path != "src/Money/Money.php" || r.Entries[0].Kind != "modify" || r.Gone != 0 {
		t.Fatalf("after an edit: entries %+v, gone %d", r.Entries, r.Gone)
	}
	if r.Envelope == nil || len(r.Envelope.Result.(DriftResult).Entries) != 1 {
		t.Errorf("the drift envelope does not carry the entry: %+v", r.Envelope)
	}

	writeFile(t, s.Root(), "src/Money/Money.php", string(orig))
	r, err = s.SessionStart(ctx, SessionStartArgs{})
	if err != nil || len(r.Entries) != 0 || r.Gone != 1 {
		t.Errorf("after the edit is undone: entries %+v, gone %d (%v)", r.Entries, r.Gone, err)
	}

	empty, err := New(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	if r, err := empty.SessionStart(ctx, SessionStartArgs{}); err != nil || !r.NotIndexed || r.Rev != "" {
		t.Errorf("no index: %+v (%v)", r, err)
	}
}

// TestFT25_SessionStartHeadMoved: a commit after indexing is a move that
// descends from the indexed commit, with the number of commits and the
// branch; an unrelated branch is a move whose indexed commit is no ancestor.
func TestFT25_SessionStartHeadMoved(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	writeFile(t, root, "src/Cart.php", cartPHP)
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	r, err := s.SessionStart(ctx, SessionStartArgs{})
	if err != nil || r.GitHead == "" || r.HeadMoved != nil {
		t.Fatalf("at the indexed commit: head %q moved %+v (%v)", r.GitHead, r.HeadMoved, err)
	}
	git("commit", "-q", "--allow-empty", "-m", "two")
	git("commit", "-q", "--allow-empty", "-m", "three")
	r, _ = s.SessionStart(ctx, SessionStartArgs{})
	if m := r.HeadMoved; m == nil || !m.Ancestor || m.Commits != 2 || m.Branch != "main" || m.Head == r.GitHead {
		t.Errorf("two commits later: %+v", m)
	}
	git("checkout", "-q", "--orphan", "other")
	git("commit", "-q", "-m", "unrelated")
	r, _ = s.SessionStart(ctx, SessionStartArgs{})
	if m := r.HeadMoved; m == nil || m.Ancestor || m.Commits != 0 || m.Branch != "other" {
		t.Errorf("an unrelated branch: %+v", m)
	}
}

// TestFT25_PostEditResult: PostEdit on a copy of examples/shop records an
// edited method's file in the ledger and names the method with its stated
// callers; a new file is New, an unchanged one has no change kind, a path
// outside the project is left out, files past the fifth are counted, and a
// project without an index checks nothing.
func TestFT25_PostEditResult(t *testing.T) {
	s := shop(t)
	ctx := context.Background()
	money := filepath.Join(s.Root(), "src", "Money", "Money.php")
	orig, err := os.ReadFile(money)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, s.Root(), "src/Money/Money.php", strings.Replace(string(orig), "return new self($this->cents + $other->cents", "return new self($other->cents + $this->cents", 1))
	writeFile(t, s.Root(), "src/Money/Fresh.php", "<?php\nnamespace Shop\\Money;\n\nfunction fresh(): int\n{\n    return 1;\n}\n")
	r, err := s.PostEdit(ctx, PostEditArgs{
		Paths: []string{money, "src/Money/Fresh.php", "../outside.php", "src/Cart/Cart.php", "a.php", "b.php", "c.php"},
		Cwd:   s.Root(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.NotIndexed || r.More != 2 {
		t.Errorf("not indexed %v, more %d, want 2 more", r.NotIndexed, r.More)
	}
	byPath := map[string]PostEditFile{}
	for _, f := range r.Files {
		byPath[f.Path] = f
	}
	if _, ok := byPath["../outside.php"]; ok || len(r.Files) != 4 {
		t.Errorf("files %+v, want four inside the project", r.Files)
	}
	m := byPath["src/Money/Money.php"]
	if m.Kind != "modify" || m.NotRecorded != "" || len(m.Lines) == 0 || m.IndexRev == "" {
		t.Fatalf("the edited file: %+v", m)
	}
	var add *TouchedDef
	for i, d := range m.Touched {
		if d.Name == "add" {
			add = &m.Touched[i]
		}
	}
	if add == nil || len(m.Touched) != 1 || add.Kind != "method" {
		t.Fatalf("touched %+v, want only Money::add", m.Touched)
	}
	if len(add.Callers) == 0 {
		t.Errorf("Money::add has no stated callers in the result")
	}
	for _, c := range add.Callers {
		if c.SitePath == "" || c.SiteLine == 0 {
			t.Errorf("a caller without its call site: %+v", c)
		}
	}
	if f := byPath["src/Money/Fresh.php"]; !f.New || f.Kind != "" {
		t.Errorf("the new file: %+v", f)
	}
	if f := byPath["src/Cart/Cart.php"]; f.Kind != "" || f.New || f.IndexRev == "" || len(f.Touched) != 0 {
		t.Errorf("the unchanged file: %+v", f)
	}
	env := call(t, s, "drift", `{"unacked":true}`)
	found := false
	for _, e := range env.Result.(DriftResult).Entries {
		if e.Path == "src/Money/Money.php" && e.Method == "hook:post-edit" {
			found = true
		}
	}
	if !found {
		t.Errorf("the edit is not in the ledger under hook:post-edit: %+v", env.Result)
	}

	empty, err := New(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	if r, err := empty.PostEdit(ctx, PostEditArgs{Paths: []string{"x.php"}}); err != nil || !r.NotIndexed || len(r.Files) != 0 {
		t.Errorf("no index: %+v (%v)", r, err)
	}
}
