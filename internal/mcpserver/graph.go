// This file describes the tools that follow edges: ragraf_references,
// ragraf_implementations, ragraf_callers, ragraf_callees and ragraf_impact.

package mcpserver

var graphTools = []tool{
	{op: "references", title: "Use sites", description: `Every use of a definition: the use site, the definition holding it, the use kind (calls, references, instantiates, extends, …), "derived" when inferred rather than proven, "via I::m" when the call goes through a parent's or interface's declaration.
Example: {"qname": "App\\Cart::addItem"} answers
target: src/Cart.php:13  App\Cart::addItem  method
uses:
src/Checkout.php:10  App\Checkout::run  calls`},
	{op: "implementations", title: "Implementations", description: `Subclasses and implementers of a class or interface, users of a trait, overriders of a method, down the hierarchy.
Example: {"qname": "App\\Shipping"} answers
target: src/Cart.php:4  App\Shipping  interface
implementations:
src/Checkout.php:15  App\FlatShipping  class  relation=implements`},
	{op: "callers", title: "Callers", description: `Functions and methods calling a function or method, up to depth (1-5), each at its call site: proven calls under stated, inferred ones (dynamic receivers) under derived.
Example: {"qname": "App\\Cart::addItem"} answers
target: src/Cart.php:13  App\Cart::addItem  method
stated:
src/Checkout.php:10  App\Checkout::run  calls`},
	{op: "callees", title: "Callees", description: `What a function or method calls, at each call site: stated (proven) and derived (inferred).
Example: {"qname": "App\\Checkout::run"} answers
target: src/Checkout.php:8  App\Checkout::run  method
stated:
src/Checkout.php:10  App\Cart::addItem  calls
src/Checkout.php:11  App\Shipping::cost  calls`},
	{op: "impact", title: "Change impact", description: `What may break when a definition or file changes: symbols reaching it backwards (calls, references, new, extends, includes) up to depth, their files, entry points, tables, tests; co_changed: what changed in the same commits. hard: stated chains; soft: the rest. blocks: only those named.
Example: {"qname": "App\\Cart::addItem", "blocks": ["tests"]} answers
targets:
src/Cart.php:13  App\Cart::addItem  method
hard.tests:
tests/CheckoutTest.php:12  Tests\CheckoutTest::testRun  method`},
}
