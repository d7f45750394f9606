// This file holds the server's instructions, the "index first" regimen every
// client receives with initialize. Clients cut instructions at about 2 KB; a
// test keeps them under that.

package mcpserver

const instructions = `ragraf answers from an index of this repository (every answer names its revision in index_rev). Use it first:
- Finding code: ragraf_search (words) or ragraf_symbol (a name) before grep or opening files; ragraf_outline for one file; ragraf_repo_map for an overview.
- Before editing a definition: ragraf_context for all of it in one budgeted answer; ragraf_references or ragraf_callers for its uses, ragraf_impact for what may break (entry points, tables, tests; data: true adds what reads its parameters, properties, return value), ragraf_code for its indexed source.
- After editing: ragraf_changes lists the definitions changed, added and deleted, and the entry points, tables and tests they reach.
- Pass the id from one answer to the next tool.
- Answers are concise by default: per item its id, at (path:line), kind and one name. Pass format "detailed" for signatures, containers, nested objects and evidence chains. A concise envelope leaves out fields at their default: no drift, stale_warnings, not_found or suggest means none.
- Lists are paged: when limits.truncated is true, pass limits.cursor back as cursor.
- not_found true: the index holds no such fact; suggest names the tools to try next.
- Stale: stale_warnings lists cited files that changed since the revision was built (the drift ledger); their facts may be out of date. Read the current text with ragraf_live_read; ragraf_drift_detect {"method":"compare"} records working-tree changes now and ragraf_drift lists them.
- Rebuild: after a change, run "ragraf reindex --commit" (or "ragraf index") in a shell; this server answers from the new revision without a restart.`
