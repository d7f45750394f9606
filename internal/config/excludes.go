// This file defines the mandatory excludes: paths that no include pattern can
// bring back. The corpus walk (internal/corpus) prunes them before reading a
// directory, so their contents are never listed.

package config

import (
	"path"
	"strings"
)

// MandatoryExcludes lists, in gitignore-like notation, what is never indexed at
// any depth: a trailing "/" names a directory, other entries match a file or
// directory name. Coding-assistant entries cover only paths those tools create.
var MandatoryExcludes = []string{
	".git/", ".ragraf/", "vendor/", "node_modules/",
	"*.log", "*_bak*", "*.bak",
	".claude/", ".cursor/", ".aider*", ".codex/", ".continue/", ".windsurf/",
	".roo/", ".cline/", ".gemini/", ".zed/", "CLAUDE.local.md",
}

// mandatoryNames are the entries of MandatoryExcludes matched as whole names.
// Directory entries also match a file of that name: a ".git" file marks a
// worktree or submodule and is no more source than the directory.
var mandatoryNames = map[string]bool{
	".git": true, ".ragraf": true, "vendor": true, "node_modules": true,
	".claude": true, ".cursor": true, ".codex": true, ".continue": true, ".windsurf": true,
	".roo": true, ".cline": true, ".gemini": true, ".zed": true, "CLAUDE.local.md": true,
}

// IsMandatoryExcluded reports whether the slash-separated path rel, relative to
// the project root, is or lies inside a mandatorily excluded file or directory.
func IsMandatoryExcluded(rel string) bool {
	return MandatoryExclude(rel) != ""
}

// MandatoryExclude returns the entry of MandatoryExcludes that excludes rel
// (".git/", "*.log" ...), or "" when none does.
func MandatoryExclude(rel string) string {
	rel = strings.Trim(path.Clean("/"+rel), "/")
	for rel != "" {
		name := rel
		if i := strings.IndexByte(rel, '/'); i >= 0 {
			name, rel = rel[:i], rel[i+1:]
		} else {
			rel = ""
		}
		if e := MandatoryExcludeName(name); e != "" {
			return e
		}
	}
	return ""
}

// MandatoryExcludeName returns the entry of MandatoryExcludes that excludes a
// file or directory called name at any depth, or "".
func MandatoryExcludeName(name string) string {
	switch {
	case mandatoryNames[name] && name == "CLAUDE.local.md":
		return name
	case mandatoryNames[name]:
		return name + "/"
	case strings.HasPrefix(name, ".aider"):
		return ".aider*"
	case strings.HasSuffix(name, ".log"):
		return "*.log"
	case strings.HasSuffix(name, ".bak"):
		return "*.bak"
	case strings.Contains(name, "_bak"):
		return "*_bak*"
	}
	return ""
}
