// This file is the codex target (OpenAI Codex CLI): the [mcp_servers.ragraf]
// table in .codex/config.toml with only the keys Codex accepts (it rejects
// unknown ones such as type), the hooks feature flag there ([features].hooks), and the
// SessionStart and PostToolUse hooks in .codex/hooks.json.

package agent

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// codexTable is the region ragraf owns in config.toml.
const codexTable = "mcp_servers.ragraf"

func codexEdits() []edit {
	return []edit{
		{path: ".codex/config.toml", fn: codexConfig},
		{path: ".codex/hooks.json", fn: hookEntry([]string{"hooks", "SessionStart"}, "session-start", "", "hook session-start --agent codex", 10)},
		{path: ".codex/hooks.json", fn: hookEntry([]string{"hooks", "PostToolUse"}, "post-edit", "apply_patch|Edit|Write", "hook post-edit --agent codex", 10)},
	}
}

// codexBody is the table's lines after its header.
func codexBody(ctx editCtx) string {
	return fmt.Sprintf("command = %s\nargs = [\"mcp\"]\nstartup_timeout_sec = 30\ntool_timeout_sec = 120\n", strconv.Quote(ctx.command))
}

func codexConfig(cur []byte, _ bool, ctx editCtx) ([]byte, error) {
	body := codexBody(ctx)
	out, old, err := setTOMLTable(cur, codexTable, body)
	if err != nil {
		if !ctx.force {
			return nil, fmt.Errorf("%v; fix it or use --force", err)
		}
		out, old, err = setTOMLTable(nil, codexTable, body)
		if err != nil {
			return nil, err
		}
	}
	if old != nil && !bytes.Equal(out, cur) {
		if err := ctx.claim("[" + codexTable + "]"); err != nil {
			return nil, err
		}
	}
	// hooks.json is read only with the hooks feature on ([features].hooks; codex_hooks is its deprecated
	// name, which Codex warns about in every session); a value the user set stays
	note := func(n string) {
		if ctx.note != nil {
			ctx.note(n)
		}
	}
	_, _ = setTOMLKey(out, "features", "codex_hooks", "", func(line string) {
		if !strings.HasPrefix(line, "codex_hooks") {
			return // features as an inline table: the hooks key's check below names it
		}
		note(fmt.Sprintf("%q is the deprecated name of [features].hooks, which Codex warns about in every session; remove that line", line))
	})
	return setTOMLKey(out, "features", "hooks", "true", func(line string) {
		note(fmt.Sprintf("%q is set there, so Codex will not run the hooks in .codex/hooks.json (they need hooks = true under [features])", line))
	})
}
