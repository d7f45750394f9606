// Package drift finds the differences between a revision and the working tree
// and turns them into ledger entries (ARCHITECTURE.md §8). It knows no SQL:
// the revision is read through a Source and the facade records what the
// detectors return in control.sqlite.
//
// # Vocabulary
//
// A Delta is one difference, with its kind (add, modify, delete, rename,
// slice_boundary, note, schema_change), the
// changed line ranges against the indexed snapshot, the ids of the affected
// nodes and a dedup key. The key names the delta, not the method that saw it,
// so re-detecting a change, or seeing it by compare and by git-diff, yields one
// entry (FT-27).
//
// # Detectors
//
// Compare walks the corpus and checks every file (a stat, a hash only when
// size or mtime differ). GitDiff asks git which paths changed since the
// revision's HEAD and checks those. A Checker checks single paths with a cache
// keyed by (path, size, mtime): the facade runs one before every answer.
// DBSchemaDiff reads the live databases of project.yaml again and compares
// them with the schema the revision recorded (dbschema.go); a modified .sql
// file or PHP migration also gives schema_change deltas beside its modify
// delta.
package drift

// Kinds of delta.
const (
	KindAdd           = "add"
	KindModify        = "modify"
	KindDelete        = "delete"
	KindRename        = "rename"
	KindSliceBoundary = "slice_boundary"
	KindNote          = "note"
	// KindSchemaChange is a table or column that appeared, disappeared or
	// changed type in a live database or a schema file (FT-30).
	KindSchemaChange = "schema_change"
)

// Detection methods.
const (
	MethodCompare      = "compare"
	MethodGitDiff      = "git-diff"
	MethodSessionStart = "hook:session-start"
	MethodPostEdit     = "hook:post-edit" // an agent's edit, reported by its post-edit hook for the paths it wrote
	MethodManual       = "manual"
	MethodDBSchemaDiff = "db-schema-diff"
)

// Kinds lists every kind a ledger entry may have.
var Kinds = []string{KindAdd, KindModify, KindDelete, KindRename, KindSliceBoundary, KindNote, KindSchemaChange}

// Methods lists every detection method.
var Methods = []string{MethodCompare, MethodGitDiff, MethodSessionStart, MethodPostEdit, MethodManual, MethodDBSchemaDiff}
