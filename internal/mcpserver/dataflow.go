// This file describes the data-flow tools: ragraf_slice and ragraf_flow
// (internal/facade/slice.go and flow.go).

package mcpserver

var dataflowTools = []tool{
	{op: "slice", title: "Slice", description: `Statements a value depends on (backward) or reaches (forward), across calls; no source text.
Example: {"path": "a.php", "line": 42, "variable": "$sql"} answers
nodes:
a.php:40  param  location="$id (param 0)"  function_name=App\Repo::find`},
	{op: "flow", title: "Flow", description: `Shortest data-flow path with steps, call sites, sanitizers; or found: false, complete: true|false with cut_points.
Example: {"from": "source:http_input", "to": "a.php:12"} answers
found: true
path:
a.php:5  source  location="$_GET['id']"`},
}
