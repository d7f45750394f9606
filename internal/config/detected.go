// This file writes the project.yaml of a tree `ragraf init` looked at: the
// template (template.go) with the languages, vendored directories and table
// prefixes found in the tree instead of the defaults.

package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Detected is what `ragraf init` found in a project tree.
type Detected struct {
	// Languages are the indexable languages present, most files first.
	Languages []Count
	// Unavailable are languages present that this build cannot read,
	// with the reason.
	Unavailable []Count
	// Exclude are vendored directories found (third_party ...), excluded by name.
	Exclude []string
	// TablePrefixes are the database table prefixes the code names, each
	// with where it was seen.
	TablePrefixes []Evidence
}

// Count is a language and the number of its files.
type Count struct {
	Lang   string
	Files  int
	Reason string // why the language cannot be read (Unavailable only)
}

// Evidence is a detected value and where it came from ("wp-config.php:20").
type Evidence struct {
	Value string
	Where string
}

// Template anchors: the lines TemplateFor replaces. config_test checks they
// stay in the template.
const (
	langAnchor   = "languages: [\"php\", \"markdown\", \"sql\", \"twig\", \"blade\"]\n"
	excludeLine  = "exclude: []\n"
	prefixAnchor = "  # Table name prefixes stripped when matching SQL to tables, e.g. [\"wp_\"].\n  table_prefixes: [\"wp_\"]\n"
)

// TemplateFor returns the template with d's languages, excludes and table
// prefixes. With no language detected the default languages stay, with a
// comment saying so; with no prefix detected table_prefixes is empty.
func TemplateFor(d Detected) []byte {
	s := template
	var lb strings.Builder
	if len(d.Languages) == 0 {
		lb.WriteString("# No source file was found when this file was written; these are the defaults.\n")
		lb.WriteString(langAnchor)
	} else {
		parts := make([]string, len(d.Languages))
		names := make([]string, len(d.Languages))
		for i, c := range d.Languages {
			parts[i] = fmt.Sprintf("%s %d", c.Lang, c.Files)
			names[i] = strconv.Quote(c.Lang)
		}
		lb.WriteString(wrapComment("Found in this tree when this file was written (files): "+strings.Join(parts, ", ")+".", 79))
		lb.WriteString("languages: [" + strings.Join(names, ", ") + "]\n")
	}
	for _, u := range d.Unavailable {
		lb.WriteString(wrapComment(fmt.Sprintf("Also found, not readable by this build: %s (%d files): %s.", u.Lang, u.Files, u.Reason), 79))
	}
	s = strings.Replace(s, langAnchor, lb.String(), 1)

	if len(d.Exclude) > 0 {
		q := make([]string, len(d.Exclude))
		for i, e := range d.Exclude {
			q[i] = strconv.Quote(e)
		}
		s = strings.Replace(s, excludeLine, "# Vendored code found in this tree, excluded by name; remove an entry to index it.\nexclude: ["+strings.Join(q, ", ")+"]\n", 1)
	}

	var pb strings.Builder
	pb.WriteString("  # Table name prefixes stripped when matching SQL to tables, e.g. [\"wp_\"].\n")
	if len(d.TablePrefixes) == 0 {
		pb.WriteString("  # None was found in the code (WordPress's $table_prefix, SQL files'\n  # CREATE TABLE names, Laravel or Doctrine configuration).\n")
		pb.WriteString("  table_prefixes: []\n")
	} else {
		q := make([]string, len(d.TablePrefixes))
		for i, p := range d.TablePrefixes {
			q[i] = strconv.Quote(p.Value)
			pb.WriteString(wrapCommentIndent(fmt.Sprintf("%q: %s.", p.Value, p.Where), "  ", 79))
		}
		pb.WriteString("  table_prefixes: [" + strings.Join(q, ", ") + "]\n")
	}
	s = strings.Replace(s, prefixAnchor, pb.String(), 1)
	return []byte(s)
}

// wrapComment writes text as "# " comment lines of at most width columns.
func wrapComment(text string, width int) string {
	return wrapCommentIndent(text, "", width)
}

func wrapCommentIndent(text, indent string, width int) string {
	var b strings.Builder
	line := indent + "#"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > width && line != indent+"#" {
			b.WriteString(line + "\n")
			line = indent + "#"
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
	return b.String()
}
