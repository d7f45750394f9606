// Package dataflow is the language-neutral data-flow engine behind the slice
// and flow operations (ARCHITECTURE.md §11): the IR a language lowers one
// function into (ir.go), the models of sources, sinks and sanitizers shipped
// as data (models.go, models.yaml), the IR's stored form (codec.go), and the
// queries that walk the IR within and across functions (query.go, slice_flow.go).
//
// # IR
//
// A Func is a list of Nodes, each one definition of a location (Loc) at a
// line: a local, a parameter, a return, a property, an array element, a
// superglobal read, a call's argument or result, a sink's operand. Each node
// lists the nodes its value comes from (In), with the edge kind (assign,
// concat, arg, ret, store, load, sanitize, call). Definitions reaching a use
// are resolved by the lowering while it walks the tree, branch by branch, so
// the IR is already def-use: there is no CFG to walk at query time.
//
// # Queries
//
// Slice walks In edges backwards (or their reverse forwards) from the nodes
// of a criterion; Flow searches breadth-first for the shortest path from a
// source to a sink. Both cross functions through the call graph the caller
// supplies (Env): argument to parameter and return to call result, with a
// call string of at most two sites so a path returns to the site it entered
// by. A build stores each file's lowered functions (codec.go); a query
// decodes the files it needs, or lowers one the build did not store.
package dataflow
