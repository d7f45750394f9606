package corpus

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
)

// rulesTree is a project with a file behind every kind of exclude.
func rulesTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a.php":             "<?php\n",
		"src/b.php":         "<?php\n",
		".env":              "DB_PASSWORD=x\n",
		"cfg/.env.prod":     "X=y\n",
		"keys/server.pem":   "k\n",
		"secret/dir/x.php":  "<?php\n",
		".git/config":       "[core]\n",
		".git/info/exclude": "infoexcluded.php\n",
		"infoexcluded.php":  "<?php\n",
		".ragraf/ctl.db":    "x",
		"vendor/v.php":      "<?php\n",
		"lib/vendor/w.php":  "<?php\n",
		"debug.log":         "x\n",
		"logs/app.log":      "x\n",
		"x.php.bak":         "x\n",
		"tests/t.php":       "<?php\n",
		".gitignore":        "build/\n*.tmp\n!keep.tmp\n",
		"build/out.php":     "<?php\n",
		"y.tmp":             "x\n",
		"keep.tmp":          "x\n",
		"sub/.gitignore":    "local.php\n",
		"sub/local.php":     "<?php\n",
		"sub/other.php":     "<?php\n",
		"other/local.php":   "<?php\n",
		"CLAUDE.local.md":   "x\n",
	})
	symlink(t, ".env", filepath.Join(root, "envlink.php"))
	symlink(t, "a.php", filepath.Join(root, "alink.php"))
	symlink(t, "sub/local.php", filepath.Join(root, "ignoredlink.php"))
	return root
}

func rulesConfig() config.Config {
	cfg := config.Default()
	cfg.Exclude = []string{"tests/**"}
	cfg.SecretsExclude = append(cfg.SecretsExclude, "secret")
	return cfg
}

// TestFT39_RulesName: Excluded names the rule that excludes a path, an
// ancestor directory's rule included.
func TestFT39_RulesName(t *testing.T) {
	root := rulesTree(t)
	r := NewRules(root, rulesConfig())
	for p, want := range map[string]string{
		"a.php":                  "",
		"src/b.php":              "",
		"sub/other.php":          "",
		"other/local.php":        "",
		"keep.tmp":               "",
		"src/new.php":            "", // need not exist
		".env":                   `secrets_exclude ".env"`,
		"cfg/.env.prod":          `secrets_exclude ".env.*"`,
		"keys/server.pem":        `secrets_exclude "*.pem"`,
		"secret/dir/x.php":       `secrets_exclude "secret"`,
		".git/config":            `mandatory exclude ".git/"`,
		".ragraf/ctl.db":         `mandatory exclude ".ragraf/"`,
		".ragraf/control.sqlite": `mandatory exclude ".ragraf/"`,
		"vendor/v.php":           `mandatory exclude "vendor/"`,
		"lib/vendor/w.php":       `mandatory exclude "vendor/"`,
		"debug.log":              `mandatory exclude "*.log"`,
		"logs/app.log":           `mandatory exclude "*.log"`,
		"x.php.bak":              `mandatory exclude "*.bak"`,
		"CLAUDE.local.md":        `mandatory exclude "CLAUDE.local.md"`,
		"tests/t.php":            `exclude "tests/**"`,
		"build/out.php":          `.gitignore rule "build/" in .gitignore`,
		"y.tmp":                  `.gitignore rule "*.tmp" in .gitignore`,
		"sub/local.php":          `.gitignore rule "local.php" in sub/.gitignore`,
		"infoexcluded.php":       `.gitignore rule "infoexcluded.php" in .git/info/exclude`,
		"./sub/../.env":          `secrets_exclude ".env"`,
	} {
		if got := r.Excluded(p); got != want {
			t.Errorf("Excluded(%q) = %q, want %q", p, got, want)
		}
	}
	cfg := rulesConfig()
	cfg.Include = []string{"src/**"}
	if got := NewRules(root, cfg).Excluded("a.php"); got != "not matched by include" {
		t.Errorf("include: %q", got)
	}
}

// TestFT39_RulesAgreeWithWalk: for every file on disk, Walk lists it exactly
// when Excluded lets it (and, for a symlink, its target) through: the walk
// and the operations that serve contents apply one set of rules.
func TestFT39_RulesAgreeWithWalk(t *testing.T) {
	root := rulesTree(t)
	for _, gitignore := range []bool{true, false} {
		cfg := rulesConfig()
		cfg.RespectGitignore = gitignore
		files, err := Walk(context.Background(), Options{Root: root, Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		listed := map[string]bool{}
		for _, f := range files {
			listed[f.Path] = true
		}
		r := NewRules(root, cfg)
		n := 0
		err = filepath.WalkDir(root, func(abs string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, abs)
			rel = filepath.ToSlash(rel)
			want := r.Excluded(rel) == ""
			if d.Type()&fs.ModeSymlink != 0 {
				target, err := os.Readlink(abs)
				if err != nil {
					t.Fatal(err)
				}
				want = want && r.Excluded(filepath.ToSlash(filepath.Join(filepath.Dir(rel), target))) == ""
			}
			if listed[rel] != want {
				t.Errorf("gitignore=%v %s: listed %v, Excluded %q", gitignore, rel, listed[rel], r.Excluded(rel))
			}
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n < 25 || !strings.Contains(strings.Join(keys(listed), " "), "alink.php") {
			t.Fatalf("walked %d files, listed %v", n, keys(listed))
		}
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
