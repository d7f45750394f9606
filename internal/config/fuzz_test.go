package config

import (
	"regexp"
	"strings"
	"testing"
)

// errPos is the position every parse error starts with.
var errPos = regexp.MustCompile(`^project\.yaml:\d+:\d+: `)

// FuzzParse feeds arbitrary bytes to the project.yaml parser. Properties: it
// never panics; an error names its place (`project.yaml:LINE:COL: `); a
// config it accepts passes Validate, and its canonical form (Hash) is stable
// across a second parse of the same bytes. The seed corpus is the template
// and testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add(Template())
	f.Add([]byte("max_file_size: 1024\nretain_revs: 1\n"))
	f.Add([]byte("database:\n  sources:\n    - name: a\n      driver: mysql\n      dsn: u@tcp(h)/d\n"))
	f.Add([]byte("exclude: [\"**/x\", \"[\"]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data, "project.yaml")
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if line != "" && !errPos.MatchString(line) {
					t.Fatalf("error without a position: %q", line)
				}
			}
			return
		}
		if verr := c.Validate(); verr != nil {
			t.Fatalf("accepted config fails Validate: %v", verr)
		}
		c2, err := Parse(data, "project.yaml")
		if err != nil || c2.Hash() != c.Hash() {
			t.Fatalf("second parse differs: %v", err)
		}
	})
}
