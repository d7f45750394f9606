package resolve

import (
	"testing"

	"github.com/ragraf/ragraf/internal/typ"
)

// TestFT3_GlobalInDescriptor checks which receiver descriptors start from a
// global variable; a static property step is not one.
func TestFT3_GlobalInDescriptor(t *testing.T) {
	for desc, want := range map[string]string{
		`$wpdb`:              "wpdb",
		`$dbi->getColumns()`: "dbi",
		`($dbi)->x`:          "dbi",
		`\A|$cache`:          "cache",
		`(!\A|$q)`:           "q",
		`\A::$p`:             "",
		`\A->m()`:            "",
		``:                   "",
	} {
		if got := globalIn(typ.MustParse(desc)); got != want {
			t.Errorf("globalIn(%q) = %q, want %q", desc, got, want)
		}
	}
}
