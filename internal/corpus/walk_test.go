package corpus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/config"
)

// writeTree creates files (path -> content) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unsupported: %v", err)
	}
}

func TestWalk(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "outside.php")
	writeTree(t, root, map[string]string{
		"a.php":                 "<?php\n",
		"b/c.php":               "<?php\n",
		"README.md":             "# x\n",
		"schema.sql":            "CREATE TABLE t (id int);\n",
		"app.js":                "x()\n",
		"img.png":               "\x89PNG",
		"blob.php":              "<?php\x00\x01",
		"big.php":               strings.Repeat("x", 200),
		"keep.tmp":              "k",
		"x.tmp":                 "x",
		"rootonly.php":          "<?php\n",
		"local.php":             "<?php\n",
		"sub/rootonly.php":      "<?php\n",
		"sub/local.php":         "<?php\n",
		"sub/.gitignore":        "local.php\n",
		"build/x.php":           "<?php\n",
		"tests/t.php":           "<?php\n",
		".gitignore":            "build/\n*.tmp\n!keep.tmp\n/rootonly.php\n",
		".env":                  "DB_PASSWORD=x\n",
		"sub/.env.local":        "X=y\n",
		"keys/server.pem":       "-----BEGIN PRIVATE KEY-----\n",
		"vendor/x.php":          "<?php\n",
		"wp/vendor/y.php":       "<?php\n",
		"node_modules/m.js":     "x\n",
		".git/HEAD":             "ref: x\n",
		".git/info/exclude":     "gitexcluded.php\n",
		"gitexcluded.php":       "<?php\n",
		"debug.log":             "x\n",
		"old.php.bak":           "x\n",
		".claude/settings.json": "{}",
		"CLAUDE.local.md":       "x\n",
	})
	writeTree(t, filepath.Dir(outside), map[string]string{"outside.php": "<?php\n"})
	symlink(t, "a.php", filepath.Join(root, "link.php"))
	symlink(t, outside, filepath.Join(root, "out.php"))
	symlink(t, "b", filepath.Join(root, "dirlink"))
	symlink(t, "loop", filepath.Join(root, "loop"))
	symlink(t, "nowhere.php", filepath.Join(root, "dangling.php"))
	symlink(t, ".env", filepath.Join(root, "envlink.txt"))

	cfg := config.Default()
	cfg.MaxFileSize = 100
	cfg.Exclude = []string{"tests/**"}
	files, err := Walk(context.Background(), Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		if files[i].Status == Pending && (files[i].Size == 0 || files[i].ModTime == 0) {
			t.Errorf("%s: size %d modtime %d", files[i].Path, files[i].Size, files[i].ModTime)
		}
		files[i].Size, files[i].ModTime = 0, 0
	}
	s := func(p, lang, reason string) File { return File{Path: p, Lang: lang, Status: Skipped, Reason: reason} }
	ok := func(p, lang string) File { return File{Path: p, Lang: lang} }
	want := []File{
		ok(".gitignore", ""),
		ok("README.md", "markdown"),
		ok("a.php", "php"),
		s("app.js", "javascript", "language not indexed: javascript"),
		ok("b/c.php", "php"),
		s("big.php", "php", "oversize (200 B > 100 B)"),
		s("blob.php", "php", "binary"),
		s("dangling.php", "php", "broken symlink"),
		s("dirlink", "", "symlink to directory"),
		s("img.png", "", "binary"),
		s("keep.tmp", "", "language not indexed: unknown file type"),
		ok("link.php", "php"),
		ok("local.php", "php"),
		s("loop", "", "broken symlink"),
		s("out.php", "php", "symlink outside root"),
		ok("schema.sql", "sql"),
		ok("sub/.gitignore", ""),
		ok("sub/rootonly.php", "php"),
	}
	// .gitignore files are listed but not indexed.
	want[0] = s(".gitignore", "", "language not indexed: unknown file type")
	want[16] = s("sub/.gitignore", "", "language not indexed: unknown file type")
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("Walk (-want +got):\n%s", diff)
	}

	// Without gitignore the ignored files come back; mandatory excludes do not.
	cfg.RespectGitignore = false
	files, err = Walk(context.Background(), Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]bool{}
	for _, f := range files {
		paths[f.Path] = true
	}
	for _, p := range []string{"build/x.php", "x.tmp", "rootonly.php", "sub/local.php", "gitexcluded.php"} {
		if !paths[p] {
			t.Errorf("respect_gitignore=false: %s missing", p)
		}
	}
	for _, p := range []string{"vendor/x.php", "wp/vendor/y.php", ".git/HEAD", "debug.log", ".env", "envlink.txt", "tests/t.php"} {
		if paths[p] {
			t.Errorf("respect_gitignore=false: %s listed", p)
		}
	}
}

