// This file describes the tools that find definitions and text:
// ragraf_symbol, ragraf_outline, ragraf_search and ragraf_repo_map.

package mcpserver

var symbolTools = []tool{
	{op: "symbol", title: "Find definitions", description: `Find definitions (classes, interfaces, traits, enums, functions, methods, properties, constants) by short name or qualified name; names are case-insensitive. Each match has its id (use it with references, callers, impact, code), kind, signature, path and line range.
Pass exactly one of name and qname; fuzzy matches names containing the text. Paged: pass limits.cursor back as cursor. When nothing matches, not_found is true and suggest lists other tools to try.
Example: {"name": "addItem"} -> result.symbols [{"id": "n0abf…", "kind": "method", "qname": "App\\Cart::addItem", "signature": "public function addItem(Item $item): void", "path": "src/Cart.php", "line": 12, "end_line": 16}].`},
	{op: "outline", title: "File outline", description: `List a file's definitions as a tree (types with their members) with signatures and line ranges, never bodies. The whole tree, never paged.
Example: {"path": "src/Cart.php"} -> result.symbols [{"kind": "class", "qname": "App\\Cart", "line": 7, "children": [{"kind": "method", "name": "addItem", "line": 12}]}].`},
	{op: "search", title: "Lexical search", description: `Search names, qualified names, signatures, docblocks, comments and documentation sections with BM25 over code-aware terms (camelCase, snake_case and namespaces are split; whole identifiers are kept). Each hit shows its score parts. Filter with kind (a node kind, or docblock, comment, doc_section) and path_glob. The 1000 best matches of names and of text are ranked; paged: pass limits.cursor back as cursor.
Semantic and hybrid modes need an embedding model; without one the answer says so in result.fallback and runs lexical search.
Example: {"query": "add item to cart", "kind": "method", "limit": 5} -> result.hits [{"type": "symbol", "qname": "App\\Cart::addItem", "path": "src/Cart.php", "line": 12, "score": {"bm25": 7.1, "kind_boost": 1.3, "exact_boost": 1, "total": 9.23}}].`},
	{op: "repo_map", title: "Repository map", description: `A compact map of the repository: files and definition signatures ranked by PageRank over the reference graph, personalised by focus (file paths or node ids), cut to fit budget_tokens counted with the cl100k_base tokenizer. Signatures only, never bodies. result.text is the map; result.files the same facts with ids and lines.
Example: {"budget_tokens": 1000, "focus": ["src/Cart.php"]} -> result.text "src/Cart.php\n  7: class Cart extends Base\n    12: public function addItem(Item $item): void\n…", result.tokens 987.`},
}
