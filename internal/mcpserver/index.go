// This file describes the index tools: ragraf_status and ragraf_revisions.

package mcpserver

var indexTools = []tool{
	{op: "status", title: "Index coverage", description: `Report what the current index covers: revision, files by status and language, node and edge counts, unresolved references, conflicting declarations, duplicate files and the drift summary.
Use it first to learn whether the index can answer a question (capability, coverage).
Example: {} -> result.files.by_status {"parsed": 812, "skipped": 3}, result.edges {"calls": {"stated": 5120, "derived": 840}}.`},
	{op: "revisions", title: "Revision history", description: `List the index revisions, newest first, with which one answers now, and the reindex reports kept in .ragraf/archive. Paged: pass limits.cursor back as cursor.
Example: {"limit": 5} -> result.current "rev-0007", result.revisions [{"rev": "rev-0007", "current": true, "files": 812, ...}].`},
}
