package cli

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHookFitBytes(t *testing.T) {
	long := strings.Repeat("line of text é\n", 200)
	got := fitBytes(long, 500)
	if len(got) > 500 || !strings.HasSuffix(got, "\n…") || !utf8.ValidString(got) {
		t.Errorf("fitBytes: %d bytes, %q", len(got), got[len(got)-20:])
	}
	if got := fitBytes(strings.Repeat("é", 400), 101); len(got) > 101 || !utf8.ValidString(got) {
		t.Errorf("one long line: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
	if got := fitBytes("short\n", 100); got != "short" {
		t.Errorf("short: %q", got)
	}
}
