package facade

import (
	"path"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCleanPath feeds arbitrary path arguments to the validation every path
// read or written to the ledger goes through (cleanPath). Properties: it never
// panics; an accepted path is relative, slash-separated, clean, free of NUL
// bytes and `..` elements, not the root, and names a place inside the
// project; cleaning it again gives it back unchanged; an absolute path inside
// the project is accepted as the relative one.
func FuzzCleanPath(f *testing.F) {
	for _, s := range []string{"src/Cart.php", "./a/../b.php", "../etc/passwd", "/proj/src/x.php", "/etc/passwd",
		"a\x00b", "a//b/./c", ".", "", "MATCH (n) RETURN n", "a\\..\\b", "\xff\xfe", strings.Repeat("a/", 600)} {
		f.Add(s)
	}
	s := &Service{root: "/proj"}
	f.Fuzz(func(t *testing.T, p string) {
		c, err := s.cleanPath("path", p)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T, want *Error: %v", err, err)
			}
			return
		}
		if c == "" || c == "." || strings.HasPrefix(c, "/") || strings.ContainsRune(c, 0) || path.Clean(c) != c {
			t.Fatalf("accepted %q as %q", p, c)
		}
		for _, el := range strings.Split(c, "/") {
			if el == ".." {
				t.Fatalf("accepted %q as %q, which leaves the project", p, c)
			}
		}
		full := filepath.Join("/proj", filepath.FromSlash(c))
		if rel, err := filepath.Rel("/proj", full); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			t.Fatalf("accepted %q as %q, outside the project", p, c)
		}
		again, err := s.cleanPath("path", c)
		if err != nil || again != c {
			t.Fatalf("cleaning %q again gives %q, %v", c, again, err)
		}
		if utf8.ValidString(p) && strings.HasPrefix(p, "/proj/") {
			if c != path.Clean(strings.TrimLeft(strings.TrimPrefix(p, "/proj/"), "/")) {
				t.Fatalf("absolute %q accepted as %q", p, c)
			}
		}
	})
}
