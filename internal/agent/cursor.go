// This file is the cursor target: the MCP server in .cursor/mcp.json and a
// project rule, .cursor/rules/ragraf.mdc, that applies to every request and
// points at AGENTS.md's regimen.

package agent

func cursorEdits() []edit {
	return []edit{
		{path: ".cursor/mcp.json", fn: jsonEntry([]string{"mcpServers", "ragraf"}, func(c editCtx) any {
			return obj{{"command", c.command}, {"args", []string{"mcp"}}}
		})},
		{path: ".cursor/rules/ragraf.mdc", fn: wholeFile(cursorRule)},
	}
}

// cursorRule is the always-applied rule; its body is the AGENTS.md block's.
const cursorRule = "---\n" +
	"description: Use the ragraf code index (MCP server ragraf) before grep and before editing code\n" +
	"globs:\n" +
	"alwaysApply: true\n" +
	"---\n" +
	"\n" + agentsBlock
