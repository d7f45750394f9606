package corpus

import "testing"

func TestGitignoreSemantics(t *testing.T) {
	tests := []struct {
		name   string
		ignore string // root .gitignore
		sub    string // .gitignore in directory "sub", if any
		path   string
		isDir  bool
		want   bool
	}{
		{"name at any depth", "*.tmp\n", "", "a/b/x.tmp", false, true},
		{"name at root", "*.tmp\n", "", "x.tmp", false, true},
		{"no match", "*.tmp\n", "", "x.php", false, false},
		{"comment", "# x.php\n", "", "# x.php", false, false},
		{"escaped hash", "\\#x.php\n", "", "#x.php", false, true},
		{"escaped bang", "\\!x.php\n", "", "!x.php", false, true},
		{"negation", "*.tmp\n!keep.tmp\n", "", "keep.tmp", false, false},
		{"negation order matters", "!keep.tmp\n*.tmp\n", "", "keep.tmp", false, true},
		{"dir only matches dir", "build/\n", "", "build", true, true},
		{"dir only skips file", "build/\n", "", "build", false, false},
		{"dir only nested", "build/\n", "", "a/build", true, true},
		{"leading slash anchors", "/root.php\n", "", "root.php", false, true},
		{"leading slash not deeper", "/root.php\n", "", "a/root.php", false, false},
		{"middle slash anchors", "doc/frotz\n", "", "doc/frotz", true, true},
		{"middle slash not deeper", "doc/frotz\n", "", "a/doc/frotz", true, false},
		{"star does not cross slash", "a/*.php\n", "", "a/b/c.php", false, false},
		{"star in segment", "a/*.php\n", "", "a/c.php", false, true},
		{"leading double star", "**/foo\n", "", "x/y/foo", false, true},
		{"leading double star at root", "**/foo\n", "", "foo", false, true},
		{"double star dir then name", "**/foo/bar\n", "", "x/foo/bar", false, true},
		{"trailing double star", "abc/**\n", "", "abc/x/y", false, true},
		{"trailing double star not the dir", "abc/**\n", "", "abc", true, false},
		{"middle double star zero dirs", "a/**/b\n", "", "a/b", false, true},
		{"middle double star many dirs", "a/**/b\n", "", "a/x/y/b", false, true},
		{"non segment double star is star", "a**b\n", "", "axxb", false, true},
		{"non segment double star no slash", "a**b\n", "", "ax/xb", false, false},
		{"question mark", "?.php\n", "", "a.php", false, true},
		{"question mark no slash", "a?b\n", "", "a/b", false, false},
		{"class", "[ab].php\n", "", "b.php", false, true},
		{"class range", "[a-c].php\n", "", "d.php", false, false},
		{"negated class", "[!a].php\n", "", "a.php", false, false},
		{"trailing spaces trimmed", "x.php   \n", "", "x.php", false, true},
		{"escaped trailing space kept", "x\\ \n", "", "x ", false, true},
		{"crlf file", "x.php\r\n", "", "x.php", false, true},
		{"nested gitignore relative", "", "local.php\n", "sub/local.php", false, true},
		{"nested gitignore not outside", "", "local.php\n", "local.php", false, false},
		{"nested anchored", "", "/only.php\n", "sub/only.php", false, true},
		{"nested anchored not deeper", "", "/only.php\n", "sub/x/only.php", false, false},
		{"nested negates parent", "*.tmp\n", "!keep.tmp\n", "sub/keep.tmp", false, false},
		{"parent negation loses to nested", "!*.tmp\n", "*.tmp\n", "sub/a.tmp", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules := parseGitignore([]byte(tt.ignore), "", ".gitignore")
			if tt.sub != "" {
				rules = append(rules, parseGitignore([]byte(tt.sub), "sub", "sub/.gitignore")...)
			}
			if got := ignored(rules, tt.path, tt.isDir); got != tt.want {
				t.Errorf("ignored(%q, dir=%v) = %v, want %v (rules %q / %q)", tt.path, tt.isDir, got, tt.want, tt.ignore, tt.sub)
			}
		})
	}
}
