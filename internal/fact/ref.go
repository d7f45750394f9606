// This file defines Ref, a reference found in one file and not yet linked to
// its target, and Unresolved, a reference that stayed unlinked. Language
// extractors emit Refs; package resolve links them across files.

package fact

// RefKind names how a reference uses its target.
type RefKind string

// Ref is one use of a name at path:line, from the innermost enclosing node.
// Extractors fill what the file alone can tell; resolve does the rest.
type Ref struct {
	Kind RefKind
	From string // id of the enclosing node (function, method, class or file)
	Path string
	Line int
	// Name is the target as far as the file can resolve it: a fully qualified
	// class, function or constant name, or a member name for member access.
	Name string
	// Props carries extractor-specific detail (receiver, fallback name, …).
	Props map[string]string
}

// Unresolved is a reference that names no known node; it stays visible with
// its kind, name and place.
type Unresolved struct {
	ID     string
	Kind   RefKind
	Name   string
	From   string
	Path   string
	Line   int
	Reason string
}
