// This file describes the tools that return source text: ragraf_code and
// ragraf_live_read.

package mcpserver

var sourceTools = []tool{
	{op: "code", title: "Indexed source", description: `Return source text as indexed in this revision: a definition's lines (id or qname) or a file's lines (path, start_line, end_line). result.stale is true when the working-tree file no longer matches the index; then use ragraf_live_read for the current text.
Example: {"qname": "App\\Cart::addItem"} -> result {"path": "src/Cart.php", "line": 12, "end_line": 16, "text": "    public function addItem(Item $item): void\n…", "stale": false, "file_state": "unchanged"}.`},
	{op: "live_read", title: "Current file", description: `Return a file as it is in the working tree now, with the regions that differ from the indexed revision listed in result.hunks (current lines and the indexed lines they replace). provenance is "mixed". Only files inside the project can be read.
Example: {"path": "src/Cart.php", "start_line": 1, "end_line": 40} -> result {"file_state": "modified", "hunks": [{"line": 14, "end_line": 15, "indexed_line": 14, "indexed_end_line": 14}], "text": "<?php\n…"}.`},
}
