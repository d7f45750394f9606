// This file defines Rules, the exclusion rules of the index: mandatory
// excludes, secrets_exclude, exclude, .gitignore and include. Walk (walk.go)
// applies them entry by entry while it lists a tree; the operations that
// serve file contents ask Excluded about one path, so a file the index never
// reads is never served either.

package corpus

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ragraf/ragraf/internal/config"
)

// Rules decides which paths of a project the index excludes.
type Rules struct {
	root       string // absolute
	cfg        config.Config
	includeAll bool
}

// NewRules returns the exclusion rules of cfg for the project at root.
func NewRules(root string, cfg config.Config) *Rules {
	return &Rules{root: root, cfg: cfg, includeAll: slices.Contains(cfg.Include, "**")}
}

// Excluded returns why the index excludes the file at rel (slash-separated,
// relative to the root), naming the rule (`secrets_exclude ".env"`,
// `mandatory exclude ".git/"`, `.gitignore rule "build/" in .gitignore`), or ""
// when Walk would list it. A file inside an excluded directory is excluded by
// the directory's rule. Only .gitignore files are read; rel is not opened.
func (r *Rules) Excluded(rel string) string {
	rel = strings.Trim(path.Clean("/"+rel), "/")
	if rel == "" {
		return ""
	}
	var ign []ignoreRule
	if r.cfg.RespectGitignore {
		ign = r.infoExclude()
		ign = append(ign, r.dirIgnore("")...)
	}
	parts := strings.Split(rel, "/")
	for i, name := range parts {
		p := strings.Join(parts[:i+1], "/")
		isDir := i < len(parts)-1
		if why := r.entry(p, name, isDir, ign); why != "" {
			return why
		}
		if isDir && r.cfg.RespectGitignore {
			ign = append(ign, r.dirIgnore(p)...)
		}
	}
	if !r.included(rel) {
		return "not matched by include"
	}
	return ""
}

// entry returns the rule that excludes the directory entry p (called name),
// given the .gitignore rules of its ancestors, or "".
func (r *Rules) entry(p, name string, isDir bool, ign []ignoreRule) string {
	if e := config.MandatoryExcludeName(name); e != "" {
		return fmt.Sprintf("mandatory exclude %q", e)
	}
	if g := firstMatch(r.cfg.SecretsExclude, p); g != "" {
		return fmt.Sprintf("secrets_exclude %q", g)
	}
	if g := firstMatch(r.cfg.Exclude, p); g != "" {
		return fmt.Sprintf("exclude %q", g)
	}
	if r.cfg.RespectGitignore {
		if ir := ignoredBy(ign, p, isDir); ir != nil {
			return fmt.Sprintf(".gitignore rule %q in %s", ir.line, ir.file)
		}
	}
	return ""
}

// included reports whether the file p passes the include globs.
func (r *Rules) included(p string) bool {
	return r.includeAll || firstMatch(r.cfg.Include, p) != ""
}

// infoExclude returns the rules of .git/info/exclude.
func (r *Rules) infoExclude() []ignoreRule {
	data, err := os.ReadFile(filepath.Join(r.root, ".git", "info", "exclude"))
	if err != nil {
		return nil
	}
	return parseGitignore(data, "", ".git/info/exclude")
}

// dirIgnore returns the rules of the .gitignore in directory rel ("" for the
// root).
func (r *Rules) dirIgnore(rel string) []ignoreRule {
	data, err := os.ReadFile(filepath.Join(r.root, filepath.FromSlash(rel), ".gitignore"))
	if err != nil {
		return nil
	}
	return parseGitignore(data, rel, path.Join(rel, ".gitignore"))
}

// firstMatch returns the first of globs that rel matches, or "". A glob
// without "/" matches the last path element, so "*.pem" or ".env" match at
// any depth.
func firstMatch(globs []string, rel string) string {
	for _, g := range globs {
		target := rel
		if !strings.Contains(g, "/") {
			target = path.Base(rel)
		}
		if ok, _ := doublestar.Match(g, target); ok {
			return g
		}
	}
	return ""
}
