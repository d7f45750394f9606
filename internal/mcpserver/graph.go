// This file describes the tools that follow edges: ragraf_references,
// ragraf_implementations, ragraf_callers, ragraf_callees and ragraf_impact.

package mcpserver

var graphTools = []tool{
	{op: "references", title: "Use sites", description: `List every use of a definition with path, line, kind of use (calls, references, instantiates, extends, …), provenance (stated = proven, derived = inferred) and the enclosing definition. Paged: pass limits.cursor back as cursor for the next page.
Example: {"qname": "App\\Cart::addItem", "limit": 2} -> result.uses [{"path": "src/Checkout.php", "line": 31, "kind": "calls", "provenance": "stated", "from": {"qname": "App\\Checkout::run"}}], limits {"total": 14, "truncated": true, "cursor": "…"}.`},
	{op: "implementations", title: "Implementations", description: `List what extends or implements a class or interface, which classes use a trait, and which methods override a method, down the whole hierarchy, each with the chain of edges as evidence. Paged: pass limits.cursor back as cursor.
Example: {"qname": "App\\Shipping"} -> result.implementations [{"qname": "App\\Courier", "relation": "implements", "depth": 1, "path": "src/Courier.php", "line": 5}].`},
	{op: "callers", title: "Callers", description: `List the functions and methods that call a function or method, up to depth levels (1-5). Proven calls are in result.stated, inferred ones (dynamic receivers, name matches) in result.derived; each has the call site and, beyond depth 1, the call chain. One page spans stated, then derived: pass limits.cursor back as cursor.
Example: {"qname": "App\\Cart::addItem", "depth": 2} -> result.stated [{"qname": "App\\Checkout::run", "depth": 1, "site_path": "src/Checkout.php", "site_line": 31}], result.derived [].`},
	{op: "callees", title: "Callees", description: `List what a function or method calls, with call sites, split into result.stated (proven targets) and result.derived (inferred), paged like callers.
Example: {"qname": "App\\Checkout::run"} -> result.stated [{"qname": "App\\Cart::addItem", "site_path": "src/Checkout.php", "site_line": 31}].`},
	{op: "impact", title: "Change impact", description: `What may break when a definition or a file changes: the definitions that reach it backwards over calls, references, instantiation, inheritance and includes, up to depth (1-5, default 3), grouped into symbols and files. result.hard holds only chains of proven (stated) edges; result.soft the rest (mode "hard" omits it). Every item carries its edge chain as evidence. Symbols are paged (limit, cursor; one page spans hard, then soft); files (most impacted first), entry points and tables show their first page, with *_total counts and, when cut, result.cursors.<list>: pass it as cursor to page that list (or give list).
Example: {"qname": "App\\Cart::addItem", "depth": 2} -> result.hard.symbols [{"qname": "App\\Checkout::run", "depth": 1, "chain": [{"kind": "calls", "path": "src/Checkout.php", "line": 31}]}], result.hard.files [{"path": "src/Checkout.php", "line": 20, "symbols": 1}].`},
}
