// This file describes the tools that serve a change task as a whole:
// ragraf_context (one definition before it changes) and ragraf_changes (what
// a change set touches and reaches).

package mcpserver

var changeTools = []tool{
	{op: "context", title: "Definition context", description: `One definition (qname, path:line or id) before changing it, most important first: signature, docblock, container, ranked callers and callees, implementations, impact summary, data-flow state, code; never over budget_tokens (cl100k); omitted counts what was cut.
Example: {"qname": "App\\Cart::addItem", "budget_tokens": 2000} answers
target: src/Cart.php:13-16  App\Cart::addItem  method  container=App\Cart  public function addItem(string $sku, int $qty): void
callers:
src/Checkout.php:10  App\Checkout::run  calls`},
	{op: "changes", title: "Change set", description: `Declarations changed, added and deleted in the working tree (or base..head commits) with path:line and impact counts, and the entry points, tables and tests reached.
Example: {"base": "HEAD~1"} answers
symbols:
src/Cart.php:13  App\Cart::addItem  method  change=changed`},
}
