// This file describes the data-flow tools: ragraf_slice and ragraf_flow
// (internal/facade/slice.go and flow.go).

package mcpserver

var dataflowTools = []tool{
	{op: "slice", title: "Data-flow slice", description: `Statements a value depends on (direction backward, default) or reaches (forward), across calls up to depth (default 2): nodes with kind, path:line and location, dependence edges (assign, concat, arg, ret, store, load, sanitize, call), functions crossed, cut_points where the analysis is blind (complete: false). No source text; read lines with code.
Example: {"path": "src/Cart.php", "line": 42, "variable": "$total"} -> result.nodes [{"index": 1, "path": "src/Cart.php", "line": 40, "kind": "assign", "location": "$price", "edge": "assign"}]`},
	{op: "flow", title: "Data-flow path", description: `Shortest data-flow path from a place (node id or path:line, optional from_variable) or source:http_input to a place or a sink model (sink:sql, sink:output, sink:shell, sink:include, sink:unserialize, sink:file). found: true gives the steps with edge kind, call site and callee when crossing, provenance and sanitizers passed; found: false with complete: true means no path exists in what was analysed; complete: false lists cut_points.
Example: {"from": "source:http_input", "to": "src/Db.php:12"} -> result {"found": true, "path": [{"path": "src/Api.php", "line": 8, "location": "$_GET['id']"}, {"path": "src/Db.php", "line": 12, "edge": "arg", "via": {"call_site": "src/Api.php:9"}}]}`},
}
