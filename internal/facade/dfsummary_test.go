package facade

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

// TestFT43_SummariesOnlyUnderTheirModels: a callee's summary stands in for
// its body past the depth budget only under the models it was made with;
// after project.yaml changes the models, the same flow says what the walk
// did not see (a depth cut point) instead of claiming absence.
func TestFT43_SummariesOnlyUnderTheirModels(t *testing.T) {
	root := t.TempDir()
	b, err := os.ReadFile(filepath.Join("testdata", "dataflow", "src", "summary.php"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "summary.php"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: config.Default()}); err != nil {
		t.Fatal(err)
	}
	args := untimed(map[string]any{"from": "summary.php:28", "to": "sink:output"})
	flow := func() FlowResult {
		s, err := New(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		return dfCall(t, s, "flow", args).Result.(FlowResult)
	}
	if fr := flow(); fr.Found || !fr.Complete {
		t.Fatalf("under the build's models: found=%v complete=%v cuts=%+v, want a complete absence", fr.Found, fr.Complete, fr.CutPoints)
	}
	yaml := "dataflow:\n  models:\n    sinks:\n      output:\n        calls:\n          - {function: my_print}\n"
	if err := os.WriteFile(rev.Layout{Root: root}.Config(), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	fr := flow()
	var reasons []string
	for _, c := range fr.CutPoints {
		reasons = append(reasons, c.Reason)
	}
	if fr.Found || fr.Complete || !slices.Contains(reasons, "depth") {
		t.Fatalf("under other models: found=%v complete=%v cuts=%v, want an incomplete answer with a depth cut point", fr.Found, fr.Complete, reasons)
	}
}
