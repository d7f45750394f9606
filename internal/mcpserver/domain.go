// This file describes the tools about the application's domain:
// ragraf_entry_points, ragraf_schema, ragraf_table_usage and ragraf_docs.

package mcpserver

var domainTools = []tool{
	{op: "entry_points", title: "Entry points", description: `Web routes, HTTP endpoints (REST routes, wp_ajax_* hooks), CLI commands and cron jobs, with the handler each reaches (unresolved: as written). Filter by kind or path.
Example: {"kind": "web_route"} answers
entry_points:
routes/web.php:27  GET /products/{sku}  web_route  handler=App\ProductController::show`},
	{op: "schema", title: "Database schema", description: `Tables with columns, keys and foreign keys, each with its source (SQL file, migration, CREATE TABLE string, live database); disagreeing sources are listed under conflicts. Names match with or without prefix.
Example: {"table": "orders"}`},
	{op: "table_usage", title: "Code using a table", description: `Functions and methods that query a table (op select/insert/update/delete/ddl, the columns named) or reference it (query builder, model), with path:line; derived when the name was inferred from an expression. column keeps statements naming it.
Example: {"table": "orders", "column": "status"}`},
	{op: "docs", title: "Documentation", description: `Documentation sections (Markdown, reStructuredText) about a node (id) or a source file (path); a documentation file's path lists its sections. Read a section with ragraf_code.
Example: {"path": "src/Cart.php"}`},
}
