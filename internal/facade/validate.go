// This file validates operation input: strict JSON decoding, names that must
// not be query-language text (FT-15), project-relative paths that must not
// leave the project, ids, and numeric ranges. Every operation file calls it.

package facade

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ragraf/ragraf/internal/corpus"
)

// decodeArgs decodes raw into v, refusing unknown fields, wrong types and
// trailing data. Empty input is the empty object.
func decodeArgs(raw []byte, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return badInput("arguments must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		switch {
		case errors.As(err, &te):
			return badInput("field %q must be of type %s, got %s", te.Field, jsonType(te.Type.Kind().String()), te.Value)
		case errors.As(err, &se):
			return badInput("arguments are not valid JSON: %v", err)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			return badInput("unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
		}
		return badInput("decoding arguments: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return badInput("arguments must be one JSON object")
	}
	return nil
}

func jsonType(goKind string) string {
	switch goKind {
	case "int", "int64", "int32", "float64":
		return "number"
	case "bool":
		return "boolean"
	case "slice":
		return "array"
	case "struct", "map":
		return "object"
	}
	return goKind
}

// Query languages recognised where a name or search words are expected.
var queryLanguages = []struct {
	name string
	re   *regexp.Regexp
}{
	{"Cypher", regexp.MustCompile(`(?is)\b(optional\s+)?match\s*\(.*\)|\bmatch\b.+\breturn\b|\b(merge|create)\s*\(\s*\w*\s*:`)},
	{"Gremlin", regexp.MustCompile(`(?i)\bg\s*\.\s*(v|e)\s*\(|\.\s*(out|in|both|has|haslabel|repeat)\s*\(.*\)\s*\.`)},
	{"SQL", regexp.MustCompile(`(?is)\bselect\b.+\bfrom\b|\binsert\s+into\b|\bupdate\s+\S+\s+set\b|\bdelete\s+from\b|\b(drop|alter|create)\s+table\b`)},
	{"CPGQL", regexp.MustCompile(`(?i)\bcpg\s*\.\s*[a-z]+`)},
	{"SPARQL", regexp.MustCompile(`(?is)\bselect\s+\?\w+.*\bwhere\s*\{`)},
}

// presence is whether a field must be given.
type presence bool

const (
	optional presence = false
	required presence = true
)

// checkName validates a name-like field: not empty when required, of sane
// length, and not query-language text.
func checkName(field, v string, need presence) error {
	if v == "" {
		if need == required {
			return badInput("%s is required", field)
		}
		return nil
	}
	if len(v) > 1000 {
		return badInput("%s is longer than 1000 bytes", field)
	}
	if strings.ContainsRune(v, 0) {
		return badInput("%s contains a NUL byte", field)
	}
	return checkQueryLanguage(field, v)
}

func checkQueryLanguage(field, v string) error {
	for _, ql := range queryLanguages {
		if ql.re.MatchString(v) {
			return &Error{Code: ErrQueryLanguage, Message: fmt.Sprintf(
				"%s looks like %s; ragraf takes names and words, not query-language text: use symbol, references, callers or search with a plain name", field, ql.name)}
		}
	}
	return nil
}

var idRE = regexp.MustCompile(`^n[0-9a-f]{32}$`)

// checkID validates a node id field.
func checkID(field, v string) error {
	if err := checkName(field, v, optional); err != nil {
		return err
	}
	if v != "" && !idRE.MatchString(v) {
		return badInput("%s %q is not a node id (n followed by 32 hex digits); pass qname for a qualified name", field, v)
	}
	return nil
}

func pathOutside(p string) error {
	return &Error{Code: ErrPathOutside, Message: fmt.Sprintf("path %q is outside the project; paths are relative to the project root", p)}
}

// cleanPath turns a path argument into a clean slash-separated path relative
// to the project root, refusing anything that leaves the project.
func (s *Service) cleanPath(field, p string) (string, error) {
	if p == "" {
		return "", badInput("%s is required", field)
	}
	if err := checkName(field, p, required); err != nil {
		return "", err
	}
	native := filepath.FromSlash(p)
	if filepath.IsAbs(native) || strings.HasPrefix(p, "/") {
		rel, err := filepath.Rel(s.root, filepath.Clean(native))
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", pathOutside(p)
		}
		native = rel
	}
	for _, el := range strings.Split(filepath.ToSlash(native), "/") {
		if el == ".." {
			return "", pathOutside(p)
		}
	}
	c := path.Clean(filepath.ToSlash(native))
	if c == "." || c == "" {
		return "", badInput("%s names the project root, not a file", field)
	}
	return c, nil
}

// openInProject reads the working-tree file at the clean relative path rel
// through corpus.Tree: a regular file inside the project (a symlink leaving
// it is refused), at most maxLiveBytes, never blocking on a FIFO.
func (s *Service) openInProject(ctx context.Context, rel string) ([]byte, error) {
	b, err := corpus.NewTree(s.root, maxLiveBytes).ReadRaw(ctx, rel)
	var oe *corpus.OversizeError
	switch {
	case errors.Is(err, corpus.ErrOutside):
		return nil, pathOutside(rel)
	case errors.Is(err, corpus.ErrNotRegular), errors.Is(err, corpus.ErrIsDir):
		return nil, badInput("path %q is not a regular file", rel)
	case errors.As(err, &oe):
		return nil, badInput("path %q is larger than %d bytes", rel, maxLiveBytes)
	}
	return b, err
}

// maxLiveBytes caps what live_read and code read from the working tree.
const maxLiveBytes = 8 << 20

// checkRange validates an integer field against [lo, hi], with def for 0.
func checkRange(field string, v, def, lo, hi int) (int, error) {
	if v == 0 {
		return def, nil
	}
	if v < lo || v > hi {
		return 0, badInput("%s must be between %d and %d, got %d", field, lo, hi, v)
	}
	return v, nil
}

// checkEnum validates a string field against its allowed values, with def for "".
func checkEnum(field, v, def string, allowed ...string) (string, error) {
	if v == "" {
		return def, nil
	}
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return "", badInput("%s must be one of %s, got %q", field, strings.Join(allowed, ", "), v)
}
