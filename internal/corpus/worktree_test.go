//go:build unix

package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// noHang runs f and fails the test when it does not return: a reader that
// blocks on a FIFO would otherwise hang the whole test binary.
func noHang(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not return: the reader blocks", what)
	}
}

// TestReliability_FIFOInWorkingTree: a FIFO where a file was is refused as
// not a regular file by every read, without blocking (no writer ever opens it).
func TestReliability_FIFOInWorkingTree(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "a.php"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	if err := os.Symlink("a.php", filepath.Join(root, "link.php")); err != nil {
		t.Fatal(err)
	}
	tr := NewTree(root, 2<<20)
	ctx := context.Background()
	for _, p := range []string{"a.php", "link.php"} {
		noHang(t, "Stat", func() {
			if _, err := tr.Stat(p); !errors.Is(err, ErrNotRegular) {
				t.Errorf("Stat(%s) = %v, want ErrNotRegular", p, err)
			}
		})
		noHang(t, "Read", func() {
			if _, err := tr.Read(ctx, p); !errors.Is(err, ErrNotRegular) {
				t.Errorf("Read(%s) = %v, want ErrNotRegular", p, err)
			}
		})
		noHang(t, "Hash", func() {
			if _, err := tr.Hash(ctx, p); !errors.Is(err, ErrNotRegular) {
				t.Errorf("Hash(%s) = %v, want ErrNotRegular", p, err)
			}
		})
	}
	if got := Unreadable(func() error { _, err := tr.Stat("a.php"); return err }()); got != "not a regular file" {
		t.Errorf("Unreadable = %q", got)
	}
}

// TestReliability_SymlinksStayInProject: a symlink inside the project is
// followed; one leading out of it (to a file or a directory) is never read.
func TestReliability_SymlinksStayInProject(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write(t, root, "src/a.php", "<?php // inside\n")
	write(t, outside, "secret.php", "<?php // outside\n")
	for link, target := range map[string]string{
		"in.php":     filepath.Join(root, "src", "a.php"),
		"out.php":    filepath.Join(outside, "secret.php"),
		"outdir":     outside,
		"rel.php":    "../" + filepath.Base(outside) + "/secret.php",
		"broken.php": filepath.Join(root, "nothing.php"),
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	tr := NewTree(root, 0)
	ctx := context.Background()
	c, err := tr.Read(ctx, "in.php")
	if err != nil || string(c.Data) != "<?php // inside\n" {
		t.Errorf("Read(in.php) = %q, %v", c.Data, err)
	}
	for _, p := range []string{"out.php", "outdir/secret.php"} {
		if _, err := tr.Read(ctx, p); !errors.Is(err, ErrOutside) {
			t.Errorf("Read(%s) = %v, want ErrOutside", p, err)
		}
		if _, err := tr.Stat(p); !errors.Is(err, ErrOutside) {
			t.Errorf("Stat(%s) = %v, want ErrOutside", p, err)
		}
	}
	if _, err := tr.Stat("outdir"); !errors.Is(err, ErrOutside) {
		t.Errorf("Stat(outdir) = %v, want ErrOutside", err)
	}
	for _, p := range []string{"broken.php", "src", "missing.php"} {
		if _, err := tr.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Stat(%s) = %v, want not exist", p, err)
		}
	}
}

