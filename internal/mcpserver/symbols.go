// This file describes the tools that find definitions and text:
// ragraf_symbol, ragraf_outline, ragraf_search, ragraf_similar and ragraf_repo_map.

package mcpserver

var symbolTools = []tool{
	{op: "symbol", title: "Find definitions", description: `Find definitions by name or qname (case-insensitive; fuzzy: names containing the text): path:line-end, qualified name, kind, signature.
Example: {"name": "addItem"} answers
src/Cart.php:13-16  App\Cart::addItem  method  public function addItem(string $sku, int $qty): void`},
	{op: "outline", title: "File outline", description: `A file's definitions as a tree (types with their members indented), line ranges, no bodies.
Example: {"path": "src/Cart.php"} answers
symbols:
src/Cart.php:9  Cart  class
  src/Cart.php:13  addItem  method`},
	{op: "search", title: "Search", description: `mode lexical (BM25, code-aware terms), semantic (vectors) or hybrid (both, rank-fused; the default when the index has vectors) over names, signatures, docblocks, comments, docs; filter by kind, path_glob. Hits best first.
Example: {"query": "add item to cart"} answers
hits:
src/Cart.php:13  App\Cart::addItem  method`},
	{op: "similar", title: "Similar", description: `Symbols most like one by vector cosine, best first.
Example: {"qname": "App\\Cart::addItem"} answers
hits:
src/Wishlist.php:20  App\Wishlist::add  method`},
	{op: "repo_map", title: "Repository map", description: `Files and signatures ranked by PageRank over references, personalised by focus (paths or ids), cut to budget_tokens (cl100k). The answer is the map; detail "detailed" adds each definition's rank, in-degree and personalisation.
Example: {"budget_tokens": 1000, "focus": ["src/Cart.php"]} answers
text:
src/Cart.php
  9: class Cart
    13: public function addItem(string $sku, int $qty): void`},
}
