// This file describes the tools that find definitions and text:
// ragraf_symbol, ragraf_outline, ragraf_search, ragraf_similar and ragraf_repo_map.

package mcpserver

var symbolTools = []tool{
	{op: "symbol", title: "Find definitions", description: `Find definitions by name or qname (case-insensitive; fuzzy: names containing the text), each with an id for the other tools, kind, signature and path:line.
Example: {"name": "addItem"} -> result.symbols [{"id": "n0abf…", "kind": "method", "qname": "App\\Cart::addItem", "path": "src/Cart.php", "line": 12}]`},
	{op: "outline", title: "File outline", description: `A file's definitions as a tree (types with their members), signatures and line ranges, no bodies.
Example: {"path": "src/Cart.php"}`},
	{op: "search", title: "Search", description: `mode lexical (BM25, code-aware terms), semantic (vectors) or hybrid (both, rank-fused; the default when the index has vectors) over names, signatures, docblocks, comments, docs; filter by kind, path_glob.
Example: {"query": "add item to cart"} -> result.hits [{"at": "src/Cart.php:12", "name": "App\\Cart::addItem"}]`},
	{op: "similar", title: "Similar", description: `Symbols most like one by vector cosine.
Example: {"id": "n0abf…"} -> result.hits [{"name": "App\\Wishlist::add"}]`},
	{op: "repo_map", title: "Repository map", description: `Files and signatures ranked by PageRank over references, personalised by focus (paths or ids), cut to budget_tokens (cl100k). result.text is the map, result.files the same with ids and lines.
Example: {"budget_tokens": 1000, "focus": ["src/Cart.php"]}`},
}
