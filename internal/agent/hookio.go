// This file is what the agents' hooks hand ragraf and what they accept
// back: the stdin JSON of a session-start or post-edit hook (Claude, Codex,
// Gemini, Cursor) and the output shape each reads additional context from.
// `ragraf hook` (internal/cli) reads and prints through it.

package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"time"
)

// HookShapes are the hook output shapes: the agents' JSON and plain text.
var HookShapes = []string{"claude", "codex", "gemini", "cursor", "text"}

const (
	hookStdinWait     = 200 * time.Millisecond // an agent writes its input at once; a terminal never does
	hookMaxInputBytes = 4 << 20
)

// HookInput is the part of an agent's hook input ragraf reads.
type HookInput struct {
	Cwd            string          `json:"cwd"`
	WorkspaceRoots []string        `json:"workspace_roots"` // Cursor's instead of cwd
	SessionID      string          `json:"session_id"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	FilePath       string          `json:"file_path"` // Cursor's afterFileEdit
}

// ReadHookInput reads a hook's stdin JSON; nothing, a terminal, or anything
// that is not JSON is an empty input. Cursor's first workspace root stands
// for cwd.
func ReadHookInput(r io.Reader) HookInput {
	var in HookInput
	if r == nil {
		return in
	}
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			return in // a terminal: nobody is writing hook input
		}
	}
	done := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(r, hookMaxInputBytes))
		done <- b
	}()
	select {
	case b := <-done:
		if json.Unmarshal(b, &in) != nil {
			in = HookInput{}
		}
	case <-time.After(hookStdinWait):
	}
	if in.Cwd == "" && len(in.WorkspaceRoots) > 0 {
		in.Cwd = in.WorkspaceRoots[0]
	}
	return in
}

// EditedPaths are the files an edit hook's input names: the edit tool's
// (EditedPaths of tool_input) and Cursor's file_path.
func (in HookInput) EditedPaths() []string {
	paths := EditedPaths(in.ToolInput)
	if in.FilePath != "" && !slices.Contains(paths, in.FilePath) {
		paths = append(paths, in.FilePath)
	}
	return paths
}

// patchFile finds the paths of an apply_patch patch.
var patchFile = regexp.MustCompile(`(?m)^\*\*\* (?:Update|Add|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$`)

// EditedPaths reads the files an edit tool's input names: file_path or path
// (Claude's Edit, Write, MultiEdit), or the files of a patch (Codex's
// apply_patch, as a string or an argv list).
func EditedPaths(raw json.RawMessage) []string {
	var in map[string]any
	if json.Unmarshal(raw, &in) != nil {
		return nil
	}
	var out []string
	add := func(p string) {
		if p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, k := range []string{"file_path", "path", "notebook_path"} {
		if s, ok := in[k].(string); ok {
			add(s)
		}
	}
	var texts []string
	for _, k := range []string{"command", "input", "patch"} {
		switch v := in[k].(type) {
		case string:
			texts = append(texts, v)
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok {
					texts = append(texts, s)
				}
			}
		}
	}
	for _, t := range texts {
		for _, m := range patchFile.FindAllStringSubmatch(t, -1) {
			add(m[1] + m[2])
		}
	}
	return out
}

// PostEditEvent is the name shape's agent gives its after-edit hook event.
func PostEditEvent(shape string) string {
	if shape == "gemini" {
		return "AfterTool"
	}
	return "PostToolUse"
}

// EmitHook prints text as shape's hook output for event: Claude, Codex and
// Gemini read hookSpecificOutput.additionalContext, Cursor
// additional_context; text is the text itself.
func EmitHook(w io.Writer, shape, event, text string) {
	var v any
	switch shape {
	case "claude", "codex", "gemini":
		v = map[string]any{"hookSpecificOutput": map[string]string{"hookEventName": event, "additionalContext": text}}
	case "cursor":
		v = map[string]string{"additional_context": text}
	default:
		fmt.Fprintln(w, text)
		return
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
