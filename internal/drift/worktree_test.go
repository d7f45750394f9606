//go:build unix

package drift

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ragraf/ragraf/internal/config"
)

// TestReliability_DetectorsNeverBlockOrOverread: a FIFO, a symlink out of
// the project and a file over the size cap where indexed files were are
// reported as unreadable modifies of the whole file by Compare and by the
// Checker alike, without reading them (a FIFO would block a read for ever).
func TestReliability_DetectorsNeverBlockOrOverread(t *testing.T) {
	ctx := context.Background()
	root, outside := t.TempDir(), t.TempDir()
	write(t, root, "src/Fifo.php", "<?php\nclass Fifo {}\n")
	write(t, root, "src/Out.php", "<?php\nclass Out {}\n")
	write(t, root, "src/Big.php", "<?php\nclass Big {}\n")
	write(t, root, "src/Same.php", "<?php\nclass Same {}\n")
	write(t, outside, "x.php", "<?php\nclass Elsewhere {}\n")
	src := indexDir(t, root)
	cfg := config.Default()
	cfg.MaxFileSize = 1 << 20

	os.Remove(filepath.Join(root, "src/Fifo.php"))
	if err := syscall.Mkfifo(filepath.Join(root, "src/Fifo.php"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	os.Remove(filepath.Join(root, "src/Out.php"))
	if err := os.Symlink(outside, filepath.Join(root, "src/Out.php")); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(root, "src/Big.php"), 200<<20); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"src/Big.php":  "not read: oversize (200 MiB > 1 MiB); the next index skips it",
		"src/Fifo.php": "not read: not a regular file; the next index skips it",
		"src/Out.php":  "not read: a symlink leads outside the project; the next index skips it",
	}
	check := func(name string, ds []Delta) {
		t.Helper()
		got := map[string]string{}
		for _, d := range ds {
			if d.Kind != KindModify || !reflect.DeepEqual(d.Lines, [][2]int{{1, 2}}) || len(d.Nodes) == 0 {
				t.Errorf("%s: %+v, want a modify of the whole file", name, d)
			}
			got[d.Path] = d.Note
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	var ds []Delta
	var err error
	noHang(t, "Compare", func() { ds, err = Compare(ctx, src, root, cfg) })
	if err != nil {
		t.Fatal(err)
	}
	check("compare", ds)
	ck := NewChecker(src, root, cfg)
	var all []Delta
	for _, p := range []string{"src/Big.php", "src/Fifo.php", "src/Out.php", "src/Same.php"} {
		noHang(t, "Check", func() {
			got, _, err := ck.Check(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, got...)
			for i := range got {
				if got[i].DedupKey != ds[len(all)-len(got)+i].DedupKey {
					t.Errorf("%s: the checker's key %s differs from compare's", p, got[i].DedupKey)
				}
			}
		})
		noHang(t, "Moves", func() { _, _ = ck.Moves(ctx, p) })
	}
	check("checker", all)
}

// TestReliability_OneNotionOfChanged: a CRLF or BOM conversion alone, and a
// new secret value (redacted as before), change the raw bytes but not the
// content the index prepared: no detector reports them.
func TestReliability_OneNotionOfChanged(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write(t, root, "src/Cart.php", cartPHP)
	write(t, root, "src/bom.php", "\xef\xbb\xbf"+helperPHP)
	write(t, root, "src/conf.php", "<?php\n$password = 'Sup3rSecret!42';\n")
	src := indexDir(t, root)
	cfg := config.Default()
	write(t, root, "src/Cart.php", strings.ReplaceAll(cartPHP, "\n", "\r\n"))
	write(t, root, "src/bom.php", helperPHP)
	write(t, root, "src/conf.php", "<?php\n$password = 'An0therSecret!77';\n")
	later := time.Now().Add(time.Hour)
	for _, p := range []string{"src/Cart.php", "src/bom.php", "src/conf.php"} {
		_ = os.Chtimes(filepath.Join(root, p), later, later)
	}
	ds, err := Compare(ctx, src, root, cfg)
	if err != nil || len(ds) != 0 {
		t.Errorf("compare: %v, %v; want nothing", kinds(ds), err)
	}
	ck := NewChecker(src, root, cfg)
	for _, p := range []string{"src/Cart.php", "src/bom.php", "src/conf.php"} {
		if ds, _, err := ck.Check(ctx, p); err != nil || len(ds) != 0 {
			t.Errorf("check %s: %v, %v; want nothing", p, kinds(ds), err)
		}
	}
	// a real edit still is one
	write(t, root, "src/Cart.php", strings.ReplaceAll(strings.Replace(cartPHP, "$sum = 0;", "$sum = 1;", 1), "\n", "\r\n"))
	if ds, _, err := ck.Check(ctx, "src/Cart.php"); err != nil || len(ds) != 1 || !reflect.DeepEqual(ds[0].Lines, [][2]int{{8, 8}}) {
		t.Errorf("an edit: %+v, %v", ds, err)
	}
}

func noHang(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not return: a read blocks", what)
	}
}
