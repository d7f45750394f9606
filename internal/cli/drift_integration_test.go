package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const driftCart = `<?php
namespace Shop;

class Cart
{
    public function total(array $items): int
    {
        $sum = 0;
        foreach ($items as $item) {
            $sum += $item->price;
        }
        return $sum;
    }
}
`

// TestFT25_CLIDriftLifecycle runs index, edits, the session-start hook, the
// ledger commands and reindex --commit as real processes.
func TestFT25_CLIDriftLifecycle(t *testing.T) {
	root := writeFiles(t, map[string]string{
		"src/Cart.php": driftCart,
		"src/util.php": "<?php\nfunction util_twice($x)\n{\n    return $x * 2;\n}\n",
	})
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	r := run(t, root, "hook", "session-start")
	if r.code != 0 || !strings.Contains(r.stdout, "matches the working tree") {
		t.Fatalf("clean hook: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(root, "src/Cart.php"), []byte(strings.Replace(driftCart, "return $sum;", "return $sum * 2;", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, root, "hook", "session-start")
	if r.code != 0 || !strings.Contains(r.stdout, "1 unacknowledged drift entries") || !strings.Contains(r.stdout, "modify src/Cart.php lines 12-12") ||
		!strings.Contains(r.stdout, "ragraf reindex --commit") {
		t.Fatalf("hook after edit: %d %q", r.code, r.stdout)
	}
	// the changed method is marked in the answer's text form too
	r = run(t, root, "query", "outline", "--path", "src/Cart.php", "--format", "text")
	marked := false
	for _, ln := range strings.Split(r.stdout, "\n") {
		marked = marked || strings.Contains(ln, "  total  method") && strings.Contains(ln, "stale")
	}
	if r.code != 0 || !marked {
		t.Fatalf("outline after edit: total() not marked: %d %q", r.code, r.stdout)
	}
	r = run(t, root, "drift", "--unacked")
	var env struct {
		Drift  struct{ Entries, Unacked int } `json:"drift"`
		Result struct {
			Entries []struct {
				ID, Method, Kind, Path string
			} `json:"entries"`
		} `json:"result"`
		StaleWarnings []struct{ Path string } `json:"stale_warnings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 0 {
		t.Fatalf("drift: %d %v %q", r.code, err, r.stdout)
	}
	if len(env.Result.Entries) != 1 || env.Result.Entries[0].Method != "hook:session-start" || len(env.StaleWarnings) != 1 {
		t.Fatalf("drift envelope: %+v", env)
	}
	id := env.Result.Entries[0].ID
	// the same change seen by compare again adds nothing
	r = run(t, root, "drift", "detect", "--method", "compare")
	if r.code != 0 || !strings.Contains(r.stdout, `"added": []`) {
		t.Fatalf("detect again: %d %s", r.code, r.stdout)
	}
	if r = run(t, root, "drift", "record", "--path", "src/util.php", "--note", "to be split"); r.code != 0 {
		t.Fatalf("record: %d %s", r.code, r.stdout)
	}
	if r = run(t, root, "drift", "ack", id, "--note", "intended"); r.code != 0 || !strings.Contains(r.stdout, `"note": "intended"`) {
		t.Fatalf("ack: %d %s", r.code, r.stdout)
	}
	if r = run(t, root, "drift", "ack", "d-nope"); r.code == 0 || !strings.Contains(r.stdout, "E_UNKNOWN_ID") {
		t.Fatalf("ack unknown: %d %s", r.code, r.stdout)
	}
	if r = run(t, root, "drift", "detect", "--method", "bogus"); r.code != 2 {
		t.Fatalf("bad method exit = %d", r.code)
	}
	r = run(t, root, "reindex", "--commit", "--json")
	if r.code != 0 {
		t.Fatalf("reindex: %d %s %s", r.code, r.stdout, r.stderr)
	}
	var sum struct {
		Rev, Report string
		ParentRev   string `json:"parent_rev"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &sum); err != nil || sum.Rev != "rev-0002" || sum.ParentRev != "rev-0001" {
		t.Fatalf("reindex summary: %v %s", err, r.stdout)
	}
	md, err := os.ReadFile(filepath.Join(root, sum.Report))
	if err != nil || !strings.Contains(string(md), "intended") || !strings.Contains(string(md), "to be split") {
		t.Fatalf("report: %v\n%s", err, md)
	}
	r = run(t, root, "drift")
	if r.code != 0 || !strings.Contains(r.stdout, `"entries": 0`) {
		t.Fatalf("ledger after reindex: %s", r.stdout)
	}
	if r = run(t, t.TempDir(), "hook", "session-start"); r.code != 0 || !strings.Contains(r.stdout, "no index") {
		t.Fatalf("hook without index: %d %s", r.code, r.stdout)
	}
	if r = run(t, t.TempDir(), "reindex", "--commit"); r.code != 3 {
		t.Fatalf("reindex without index: exit %d", r.code)
	}
}

// TestReliability_IndexArchivesTheLedger: a note recorded on a revision is
// archived with a report when plain `ragraf index` builds the next one, as
// `reindex --commit` archives it (before, the new revision hid it: never
// shown, never archived).
func TestReliability_IndexArchivesTheLedger(t *testing.T) {
	root := writeFiles(t, map[string]string{"src/util.php": "<?php\nfunction util() { return 1; }\n"})
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	if r := run(t, root, "drift", "record", "--path", "src/util.php", "--note", "split util before the release"); r.code != 0 {
		t.Fatalf("record: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("second index: %d %s", r.code, r.stderr)
	}
	report := filepath.Join(root, ".ragraf", "archive", "rev-0001..rev-0002.md")
	b, err := os.ReadFile(report)
	if err != nil {
		ents, _ := os.ReadDir(filepath.Join(root, ".ragraf", "archive"))
		t.Fatalf("no archive report after a plain index: %v (archive holds %v)", err, ents)
	}
	if !strings.Contains(string(b), "split util before the release") {
		t.Errorf("the report does not hold the note:\n%s", b)
	}
}
