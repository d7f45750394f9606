// Package lang is the front-end interface: what a language implements so
// that a build (package rev) indexes its files. A language is one folder
// under internal/lang (php, markdown, sql, twig, blade) with a FrontEnd; package
// internal/lang/all lists them by name.
//
// Per file a front end gives, from the file alone (ARCHITECTURE.md §9: a
// front end knows one file and no store):
//   - declarations with exact line ranges and their container (Node.Parent;
//     "" hangs the node below the file node);
//   - the edges the file proves by itself (contains, the domain's);
//   - unresolved references with typed receivers (fact.Ref), which package
//     resolve links across files, dispatching by language;
//   - text chunks: docblocks, comments, documentation sections;
//   - optionally the file lowered for data flow (slice, flow) and domain
//     facts (tables, routes, entry points, SQL).
//
// A file the front end reads only in part is Partial with the reason; the
// build keeps what it found. A front end never fails the build for bad input:
// an error from File marks only that file failed.
package lang

import (
	"context"

	"github.com/ragraf/ragraf/internal/dataflow"
	"github.com/ragraf/ragraf/internal/extract/docs"
	"github.com/ragraf/ragraf/internal/fact"
)

// FrontEnd is one language. It is a value without state; New gives the
// per-worker parser.
type FrontEnd interface {
	// Name is the language name: corpus.File.Lang, fact.Node.Lang, the key
	// of the registry.
	Name() string
	// New returns a Parser with opts; each build worker has its own.
	New(opts Options) (Parser, error)
}

// Parser reads the files of one language. It is not safe for concurrent
// use; Close frees what it holds (a tree-sitter parser's C memory).
type Parser interface {
	// File extracts the facts of one file. path is the project-relative
	// slash path; src is its content, secrets redacted. An error marks the
	// file failed with the error's text; a done ctx returns ctx's error.
	File(ctx context.Context, path string, src []byte) (Facts, error)
	Close()
}

// Options are the project settings a front end may use; each ignores what
// it has no use for.
type Options struct {
	ChunkTokens   int      // budget of one documentation chunk (len(text)/4)
	TablePrefixes []string // table name prefixes of the project's database ("wp_")
	// Budget of one file (docs/reliability.md): syntax nodes visited and
	// bytes of memory; zero is no limit.
	MaxFileWork  int64
	MaxFileBytes int64
	// Dataflow asks for the lowering of every function not longer than
	// DataflowLines lines.
	Dataflow      bool
	DataflowLines int
}

// Facts is what one file yields.
type Facts struct {
	Nodes  []fact.Node // declarations; Parent "" is the file
	Edges  []fact.Edge
	Refs   []fact.Ref       // for package resolve
	Chunks []fact.TextChunk // docblocks, comments, documentation sections
	// Mentions are names in documentation that resolve links to nodes
	Mentions []docs.Mention
	// Dataflow is the file lowered for slice and flow; nil when the
	// language has no lowering or it was not asked for
	Dataflow []*dataflow.Func
	// Domain are the facts of the application's domain the file states:
	// tables and columns used, routes, entry points, SQL
	Domain Domain
	// Partial says the file was read only in part; Reason says why
	Partial bool
	Reason  string
}

// Domain facts of one file, kept apart from its declarations.
type Domain struct {
	Nodes []fact.Node
	Edges []fact.Edge
	Refs  []fact.Ref
}

// Registry holds the front ends by language name.
type Registry map[string]FrontEnd

// NewRegistry returns a registry of fes; a name given twice panics (a
// programming error, seen by every test).
func NewRegistry(fes ...FrontEnd) Registry {
	r := Registry{}
	for _, fe := range fes {
		if _, dup := r[fe.Name()]; dup {
			panic("lang: front end " + fe.Name() + " registered twice")
		}
		r[fe.Name()] = fe
	}
	return r
}
