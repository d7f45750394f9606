// This file describes the tools that serve a change task as a whole:
// ragraf_context (one definition before it changes) and ragraf_changes (what
// a change set touches and reaches).

package mcpserver

var changeTools = []tool{
	{op: "context", title: "Definition context", description: `One call before changing a definition (id, qname, or path and line): signature, docblock, container, ranked callers and callees with call sites, implementations, members, impact summary (entry points, tables, tests reached), data-flow state and the code, most important first; the whole answer never exceeds budget_tokens (cl100k, default 2000). result.omitted counts what was cut.
Example: {"qname": "App\\Cart::addItem", "budget_tokens": 2000} -> result {"callers": [{"qname": "App\\Checkout::run", "site_line": 31}], "impact": {"hard_symbols": 4, "tests": [{"path": "tests/CartTest.php", "line": 20}]}, "code": {"line": 12, "text": "…"}, "tokens": 1874}`},
	{op: "changes", title: "Change set", description: `Declarations changed, added and deleted in the working tree against the index, or between git commits (base, head), each with path:line and impact counts (stated, derived), plus the entry points, tables and test files the change set reaches. Symbols are paged.
Example: {"base": "HEAD~1"} -> result.symbols [{"change": "changed", "qname": "App\\Cart::addItem", "path": "src/Cart.php", "line": 12, "impact": {"stated": 3, "derived": 1}}], result.tests [{"path": "tests/CartTest.php", "line": 20}]`},
}
