package facade

import (
	"context"
	"strings"
	"testing"
)

// impact with blocks answers only the blocks named (targets always), so
// "which tests exercise X" costs the tests block, not the whole answer; an
// unknown block name is refused with the valid ones listed.
func TestFT27_ImpactBlocksSelection(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, testsFixture)
	s := treeService(t, root)
	ctx := context.Background()
	whole, err := s.Impact(ctx, ImpactArgs{QName: `App\Cart::add`, Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	env, err := s.Impact(ctx, ImpactArgs{QName: `App\Cart::add`, Depth: 1, Blocks: []string{"tests"}})
	if err != nil {
		t.Fatal(err)
	}
	res := env.Result.(ImpactResult)
	if got := testNames(res.Hard.Tests); len(got) != 2 {
		t.Errorf("tests block %v, want the two stated tests", got)
	}
	if len(res.Targets) != 1 || len(res.Hard.Symbols)+len(res.Soft.Symbols) != 0 || len(res.Hard.Files)+len(res.Soft.Files) != 0 ||
		res.Hard.SymbolsTotal != 0 || res.CoChanged != nil {
		t.Errorf("blocks [tests] answered other blocks: %+v", res)
	}
	if env.Limits.Truncated || env.NotFound {
		t.Errorf("limits %+v, not found %v", env.Limits, env.NotFound)
	}
	text, all := RenderText(env), RenderText(whole)
	if !strings.Contains(text, "hard.tests:") || !strings.Contains(text, `Tests\CartTest::testAddKeepsItems`) {
		t.Errorf("text lacks the tests block:\n%s", text)
	}
	for _, other := range []string{"symbols", "files", "co_changed"} {
		if strings.Contains(text, other) {
			t.Errorf("text of blocks [tests] mentions %s:\n%s", other, text)
		}
	}
	if !strings.Contains(all, "hard.symbols:") || len(text) >= len(all) {
		t.Errorf("whole answer (%d bytes) not larger than the tests block (%d bytes):\n%s", len(all), len(text), all)
	}

	env, err = s.Impact(ctx, ImpactArgs{QName: `App\Cart::add`, Depth: 1, Blocks: []string{"symbols", "files"}})
	if err != nil {
		t.Fatal(err)
	}
	if res := env.Result.(ImpactResult); len(res.Hard.Symbols)+len(res.Soft.Symbols) == 0 || len(res.Hard.Tests)+len(res.Soft.Tests) != 0 {
		t.Errorf("blocks [symbols files]: symbols %v, tests %v", res.Hard.Symbols, res.Hard.Tests)
	}

	// not found speaks of the blocks asked for: total has tests (named
	// after it, @covers) but nothing calls it; the fixture has no history
	for _, c := range []struct {
		blocks   []string
		notFound bool
	}{{nil, true}, {[]string{"tests"}, false}, {[]string{"co_changed"}, true}} {
		env, err := s.Impact(ctx, ImpactArgs{QName: `App\Cart::total`, Depth: 1, Blocks: c.blocks})
		if err != nil {
			t.Fatal(err)
		}
		if env.NotFound != c.notFound {
			t.Errorf("total, blocks %v: not found %v, want %v\n%s", c.blocks, env.NotFound, c.notFound, RenderText(env))
		}
	}

	_, err = s.Impact(ctx, ImpactArgs{QName: `App\Cart::add`, Blocks: []string{"tests", "callers"}})
	if fe := AsError(err); err == nil || fe.Code != ErrBadInput || !strings.Contains(fe.Message, `"callers"`) ||
		!strings.Contains(fe.Message, "symbols, files, entry_points, tables, tests, co_changed, data") {
		t.Errorf("unknown block: %v", err)
	}
	if _, err = s.Impact(ctx, ImpactArgs{QName: `App\Cart::add`, List: "files", Blocks: []string{"tests"}}); AsError(err).Code != ErrBadInput {
		t.Errorf("list files with blocks [tests]: %v, want bad input", err)
	}
}
