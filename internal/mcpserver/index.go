// This file describes the index tools: ragraf_status and ragraf_revisions.

package mcpserver

var indexTools = []tool{
	{op: "status", title: "Index coverage", description: `What the index covers: revision, capability, files by status and language, node and edge counts, unresolved references, conflicts, duplicates, drift summary. Call it first to learn whether the index can answer.
Example: {}`},
	{op: "revisions", title: "Revision history", description: `The index revisions, newest first, which one answers now, and the reindex reports in .ragraf/archive.
Example: {"limit": 5}`},
}
