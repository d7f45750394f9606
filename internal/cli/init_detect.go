// This file is what `ragraf init` reads in the tree before writing
// project.yaml: the languages present (by extension, through the same walk
// and excludes the index uses), vendored directories, and the table prefixes
// the code states (WordPress's $table_prefix, SQL files' CREATE TABLE names,
// Laravel, Drupal, Joomla, Magento, PrestaShop, Moodle or Doctrine settings).

package cli

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/corpus"
)

// vendoredDirs are directory names holding someone else's code that the
// mandatory excludes do not cover; init excludes them by name when present.
var vendoredDirs = []string{"third_party", "third-party", "bower_components"}

// detectProject walks root as the index would (mandatory excludes,
// .gitignore, secrets_exclude) and reports what it holds.
func detectProject(ctx context.Context, root string) (config.Detected, error) {
	cfg := config.Default()
	cfg.Languages = slices.Clone(config.KnownLanguages)
	files, err := corpus.Walk(ctx, corpus.Options{Root: root, Config: cfg})
	if err != nil {
		return config.Detected{}, err
	}
	var d config.Detected
	vendored := map[string]bool{}
	counts := map[string]int{}
	unavailable := map[string]int{}
	var scan []corpus.File
	for _, f := range files {
		if v := vendoredDir(f.Path); v != "" {
			vendored[v] = true
			continue
		}
		switch {
		case f.Status == corpus.Pending:
			counts[f.Lang]++
			scan = append(scan, f)
		case corpus.Unavailable[f.Lang] != "" && strings.HasPrefix(f.Reason, "language unavailable"):
			unavailable[f.Lang]++
		case f.Status == corpus.Skipped && f.Reason == "language not indexed: "+f.Lang && isSettingsFile(f.Path):
			scan = append(scan, f) // YAML settings: read for a table prefix only
		}
	}
	for l, n := range counts {
		d.Languages = append(d.Languages, config.Count{Lang: l, Files: n})
	}
	byCount := func(a, b config.Count) int {
		return cmp.Or(cmp.Compare(b.Files, a.Files), strings.Compare(a.Lang, b.Lang))
	}
	slices.SortFunc(d.Languages, byCount)
	for l, n := range unavailable {
		d.Unavailable = append(d.Unavailable, config.Count{Lang: l, Files: n, Reason: corpus.Unavailable[l]})
	}
	slices.SortFunc(d.Unavailable, byCount)
	for _, v := range vendoredDirs {
		if vendored[v] {
			d.Exclude = append(d.Exclude, v)
		}
	}
	d.TablePrefixes = detectPrefixes(ctx, root, scan, cfg.MaxFileSize)
	return d, nil
}

// vendoredDir returns the vendored directory name p lies in, or "".
func vendoredDir(p string) string {
	parts := strings.Split(p, "/")
	for _, s := range parts[:len(parts)-1] {
		if slices.Contains(vendoredDirs, s) {
			return s
		}
	}
	return ""
}

// isSettingsFile tells whether p is a YAML file that may name a table prefix.
func isSettingsFile(p string) bool {
	switch path.Ext(p) {
	case ".yml", ".yaml":
		b := path.Base(p)
		return strings.Contains(b, "parameters") || strings.Contains(b, "doctrine") || strings.Contains(b, "services") ||
			strings.Contains(b, "database") || strings.Contains(b, "config")
	}
	return false
}

// prefixRule is one way code states a table prefix.
type prefixRule struct {
	what  string                // what stated it, for the comment
	quick string                // a byte string the file must hold
	file  func(p string) bool   // which files are read (nil: every file of lang)
	lang  string                // the file's language ("" any)
	re    *regexp.Regexp        // group 1 is the prefix
	value func(m string) string // the prefix from group 1 (nil: as is)
}

var prefixRules = []prefixRule{
	{what: "WordPress/phpBB $table_prefix", quick: "$table_prefix", lang: "php",
		re: regexp.MustCompile(`\$table_prefix\s*=\s*['"]([A-Za-z0-9_]+)['"]`)},
	{what: "Joomla $dbprefix", quick: "$dbprefix", lang: "php",
		re: regexp.MustCompile(`\$dbprefix\s*=\s*['"]([A-Za-z0-9_]+)['"]`)},
	{what: "PrestaShop _DB_PREFIX_", quick: "_DB_PREFIX_", lang: "php",
		re: regexp.MustCompile(`define\(\s*['"]_DB_PREFIX_['"]\s*,\s*['"]([A-Za-z0-9_]+)['"]`)},
	{what: "OpenCart DB_PREFIX", quick: "DB_PREFIX", lang: "php",
		re: regexp.MustCompile(`define\(\s*['"]DB_PREFIX['"]\s*,\s*['"]([A-Za-z0-9_]+)['"]`)},
	{what: "MantisBT $g_db_table_prefix", quick: "$g_db_table_prefix", lang: "php",
		re:    regexp.MustCompile(`\$g_db_table_prefix\s*=\s*['"]([A-Za-z0-9_]+)['"]`),
		value: func(m string) string { return strings.TrimSuffix(m, "_") + "_" }},
	{what: "Moodle $CFG->prefix", quick: "$CFG->prefix", lang: "php",
		re: regexp.MustCompile(`\$CFG->prefix\s*=\s*['"]([A-Za-z0-9_]+)['"]`)},
	{what: "Magento table_prefix", quick: "table_prefix", lang: "php", file: func(p string) bool { return path.Base(p) == "env.php" },
		re: regexp.MustCompile(`['"]table_prefix['"]\s*=>\s*['"]([A-Za-z0-9_]+)['"]`)},
	{what: "database connection 'prefix'", quick: "prefix", lang: "php",
		file: func(p string) bool {
			return strings.HasSuffix(p, "config/database.php") || path.Base(p) == "settings.php"
		},
		re: regexp.MustCompile(`['"]prefix['"]\s*=>\s*(?:env\(\s*['"][A-Z_]+['"]\s*,\s*)?['"]([A-Za-z0-9_]+)['"]`)},
	{what: "Doctrine table prefix parameter", quick: "prefix", file: isSettingsFile,
		re: regexp.MustCompile(`(?m)^\s*(?:[\w.]*table_prefix|database_prefix|db_prefix)\s*:\s*['"]?([A-Za-z0-9_]+)['"]?\s*(?:#.*)?$`)},
}

