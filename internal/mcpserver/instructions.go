// This file holds the server's instructions, the "index first" regimen every
// client receives with initialize. Clients cut instructions at about 2 KB; a
// test keeps them under that.

package mcpserver

import "github.com/ragraf/ragraf/internal/facade"

const instructions = `ragraf answers from an index of this repository. Use it first:
- Finding code: ragraf_search (words) or ragraf_symbol (a name) before grep or opening files; ragraf_outline for one file; ragraf_repo_map for an overview.
- Before editing a definition: ragraf_context for all of it in one budgeted answer; ragraf_references or ragraf_callers for its uses, ragraf_impact for what may break (entry points, tables, tests; data: true adds what reads its parameters, properties, return value), ragraf_code for its indexed source.
- After editing: ragraf_changes lists the definitions changed, added and deleted, and the entry points, tables and tests they reach.
- Answers are text, one line per fact: path:line, qualified name, kind, and "derived" when inferred rather than proven. Pass a name or path:line from one answer to the next tool. detail "detailed" adds signatures, containers and evidence chains; format "json" returns the JSON envelope instead.
- Header lines come first, only for what is not at its default; ` + facade.TextDefaults + `.
- "truncated: ... cursor X": pass cursor X back for the next page. "not found": the index holds no such fact; the "try:" lines name the calls to make next.
- "stale: path lines": the file changed since the revision was built; its facts may be out of date. Read the current text with ragraf_live_read; ragraf_drift_detect {"method":"compare"} records working-tree changes now and ragraf_drift lists them.
- Rebuild: after a change, run "ragraf reindex --commit" (or "ragraf index") in a shell; this server answers from the new revision without a restart.`
