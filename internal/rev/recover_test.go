package rev

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/store/control"
)

// crashBuild runs a build in a child process that kills itself at stage.
func crashBuild(t *testing.T, root, stage string, env ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), "RAGRAF_TEST_CRASH_STAGE="+stage, "RAGRAF_TEST_ROOT="+root), env...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("stage %s: child was not killed: %v\n%s", stage, err, out)
	}
}

// TestNFR11_InterruptedCommitIsFinished: `reindex --commit` killed after
// CURRENT switched, before the ledger was archived: the next build finishes
// the archive (entries and report) before it does anything else.
func TestNFR11_InterruptedCommitIsFinished(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	ctx := context.Background()
	root := writeProject(t, sampleProject)
	first := build(t, root, config.Default(), 0)
	ctl, err := control.Open(ctx, Layout{Root: root}.Control())
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	if _, err := ctl.AppendEntries(ctx, []control.Entry{{Revision: first.Rev, Method: "manual", Kind: "note", Path: "src/Cart.php", DetectedAt: "t", DedupKey: "k1"}}); err != nil {
		t.Fatal(err)
	}
	l := Layout{Root: root}
	crashBuild(t, root, "published", "RAGRAF_TEST_COMMIT=1")
	cur, _ := l.CurrentRev()
	if cur == first.Rev {
		t.Fatalf("CURRENT still %s: the child died before the switch", cur)
	}
	if arch, _ := ctl.Archived(ctx, cur); len(arch) != 0 {
		t.Fatalf("archive written before the crash point: %+v", arch)
	}
	if _, err := os.Stat(l.PendingArchive()); err != nil {
		t.Fatalf("no note of the interrupted commit: %v", err)
	}
	next := build(t, root, config.Default(), 0)
	arch, err := ctl.Archived(ctx, cur)
	if err != nil || len(arch) != 1 || arch[0].FromRev != first.Rev {
		t.Fatalf("after the next build the archive of %s is %+v, %v", cur, arch, err)
	}
	if _, err := os.Stat(filepath.Join(l.Archive(), ReportName(first.Rev, cur)+".md")); err != nil {
		t.Errorf("report of the interrupted commit not written: %v", err)
	}
	if _, err := os.Stat(l.PendingArchive()); err == nil {
		t.Error("note of the interrupted commit left behind")
	}
	if c, _ := l.CurrentRev(); c != next.Rev {
		t.Errorf("CURRENT %s, want %s", c, next.Rev)
	}
}

// TestFT34_RotationSkipsJunk: revisions of builds that died between the
// rename and the switch were never current; rotation removes them first and
// keeps those that were current, and they are not counted as retained.
func TestFT34_RotationSkipsJunk(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes")
	}
	ctx := context.Background()
	root := writeProject(t, sampleProject)
	cfg := config.Default()
	cfg.RetainRevs = 2
	l := Layout{Root: root}
	good := []string{build(t, root, cfg, 0).Rev}
	for i, stage := range []string{"renamed", "recorded", "renamed"} {
		if err := os.WriteFile(filepath.Join(root, "src", fmt.Sprintf("J%d.php", i)), []byte("<?php class J"+fmt.Sprint(i)+" {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		crashBuild(t, root, stage, "RAGRAF_TEST_RETAIN=2")
	}
	good = append(good, build(t, root, cfg, 0).Rev)
	ents, err := os.ReadDir(l.Revs())
	if err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	for _, e := range ents {
		onDisk = append(onDisk, e.Name())
	}
	if !slices.Equal(onDisk, good) {
		t.Errorf("revisions on disk %v, want the two that were current %v", onDisk, good)
	}
	ctl, err := control.Open(ctx, l.Control())
	if err != nil {
		t.Fatal(err)
	}
	defer ctl.Close()
	hist, err := ctl.Revs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	were := WereCurrent(hist, good[1])
	for _, r := range hist {
		if were[r.Rev] != slices.Contains(good, r.Rev) {
			t.Errorf("WereCurrent(%s) = %v", r.Rev, were[r.Rev])
		}
	}
}
