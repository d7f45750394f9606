// This file implements .gitignore matching (gitignore(5) semantics): patterns
// from .git/info/exclude, the root .gitignore and nested ones, where the last
// matching pattern decides. Walk in walk.go loads one file per directory.

package corpus

import (
	"bufio"
	"bytes"
	"path"
	"strings"
)

// ignoreRule is one pattern line of a .gitignore file.
type ignoreRule struct {
	base     string // directory of the .gitignore, relative to the root; "" for the root
	pattern  string // glob without "!", leading "/" or trailing "/"
	negate   bool   // "!" prefix: re-include
	dirOnly  bool   // trailing "/": matches directories only
	anchored bool   // contains "/": matches the path relative to base, else the name
	line     string // the pattern as written, for messages
	file     string // the file it comes from, relative to the root
}

// parseGitignore returns the rules of file, a .gitignore in directory base
// (or .git/info/exclude for base "").
func parseGitignore(data []byte, base, file string) []ignoreRule {
	var rules []ignoreRule
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		line = trimTrailingSpaces(line)
		if line == "" || line[0] == '#' {
			continue
		}
		r := ignoreRule{base: base, line: line, file: file}
		if line[0] == '!' {
			r.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		if strings.Contains(line, "/") {
			r.anchored = true
			line = strings.TrimPrefix(line, "/")
		}
		r.pattern = line
		rules = append(rules, r)
	}
	return rules
}

// trimTrailingSpaces removes trailing spaces unless escaped with a backslash.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		if strings.HasSuffix(s, `\ `) {
			return s
		}
		s = s[:len(s)-1]
	}
	return s
}

// match reports whether the rule matches rel (relative to the root).
func (r *ignoreRule) match(rel string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	if r.base != "" {
		if !strings.HasPrefix(rel, r.base+"/") {
			return false
		}
		rel = rel[len(r.base)+1:]
	}
	if r.anchored {
		return wildmatch(r.pattern, rel)
	}
	return wildmatch(r.pattern, path.Base(rel))
}

// ignored reports whether rel is ignored by rules; the last matching rule wins.
func ignored(rules []ignoreRule, rel string, isDir bool) bool {
	return ignoredBy(rules, rel, isDir) != nil
}

// ignoredBy returns the rule that ignores rel, or nil when rel is not ignored.
func ignoredBy(rules []ignoreRule, rel string, isDir bool) *ignoreRule {
	for i := len(rules) - 1; i >= 0; i-- {
		if rules[i].match(rel, isDir) {
			if rules[i].negate {
				return nil
			}
			return &rules[i]
		}
	}
	return nil
}

// wildmatch matches git's wildmatch with WM_PATHNAME: "*" and "?" do not cross
// "/", "**" as a whole path segment matches any number of directories, "[...]"
// is a character class and "\" escapes the next character.
func wildmatch(p, s string) bool {
	return wm(p, s, true)
}

// wm is wildmatch; segStart tells whether p begins a path segment of the pattern.
func wm(p, s string, segStart bool) bool {
	for len(p) > 0 {
		switch c := p[0]; c {
		case '*':
			if strings.HasPrefix(p, "**") {
				// "**" is special only as a whole segment.
				rest := strings.TrimLeft(p, "*")
				if segStart && (rest == "" || rest[0] == '/') {
					if rest == "" {
						return true
					}
					rest = rest[1:] // "**/": zero or more directories
					if wm(rest, s, true) {
						return true
					}
					for i := 0; i < len(s); i++ {
						if s[i] == '/' && wm(rest, s[i+1:], true) {
							return true
						}
					}
					return false
				}
			}
			rest := strings.TrimLeft(p, "*")
			for i := 0; i <= len(s); i++ {
				if wm(rest, s[i:], false) {
					return true
				}
				if i < len(s) && s[i] == '/' {
					return false
				}
			}
			return false
		case '?':
			if len(s) == 0 || s[0] == '/' {
				return false
			}
			p, s, segStart = p[1:], s[1:], false
		case '[':
			if len(s) == 0 || s[0] == '/' {
				return false
			}
			ok, n := matchClass(p, s[0])
			if n == 0 { // no closing "]": literal "["
				if s[0] != '[' {
					return false
				}
				p, s, segStart = p[1:], s[1:], false
				continue
			}
			if !ok {
				return false
			}
			p, s, segStart = p[n:], s[1:], false
		case '\\':
			if len(p) > 1 {
				p = p[1:]
			}
			if len(s) == 0 || s[0] != p[0] {
				return false
			}
			p, s, segStart = p[1:], s[1:], false
		default:
			if len(s) == 0 || s[0] != c {
				return false
			}
			p, s, segStart = p[1:], s[1:], c == '/'
		}
	}
	return len(s) == 0
}

// matchClass matches b against the class at the start of p ("[...]") and
// returns the class length, or 0 if p has no closing bracket.
func matchClass(p string, b byte) (bool, int) {
	i := 1
	negate := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negate = true
		i++
	}
	matched := false
	first := true
	for i < len(p) {
		if p[i] == ']' && !first {
			return matched != negate, i + 1
		}
		first = false
		lo := p[i]
		if lo == '\\' && i+1 < len(p) {
			i++
			lo = p[i]
		}
		i++
		hi := lo
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			hi = p[i+1]
			if hi == '\\' && i+2 < len(p) {
				hi = p[i+2]
				i++
			}
			i += 2
		}
		if lo <= b && b <= hi {
			matched = true
		}
	}
	return false, 0
}
