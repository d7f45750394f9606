// This file is what every target installs: the marked "index first" block
// in AGENTS.md and the Agent Skills skill .agents/skills/ragraf/SKILL.md,
// plus the marked-block editor the CLAUDE.md import uses too. The tool names
// and argument fields in these texts are checked against the MCP server and
// the facade by internal/cli/agent_texts_test.go.

package agent

import (
	"bytes"
	"fmt"
	"strings"
)

const (
	blockBegin = "<!-- ragraf:begin -->"
	blockEnd   = "<!-- ragraf:end -->"
)

// agentsBlock is the body of the AGENTS.md block.
const agentsBlock = "## Code index: ragraf\n" +
	"\n" +
	"This repository has a ragraf index (symbols, uses, call graph, impact, DB schema, routes; every fact with\n" +
	"`path:line`), served by the MCP server `ragraf`; the same operations run as `ragraf query <op> --args '<json>'`.\n" +
	"\n" +
	"Index first:\n" +
	"- To find code, before grep: `ragraf_search` `{\"query\":\"add item to cart\"}`, `ragraf_symbol` `{\"name\":\"addItem\"}`;\n" +
	"  for an overview `ragraf_repo_map` `{\"budget_tokens\":1000}`, for one file `ragraf_outline` `{\"path\":\"src/Cart.php\"}`.\n" +
	"- Before editing a function, method or class: `ragraf_context` `{\"qname\":\"App\\\\Cart::addItem\",\"budget_tokens\":2000}`\n" +
	"  (signature, doc, callers, callees, impact summary and code in one answer within the budget); then as needed\n" +
	"  `ragraf_callers` `{\"qname\":\"App\\\\Cart::addItem\"}`, `ragraf_references` (every use) and `ragraf_impact`\n" +
	"  `{\"qname\":\"App\\\\Cart::addItem\",\"depth\":3}` (entry points, tables and tests reached). A caller listed\n" +
	"  there may need the same change.\n" +
	"- After editing: `ragraf_changes` `{}` lists the definitions changed, added and deleted since the index (or\n" +
	"  `{\"base\":\"HEAD~1\"}` since a commit) with the entry points, tables and tests they reach.\n" +
	"- To read code: `ragraf_code` `{\"qname\":\"App\\\\Cart::addItem\"}` (as indexed), `ragraf_live_read`\n" +
	"  `{\"path\":\"src/Cart.php\"}` (as it is now, with the changed hunks).\n" +
	"- Data and entry points: `ragraf_schema` `{\"table\":\"orders\"}`, `ragraf_table_usage` `{\"table\":\"orders\"}`,\n" +
	"  `ragraf_entry_points` `{\"kind\":\"web_route\"}`.\n" +
	"\n" +
	"Stale marks: `stale_warnings` in an answer, or a `stale` mark on an item, means the cited file changed since the\n" +
	"index was built, so that fact may be out of date; read the lines with `ragraf_live_read`. `ragraf_drift` lists\n" +
	"every recorded change.\n" +
	"\n" +
	"Rebuild: `ragraf reindex --commit` builds the next revision from the working tree (seconds); `ragraf index`\n" +
	"builds the first one.\n"

