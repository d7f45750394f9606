// This file confines every path install and uninstall touch to the project,
// as the read operations confine theirs: a path is a clean relative slash
// path, and the file it names, followed through symlinks (of the file or of
// a directory on the way), lies inside the project and outside .git and
// .ragraf. A symlinked config is edited where it points, so it stays a
// symlink.

package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// cleanRel checks that p is a clean relative slash path with no "..".
func cleanRel(p string) error {
	switch {
	case p == "" || p == ".":
		return errors.New("empty path")
	case len(p) > 1000:
		return errors.New("path over 1,000 bytes")
	case strings.ContainsAny(p, "\x00\\:"):
		return errors.New("NUL, backslash or colon in the path")
	case strings.HasPrefix(p, "/") || filepath.IsAbs(p):
		return errors.New("absolute path")
	case path.Clean(p) != p:
		return errors.New("not a clean path")
	case p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") || strings.HasSuffix(p, "/.."):
		return errors.New("path leaves the project")
	}
	return nil
}

// location is where a project path lives on disk.
type location struct {
	path    string // the absolute path to read and write (a symlink's target)
	rel     string // that path relative to the project, slash-separated
	missing int    // trailing components of the project path that do not exist yet
}

// outsideError says a path leads out of the project or into a directory
// ragraf never writes.
type outsideError struct{ path, why string }

func (e *outsideError) Error() string { return e.path + ": " + e.why + "; nothing was written" }

// resolve finds where the project path rel lives: every symlink on the way
// (a directory's or the file's own) must lead inside the project.
func resolve(root, rel string) (location, error) {
	if err := cleanRel(rel); err != nil {
		return location{}, &outsideError{rel, err.Error()}
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return location{}, err
	}
	realRoot, err = filepath.Abs(realRoot)
	if err != nil {
		return location{}, err
	}
	existing := filepath.Join(realRoot, filepath.FromSlash(rel))
	var rest []string
	for existing != realRoot {
		_, err := os.Lstat(existing)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return location{}, err
		}
		rest = append([]string{filepath.Base(existing)}, rest...)
		existing = filepath.Dir(existing)
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return location{}, &outsideError{rel, "a symlink on the way leads to nothing"}
	}
	r, err := filepath.Rel(realRoot, real)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return location{}, &outsideError{rel, "a symlink leads outside the project (to " + real + ")"}
	}
	loc := location{path: filepath.Join(append([]string{real}, rest...)...), missing: len(rest)}
	loc.rel = filepath.ToSlash(filepath.Join(append([]string{r}, rest...)...))
	first, _, _ := strings.Cut(loc.rel, "/")
	if loc.rel == "." || first == ".git" || first == ".ragraf" {
		return location{}, &outsideError{rel, "it leads to " + loc.rel + ", which ragraf never writes"}
	}
	return loc, nil
}

// resolveFile is resolve for a file: what exists there must be a regular
// file (or a symlink to one).
func resolveFile(root, rel string) (location, error) {
	loc, err := resolve(root, rel)
	if err != nil || loc.missing > 0 {
		return loc, err
	}
	st, err := os.Stat(loc.path)
	if err != nil {
		return location{}, err
	}
	if !st.Mode().IsRegular() {
		return location{}, &outsideError{rel, "not a regular file"}
	}
	return loc, nil
}

// createdDirs are the directories of rel that resolve found missing, as
// project paths, deepest first: the ones an install makes.
func (l location) createdDirs(rel string) []string {
	var out []string
	d := path.Dir(rel)
	for i := 1; i < l.missing && d != "."; i++ {
		out = append(out, d)
		d = path.Dir(d)
	}
	return out
}

// readRegular reads a regular file (never a FIFO or a device, which could
// block); a missing file is nil, nil.
func readRegular(p string) ([]byte, error) {
	st, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	b, err := os.ReadFile(p)
	if b == nil && err == nil {
		b = []byte{}
	}
	return b, err
}
