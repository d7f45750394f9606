// This file describes the tools that find definitions and text:
// ragraf_symbol, ragraf_outline, ragraf_search, ragraf_similar and ragraf_repo_map.

package mcpserver

var symbolTools = []tool{
	{op: "symbol", title: "Find definitions", description: `Find definitions by name or qname (case-insensitive; fuzzy: names containing the text), each with an id for the other tools, kind, signature and path:line.
Example: {"name": "addItem"} -> result.symbols [{"id": "n0abf…", "kind": "method", "qname": "App\\Cart::addItem", "path": "src/Cart.php", "line": 12}]`},
	{op: "outline", title: "File outline", description: `A file's definitions as a tree (types with their members), signatures and line ranges, no bodies.
Example: {"path": "src/Cart.php"}`},
	{op: "search", title: "Search", description: `BM25 over names, signatures, docblocks, comments and docs, with code-aware terms (camelCase, snake_case, namespaces split); filter by kind and path_glob. Semantic and hybrid need an embedding model, else result.fallback says lexical ran.
Example: {"query": "add item to cart", "kind": "method"} -> result.hits [{"id": "na544…", "at": "src/Cart.php:12", "kind": "method", "name": "App\\Cart::addItem"}]`},
	{op: "similar", title: "Similar code", description: `Symbols most like one (id or qname) by vector cosine: how it is done elsewhere. score.semantic is the similarity.
Example: {"qname": "App\\Cart::addItem"} -> result.hits [{"id": "n7c01…", "at": "src/Wishlist.php:20", "kind": "method", "name": "App\\Wishlist::addProduct"}]`},
	{op: "repo_map", title: "Repository map", description: `Files and signatures ranked by PageRank over references, personalised by focus (paths or ids), cut to budget_tokens (cl100k). result.text is the map, result.files the same with ids and lines.
Example: {"budget_tokens": 1000, "focus": ["src/Cart.php"]}`},
}
