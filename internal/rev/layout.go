// Package rev builds, publishes and rotates revisions: the write path. A build
// runs the pipeline (corpus, extract, resolve), writes the three store files of
// a new revision under .ragraf/tmp, then publishes it by rename and switches
// CURRENT atomically, so a crash at any moment leaves the previous revision
// current and readable (NFR-11).
//
// This file names the on-disk layout (ARCHITECTURE.md §4); build.go runs a build,
// publish.go publishes and rotates.
package rev

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Dir is the name of the index directory inside a project.
const Dir = ".ragraf"

// ErrNotIndexed means the project has no published revision.
var ErrNotIndexed = errors.New("project is not indexed: run `ragraf index`")

// Layout names the files of one project's index.
type Layout struct {
	Root string // the project directory
}

// Index is the .ragraf directory.
func (l Layout) Index() string { return filepath.Join(l.Root, Dir) }

// Config is the default project.yaml.
func (l Layout) Config() string { return filepath.Join(l.Index(), "project.yaml") }

// Control is control.sqlite.
func (l Layout) Control() string { return filepath.Join(l.Index(), "control.sqlite") }

// Current is the CURRENT pointer file.
func (l Layout) Current() string { return filepath.Join(l.Index(), "CURRENT") }

// Revs is the directory of published revisions.
func (l Layout) Revs() string { return filepath.Join(l.Index(), "revs") }

// Rev is one published revision's directory.
func (l Layout) Rev(name string) string { return filepath.Join(l.Revs(), name) }

// Tmp holds builds in progress.
func (l Layout) Tmp() string { return filepath.Join(l.Index(), "tmp") }

// Archive holds reindex reports.
func (l Layout) Archive() string { return filepath.Join(l.Index(), "archive") }

// Logs holds ragraf.log.
func (l Layout) Logs() string { return filepath.Join(l.Index(), "logs") }

// Lock is the file locked while a build runs.
func (l Layout) Lock() string { return filepath.Join(l.Index(), "lock") }

// PendingArchive is the note of a `reindex --commit` whose revision may be
// current while its ledger archive is not yet written (recover.go).
func (l Layout) PendingArchive() string { return filepath.Join(l.Index(), "archive.pending") }

// Store file names inside a revision directory.
const (
	RevJSON   = "rev.json"
	GraphDB   = "graph.sqlite"
	LexvecDB  = "lexvec.sqlite"
	revPrefix = "rev-"
)

// Name returns the revision name for sequence number seq: rev-0007.
func Name(seq int) string { return fmt.Sprintf("%s%04d", revPrefix, seq) }

// Seq parses a revision name; ok is false for anything else.
func Seq(name string) (int, bool) {
	if !strings.HasPrefix(name, revPrefix) {
		return 0, false
	}
	n, err := strconv.Atoi(name[len(revPrefix):])
	if err != nil || n <= 0 || Name(n) != name {
		return 0, false
	}
	return n, true
}

// CurrentRev reads CURRENT and checks that the revision directory exists.
func (l Layout) CurrentRev() (string, error) {
	b, err := os.ReadFile(l.Current())
	if errors.Is(err, os.ErrNotExist) {
		return "", ErrNotIndexed
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", l.Current(), err)
	}
	name := strings.TrimSpace(string(b))
	if _, ok := Seq(name); !ok {
		return "", fmt.Errorf("%s holds %q, not a revision name", l.Current(), name)
	}
	if _, err := os.Stat(l.Rev(name)); err != nil {
		return "", fmt.Errorf("current revision %s is missing on disk: %w", name, err)
	}
	return name, nil
}
