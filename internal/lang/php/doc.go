// Package php turns one PHP file into graph facts: declarations (namespaces,
// classes, interfaces, traits, enums and their cases, functions, methods,
// properties, constants) with exact line ranges and signatures, their contains
// edges, and the file's docblocks and comments as text chunks.
//
// It works on one file at a time from its tree-sitter tree and knows nothing of
// other files or of any store; cross-file linking happens in package resolve.
//
// # Line ranges
//
// Lines are 1-based and inclusive. A declaration starts at its first attribute or
// modifier and ends at its closing token; its docblock is linked as a text chunk,
// not included in the range.
//
// # Principal types
//
// Extractor holds a parser and is not safe for concurrent use: give each worker
// its own. Result is what one file yields.
//
// # Trees
//
// Trees come from package syntax, which parses and flattens a file in one cgo
// call; its Node has the method set of go-tree-sitter's Node, but walking it
// costs no cgo call and nothing needs closing.
package php
