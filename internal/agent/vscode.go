// This file is the vscode target (VS Code's MCP support, used by Copilot's
// agent mode): .vscode/mcp.json servers.ragraf. A new file also gets the
// empty inputs list VS Code writes itself.

package agent

func vscodeEdits() []edit {
	server := jsonEntry([]string{"servers", "ragraf"}, func(c editCtx) any {
		return obj{{"type", "stdio"}, {"command", c.command}, {"args", []string{"mcp"}}}
	})
	return []edit{{path: ".vscode/mcp.json", fn: func(cur []byte, exists bool, ctx editCtx) ([]byte, error) {
		if !exists || len(cur) == 0 {
			cur = []byte("{\n  \"servers\": {},\n  \"inputs\": []\n}\n")
		}
		return server(cur, exists, ctx)
	}}}
}