// wpdbUse marks WordPress code: its tables carry $wpdb->prefix, "wp_" unless
// the site's wp-config.php says otherwise.
var wpdbUse = regexp.MustCompile(`\$wpdb->(?:prefix|base_prefix|posts|postmeta|options|users|usermeta|terms|comments)\b`)

// createTable finds the table names SQL files create.
var createTable = regexp.MustCompile("(?i)\\bcreate\\s+(?:temporary\\s+)?table\\s+(?:if\\s+not\\s+exists\\s+)?(?:[`\"\\[]?\\w+[`\"\\]]?\\.)?[`\"\\[]?([A-Za-z][A-Za-z0-9_]*)[`\"\\]]?")

// detectPrefixes reads the files the rules name and returns the prefixes
// they state, first found first; without one it tries SQL files' table
// names, then WordPress's $wpdb.
func detectPrefixes(ctx context.Context, root string, files []corpus.File, maxSize int64) []config.Evidence {
	var out []config.Evidence
	add := func(v, where string) {
		if !slices.ContainsFunc(out, func(e config.Evidence) bool { return e.Value == v }) {
			out = append(out, config.Evidence{Value: v, Where: where})
		}
	}
	wpdb := ""
	var tables []string
	tablesAt := map[string]string{}
	for _, f := range files {
		if ctx.Err() != nil || f.Size > maxSize {
			continue
		}
		interesting := f.Lang == "php" || f.Lang == "sql" || isSettingsFile(f.Path)
		if !interesting {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
		if err != nil {
			continue
		}
		for _, r := range prefixRules {
			if (r.lang != "" && r.lang != f.Lang) || (r.file != nil && !r.file(f.Path)) || !bytes.Contains(src, []byte(r.quick)) {
				continue
			}
			for _, m := range r.re.FindAllSubmatchIndex(src, -1) {
				if inComment(src, m[0]) {
					continue
				}
				v := string(src[m[2]:m[3]])
				if r.value != nil {
					v = r.value(v)
				}
				add(v, fmt.Sprintf("%s in %s:%d", r.what, f.Path, lineAt(src, m[0])))
			}
		}
		if f.Lang == "php" && wpdb == "" && bytes.Contains(src, []byte("$wpdb->")) {
			if m := wpdbUse.FindIndex(src); m != nil {
				wpdb = fmt.Sprintf("%s:%d", f.Path, lineAt(src, m[0]))
			}
		}
		if f.Lang == "sql" {
			for _, m := range createTable.FindAllSubmatchIndex(src, -1) {
				name := string(src[m[2]:m[3]])
				if _, ok := tablesAt[name]; !ok {
					tablesAt[name] = fmt.Sprintf("%s:%d", f.Path, lineAt(src, m[0]))
					tables = append(tables, name)
				}
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	if p, n := commonTablePrefix(tables); p != "" {
		add(p, fmt.Sprintf("%d of the %d tables SQL files create start with it (%s first)", n, len(tables), tablesAt[tables[0]]))
		return out
	}
	if wpdb != "" {
		add("wp_", "WordPress's default $table_prefix; the code reads $wpdb tables ("+wpdb+")")
	}
	return out
}

// commonTablePrefix returns the prefix (letters and digits, then
// underscores: "wp_", "pma__") at least 90 % of three or more table names
// share, and how many do, or "" when none does or the prefix is itself a
// table name (user, user_roles: "user_" names a family, not a prefix).
func commonTablePrefix(tables []string) (string, int) {
	if len(tables) < 3 {
		return "", 0
	}
	count := map[string]int{}
	for _, t := range tables {
		i := strings.IndexByte(t, '_')
		if i <= 0 {
			continue
		}
		j := i
		for j < len(t) && t[j] == '_' {
			j++
		}
		if j < len(t) {
			count[t[:j]]++
		}
	}
	best, n := "", 0
	for p, c := range count {
		if c > n || c == n && p < best {
			best, n = p, c
		}
	}
	if n*10 < len(tables)*9 || slices.Contains(tables, strings.TrimRight(best, "_")) {
		return "", 0
	}
	return best, n
}

// inComment tells whether the line holding offset i is a comment line (an
// example in a settings file's documentation is not a setting).
func inComment(src []byte, i int) bool {
	start := bytes.LastIndexByte(src[:i], '\n') + 1
	line := bytes.TrimSpace(src[start:i])
	for _, c := range []string{"*", "//", "#", "/*"} {
		if bytes.HasPrefix(line, []byte(c)) {
			return true
		}
	}
	return false
}

// lineAt is the 1-based line of byte offset i.
func lineAt(src []byte, i int) int {
	return bytes.Count(src[:i], []byte("\n")) + 1
}
