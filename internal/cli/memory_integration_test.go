package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// memoryTree is a small PHP project: classes calling each other across
// files, plus documentation, so the build runs every phase (extraction,
// resolution, data flow, the static model, both stores).
func memoryTree(budget string) map[string]string {
	files := map[string]string{"README.md": "# Shop\n\nOrders are placed by `OrderService::place`.\n"}
	for i := range 12 {
		files[fmt.Sprintf("src/Service%d.php", i)] = fmt.Sprintf(`<?php
namespace App;

class Service%d {
    public function run(string $input): string {
        $clean = trim($input);
        return (new Service%d())->run($clean) . '%d';
    }
}
`, i, (i+1)%12, i)
	}
	files["src/OrderService.php"] = "<?php\nnamespace App;\n\nclass OrderService {\n    public function place($id) { return (new Service0())->run($_GET['id']); }\n}\n"
	if budget != "" {
		files[".ragraf/project.yaml"] = "max_memory_mb: " + budget + "\n"
	}
	return files
}

var revisionLine = regexp.MustCompile(`(\d+) files .* (\d+) nodes, (\d+) edges, (\d+) text chunks`)

// TestFastAndLean_TinyMemoryBudgetStillBuilds: max_memory_mb at its
// smallest value (16 MB, far below what the build needs) makes the build
// slower, never failed: the real binary publishes a revision with the same
// files, nodes, edges and chunks as under the default budget, and
// --memprofile leaves a heap profile behind: the peak's and one per phase.
func TestFastAndLean_TinyMemoryBudgetStillBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes a generated project twice")
	}
	tight := writeFiles(t, memoryTree("16"))
	roomy := writeFiles(t, memoryTree(""))
	prof := filepath.Join(t.TempDir(), "heap.pprof")
	rt := run(t, tight, "index", "--memprofile", prof)
	if rt.code != 0 {
		t.Fatalf("index under 16 MB: exit %d: %s", rt.code, rt.stderr)
	}
	rr := run(t, roomy, "index")
	if rr.code != 0 {
		t.Fatalf("index under the default budget: exit %d: %s", rr.code, rr.stderr)
	}
	mt, mr := revisionLine.FindStringSubmatch(rt.stdout), revisionLine.FindStringSubmatch(rr.stdout)
	if mt == nil || mr == nil {
		t.Fatalf("no summary line:\n%s\n%s", rt.stdout, rr.stdout)
	}
	if mt[0] != mr[0] {
		t.Errorf("a tight budget changed the revision:\n 16 MB:   %s\n default: %s", mt[0], mr[0])
	}
	if mt[3] == "0" {
		t.Errorf("no edges resolved: %s", mt[0])
	}
	for _, f := range []string{prof, prof + ".extracted", prof + ".resolved", prof + ".summarised", prof + ".trained", prof + ".written"} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("--memprofile wrote no heap profile %s: %v", filepath.Base(f), err)
		}
	}
	if r := run(t, tight, "query", "status"); r.code != 0 {
		t.Errorf("status after the tight build: exit %d: %s", r.code, r.stderr)
	}
}

// TestFastAndLean_MemoryBudgetOutOfRangeRefused: a budget below 16 MB is a
// configuration error naming the key, not a build that cannot run.
func TestFastAndLean_MemoryBudgetOutOfRangeRefused(t *testing.T) {
	root := writeFiles(t, memoryTree("8"))
	r := run(t, root, "index")
	if r.code == 0 {
		t.Fatalf("index accepted max_memory_mb: 8")
	}
	if !regexp.MustCompile(`max_memory_mb`).MatchString(r.stderr) {
		t.Errorf("the error does not name max_memory_mb: %s", r.stderr)
	}
}
