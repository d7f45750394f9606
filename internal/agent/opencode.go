// This file is the opencode target: opencode.json at the project root gets
// mcp.ragraf, a local server whose command is an argv list. A new file also
// names opencode's schema.

package agent

func opencodeEdits() []edit {
	server := jsonEntry([]string{"mcp", "ragraf"}, func(c editCtx) any {
		return obj{{"type", "local"}, {"command", []string{c.command, "mcp"}}, {"enabled", true}}
	})
	return []edit{{path: "opencode.json", fn: func(cur []byte, exists bool, ctx editCtx) ([]byte, error) {
		if !exists || len(cur) == 0 {
			cur = []byte("{\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n")
		}
		return server(cur, exists, ctx)
	}}}
}
