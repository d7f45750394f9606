// Package corpus finds the files of a project and reads them for extraction.
//
// # Walk
//
// Walk lists every file under the root that passes the mandatory excludes,
// .gitignore, the configured include/exclude globs and secrets_exclude, sorted by
// path. Files that pass but cannot be indexed (binary, oversize, language not
// indexed, symlinks leaving the root) are listed too, with Status "skipped" and a
// Reason, so answers can say why a file has no facts. Walk never hashes or fully
// reads a file; it sniffs the first 8 KB of indexable files to detect binaries.
//
// # Types
//
// File is one entry of the walk, keyed by its slash-separated Path relative to the
// root. Content is one file read by Read: raw-byte hash plus data normalised for
// parsing (no BOM, LF line ends, same line numbers).
//
// # Globs
//
// A glob without "/" matches a file or directory name at any depth; a glob with
// "/" matches the path from the root (doublestar syntax). .gitignore semantics
// are implemented in gitignore.go.
//
// # Symlinks
//
// A symlink to a file inside the root is listed under the link's path and read
// through the link. A symlink that leaves the root, dangles or loops is listed as
// skipped ("symlink outside root", "broken symlink"). Symlinks to directories are
// never followed (listed as skipped "symlink to directory"), which rules out
// cycles and double counting.
package corpus
