// This file describes the tools that follow edges: ragraf_references,
// ragraf_implementations, ragraf_callers, ragraf_callees and ragraf_impact.

package mcpserver

var graphTools = []tool{
	{op: "references", title: "Use sites", description: `Every use of a definition: path:line, use kind (calls, references, instantiates, extends, …), provenance (stated = proven, derived = inferred) and the enclosing definition.
Example: {"qname": "App\\Cart::addItem"} -> result.uses [{"path": "src/Checkout.php", "line": 31, "kind": "calls", "provenance": "stated", "from": {"qname": "App\\Checkout::run"}}]`},
	{op: "implementations", title: "Implementations", description: `Subclasses and implementers of a class or interface, users of a trait, overriders of a method, down the hierarchy, with the edge chain.
Example: {"qname": "App\\Shipping"} -> result.implementations [{"qname": "App\\Courier", "relation": "implements", "path": "src/Courier.php", "line": 5}]`},
	{op: "callers", title: "Callers", description: `Functions and methods calling a function or method, up to depth (1-5); proven calls in result.stated, inferred ones (dynamic receivers) in result.derived, each with its call site and chain.
Example: {"qname": "App\\Cart::addItem"} -> result.stated [{"qname": "App\\Checkout::run", "site_path": "src/Checkout.php", "site_line": 31}]`},
	{op: "callees", title: "Callees", description: `What a function or method calls, with call sites; result.stated (proven) and result.derived (inferred).
Example: {"qname": "App\\Checkout::run"} -> result.stated [{"qname": "App\\Cart::addItem", "site_path": "src/Checkout.php", "site_line": 31}]`},
	{op: "impact", title: "Change impact", description: `What may break when a definition or file changes: symbols reaching it backwards over calls, references, instantiation, inheritance and includes up to depth (default 3), their files, entry points, tables and tests. result.hard has chains of stated edges only, result.soft the rest. Symbols are paged; other lists page with list and result.cursors.<list>.
Example: {"qname": "App\\Cart::addItem"} -> result.hard.symbols [{"qname": "App\\Checkout::run", "depth": 1, "chain": [{"kind": "calls", "path": "src/Checkout.php", "line": 31}]}]`},
}
