package facade

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

// changesRepo is a git repository indexed at its first commit, then changed
// by a second commit (src/A.php: edit() changed, fresh() added, gone()
// deleted; src/Old.php deleted; src/C.php added) and by an uncommitted edit
// of src/B.php (useEdit() changed).
func changesRepo(t *testing.T) (*Service, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(p, text string) {
		t.Helper()
		full := filepath.Join(root, filepath.FromSlash(p))
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.WriteFile(full, []byte(text), 0o644))
	}
	write(".gitignore", ".ragraf/\n")
	write("src/A.php", `<?php
namespace App;

class A
{
    public function keep(): int
    {
        return 0;
    }

    public function edit(): int
    {
        return 1;
    }

    public function gone(): void
    {
    }
}
`)
	write("src/B.php", `<?php
namespace App;

class B
{
    public function useEdit(): int
    {
        $a = new A();
        return $a->edit();
    }
}
`)
	write("src/Old.php", `<?php
namespace App;

function old_fn(): void
{
}
`)
	write("tests/ATest.php", `<?php
namespace App\Tests;

use App\A;

class ATest
{
    public function testEdit(): void
    {
        $a = new A();
        $a->edit();
    }
}
`)
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	write("src/A.php", `<?php
namespace App;

class A
{
    public function keep(): int
    {
        return 0;
    }

    public function edit(): int
    {
        return 2;
    }

    public function fresh(): int
    {
        return 3;
    }
}
`)
	must(t, os.Remove(filepath.Join(root, "src", "Old.php")))
	write("src/C.php", `<?php
namespace App;

class C
{
}
`)
	git("add", "-A")
	git("commit", "-q", "-m", "second")
	write("src/B.php", `<?php
namespace App;

class B
{
    public function useEdit(): int
    {
        $a = new A();
        return $a->edit() + 1;
    }
}
`)
	s, err := New(root, Options{})
	must(t, err)
	t.Cleanup(func() { s.Close() })
	return s, root
}

// changeList renders the symbols of an answer as "change qname", in order.
func changeList(r ChangesResult) []string {
	var out []string
	for _, c := range r.Symbols {
		out = append(out, c.Change+" "+c.QName)
	}
	return out
}

func TestFT14_ChangesOnGitRepository(t *testing.T) {
	s, _ := changesRepo(t)
	all := []string{"changed App\\A::edit", "added App\\A::fresh", "deleted App\\A::gone", "changed App\\B::useEdit", "added App\\C", "deleted App\\old_fn"}
	committed := []string{"changed App\\A::edit", "added App\\A::fresh", "deleted App\\A::gone", "added App\\C", "deleted App\\old_fn"}
	cases := []struct {
		name, args string
		want       []string
	}{
		{"working tree against the index", `{}`, all},
		{"index head to the head commit", `{"head":"HEAD"}`, committed},
		{"two commits", `{"base":"HEAD~1","head":"HEAD"}`, committed},
		{"head commit to the working tree", `{"base":"HEAD"}`, []string{"changed App\\B::useEdit"}},
		{"first commit to the working tree", `{"base":"main~1"}`, all},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := call(t, s, "changes", c.args)
			res := env.Result.(ChangesResult)
			if got := changeList(res); !slices.Equal(got, c.want) {
				t.Fatalf("symbols %q, want %q\n%s", got, c.want, encode(t, env))
			}
			if env.NotFound || env.Limits.Total != len(c.want) || res.SymbolsTotal != len(c.want) {
				t.Errorf("not_found=%v limits=%+v total=%d", env.NotFound, env.Limits, res.SymbolsTotal)
			}
			for _, cs := range res.Symbols {
				// every symbol the revision holds is cited with its indexed
				// lines, carries its impact and, as its file drifted, a stale mark
				indexed := cs.ID != ""
				switch {
				case strings.HasSuffix(cs.QName, "::fresh"), strings.HasSuffix(cs.QName, `\C`):
					if indexed || cs.NowLine == 0 || cs.Line != 0 {
						t.Errorf("%s: added declarations are cited on the head side only: %+v", cs.QName, cs)
					}
				default:
					if !indexed || cs.Line == 0 || cs.Impact == nil {
						t.Errorf("%s: want the revision's node with its lines and impact: %+v", cs.QName, cs)
					}
					if c.args == `{}` && cs.Stale == nil {
						t.Errorf("%s: no stale mark in a drifted file", cs.QName)
					}
				}
			}
			if c.args == `{}` {
				if len(env.StaleWarnings) == 0 {
					t.Errorf("no stale warnings for a drifted tree")
				}
			}
		})
	}
	// what the change of A::edit reaches: its stated callers, one of them
	// in a test file
	env := call(t, s, "changes", `{"head":"HEAD"}`)
	res := env.Result.(ChangesResult)
	for _, cs := range res.Symbols {
		if cs.QName == `App\A::edit` && (cs.Impact == nil || cs.Impact.Stated < 2 || cs.Line != 11 || cs.EndLine != 14) {
			t.Errorf("A::edit: %+v impact %+v", cs, cs.Impact)
		}
	}
	if res.TestsTotal != 1 || len(res.Tests) != 1 || res.Tests[0].Path != "tests/ATest.php" || res.Tests[0].Line != 8 {
		t.Errorf("tests reached: %+v", res.Tests)
	}
	files := map[string]string{}
	for _, f := range res.Files {
		files[f.Path] = f.Change
	}
	if want := map[string]string{"src/A.php": "modified", "src/C.php": "added", "src/Old.php": "deleted"}; fmt.Sprint(files) != fmt.Sprint(want) {
		t.Errorf("files %v, want %v", files, want)
	}
}