func TestWalkIncludeAndLanguages(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"src/a.php": "<?php\n", "docs/a.md": "x\n", "x.php": "<?php\n"})
	cfg := config.Default()
	cfg.Include = []string{"src/**", "*.md"}
	cfg.Languages = []string{"php"}
	files, err := Walk(context.Background(), Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	want := []File{
		{Path: "docs/a.md", Lang: "markdown", Status: Skipped, Reason: "language not indexed: markdown"},
		{Path: "src/a.php", Lang: "php"},
	}
	for i := range files {
		files[i].Size, files[i].ModTime = 0, 0
	}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWalkCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Walk(ctx, Options{Root: t.TempDir(), Config: config.Default()}); err == nil {
		t.Error("Walk with cancelled context succeeded")
	}
}

func BenchmarkWalk(b *testing.B) {
	root := b.TempDir()
	for i := range 3000 {
		p := filepath.Join(root, fmt.Sprintf("p%d", i%60), fmt.Sprintf("f%d.php", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("<?php\n"), 0o644)
	}
	for b.Loop() {
		if _, err := Walk(context.Background(), Options{Root: root, Config: config.Default()}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRead(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want Content
	}{
		{"plain", "a\nb\n", Content{Data: []byte("a\nb\n"), Lines: 2, ValidUTF8: true}},
		{"no final newline", "a\nb", Content{Data: []byte("a\nb"), Lines: 2, ValidUTF8: true}},
		{"empty", "", Content{Data: []byte{}, Lines: 0, ValidUTF8: true}},
		{"bom", "\xEF\xBB\xBF<?php\n", Content{Data: []byte("<?php\n"), Lines: 1, ValidUTF8: true, HadBOM: true}},
		{"crlf", "a\r\nb\r\n", Content{Data: []byte("a\nb\n"), Lines: 2, ValidUTF8: true, CRLF: true}},
		{"bom and crlf", "\xEF\xBB\xBFa\r\nb", Content{Data: []byte("a\nb"), Lines: 2, ValidUTF8: true, HadBOM: true, CRLF: true}},
		{"cr only", "a\rb\r", Content{Data: []byte("a\nb\n"), Lines: 2, ValidUTF8: true, CR: true}},
		{"mixed endings", "a\r\nb\rc\nd", Content{Data: []byte("a\nb\nc\nd"), Lines: 4, ValidUTF8: true, CRLF: true, CR: true}},
		{"invalid utf8 kept", "a\xff\xfeb\n", Content{Data: []byte("a\xff\xfeb\n"), Lines: 1}},
		{"binary", "a\x00b\r\n", Content{Data: []byte("a\x00b\r\n"), Lines: 1, Binary: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f")
			if err := os.WriteFile(p, []byte(tt.raw), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Read(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Hash) != 64 {
				t.Errorf("hash %q", got.Hash)
			}
			if got.Hash != NewContent([]byte(tt.raw)).Hash {
				t.Error("hash is not of the raw bytes")
			}
			got.Hash = ""
			if got.Data == nil {
				got.Data = []byte{}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Read(missing) succeeded")
	}
}

func TestDetectLang(t *testing.T) {
	for p, want := range map[string]string{
		"a.php": "php", "t.phtml": "php", "x.inc": "php", "A.PHP": "php", "README.md": "markdown",
		"doc.rst": "markdown", "s.sql": "sql", "a.js": "javascript", "a.ts": "typescript",
		"a.py": "python", "a.go": "go", "a.css": "css", "a.html": "html", "Makefile": "", "a.png": "",
		"views/x.blade.php": "blade", "X.Blade.PHP": "blade", "t.html.twig": "twig",
	} {
		if got := DetectLang(p); got != want {
			t.Errorf("DetectLang(%q) = %q, want %q", p, got, want)
		}
	}
}
