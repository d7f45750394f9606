// Package fact defines the vocabulary every pipeline stage shares: nodes, edges,
// unresolved references and text chunks, and the deterministic ids that name them.
//
// # Ids
//
// Node and edge ids are hashes of content-defined keys (kind, qualified name or
// endpoints, path and a disambiguator). They never depend on row numbers, walk order,
// parallelism or time, so two builds of one corpus give identical id sets (FT-13).
//
// # Provenance
//
// Every edge says how it is known: Stated edges are proven by analysis and carry
// confidence 1.0; Derived edges are inferred and carry a confidence below 1.0.
package fact

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// NodeKind names a kind of node in the graph.
type NodeKind string

// Node kinds (ARCHITECTURE.md §5).
const (
	File         NodeKind = "file"
	Namespace    NodeKind = "namespace"
	Class        NodeKind = "class"
	Interface    NodeKind = "interface"
	Trait        NodeKind = "trait"
	Enum         NodeKind = "enum"
	Function     NodeKind = "function"
	Method       NodeKind = "method"
	Property     NodeKind = "property"
	Constant     NodeKind = "constant"
	Table        NodeKind = "table"
	Column       NodeKind = "column"
	WebRoute     NodeKind = "web_route"
	HTTPEndpoint NodeKind = "http_endpoint"
	CLICommand   NodeKind = "cli_command"
	CronJob      NodeKind = "cron_job"
	// EventListener is a handler the framework calls on an event or hook:
	// Symfony and Doctrine listeners and subscribers.
	EventListener NodeKind = "event_listener"
	Doc           NodeKind = "doc"
	DocSection    NodeKind = "doc_section"
)

// IsType reports whether k declares a class-like type.
func (k NodeKind) IsType() bool {
	return k == Class || k == Interface || k == Trait || k == Enum
}

// EdgeKind names a kind of edge in the graph.
type EdgeKind string

// Edge kinds (ARCHITECTURE.md §5).
const (
	Contains        EdgeKind = "contains"
	Imports         EdgeKind = "imports"
	Includes        EdgeKind = "includes"
	Extends         EdgeKind = "extends"
	Implements      EdgeKind = "implements"
	UsesTrait       EdgeKind = "uses_trait"
	Overrides       EdgeKind = "overrides"
	Calls           EdgeKind = "calls"
	CallsHeuristic  EdgeKind = "calls_heuristic"
	Instantiates    EdgeKind = "instantiates"
	References      EdgeKind = "references"
	Queries         EdgeKind = "queries"
	ReferencesTable EdgeKind = "references_table"
	ForeignKey      EdgeKind = "foreign_key"
	Handles         EdgeKind = "handles"
	DocumentedBy    EdgeKind = "documented_by"
)

// Provenance says how an edge is known.
type Provenance string

// Provenances.
const (
	Stated  Provenance = "stated"  // proven by analysis; confidence 1.0
	Derived Provenance = "derived" // inferred; confidence < 1.0
)

// Node is one definition in the graph. Lines are 1-based and inclusive.
// Name and Props never hold comment or docblock text (FT-9).
type Node struct {
	ID        string
	Kind      NodeKind
	Name      string
	QName     string
	Path      string
	StartLine int
	EndLine   int
	Lang      string
	Parent    string // id of the containing node; "" for files
	Signature string
	Props     map[string]string // sorted on output; small scalar facts only
}

// Edge is one relation between two nodes, with its provenance.
type Edge struct {
	ID           string
	Kind         EdgeKind
	From         string
	To           string
	Provenance   Provenance
	Confidence   float64
	EvidencePath string
	EvidenceLine int
	Sources      []string
	Props        map[string]string
}

// TextChunk is prose: a docblock, a comment or a documentation section.
// It is linked to the node it describes and stored apart from the structure (FT-9).
type TextChunk struct {
	ID        string
	NodeID    string // the node it describes; "" when it belongs to the file only
	Kind      string // "docblock", "comment", "doc_section"
	Path      string
	StartLine int
	EndLine   int
	Text      string
}

// Hash returns the hex sha256 of the parts joined by a NUL byte, cut to 16 bytes.
// It is the one id function: every id in the graph comes from here.
func Hash(parts ...string) string {
	h := sha256.New()
	for i, p := range parts {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// NodeID returns the id of a node of kind k with qualified name qname declared in path.
// disamb separates two declarations that share kind, name and path (e.g. conditional
// function declarations); it is the ordinal among those, so it is stable across builds.
func NodeID(k NodeKind, qname, path string, disamb int) string {
	return "n" + Hash(string(k), qname, path, strconv.Itoa(disamb))
}

// EdgeID returns the id of an edge; evidence separates two edges between the same
// endpoints seen at different places.
func EdgeID(k EdgeKind, from, to, evidencePath string, evidenceLine int) string {
	return "e" + Hash(string(k), from, to, evidencePath, strconv.Itoa(evidenceLine))
}

// ChunkID returns the id of a text chunk. The start column separates two
// chunks that begin on one line (`f(/* a */ $x, /* b */ $y)`).
func ChunkID(kind, path string, startLine, startCol int, nodeID string) string {
	return "t" + Hash(kind, path, strconv.Itoa(startLine), strconv.Itoa(startCol), nodeID)
}

// FileNodeID returns the id of the file node for path.
func FileNodeID(path string) string { return NodeID(File, path, path, 0) }

// Lower is strings.ToLower; PHP names of classes and functions are case-insensitive,
// and every index keyed on them uses this form.
func Lower(s string) string { return strings.ToLower(s) }
