package config

import (
	"slices"
	"strings"
	"testing"
)

// TestInit_TemplateForWritesWhatTheTreeHolds: the languages, excludes and
// table prefixes found replace the defaults, and the file still parses.
func TestInit_TemplateForWritesWhatTheTreeHolds(t *testing.T) {
	for _, a := range []string{langAnchor, excludeLine, prefixAnchor} {
		if !strings.Contains(template, a) {
			t.Fatalf("template lost the line TemplateFor replaces: %q", a)
		}
	}
	d := Detected{
		Languages:     []Count{{Lang: "go", Files: 12}, {Lang: "typescript", Files: 3}},
		Unavailable:   []Count{{Lang: "swift", Files: 2, Reason: "no grammar"}},
		Exclude:       []string{"third_party"},
		TablePrefixes: []Evidence{{Value: "oc_", Where: "config.php:3"}},
	}
	text := string(TemplateFor(d))
	c, err := Parse([]byte(text), "project.yaml")
	if err != nil {
		t.Fatalf("Parse(TemplateFor): %v\n%s", err, text)
	}
	if !slices.Equal(c.Languages, []string{"go", "typescript"}) || !slices.Equal(c.Exclude, []string{"third_party"}) ||
		!slices.Equal(c.Database.TablePrefixes, []string{"oc_"}) {
		t.Errorf("parsed %v %v %v", c.Languages, c.Exclude, c.Database.TablePrefixes)
	}
	for _, want := range []string{"go 12, typescript 3", "swift (2 files): no grammar", `"oc_": config.php:3`} {
		if !strings.Contains(text, want) {
			t.Errorf("comment %q missing", want)
		}
	}
	if err := c.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}

	empty, err := Parse(TemplateFor(Detected{}), "project.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(empty.Languages, Default().Languages) || len(empty.Database.TablePrefixes) != 0 {
		t.Errorf("nothing detected: languages %v (want the defaults), prefixes %v (want none)", empty.Languages, empty.Database.TablePrefixes)
	}
}
