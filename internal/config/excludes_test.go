package config

import (
	"slices"
	"testing"
)

// TestFT38_MandatoryExcludeNamesItsEntry: the rule reported for an excluded
// path is an entry of MandatoryExcludes, so a refusal can quote it.
func TestFT38_MandatoryExcludeNamesItsEntry(t *testing.T) {
	for path, want := range map[string]string{
		".git/config": ".git/", "a/.ragraf/control.sqlite": ".ragraf/", "debug.log": "*.log",
		"x.php.bak": "*.bak", "wp-config_bak.php": "*_bak*", ".aider.chat": ".aider*",
		"docs/CLAUDE.local.md": "CLAUDE.local.md", "vendor/a.php": "vendor/", "src/a.php": "",
	} {
		got := MandatoryExclude(path)
		if got != want {
			t.Errorf("MandatoryExclude(%q) = %q, want %q", path, got, want)
		}
		if got != "" && !slices.Contains(MandatoryExcludes, got) {
			t.Errorf("MandatoryExclude(%q) = %q, not an entry of MandatoryExcludes", path, got)
		}
	}
}
