// This file reads the working tree for everything that compares it with an
// index: drift detection, the stale check of every answer, live_read and
// code, changes and the hooks. A Tree never blocks and never reads more than
// it may: it lstats first, follows a symlink only while it stays inside the
// project, opens only regular files (non-blocking, so a FIFO put where a file
// was cannot hang a read), checks the opened file again, refuses a file over
// the index's size cap without reading it, hashes in a fixed buffer, and stops
// when its context is cancelled.

package corpus

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ErrNotRegular means the path is not a regular file (a FIFO, a socket, a
// device, a directory); its content is not read.
var ErrNotRegular = errors.New("not a regular file")

// ErrOutside means a symlink on the path leads outside the project; nothing
// outside is read.
var ErrOutside = errors.New("a symlink leads outside the project")

// ErrIsDir means a directory is where a file was looked for; it is also
// fs.ErrNotExist: no file is there.
var ErrIsDir = fmt.Errorf("a directory: %w", fs.ErrNotExist)

// OversizeError is a file over the size cap; it was not read.
type OversizeError struct {
	Size, Max int64
}

func (e *OversizeError) Error() string {
	return fmt.Sprintf("oversize (%s > %s)", humanSize(e.Size), humanSize(e.Max))
}

// hashBuf is the buffer a hash streams through: the memory a hash costs,
// whatever the file's size.
const hashBuf = 64 << 10

// Tree reads the files of one working tree. It is safe for concurrent use.
type Tree struct {
	root    string
	maxSize int64

	once     sync.Once
	realRoot string
	rootErr  error
}

// NewTree returns a Tree over root whose reads refuse files over maxSize
// bytes (the index's max_file_size; 0 or less: no cap).
func NewTree(root string, maxSize int64) *Tree {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	return &Tree{root: root, maxSize: maxSize}
}

// Info is what a stat tells of a working-tree file.
type Info struct {
	Size  int64
	MTime int64 // unix nanoseconds
}

// Stat lstats the file at the slash-separated path rel and, for a symlink,
// its target inside the project. It errs with fs.ErrNotExist when nothing is
// there (or a directory is), ErrNotRegular, ErrOutside, or *OversizeError
// (with the Info filled) when the file is over the cap.
func (t *Tree) Stat(rel string) (Info, error) {
	_, fi, err := t.resolve(rel)
	if err != nil {
		return Info{}, err
	}
	info := Info{Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
	if t.maxSize > 0 && info.Size > t.maxSize {
		return info, &OversizeError{Size: info.Size, Max: t.maxSize}
	}
	return info, nil
}

// resolve returns the real path of rel and its (non-symlink) info.
func (t *Tree) resolve(rel string) (string, fs.FileInfo, error) {
	abs := filepath.Join(t.root, filepath.FromSlash(rel))
	fi, err := os.Lstat(abs)
	if err != nil {
		return "", nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", nil, err // a broken link: nothing there
	}
	if real != abs || fi.Mode()&fs.ModeSymlink != 0 {
		if err := t.inside(real); err != nil {
			return "", nil, err
		}
		if fi, err = os.Lstat(real); err != nil {
			return "", nil, err
		}
	}
	switch {
	case fi.IsDir():
		return "", nil, fmt.Errorf("%s: %w", rel, ErrIsDir)
	case !fi.Mode().IsRegular():
		return "", nil, fmt.Errorf("%s: %w", rel, ErrNotRegular)
	}
	return real, fi, nil
}

// inside checks that real (symlinks resolved) is in the project.
func (t *Tree) inside(real string) error {
	t.once.Do(func() { t.realRoot, t.rootErr = filepath.EvalSymlinks(t.root) })
	if t.rootErr != nil {
		return t.rootErr
	}
	r, err := filepath.Rel(t.realRoot, real)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return ErrOutside
	}
	return nil
}

// open opens rel for reading: a regular file in the project within the cap,
// checked again on the open descriptor (the path may have been replaced
// between the stat and the open).
func (t *Tree) open(rel string) (*os.File, int64, error) {
	real, fi, err := t.resolve(rel)
	if err != nil {
		return nil, 0, err
	}
	if t.maxSize > 0 && fi.Size() > t.maxSize {
		return nil, 0, &OversizeError{Size: fi.Size(), Max: t.maxSize}
	}
	f, err := os.OpenFile(real, openFlags, 0)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s: %w", rel, ErrNotRegular)
	}
	if t.maxSize > 0 && st.Size() > t.maxSize {
		f.Close()
		return nil, 0, &OversizeError{Size: st.Size(), Max: t.maxSize}
	}
	return f, st.Size(), nil
}

// ReadRaw returns the bytes of rel as they are on disk. A file that grew
// past the cap while it was read is an *OversizeError.
func (t *Tree) ReadRaw(ctx context.Context, rel string) ([]byte, error) {
	f, size, err := t.open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	limit := int64(-1)
	if t.maxSize > 0 {
		limit = t.maxSize
	}
	buf := make([]byte, 0, size+1)
	r := ctxReader{ctx: ctx, r: f}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if limit >= 0 && int64(len(buf)) > limit {
			return nil, &OversizeError{Size: int64(len(buf)), Max: limit}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Read returns rel prepared as Read prepares a file for the index.
func (t *Tree) Read(ctx context.Context, rel string) (Content, error) {
	raw, err := t.ReadRaw(ctx, rel)
	if err != nil {
		return Content{}, err
	}
	return NewContent(raw), nil
}

// Hash returns the sha256 hex of rel's raw bytes, the hash the index keeps,
// reading through a fixed buffer.
func (t *Tree) Hash(ctx context.Context, rel string) (string, error) {
	f, _, err := t.open(rel)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	var r io.Reader = f
	if t.maxSize > 0 {
		r = io.LimitReader(f, t.maxSize+1) // a file growing while it is read stops one byte past the cap
	}
	n, err := io.CopyBuffer(h, ctxReader{ctx: ctx, r: r}, make([]byte, hashBuf))
	if err != nil {
		return "", err
	}
	if t.maxSize > 0 && n > t.maxSize {
		return "", &OversizeError{Size: n, Max: t.maxSize}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ctxReader stops reading once ctx is done, checking before every read of
// at most one buffer.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) > 1<<20 {
		p = p[:1<<20]
	}
	return c.r.Read(p)
}

// Unreadable says why err kept a file from being read as the index reads it
// ("" when err is nil, a missing file or a cancelled context).
func Unreadable(err error) string {
	var oe *OversizeError
	switch {
	case err == nil, errors.Is(err, fs.ErrNotExist), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return ""
	case errors.As(err, &oe):
		return oe.Error()
	case errors.Is(err, ErrNotRegular):
		return ErrNotRegular.Error()
	case errors.Is(err, ErrOutside):
		return ErrOutside.Error()
	}
	return "unreadable: " + errText(err)
}
