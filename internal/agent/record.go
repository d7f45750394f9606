// This file keeps .ragraf/agents.json: for every file an install wrote, the
// targets that wanted it, whether ragraf created it (and which directories),
// the sha256 of its bytes before the first install and of what ragraf last
// left there, and the undo spans: where in ragraf's bytes its own edits sit
// and the (usually empty) bytes they replaced. The file's other bytes, which
// may hold a user's tokens, are never copied into the record. Uninstall
// restores from it only when the file still has ragraf's hash and the undo
// gives back bytes with the original hash.
//
// The record is input like any other file of the project (it may be planted
// or committed): parseRecord validates it whole before anything uses it.

package agent

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
)

// recordVersion is the format of agents.json this ragraf writes. Version 1
// held each file's original bytes; it is still read, and written back as
// version 2.
const recordVersion = 2

// maxRecordBytes bounds agents.json: a record of every target's files is a
// few kilobytes.
const maxRecordBytes = 4 << 20

// record is agents.json.
type record struct {
	Version int                     `json:"version"`
	Files   map[string]*recordEntry `json:"files"` // by slash path relative to the project
}

// recordEntry is one file ragraf wrote.
type recordEntry struct {
	Targets   []string   `json:"targets"`
	Created   bool       `json:"created"`                 // the file did not exist before
	Dirs      []string   `json:"dirs,omitempty"`          // directories created for it, deepest first
	BeforeSHA string     `json:"before_sha256,omitempty"` // of the original bytes
	Undo      []undoSpan `json:"undo,omitempty"`          // ragraf's edits in the bytes it left, in order
	// Before is a version 1 record's copy of the original bytes: read, used
	// to restore, never written again.
	Before      []byte `json:"before,omitempty"`
	AfterSHA    string `json:"after_sha256"` // of the bytes ragraf left; "" when nothing can be undone
	InstalledAt string `json:"installed_at"`
}

// undoSpan is one of ragraf's edits: at offset At of the bytes ragraf left,
// Len bytes are ragraf's; undoing puts Old (what they replaced, empty for an
// insertion) there instead.
type undoSpan struct {
	At  int    `json:"at"`
	Len int    `json:"len"`
	Old []byte `json:"old,omitempty"`
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func recordPath(root string) string { return filepath.Join(root, ".ragraf", "agents.json") }

// RecordedPaths returns the files agents.json lists whose bytes are still
// exactly what ragraf left there, by slash path: ragraf's own writes, which
// are not the project's changes. A missing or invalid record lists none.
func RecordedPaths(root string) []string {
	rec, err := loadRecord(root)
	if err != nil {
		return nil
	}
	var out []string
	for _, p := range slicesSortedKeys(rec.Files) {
		ent := rec.Files[p]
		abs, err := resolveFile(root, p)
		if err != nil || ent.AfterSHA == "" {
			continue
		}
		if b, err := readRegular(abs.path); err == nil && b != nil && sum(b) == ent.AfterSHA {
			out = append(out, p)
			if abs.rel != p {
				out = append(out, abs.rel)
			}
		}
	}
	return out
}

// loadRecord reads agents.json; a missing file is an empty record. A record
// that does not validate is an error naming why: nothing may act on it.
func loadRecord(root string) (*record, error) {
	p := recordPath(root)
	st, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return &record{Version: recordVersion, Files: map[string]*recordEntry{}}, nil
	}
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file; nothing was written", p)
	}
	if st.Size() > maxRecordBytes {
		return nil, fmt.Errorf("%s is %d bytes, more than any install writes; nothing was written", p, st.Size())
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	r, err := parseRecord(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; nothing was written", p, err)
	}
	return r, nil
}

// parseRecord decodes and validates agents.json: its version, every path
// (a file some target writes; directories that are its ancestors), the
// hashes and the undo spans' shape.
func parseRecord(b []byte) (*record, error) {
	var r record
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("does not parse: %w", err)
	}
	if r.Version != 1 && r.Version != recordVersion {
		return nil, fmt.Errorf("has version %d; this ragraf reads versions 1 and %d", r.Version, recordVersion)
	}
	if r.Files == nil {
		r.Files = map[string]*recordEntry{}
	}
	known := knownPaths()
	for p, e := range r.Files {
		if err := e.validate(p, r.Version, known); err != nil {
			return nil, fmt.Errorf("entry %q: %w", p, err)
		}
	}
	r.Version = recordVersion
	return &r, nil
}

