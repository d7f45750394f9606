// This file keeps .ragraf/agents.json: for every file an install wrote, the
// targets that wanted it, whether ragraf created it (and which directories),
// its bytes before the first install and the sha256 of what ragraf last left
// there. Uninstall restores from it only when the file still has that hash.

package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// recordVersion is the format of agents.json.
const recordVersion = 1

// record is agents.json.
type record struct {
	Version int                     `json:"version"`
	Files   map[string]*recordEntry `json:"files"` // by slash path relative to the project
}

// recordEntry is one file ragraf wrote.
type recordEntry struct {
	Targets     []string `json:"targets"`
	Created     bool     `json:"created"`                 // the file did not exist before
	Dirs        []string `json:"dirs,omitempty"`          // directories created for it, deepest first
	BeforeSHA   string   `json:"before_sha256,omitempty"` // of the original bytes
	Before      []byte   `json:"before,omitempty"`        // the original bytes (base64)
	AfterSHA    string   `json:"after_sha256"`            // of the bytes ragraf left
	InstalledAt string   `json:"installed_at"`
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func recordPath(root string) string { return filepath.Join(root, ".ragraf", "agents.json") }

// loadRecord reads agents.json; a missing file is an empty record.
func loadRecord(root string) (*record, error) {
	b, err := os.ReadFile(recordPath(root))
	if errors.Is(err, os.ErrNotExist) {
		return &record{Version: recordVersion, Files: map[string]*recordEntry{}}, nil
	}
	if err != nil {
		return nil, err
	}
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("reading %s: %w", recordPath(root), err)
	}
	if r.Version != recordVersion {
		return nil, fmt.Errorf("%s has version %d; this ragraf reads version %d", recordPath(root), r.Version, recordVersion)
	}
	if r.Files == nil {
		r.Files = map[string]*recordEntry{}
	}
	return &r, nil
}

// save writes agents.json atomically, or removes it when it records nothing.
func (r *record) save(root string) error {
	p := recordPath(root)
	if len(r.Files) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return writeAtomic(p, append(b, '\n'), 0o644)
}

func (e *recordEntry) addTarget(t string) {
	if !slices.Contains(e.Targets, t) {
		e.Targets = append(e.Targets, t)
		slices.Sort(e.Targets)
	}
}

// writeAtomic writes b to path under a temporary name in the same directory
// and renames it into place, so a crash never leaves half a config.
func writeAtomic(path string, b []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".ragraf-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// mkdirs creates dir and its missing parents under root and returns the ones
// it created, deepest first.
func mkdirs(root, dir string) ([]string, error) {
	var missing []string
	for d := dir; d != root && d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		missing = append(missing, d)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var rel []string
	for _, d := range missing {
		r, err := filepath.Rel(root, d)
		if err != nil {
			return nil, err
		}
		rel = append(rel, filepath.ToSlash(r))
	}
	return rel, nil
}
