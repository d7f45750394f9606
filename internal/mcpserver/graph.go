// This file describes the tools that follow edges: ragraf_references,
// ragraf_implementations, ragraf_callers, ragraf_callees and ragraf_impact.

package mcpserver

var graphTools = []tool{
	{op: "references", title: "Use sites", description: `Every use of a definition: at (the use site), use kind (calls, references, instantiates, extends, …), the definition holding it (id, name), derived when inferred rather than proven.
Example: {"qname": "App\\Cart::addItem"} -> result.uses [{"id": "n3bf0…", "at": "src/Checkout.php:31", "kind": "calls", "name": "App\\Checkout::run"}]`},
	{op: "implementations", title: "Implementations", description: `Subclasses and implementers of a class or interface, users of a trait, overriders of a method, down the hierarchy, with the edge chain.
Example: {"qname": "App\\Shipping"}`},
	{op: "callers", title: "Callers", description: `Functions and methods calling a function or method, up to depth (1-5); proven calls in result.stated, inferred ones (dynamic receivers) in result.derived, each at its call site (detailed: with the chain).
Example: {"qname": "App\\Cart::addItem"} -> result.stated [{"id": "n3bf0…", "at": "src/Checkout.php:31", "kind": "calls", "name": "App\\Checkout::run"}]`},
	{op: "callees", title: "Callees", description: `What a function or method calls, with call sites; result.stated (proven) and result.derived (inferred).
Example: {"qname": "App\\Checkout::run"} -> result.stated [{"id": "na544…", "at": "src/Checkout.php:31", "kind": "calls", "name": "App\\Cart::addItem"}]`},
	{op: "impact", title: "Change impact", description: `What may break when a definition or file changes: symbols reaching it backwards (calls, references, instantiation, inheritance, includes) up to depth (default 3), their files, entry points, tables, tests. result.hard: chains of stated edges only; result.soft: the rest. With data: true, result.data lists what reads the changed parameters, written properties, return value (or what path+line defines) downstream, nearest first. Other lists than symbols page with list and result.cursors.<list>.
Example: {"qname": "App\\Cart::addItem"} -> result.hard.symbols [{"id": "n3bf0…", "at": "src/Checkout.php:28", "kind": "method", "name": "App\\Checkout::run"}], result.hard.files [{"at": "src/Checkout.php:28", "symbols": 1}]`},
}
