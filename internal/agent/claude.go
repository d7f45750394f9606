// This file is the claude target (Claude Code): the MCP server in .mcp.json,
// the SessionStart and PostToolUse hooks in .claude/settings.json, the skill
// under .claude/skills (a copy of the shared one: Claude Code reads skills
// only there, and a copy survives checkouts on systems without symlinks), and
// CLAUDE.md importing AGENTS.md.

package agent

import (
	"bufio"
	"bytes"
	"strings"
)

func claudeEdits() []edit {
	return []edit{
		{path: ".mcp.json", fn: jsonEntry([]string{"mcpServers", "ragraf"}, func(c editCtx) any {
			return obj{{"type", "stdio"}, {"command", c.command}, {"args", []string{"mcp"}}}
		})},
		{path: ".claude/settings.json", fn: hookEntry([]string{"hooks", "SessionStart"}, "session-start", "", "hook session-start --agent claude", 10)},
		{path: ".claude/settings.json", fn: hookEntry([]string{"hooks", "PostToolUse"}, "post-edit", "Edit|Write|MultiEdit", "hook post-edit --agent claude", 10)},
		{path: ".claude/skills/ragraf/SKILL.md", fn: wholeFile(skillText)},
		{path: "CLAUDE.md", fn: func(cur []byte, _ bool, ctx editCtx) ([]byte, error) {
			// a CLAUDE.md that is AGENTS.md (a symlink either way) gets AGENTS.md's block, not an import of itself
			if importsAgents(cur) || (ctx.alias != nil && ctx.alias("AGENTS.md")) {
				return cur, nil
			}
			return setBlock(cur, "@AGENTS.md\n"), nil
		}},
	}
}

// importsAgents reports whether a CLAUDE.md already imports AGENTS.md on a
// line of its own, outside ragraf's block.
func importsAgents(md []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(md))
	in := false
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == blockBegin:
			in = true
		case l == blockEnd:
			in = false
		case !in && (l == "@AGENTS.md" || l == "@./AGENTS.md"):
			return true
		}
	}
	return false
}
