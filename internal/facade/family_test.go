package facade

import (
	"context"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var familyFixture = map[string]string{
	"src/Action.php": `<?php
namespace App;
interface Action {
    public function run(): void;
}
`,
	"src/FooAction.php": `<?php
namespace App;
class FooAction implements Action {
    public function run(): void {}
}
`,
	"src/Runner.php": `<?php
namespace App;
class Runner {
    public function go(Action $a): void {
        $a->run();
    }
    public function direct(FooAction $f): void {
        $f->run();
    }
}
`,
}

// A method's callers and references include the calls made through the
// declaration it implements, labelled with it; the interface method's
// include the calls made to its implementations, labelled likewise.
func TestFT27_CallersThroughTheFamily(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, familyFixture)
	s := treeService(t, root)
	ctx := context.Background()
	callers := func(qname string) []string {
		t.Helper()
		env, err := s.Callers(ctx, CallersArgs{Target: Target{QName: qname}})
		if err != nil {
			t.Fatal(err)
		}
		res := env.Result.(CallsResult)
		var out []string
		for _, c := range res.Stated {
			out = append(out, c.QName+" stated via "+c.Via)
		}
		for _, c := range res.Derived {
			out = append(out, c.QName+" derived via "+c.Via)
		}
		sort.Strings(out)
		return out
	}
	if diff := cmp.Diff([]string{`App\Runner::direct stated via `, `App\Runner::go stated via App\Action::run`}, callers(`App\FooAction::run`)); diff != "" {
		t.Errorf("callers of the implementation (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`App\Runner::direct stated via App\FooAction::run`, `App\Runner::go stated via `}, callers(`App\Action::run`)); diff != "" {
		t.Errorf("callers of the interface method (-want +got):\n%s", diff)
	}
	env, err := s.References(ctx, ReferencesArgs{Target: Target{QName: `App\FooAction::run`}, Kinds: []string{"calls"}})
	if err != nil {
		t.Fatal(err)
	}
	var uses []string
	for _, u := range env.Result.(ReferencesResult).Uses {
		uses = append(uses, u.Path+" "+u.Provenance+" via "+u.Via)
	}
	sort.Strings(uses)
	if diff := cmp.Diff([]string{"src/Runner.php stated via ", `src/Runner.php stated via App\Action::run`}, uses); diff != "" {
		t.Errorf("references (-want +got):\n%s", diff)
	}
	if got := env.Limits.Total; got != 2 {
		t.Errorf("total %d, want 2 (own use and the family's)", got)
	}
}