// validate checks one entry without touching the disk.
func (e *recordEntry) validate(p string, version int, known map[string]bool) error {
	if e == nil {
		return errors.New("empty entry")
	}
	if err := cleanRel(p); err != nil {
		return err
	}
	if !known[p] {
		return errors.New("not a file any target writes")
	}
	if len(e.Targets) == 0 {
		return errors.New("no target")
	}
	for _, t := range e.Targets {
		if !slices.Contains(Targets, t) {
			return fmt.Errorf("unknown target %q", t)
		}
	}
	for _, d := range e.Dirs {
		if err := cleanRel(d); err != nil {
			return fmt.Errorf("dir %q: %w", d, err)
		}
		if !strings.HasPrefix(p, d+"/") {
			return fmt.Errorf("dir %q is not a directory of the file", d)
		}
	}
	if len(e.Dirs) > 0 && !e.Created {
		return errors.New("dirs for a file ragraf did not create")
	}
	for _, h := range []string{e.AfterSHA, e.BeforeSHA} {
		if h != "" && !isSHA(h) {
			return fmt.Errorf("%q is not a sha256", h)
		}
	}
	switch {
	case e.Created && (e.BeforeSHA != "" || e.Before != nil || e.Undo != nil):
		return errors.New("a created file with original bytes")
	case e.Created && e.AfterSHA == "":
		return errors.New("a created file without after_sha256")
	case version == recordVersion && e.Before != nil:
		return errors.New("original bytes in a version 2 record")
	case !e.Created && e.AfterSHA != "" && e.BeforeSHA == "":
		return errors.New("no before_sha256")
	case e.Before != nil && sum(e.Before) != e.BeforeSHA:
		return errors.New("the original bytes do not have before_sha256")
	}
	end := 0
	for _, s := range e.Undo {
		if s.At < end || s.Len < 0 || s.Len > maxRecordBytes || s.At > maxRecordBytes {
			return errors.New("undo spans out of order")
		}
		end = s.At + s.Len
	}
	return nil
}

func isSHA(s string) bool {
	_, err := hex.DecodeString(s)
	return len(s) == 64 && err == nil && strings.ToLower(s) == s
}

// knownPaths are the files some target writes: the only paths a record may
// name.
func knownPaths() map[string]bool {
	out := map[string]bool{}
	for _, t := range Targets {
		es, _ := edits(t)
		for _, e := range es {
			out[e.path] = true
		}
	}
	return out
}

// original returns the bytes the file had before ragraf's first install,
// from the bytes ragraf left (cur, whose hash is AfterSHA), checked against
// BeforeSHA: a record whose undo does not give them back is refused.
func (e *recordEntry) original(cur []byte) ([]byte, error) {
	var out []byte
	if e.Before != nil {
		out = e.Before
	} else {
		var err error
		if out, err = applyUndo(cur, e.Undo); err != nil {
			return nil, err
		}
	}
	if sum(out) != e.BeforeSHA {
		return nil, errors.New("undoing ragraf's edits does not give the original bytes (before_sha256)")
	}
	return out, nil
}

// applyUndo replaces each span's bytes of after with its Old bytes.
func applyUndo(after []byte, spans []undoSpan) ([]byte, error) {
	var out []byte
	at := 0
	for _, s := range spans {
		if s.At < at || s.Len < 0 || s.At+s.Len > len(after) {
			return nil, errors.New("an undo span lies outside the file")
		}
		out = append(out, after[at:s.At]...)
		out = append(out, s.Old...)
		at = s.At + s.Len
	}
	return append(out, after[at:]...), nil
}

// undoSpans returns the spans that turn after back into before: the lines
// that differ, narrowed to the bytes that differ, and a replaced piece that
// survives whole inside the new text split into two insertions around it,
// so an edit that only inserts stores no original byte.
func undoSpans(before, after []byte) ([]undoSpan, error) {
	var out []undoSpan
	shift := 0 // len(after) - len(before) up to the current edit
	for _, ed := range udiff.Lines(string(before), string(after)) {
		old, nw := before[ed.Start:ed.End], []byte(ed.New)
		at := ed.Start + shift
		shift += len(nw) - len(old)
		p := commonPrefix(old, nw)
		old, nw, at = old[p:], nw[p:], at+p
		s := commonSuffix(old, nw)
		old, nw = old[:len(old)-s], nw[:len(nw)-s]
		if k := bytes.Index(nw, old); len(old) > 0 && k >= 0 {
			out = append(out, undoSpan{At: at, Len: k}, undoSpan{At: at + k + len(old), Len: len(nw) - k - len(old)})
			continue
		}
		out = append(out, undoSpan{At: at, Len: len(nw), Old: bytes.Clone(old)})
	}
	out = slices.DeleteFunc(out, func(s undoSpan) bool { return s.Len == 0 && len(s.Old) == 0 })
	if got, err := applyUndo(after, out); err != nil || !bytes.Equal(got, before) {
		return nil, errors.New("internal error: the undo of an edit does not give the original bytes")
	}
	return out, nil
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(a) && !utf8.RuneStart(a[n]) {
		n--
	}
	return n
}

func commonSuffix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// save writes agents.json atomically with mode 0600 (it names what ragraf
// replaced), or removes it when it records nothing. Version 1 entries'
// original bytes are turned into undo spans when the file still holds
// ragraf's bytes, and dropped otherwise (uninstall then leaves the file).
func (r *record) save(root string) error {
	p := recordPath(root)
	if len(r.Files) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	for path, e := range r.Files {
		if e.Before == nil {
			continue
		}
		var cur []byte
		if loc, err := resolveFile(root, path); err == nil {
			cur, _ = readRegular(loc.path)
		}
		e.Undo = nil
		if cur != nil && sum(cur) == e.AfterSHA {
			if e.Undo, _ = undoSpans(e.Before, cur); e.Undo == nil && !bytes.Equal(e.Before, cur) {
				e.AfterSHA = ""
			}
		} else {
			e.AfterSHA = ""
		}
		e.Before = nil
	}
	r.Version = recordVersion
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return writeAtomic(p, append(b, '\n'), 0o600)
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
