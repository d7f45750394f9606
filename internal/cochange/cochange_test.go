package cochange

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repo is a real git repository in a temporary directory.
type repo struct {
	t    *testing.T
	root string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	r := &repo{t: t, root: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.root, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *repo) write(files map[string]string) {
	r.t.Helper()
	for name, src := range files {
		p := filepath.Join(r.root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

func (r *repo) commit(msg string, files map[string]string) string {
	r.t.Helper()
	r.write(files)
	r.git("add", "-A")
	r.git("commit", "-qm", msg)
	return r.git("rev-parse", "HEAD")
}

func cls(name string, bodies ...string) string {
	var b strings.Builder
	b.WriteString("<?php\nclass " + name + " {\n")
	for i, body := range bodies {
		b.WriteString("    public function m" + string(rune('a'+i)) + "() {\n        " + body + "\n    }\n\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func keys(ps []Pair) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Key)
	}
	slices.Sort(out)
	return out
}

// The history names the files and methods each commit changed; a method
// changed twice with another has support 2 and its commits as evidence;
// merges and sweeping commits are skipped; renames follow to the head's path.
func TestFT27_CoChangeMined(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	c1 := r.commit("init", map[string]string{"src/A.php": cls("A", "return 1;", "return 2;"), "src/B.php": cls("B", "return 1;", "return 2;"), "README.md": "x\n"})
	c2 := r.commit("a.ma with b.mb", map[string]string{"src/A.php": cls("A", "return 10;", "return 2;"), "src/B.php": cls("B", "return 1;", "return 20;")})
	c3 := r.commit("again", map[string]string{"src/A.php": cls("A", "return 11;", "return 2;"), "src/B.php": cls("B", "return 1;", "return 21;"), "README.md": "y\n"})
	bulk := map[string]string{}
	for i := 0; i < 5; i++ {
		bulk["gen/G"+string(rune('0'+i))+".php"] = cls("G", "return 0;")
	}
	bulk["src/A.php"] = cls("A", "return 12;", "return 2;")
	r.commit("sweeping", bulk)
	h := Mine(ctx, r.root, nil, Options{Commits: 100, MaxFiles: 4})
	if h.Reason != "" {
		t.Fatalf("reason %q", h.Reason)
	}
	if h.Bulk != 1 || len(h.Commits) != 3 {
		t.Fatalf("bulk %d, commits %d, want 1 and 3 (init, two pairs)", h.Bulk, len(h.Commits))
	}
	n, files, defs := h.WithDef(Key("src/A.php", "ma"))
	if n != 3 {
		t.Errorf("A::ma changed in %d commits, want 3 (declared, changed twice; the sweeping one skipped)", n)
	}
	if len(defs) != 3 || defs[0].Key != Key("src/B.php", "mb") || defs[0].Support != 3 || defs[0].Confidence != 1 || defs[1].Support != 1 {
		t.Fatalf("definitions with A::ma: %+v, want B::mb first with support 3, then the other declared ones with 1", defs)
	}
	if want := []string{c3, c2, c1}; !slices.Equal(defs[0].Commits, want) {
		t.Errorf("evidence %v, want %v (newest first)", defs[0].Commits, want)
	}
	if got := keys(files); !slices.Equal(got, []string{"README.md", "src/A.php", "src/B.php"}) {
		t.Errorf("files with A::ma: %v", got)
	}

	// renamed: the older commits name the file by its new path
	r.git("mv", "src/B.php", "src/C.php")
	r.git("commit", "-qm", "rename")
	r.commit("d", map[string]string{"src/A.php": cls("A", "return 13;", "return 2;"), "src/C.php": cls("B", "return 1;", "return 22;")})
	h2 := Mine(ctx, r.root, h, Options{Commits: 100, MaxFiles: 4})
	if h2.Mined != 2 || h2.Reused != 3 {
		t.Errorf("extension mined %d and reused %d, want 2 and 3", h2.Mined, h2.Reused)
	}
	_, _, defs = h2.WithDef(Key("src/A.php", "ma"))
	if len(defs) == 0 || defs[0].Key != Key("src/C.php", "mb") || defs[0].Support != 4 {
		t.Errorf("after the rename: %+v, want src/C.php#mb with support 4", defs)
	}
	full := Mine(ctx, r.root, nil, Options{Commits: 100, MaxFiles: 4})
	_, _, fdefs := full.WithDef(Key("src/A.php", "ma"))
	if !slices.Equal(keys(defs), keys(fdefs)) {
		t.Errorf("extended %v, mined from scratch %v", keys(defs), keys(fdefs))
	}
	// the window bounds the commits read
	if w := Mine(ctx, r.root, nil, Options{Commits: 2, MaxFiles: 4}); len(w.Commits) != 2 || w.Commits[0].Hash != r.git("rev-parse", "HEAD") {
		t.Errorf("window 2: %d commits", len(w.Commits))
	}
}

func TestFT27_CoChangeAbsentWithReason(t *testing.T) {
	h := Mine(context.Background(), t.TempDir(), nil, Options{Commits: 10, MaxFiles: 30})
	if h.Reason != "the project is not a git repository" || len(h.Commits) != 0 {
		t.Errorf("reason %q, %d commits", h.Reason, len(h.Commits))
	}
	dir := t.TempDir()
	if err := Write(dir, h); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir)
	if err != nil || back.Reason != h.Reason {
		t.Errorf("load: %v %+v", err, back)
	}
}