func TestChangesPaging(t *testing.T) {
	s, _ := changesRepo(t)
	var got []string
	args := `{"limit":4}`
	for page := 0; page < 5; page++ {
		env := call(t, s, "changes", args)
		got = append(got, changeList(env.Result.(ChangesResult))...)
		if !env.Limits.Truncated {
			break
		}
		args = fmt.Sprintf(`{"limit":4,"cursor":%q}`, env.Limits.Cursor)
	}
	full := changeList(call(t, s, "changes", `{}`).Result.(ChangesResult))
	if !slices.Equal(got, full) || len(full) != 6 {
		t.Errorf("pages gave %q, one answer %q", got, full)
	}
	if _, err := s.Call(context.Background(), "changes", []byte(`{"cursor":"`+fixtureCursor("impact", 2)+`"}`)); AsError(errOr(err)).Code != ErrBadInput {
		t.Errorf("a cursor of another operation: %v", err)
	}
}

func TestChangesBadInput(t *testing.T) {
	s, _ := changesRepo(t)
	for _, args := range []string{`{"base":"--output=/tmp/x"}`, `{"base":"no-such-branch"}`, `{"head":"a b"}`, `{"depth":9}`} {
		_, err := s.Call(context.Background(), "changes", []byte(args))
		if fe := AsError(errOr(err)); fe.Code != ErrBadInput {
			t.Errorf("%s: got %v, want %s", args, err, ErrBadInput)
		}
	}
}

// TestFT14_ChangesEmpty checks an unchanged tree and an empty commit range.
func TestFT14_ChangesEmpty(t *testing.T) {
	s, _ := changesRepo(t)
	for _, args := range []string{`{"base":"HEAD","head":"HEAD"}`} {
		env := call(t, s, "changes", args)
		res := env.Result.(ChangesResult)
		b, _ := json.Marshal(res)
		if !env.NotFound || len(res.Symbols) != 0 || len(res.Files) != 0 || len(env.Suggest) == 0 {
			t.Errorf("%s: not_found=%v %s", args, env.NotFound, b)
		}
	}
	fs, _ := newTestService(t) // no git, no edits
	env := call(t, fs, "changes", `{}`)
	if !env.NotFound || env.Result.(ChangesResult).Base != "rev-0001" {
		t.Errorf("unchanged fixture: %s", encode(t, env))
	}
	if _, err := fs.Call(context.Background(), "changes", []byte(`{"head":"HEAD"}`)); AsError(errOr(err)).Code != ErrBadInput {
		t.Errorf("head without a git HEAD in the revision: %v", err)
	}
}
