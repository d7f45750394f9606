// This file describes the tools that serve a change task as a whole:
// ragraf_context (one definition before it changes) and ragraf_changes (what
// a change set touches and reaches).

package mcpserver

var changeTools = []tool{
	{op: "context", title: "Definition context", description: `One definition (id, qname, or path and line) before changing it, most important first: signature, docblock, container, ranked callers and callees, implementations, impact summary, data-flow state, code; never over budget_tokens (cl100k). result.omitted counts what was cut.
Example: {"qname": "App\\Cart::addItem"} -> result {"callers": [{"qname": "App\\Checkout::run", "site_line": 31}], "code": {"line": 12, "text": "…"}, "tokens": 1874}`},
	{op: "changes", title: "Change set", description: `Declarations changed, added and deleted in the working tree (or base..head commits) with path:line and impact counts, and the entry points, tables and tests reached.
Example: {"base": "HEAD~1"} -> result.symbols [{"change": "changed", "qname": "App\\Cart::addItem", "path": "src/Cart.php", "line": 12}]`},
}
