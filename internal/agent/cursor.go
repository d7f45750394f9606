// This file is the cursor target: the MCP server in .cursor/mcp.json, a
// project rule, .cursor/rules/ragraf.mdc, that applies to every request with
// AGENTS.md's regimen, and the sessionStart and afterFileEdit hooks in
// .cursor/hooks.json (Cursor's own shape: version 1, flat {command} entries).

package agent

func cursorEdits() []edit {
	return []edit{
		{path: ".cursor/mcp.json", fn: jsonEntry([]string{"mcpServers", "ragraf"}, func(c editCtx) any {
			return obj{{"command", c.command}, {"args", []string{"mcp"}}}
		})},
		{path: ".cursor/rules/ragraf.mdc", fn: wholeFile(cursorRule)},
		{path: ".cursor/hooks.json", fn: cursorHook("sessionStart", "session-start")},
		{path: ".cursor/hooks.json", fn: cursorHook("afterFileEdit", "post-edit")},
	}
}

// cursorHook adds {"command": "ragraf hook <name> --agent cursor"} to
// hooks.<event>; a new file starts with "version": 1.
func cursorHook(event, name string) func([]byte, bool, editCtx) ([]byte, error) {
	return func(cur []byte, exists bool, ctx editCtx) ([]byte, error) {
		if !exists || len(cur) == 0 {
			cur = []byte("{\n  \"version\": 1,\n  \"hooks\": {}\n}\n")
		}
		prefix := hookCommand(ctx, "hook "+name)
		owns := func(v any) bool {
			m, ok := v.(map[string]any)
			c, _ := m["command"].(string)
			return ok && isRagrafHook(c, ctx.command, name)
		}
		d, err := parseJSONC(cur)
		if err != nil {
			if !ctx.force {
				return nil, unparseable(err)
			}
			cur = []byte("{\n  \"version\": 1,\n  \"hooks\": {}\n}\n")
		} else if d.root == nil {
			cur = []byte("{\n  \"version\": 1,\n  \"hooks\": {}\n}\n")
		}
		return appendJSON(cur, []string{"hooks", event}, obj{{"command", prefix + " --agent cursor"}}, owns)
	}
}

// cursorRule is the always-applied rule; its body is the AGENTS.md block's.
const cursorRule = "---\n" +
	"description: Use the ragraf code index (MCP server ragraf) before grep and before editing code\n" +
	"globs:\n" +
	"alwaysApply: true\n" +
	"---\n" +
	"\n" + agentsBlock
