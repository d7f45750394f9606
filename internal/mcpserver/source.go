// This file describes the tools that return source text: ragraf_code and
// ragraf_live_read.

package mcpserver

var sourceTools = []tool{
	{op: "code", title: "Indexed source", description: `Source text as indexed: a definition's lines (qname or id) or a file's (path, start_line, end_line). A "stale:" header: the file changed since; read it with ragraf_live_read.
Example: {"qname": "App\\Cart::addItem"} answers
path: src/Cart.php
text:
    public function addItem(string $sku, int $qty): void
    …`},
	{op: "live_read", title: "Current file", description: `A project file as it is now, with hunks: the current lines that differ from the indexed ones.
Example: {"path": "src/Cart.php", "end_line": 40}`},
}
