// This file is the gemini target (Gemini CLI): .gemini/settings.json gets
// the MCP server (timeout in milliseconds), AGENTS.md among the context
// files, the SessionStart hook, and the post-edit hook on AfterTool for the
// file-writing tools (write_file, replace).

package agent

import "errors"

func geminiEdits() []edit {
	return []edit{
		{path: ".gemini/settings.json", fn: jsonEntry([]string{"mcpServers", "ragraf"}, func(c editCtx) any {
			return obj{{"command", c.command}, {"args", []string{"mcp"}}, {"timeout", 120000}}
		})},
		{path: ".gemini/settings.json", fn: geminiContext},
		{path: ".gemini/settings.json", fn: func(cur []byte, exists bool, ctx editCtx) ([]byte, error) {
			// Gemini's hook timeouts are milliseconds, and its hook stdout must be JSON only
			return hookEntry([]string{"hooks", "SessionStart"}, "session-start", "", "hook session-start --agent gemini", 10000)(cur, exists, ctx)
		}},
		{path: ".gemini/settings.json", fn: hookEntry([]string{"hooks", "AfterTool"}, "post-edit", "write_file|replace", "hook post-edit --agent gemini", 10000)},
	}
}

// geminiContext adds AGENTS.md to context.fileName: absent, it becomes
// ["AGENTS.md", "GEMINI.md"] (GEMINI.md is the default it replaces); a
// string becomes a list holding it; a list gets AGENTS.md appended.
func geminiContext(cur []byte, _ bool, ctx editCtx) ([]byte, error) {
	keys := []string{"context", "fileName"}
	d, err := parseJSONC(cur)
	if err != nil {
		if ctx.force {
			return setJSON(nil, keys, []string{"AGENTS.md", "GEMINI.md"})
		}
		return nil, unparseable(err)
	}
	if d.root == nil {
		return setJSON(cur, keys, []string{"AGENTS.md", "GEMINI.md"})
	}
	n, found, err := d.lookup(keys)
	if err != nil {
		return nil, err
	}
	if found < len(keys) {
		return setJSON(cur, keys, []string{"AGENTS.md", "GEMINI.md"})
	}
	switch v := d.decode(n).(type) {
	case string:
		if v == "AGENTS.md" {
			return cur, nil
		}
		return d.replaceValue(n, []string{v, "AGENTS.md"})
	case []any:
		for _, e := range v {
			if e == "AGENTS.md" {
				return cur, nil
			}
		}
		return appendJSON(cur, keys, "AGENTS.md", func(any) bool { return false })
	}
	return nil, errors.New("context.fileName is neither a string nor a list")
}
