package agent

import (
	"slices"
	"strings"
	"testing"
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
		if got := EditedPaths([]byte(c.in)); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestHookReadInput(t *testing.T) {
	if in := ReadHookInput(strings.NewReader(`{"workspace_roots":["/w"],"file_path":"/w/a.php"}`)); in.Cwd != "/w" || in.FilePath != "/w/a.php" {
		t.Errorf("cursor input: %+v", in)
	}
	for _, s := range []string{"", "{", "[1]", `{"cwd": 3}`} {
		if in := ReadHookInput(strings.NewReader(s)); in.Cwd != "" || in.ToolInput != nil {
			t.Errorf("%q: %+v", s, in)
		}
	}
	if in := ReadHookInput(nil); in.Cwd != "" {
		t.Errorf("nil reader: %+v", in)
	}
}

// TestHookEditedPathsWithCursorFile: Cursor's file_path joins the tool's
// paths once.
func TestHookEditedPathsWithCursorFile(t *testing.T) {
	in := ReadHookInput(strings.NewReader(`{"tool_input":{"file_path":"/p/a.php"},"file_path":"/p/a.php"}`))
	if got := in.EditedPaths(); !slices.Equal(got, []string{"/p/a.php"}) {
		t.Errorf("got %q", got)
	}
	in = ReadHookInput(strings.NewReader(`{"file_path":"/p/b.php"}`))
	if got := in.EditedPaths(); !slices.Equal(got, []string{"/p/b.php"}) {
		t.Errorf("got %q", got)
	}
}

// TestHookEmitShapes: each agent reads its additional context where it
// looks for it.
func TestHookEmitShapes(t *testing.T) {
	for shape, want := range map[string]string{
		"claude": `{"hookSpecificOutput":{"additionalContext":"a<b","hookEventName":"PostToolUse"}}` + "\n",
		"gemini": `{"hookSpecificOutput":{"additionalContext":"a<b","hookEventName":"AfterTool"}}` + "\n",
		"cursor": `{"additional_context":"a<b"}` + "\n",
		"text":   "a<b\n",
	} {
		var b strings.Builder
		EmitHook(&b, shape, PostEditEvent(shape), "a<b")
		if b.String() != want {
			t.Errorf("%s: %q, want %q", shape, b.String(), want)
		}
	}
}
