// Package models manages the sentence models ragraf runs through ONNX
// Runtime and the runtime library itself, in the user's cache directory
// (os.UserCacheDir()/ragraf), never in a project's .ragraf: a model is
// pulled once per machine and shared by every project.
//
// Layout: models/<name with "/" as "--">/{model.onnx, tokenizer.json,
// installed.json}; onnxruntime/libonnxruntime.so. installed.json records
// where the files came from and their sha256, and whether the manifest
// compiled into ragraf vouched for them.
//
// Downloads come from the Hugging Face hub ({endpoint}/{repo}/resolve/
// {revision}/{path}; the endpoint is $HF_ENDPOINT or https://huggingface.co)
// and are checked against the manifest's sha256. A file the manifest has no
// sha256 for is refused unless the caller says Insecure: ragraf does not
// install unverified weights silently.
package models

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"
)

// File is one file of a model: its path in the hub repository, its name in
// the model directory and, when known, its sha256.
type File struct {
	Remote string
	Local  string
	SHA256 string // "" when not verified here
}

// Entry is one model of the manifest.
type Entry struct {
	Name      string // the hub repository, e.g. sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2
	Revision  string // the commit pulled; "" when not pinned here (pull refuses without Insecure)
	Files     []File
	Dim       int
	MaxTokens int
	Note      string // what is not verified, and why
}

// Verified reports whether every file has a sha256 and the revision is pinned.
func (e *Entry) Verified() bool {
	if e.Revision == "" {
		return false
	}
	for _, f := range e.Files {
		if f.SHA256 == "" {
			return false
		}
	}
	return true
}

// DefaultModel is the spec's model: multilingual (English and Russian
// queries), 384 dimensions, mean pooling, 128 tokens.
const DefaultModel = "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"

// Manifest is the list of models ragraf knows. The sha256 of a file is set
// only when it was checked against the file itself; the hub was not
// reachable when this manifest was written, so the default model's entry
// says so and pull needs --insecure for it.
var Manifest = []Entry{
	{
		Name:      DefaultModel,
		Files:     []File{{Remote: "onnx/model.onnx", Local: "model.onnx"}, {Remote: "tokenizer.json", Local: "tokenizer.json"}},
		Dim:       384,
		MaxTokens: 128,
		Note:      "revision and sha256 not verified: the Hugging Face hub was not reachable when this manifest was written; pull with --insecure records the sha256 it gets",
	},
}

// Runtime is the pinned ONNX Runtime release pull fetches.
type Runtime struct {
	Version string
	URL     string // a .tgz of the release
	Member  string // the library inside it
	SHA256  string // "" when not verified here
}

// PinnedRuntime is the release matching github.com/yalue/onnxruntime_go
// v1.27.0 (ORT 1.30.0) for linux/amd64; its sha256 is not verified here.
var PinnedRuntime = Runtime{
	Version: "1.30.0",
	URL:     "https://github.com/microsoft/onnxruntime/releases/download/v1.30.0/onnxruntime-linux-x64-1.30.0.tgz",
	Member:  "onnxruntime-linux-x64-1.30.0/lib/libonnxruntime.so.1.30.0",
}

// Lookup returns the manifest entry named name: the full repository name
// or its last part (paraphrase-multilingual-MiniLM-L12-v2).
func Lookup(name string) (Entry, bool) {
	for _, e := range Manifest {
		if e.Name == name || path.Base(e.Name) == name {
			return e, true
		}
	}
	return Entry{}, false
}

// canonical is name's full form when the manifest knows it.
func canonical(name string) string {
	if e, ok := Lookup(name); ok {
		return e.Name
	}
	return name
}

// CacheDir is ragraf's directory in the user's cache: $RAGRAF_CACHE_DIR, or
// os.UserCacheDir()/ragraf.
func CacheDir() (string, error) {
	if d := os.Getenv("RAGRAF_CACHE_DIR"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("finding the user cache directory: %w", err)
	}
	return filepath.Join(d, "ragraf"), nil
}

// RuntimeDir is where pull puts the ONNX Runtime library ("" when there is
// no cache directory).
func RuntimeDir() string {
	d, err := CacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "onnxruntime")
}

