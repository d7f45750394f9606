// This file finds the names a line of documentation mentions; extract.go
// calls it for every line outside fenced code.

package docs

import (
	"regexp"
	"strings"
)

var (
	backtick  = regexp.MustCompile("`([^`\n]+)`")
	url       = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://\S+`)
	qualified = regexp.MustCompile(`\\?[A-Z][A-Za-z0-9_]*(?:\\[A-Za-z_][A-Za-z0-9_]*)+(?:::[A-Za-z_]\w*(?:\(\))?)?`)
	pathRe    = regexp.MustCompile(`(?:^|[\s(\["'])((?:\.{0,2}/)?[\w.-]+(?:/[\w.-]+)+\.(?:php|inc|phtml|js|ts|md|rst|sql|json|ya?ml|xml|css|scss|html|twig|txt|ini|neon|lock|sh))\b`)
	// symbolish is a PHP name with optional class, member and call parts.
	symbolish = regexp.MustCompile(`^\\?[A-Za-z_][\w\\]*(?:(?:::|->)\$?[A-Za-z_]\w*)?(?:\(\))?$`)
	tableWord = regexp.MustCompile(`(?i)\btables?\b`)
	snake     = regexp.MustCompile(`^[a-z][a-z0-9]*(?:_+[a-z0-9]+)+$`)
	plainWord = regexp.MustCompile(`^[a-z][a-z0-9]*$`)
)

// mentions returns the names line ln mentions.
func mentions(sectionID, line string, ln int, opts Options) []Mention {
	var out []Mention
	seen := map[string]bool{}
	add := func(text, kind string) {
		k := kind + "\x00" + text
		if text == "" || seen[k] {
			return
		}
		seen[k] = true
		out = append(out, Mention{SectionID: sectionID, Text: text, Kind: kind, Line: ln})
	}
	if !strings.ContainsAny(line, "`\\/") {
		return nil
	}
	tableContext := strings.Contains(strings.ToLower(line), "table") && tableWord.MatchString(line)
	for _, m := range backtick.FindAllStringSubmatch(line, -1) {
		if kind, text := classify(strings.TrimSpace(m[1]), tableContext, opts); kind != "" {
			add(text, kind)
		}
	}
	rest := backtick.ReplaceAllString(line, " ")
	if strings.Contains(rest, "://") {
		rest = url.ReplaceAllString(rest, " ")
	}
	if strings.Contains(rest, "\\") {
		for _, m := range qualified.FindAllString(rest, -1) {
			add(strings.TrimSuffix(m, "()"), "symbol")
		}
	}
	if strings.Contains(rest, "/") {
		for _, m := range pathRe.FindAllStringSubmatch(rest, -1) {
			add(m[1], "path")
		}
	}
	return out
}

// classify decides what a backticked span names, or "" when it names nothing
// we link (variables, commands, values).
func classify(s string, tableContext bool, opts Options) (kind, text string) {
	if s == "" || strings.HasPrefix(s, "$") || strings.ContainsAny(s, " \t") {
		return "", ""
	}
	if strings.Contains(s, "/") && pathRe.MatchString(" "+s) {
		return "path", s
	}
	if !symbolish.MatchString(s) || strings.Contains(s, "->") {
		return "", ""
	}
	name := strings.TrimSuffix(s, "()")
	call := name != s
	if !call && tableContext && (snake.MatchString(name) || plainWord.MatchString(name)) {
		return "table", name
	}
	if !call && snake.MatchString(name) {
		for _, p := range opts.TablePrefixes {
			if strings.HasPrefix(name, p) {
				return "table", name
			}
		}
		return "symbol", name
	}
	if !call && !strings.ContainsAny(name, `\:_`) && strings.ToLower(name) == name {
		return "", "" // a plain lower-case word: `true`, `npm`, `id`
	}
	return "symbol", name
}
