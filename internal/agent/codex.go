// This file is the codex target (OpenAI Codex CLI): the [mcp_servers.ragraf]
// table in .codex/config.toml with only the keys Codex accepts (it rejects
// unknown ones such as type), the hooks feature flag there, and the
// SessionStart and PostToolUse hooks in .codex/hooks.json.

package agent

import (
	"bytes"
	"fmt"
	"strconv"
)

// codexTable is the region ragraf owns in config.toml.
const codexTable = "mcp_servers.ragraf"

func codexEdits() []edit {
	return []edit{
		{path: ".codex/config.toml", fn: codexConfig},
		{path: ".codex/hooks.json", fn: hookEntry([]string{"hooks", "SessionStart"}, "session-start", "", "hook session-start --format codex", 10)},
		{path: ".codex/hooks.json", fn: hookEntry([]string{"hooks", "PostToolUse"}, "post-edit", "apply_patch|Edit|Write", "hook post-edit --format codex", 10)},
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
	// hooks.json is read only with the hooks feature on; a value the user set stays
	return setTOMLKey(out, "features", "codex_hooks", "true", func(line string) {
		if ctx.note != nil {
			ctx.note(fmt.Sprintf("%q is set there, so Codex will not run the hooks in .codex/hooks.json (they need codex_hooks = true under [features])", line))
		}
	})
}
