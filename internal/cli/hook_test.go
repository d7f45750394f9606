package cli

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHookEditedPaths(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
	}{
		{"claude edit", `{"file_path":"/p/src/a.php","old_string":"x","new_string":"y"}`, []string{"/p/src/a.php"}},
		{"codex patch string", `{"command":"*** Begin Patch\n*** Update File: src/a.php\n@@\n*** Add File: src/b.php\n+x\n*** Delete File: src/c.php\n*** End Patch"}`,
			[]string{"src/a.php", "src/b.php", "src/c.php"}},
		{"codex patch argv", `{"command":["apply_patch","*** Begin Patch\n*** Update File: src/a.php\n*** Move to: src/z.php\n*** End Patch\n"]}`,
			[]string{"src/a.php", "src/z.php"}},
		{"no file", `{"command":"ls -la"}`, nil},
		{"not an object", `"x"`, nil},
		{"empty", ``, nil},
	}
	for _, c := range cases {
		if got := editedPaths([]byte(c.in)); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestHookReadInput(t *testing.T) {
	if in := readHookInput(strings.NewReader(`{"workspace_roots":["/w"],"file_path":"/w/a.php"}`)); in.Cwd != "/w" || in.FilePath != "/w/a.php" {
		t.Errorf("cursor input: %+v", in)
	}
	for _, s := range []string{"", "{", "[1]", `{"cwd": 3}`} {
		if in := readHookInput(strings.NewReader(s)); in.Cwd != "" || in.ToolInput != nil {
			t.Errorf("%q: %+v", s, in)
		}
	}
	if in := readHookInput(nil); in.Cwd != "" {
		t.Errorf("nil reader: %+v", in)
	}
}

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