// segment is one part of a hub repository name: letters, digits, '-', '_'
// and '.', starting and ending with a letter or digit, no "--" or "..".
var segment = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?$`)

// ValidName checks that name is a hub repository name, "owner/name" or
// "name": so a name is always one directory under the cache's models
// directory, never ".", "..", the directory itself or a path.
func ValidName(name string) error {
	parts := strings.Split(name, "/")
	ok := len(parts) <= 2
	for _, p := range parts {
		ok = ok && segment.MatchString(p) && !strings.Contains(p, "--") && !strings.Contains(p, "..")
	}
	if !ok {
		return fmt.Errorf("bad model name %q: want a Hugging Face repository name such as %s", name, DefaultModel)
	}
	return nil
}

// Dir is the directory of model name.
func Dir(name string) (string, error) {
	name = canonical(name)
	if err := ValidName(name); err != nil {
		return "", err
	}
	d, err := CacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "models", strings.ReplaceAll(name, "/", "--")), nil
}

// Installed is a model in the cache, as installed.json records it.
type Installed struct {
	Name     string            `json:"name"`
	Revision string            `json:"revision,omitempty"`
	Source   string            `json:"source"` // the URL base or directory it came from
	SHA256   map[string]string `json:"sha256"` // local file name → sha256
	Verified bool              `json:"verified"`
	Time     string            `json:"installed_at"`
	Dir      string            `json:"-"`
}

// ID identifies the model's weights in the vector cache: its name and the
// sha256 of its model.onnx, so that new weights never reuse old vectors.
func (m *Installed) ID() string {
	s := m.SHA256["model.onnx"]
	if len(s) > 12 {
		s = s[:12]
	}
	return "onnx:" + m.Name + "@" + s
}

// ModelPath and TokenizerPath are the installed files.
func (m *Installed) ModelPath() string     { return filepath.Join(m.Dir, "model.onnx") }
func (m *Installed) TokenizerPath() string { return filepath.Join(m.Dir, "tokenizer.json") }

// ErrNotInstalled is returned by Open for a model not in the cache.
var ErrNotInstalled = errors.New("model not installed")

// Open returns the installed model name.
func Open(name string) (*Installed, error) {
	dir, err := Dir(name)
	if err != nil {
		return nil, err
	}
	m, err := openDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s (run `ragraf model pull %s`)", ErrNotInstalled, canonical(name), name)
	}
	return m, err
}

// openDir reads the model installed in dir.
func openDir(dir string) (*Installed, error) {
	b, err := os.ReadFile(filepath.Join(dir, "installed.json"))
	if err != nil {
		return nil, err
	}
	m := &Installed{}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("reading %s: %w", filepath.Join(dir, "installed.json"), err)
	}
	m.Dir = dir
	for _, f := range []string{m.ModelPath(), m.TokenizerPath()} {
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("%w: %s is missing %s", ErrNotInstalled, m.Name, filepath.Base(f))
		}
	}
	return m, nil
}

// List returns the installed models, by name.
func List() ([]*Installed, error) {
	d, err := CacheDir()
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(filepath.Join(d, "models"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*Installed
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if m, err := openDir(filepath.Join(d, "models", e.Name())); err == nil {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Remove deletes an installed model; removing one not installed is an error.
func Remove(name string) error {
	dir, err := Dir(name)
	if err != nil {
		return err
	}
	// only a model's directory goes: one holding installed.json
	if _, err := os.Lstat(filepath.Join(dir, "installed.json")); err != nil {
		return fmt.Errorf("%w: %s", ErrNotInstalled, canonical(name))
	}
	return os.RemoveAll(dir)
}

// PullOptions tune Pull and PullRuntime.
type PullOptions struct {
	Endpoint string       // the hub; "" is $HF_ENDPOINT or https://huggingface.co
	Insecure bool         // accept files the manifest has no sha256 for
	Client   *http.Client // nil: a client with a 30-minute timeout
	Progress io.Writer    // one line per file; nil: none
}

func (o *PullOptions) client() *http.Client {
	if o.Client != nil {
		return o.Client
	}
	return &http.Client{Timeout: 30 * time.Minute}
}

func (o *PullOptions) endpoint() string {
	e := o.Endpoint
	if e == "" {
		e = os.Getenv("HF_ENDPOINT")
	}
	if e == "" {
		e = "https://huggingface.co"
	}
	return strings.TrimRight(e, "/")
}

// ErrUnverified is returned when the manifest cannot vouch for a download
// and Insecure is not set.
var ErrUnverified = errors.New("no verified sha256")

// ChecksumError is a file whose sha256 differs from the manifest's.
type ChecksumError struct {
	File      string
	Got, Want string
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("%s: sha256 %s, the manifest says %s; the file was not installed", e.File, e.Got, e.Want)
}

// entryFor is the manifest entry of name, or a generic one (model.onnx
// under onnx/, tokenizer.json, no checksums) for a name it does not know.
func entryFor(name string) Entry {
	if e, ok := Lookup(name); ok {
		return e
	}
	return Entry{Name: name, Files: []File{{Remote: "onnx/model.onnx", Local: "model.onnx"}, {Remote: "tokenizer.json", Local: "tokenizer.json"}},
		Note: "not in ragraf's manifest"}
}

// Pull downloads model name from the hub into the cache, checking each
// file against the manifest; nothing is installed unless every file is.
func Pull(ctx context.Context, name string, opts PullOptions) (*Installed, error) {
	e := entryFor(name)
	if !e.Verified() && !opts.Insecure {
		return nil, fmt.Errorf("%w for %s (%s): refusing to download (with --insecure ragraf downloads it and records its sha256)", ErrUnverified, e.Name, e.Note)
	}
	rev := e.Revision
	if rev == "" {
		rev = "main"
	}
	base := opts.endpoint() + "/" + e.Name + "/resolve/" + rev + "/"
	return install(e, rev, base, func(f File, dst string) (string, error) {
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "downloading %s%s\n", base, f.Remote)
		}
		return download(ctx, opts.client(), base+f.Remote, dst)
	})
}

// FromDir installs model name from files a user copied into dir (model.onnx
// or onnx/model.onnx, and tokenizer.json), checking them against the
// manifest when it knows the name and has their sha256.
func FromDir(name, dir string) (*Installed, error) {
	e := entryFor(name)
	return install(e, e.Revision, dir, func(f File, dst string) (string, error) {
		src := filepath.Join(dir, filepath.FromSlash(f.Remote))
		if _, err := os.Stat(src); err != nil {
			src = filepath.Join(dir, f.Local)
		}
		in, err := os.Open(src)
		if err != nil {
			return "", fmt.Errorf("installing from %s: %w", dir, err)
		}
		defer in.Close()
		return copyHashed(in, dst)
	})
}

// install fetches e's files into a staging directory, checks them, and
// renames it into place, replacing an earlier install.
func install(e Entry, rev, source string, fetch func(File, string) (string, error)) (*Installed, error) {
	dir, err := Dir(e.Name)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, err
	}
	stage, err := os.MkdirTemp(filepath.Dir(dir), ".pull-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	m := &Installed{Name: e.Name, Revision: rev, Source: source, SHA256: map[string]string{}, Verified: true,
		Time: time.Now().UTC().Format(time.RFC3339)}
	for _, f := range e.Files {
		sum, err := fetch(f, filepath.Join(stage, f.Local))
		if err != nil {
			return nil, err
		}
		if f.SHA256 != "" && sum != f.SHA256 {
			return nil, &ChecksumError{File: f.Remote, Got: sum, Want: f.SHA256}
		}
		if f.SHA256 == "" {
			m.Verified = false
		}
		m.SHA256[f.Local] = sum
	}
	if e.Revision == "" {
		m.Verified = false
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(stage, "installed.json"), append(b, '\n'), 0o644); err != nil {
		return nil, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.Rename(stage, dir); err != nil {
		return nil, err
	}
	m.Dir = dir
	return m, nil
}

// download writes url's body to dst and returns its sha256.
func download(ctx context.Context, c *http.Client, url, dst string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", fmt.Errorf("downloading %s: %w", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("downloading %s: %s", url, resp.Status)
	}
	return copyHashed(resp.Body, dst)
}

func copyHashed(r io.Reader, dst string) (string, error) {
	f, err := os.Create(dst)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(f, h), r); err != nil {
		f.Close()
		return "", fmt.Errorf("writing %s: %w", dst, err)
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// PullRuntime downloads rt (url overrides its URL when set), extracts the
// library into RuntimeDir as libonnxruntime.so and returns its path.
func PullRuntime(ctx context.Context, rt Runtime, url string, opts PullOptions) (string, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return "", fmt.Errorf("ragraf pins an ONNX Runtime for linux/amd64 only; on %s/%s install it and pass --ort-lib or set RAGRAF_ORT_LIB", runtime.GOOS, runtime.GOARCH)
	}
	if url == "" {
		url = rt.URL
	}
	if rt.SHA256 == "" && !opts.Insecure {
		return "", fmt.Errorf("%w for ONNX Runtime %s (not checked when this manifest was written): refusing to download (use --insecure, or install it and pass --ort-lib)", ErrUnverified, rt.Version)
	}
	dir := RuntimeDir()
	if dir == "" {
		return "", errors.New("no user cache directory")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".runtime-*.tgz")
	if err != nil {
		return "", err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "downloading %s\n", url)
	}
	sum, err := download(ctx, opts.client(), url, tmp.Name())
	if err != nil {
		return "", err
	}
	if rt.SHA256 != "" && sum != rt.SHA256 {
		return "", &ChecksumError{File: path.Base(url), Got: sum, Want: rt.SHA256}
	}
	f, err := os.Open(tmp.Name())
	if err != nil {
		return "", err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", url, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return "", fmt.Errorf("%s has no %s", url, rt.Member)
		}
		if err != nil {
			return "", fmt.Errorf("reading %s: %w", url, err)
		}
		if h.Name != rt.Member && strings.TrimPrefix(h.Name, "./") != rt.Member {
			continue
		}
		dst := filepath.Join(dir, "libonnxruntime.so")
		part := dst + ".part"
		if _, err := copyHashed(tr, part); err != nil {
			return "", err
		}
		return dst, os.Rename(part, dst)
	}
}