// skillText is .agents/skills/ragraf/SKILL.md.
const skillText = "---\n" +
	"name: ragraf\n" +
	"description: Answers questions about this repository's code from the ragraf index instead of grep - definitions, uses, callers, impact of a change, DB tables and routes, each with path:line. Use before searching the code, before editing a function or class, and when an answer carries stale warnings.\n" +
	"---\n" +
	"\n" +
	"# ragraf: the code index\n" +
	"\n" +
	"The MCP server `ragraf` answers from an index of this repository; every answer is an envelope with\n" +
	"`result`, `limits` and `stale_warnings`. The CLI runs the same operations:\n" +
	"`ragraf query <op> --args '<json>'`.\n" +
	"\n" +
	"## Workflow\n" +
	"\n" +
	"1. Locate: `ragraf_search` or `ragraf_symbol`; `ragraf_repo_map` for the most important definitions.\n" +
	"2. Understand: `ragraf_code` for a definition's lines, `ragraf_outline` for a file, `ragraf_callees`.\n" +
	"3. Before editing: `ragraf_context` for the definition in one budgeted answer; `ragraf_callers`,\n" +
	"   `ragraf_references`, `ragraf_implementations` and `ragraf_impact` for the full lists; plan the same change\n" +
	"   for every caller that needs it.\n" +
	"4. After editing: `ragraf_changes` lists the definitions changed, added and deleted, and the tests to run;\n" +
	"   answers citing the edited files carry `stale_warnings`: read them with `ragraf_live_read`.\n" +
	"   `ragraf reindex --commit` rebuilds the index when the change is done.\n" +
	"\n" +
	"## Tools\n" +
	"\n" +
	"| tool | use it for | example arguments |\n" +
	"|---|---|---|\n" +
	"| `ragraf_search` | words or identifiers | `{\"query\":\"add item to cart\"}` |\n" +
	"| `ragraf_symbol` | a definition by name | `{\"name\":\"addItem\",\"kind\":\"method\"}` |\n" +
	"| `ragraf_repo_map` | ranked overview | `{\"budget_tokens\":1000,\"focus\":[\"src/Cart.php\"]}` |\n" +
	"| `ragraf_outline` | definitions of one file | `{\"path\":\"src/Cart.php\"}` |\n" +
	"| `ragraf_code` | a definition's lines as indexed | `{\"qname\":\"App\\\\Cart::addItem\"}` |\n" +
	"| `ragraf_references` | every use | `{\"qname\":\"App\\\\Cart::addItem\"}` |\n" +
	"| `ragraf_callers` | who calls it | `{\"qname\":\"App\\\\Cart::addItem\",\"depth\":2}` |\n" +
	"| `ragraf_callees` | what it calls | `{\"qname\":\"App\\\\Cart::addItem\"}` |\n" +
	"| `ragraf_implementations` | subtypes, overrides | `{\"qname\":\"App\\\\Countable\"}` |\n" +
	"| `ragraf_impact` | what a change reaches | `{\"qname\":\"App\\\\Cart::addItem\",\"depth\":3}` |\n" +
	"| `ragraf_context` | one definition before a change, within a token budget | `{\"qname\":\"App\\\\Cart::addItem\",\"budget_tokens\":2000}` or `{\"path\":\"src/Cart.php\",\"line\":14}` |\n" +
	"| `ragraf_changes` | what the edits (or commits) changed and reach | `{}` or `{\"base\":\"HEAD~1\",\"head\":\"HEAD\"}` |\n" +
	"| `ragraf_entry_points` | routes, CLI commands, cron | `{\"kind\":\"web_route\"}` |\n" +
	"| `ragraf_schema` | tables and columns | `{\"table\":\"orders\"}` |\n" +
	"| `ragraf_table_usage` | code using a table | `{\"table\":\"orders\"}` |\n" +
	"| `ragraf_docs` | documentation of a file or symbol | `{\"path\":\"src/Cart.php\"}` |\n" +
	"| `ragraf_live_read` | the file as it is now | `{\"path\":\"src/Cart.php\",\"start_line\":40}` |\n" +
	"| `ragraf_drift` | changes since the index | `{\"unacked\":true}` |\n" +
	"| `ragraf_status` | coverage of the index | `{}` |\n" +
	"\n" +
	"## Stale marks\n" +
	"\n" +
	"A `stale_warnings` entry names a cited file that changed since the index was built, with the changed lines;\n" +
	"an item's `stale` mark says that fact lies in a changed range or is reached through one. Such facts may be\n" +
	"out of date: confirm them with `ragraf_live_read` before relying on them.\n"

// Texts returns the instruction texts install writes, by name, so the tool
// names and example arguments in them can be checked against the MCP server
// (internal/cli's agent tests do).
func Texts() map[string]string {
	return map[string]string{"AGENTS.md block": agentsBlock, "skill": skillText, "cursor rule": cursorRule}
}

// sharedEdits are the files every target writes.
func sharedEdits() []edit {
	return []edit{
		{path: "AGENTS.md", fn: func(cur []byte, _ bool, _ editCtx) ([]byte, error) {
			return setBlock(cur, agentsBlock), nil
		}},
		{path: ".agents/skills/ragraf/SKILL.md", fn: wholeFile(skillText)},
	}
}

// wholeFile is an edit for a file ragraf writes entirely: created when
// absent, and replaced only when ragraf owns it or with force.
func wholeFile(text string) func([]byte, bool, editCtx) ([]byte, error) {
	return func(cur []byte, exists bool, ctx editCtx) ([]byte, error) {
		want := text
		if bytes.Contains(cur, []byte("\r\n")) {
			want = strings.ReplaceAll(text, "\n", "\r\n")
		}
		if exists && string(cur) != want {
			if err := ctx.claim("the file"); err != nil {
				return nil, err
			}
		}
		return []byte(want), nil
	}
}

// setBlock puts body between the ragraf markers of a Markdown text: the
// block is replaced where it is, or appended after a blank line. CRLF texts
// stay CRLF.
func setBlock(cur []byte, body string) []byte {
	nl := "\n"
	if bytes.Contains(cur, []byte("\r\n")) {
		nl = "\r\n"
	}
	block := strings.ReplaceAll(blockBegin+"\n"+body+blockEnd, "\n", nl)
	s := string(cur)
	if i := strings.Index(s, blockBegin); i >= 0 {
		if j := strings.Index(s[i:], blockEnd); j >= 0 {
			return []byte(s[:i] + block + s[i+j+len(blockEnd):])
		}
	}
	switch {
	case strings.TrimSpace(s) == "":
		s = ""
	case strings.HasSuffix(s, nl+nl):
	case strings.HasSuffix(s, nl):
		s += nl
	default:
		s += nl + nl
	}
	return []byte(s + block + nl)
}

// hookCommand is the shell command line of a ragraf hook.
func hookCommand(ctx editCtx, args string) string {
	c := ctx.command
	if strings.ContainsAny(c, " \t'\"") {
		c = fmt.Sprintf("%q", c)
	}
	if args == "" {
		return c
	}
	return c + " " + args
}