// TestReliability_BigFileBoundedMemory: a 200 MB sparse file is refused by
// the cap without being read (no allocation near its size), and hashed
// without a cap through the fixed buffer; a cancelled context stops a hash.
func TestReliability_BigFileBoundedMemory(t *testing.T) {
	root := t.TempDir()
	const big = 200 << 20
	f, err := os.Create(filepath.Join(root, "big.php"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(big); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ctx := context.Background()
	capped := NewTree(root, 2<<20)
	allocated := func(f func()) uint64 {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	var oe *OversizeError
	if n := allocated(func() {
		if info, err := capped.Stat("big.php"); !errors.As(err, &oe) || info.Size != big {
			t.Errorf("Stat = %+v, %v; want oversize", info, err)
		}
		if _, err := capped.Read(ctx, "big.php"); !errors.As(err, &oe) {
			t.Errorf("Read = %v, want oversize", err)
		}
		if _, err := capped.Hash(ctx, "big.php"); !errors.As(err, &oe) {
			t.Errorf("Hash = %v, want oversize", err)
		}
	}); n > 1<<20 {
		t.Errorf("refusing an oversize file allocated %d bytes", n)
	}
	if oe.Error() != "oversize (200 MiB > 2 MiB)" {
		t.Errorf("reason = %q", oe.Error())
	}
	uncapped := NewTree(root, 0)
	var got string
	if n := allocated(func() {
		got, err = uncapped.Hash(ctx, "big.php")
	}); n > 1<<20 || err != nil {
		t.Errorf("hashing 200 MB allocated %d bytes (err %v)", n, err)
	}
	sum := sha256.New()
	zeros := make([]byte, 1<<20)
	for range big >> 20 {
		sum.Write(zeros)
	}
	if want := hex.EncodeToString(sum.Sum(nil)); got != want {
		t.Errorf("hash = %s, want %s", got, want)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := uncapped.Hash(cancelled, "big.php"); !errors.Is(err, context.Canceled) {
		t.Errorf("Hash with a cancelled context = %v", err)
	}
	if _, err := uncapped.ReadRaw(cancelled, "big.php"); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadRaw with a cancelled context = %v", err)
	}
}

// FuzzTreeRead: whatever the bytes, a Tree reads a regular file as Read
// does (the same hash and normalisation), hashes it as the index does,
// refuses it past the cap, and refuses a FIFO or a link out of the project.
func FuzzTreeRead(f *testing.F) {
	f.Add([]byte("<?php\r\necho 1;\r\n"), uint8(0), uint16(0))
	f.Add([]byte("\xef\xbb\xbf<?php\necho 2;\n"), uint8(0), uint16(4))
	f.Add([]byte("a\rb\r"), uint8(1), uint16(0))
	f.Add([]byte("x\x00y"), uint8(2), uint16(0))
	f.Add([]byte{}, uint8(3), uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, kind uint8, max uint16) {
		root, outside := t.TempDir(), t.TempDir()
		write(t, root, "f.php", string(data))
		write(t, outside, "o.php", string(data))
		tr := NewTree(root, int64(max))
		ctx := context.Background()
		p := "f.php"
		var want error
		switch kind % 4 {
		case 1:
			p = "in.php"
			if err := os.Symlink("f.php", filepath.Join(root, p)); err != nil {
				t.Fatal(err)
			}
		case 2:
			p, want = "out.php", ErrOutside
			if err := os.Symlink(filepath.Join(outside, "o.php"), filepath.Join(root, p)); err != nil {
				t.Fatal(err)
			}
		case 3:
			p, want = "fifo.php", ErrNotRegular
			if err := syscall.Mkfifo(filepath.Join(root, p), 0o644); err != nil {
				t.Skip(err)
			}
		}
		c, rerr := tr.Read(ctx, p)
		h, herr := tr.Hash(ctx, p)
		var oe *OversizeError
		switch {
		case want != nil:
			if !errors.Is(rerr, want) || !errors.Is(herr, want) {
				t.Fatalf("Read, Hash = %v, %v; want %v", rerr, herr, want)
			}
		case max > 0 && len(data) > int(max):
			if !errors.As(rerr, &oe) || !errors.As(herr, &oe) {
				t.Fatalf("%d bytes, cap %d: Read, Hash = %v, %v", len(data), max, rerr, herr)
			}
		default:
			if rerr != nil || herr != nil {
				t.Fatalf("Read, Hash = %v, %v", rerr, herr)
			}
			ref := NewContent(bytes.Clone(data))
			if c.Hash != ref.Hash || h != ref.Hash || !bytes.Equal(c.Data, ref.Data) || c.Lines != ref.Lines {
				t.Fatalf("Tree.Read differs from NewContent: %q vs %q", c.Data, ref.Data)
			}
		}
	})
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	writeTree(t, root, map[string]string{rel: content})
}
