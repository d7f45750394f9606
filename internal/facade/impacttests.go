// This file finds the tests of what impact starts from: test definitions
// the walk reached, tests that name the target in `@covers` or
// `#[CoversClass]`/`#[CoversMethod]`, and tests named after it (FooTest for
// Foo, testBar… for Foo::bar). Stated chains and covers tags go into the hard
// block's tests, derived chains and names into the soft one's.

package facade

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// maxCoversChunks bounds the docblocks read for one `@covers` search.
const maxCoversChunks = 200

// coversTag is one `@covers \A\B::m` tag; group 1 the class, 3 the method.
var coversTag = regexp.MustCompile(`@covers(?:DefaultClass)?\s+\\?([A-Za-z_][\w\\]*)(::(\w+))?`)

// testSet collects test definition ids, hard ones first; an id is kept in
// the first set it enters.
type testSet struct {
	hard, soft []string
	seen       map[string]bool
}

// addHard adds a test reached over stated edges only; addSoft one reached
// over some derived edge. The first add of an id counts.
func (t *testSet) addHard(id string) { t.add(id, &t.hard) }
func (t *testSet) addSoft(id string) { t.add(id, &t.soft) }

func (t *testSet) add(id string, list *[]string) {
	if id == "" || t.seen[id] {
		return
	}
	t.seen[id] = true
	*list = append(*list, id)
}

// impactTests returns the tests of targets, stated and derived. hard and
// soft are the impact walk's results, places their places.
func (s *Service) impactTests(ctx context.Context, snap *snapshot, targets []Symbol, hard, soft []reached, places map[string]graph.Place) (hardT, softT []Symbol, err error) {
	ts := &testSet{seen: map[string]bool{}}
	for _, r := range hard {
		if isTestPath(places[r.id].Path) {
			ts.addHard(r.id)
		}
	}
	// covers tags are stated, so they go before the derived chains
	for _, t := range targets {
		if err := s.coversTests(ctx, snap, t, ts); err != nil {
			return nil, nil, err
		}
	}
	for _, r := range soft {
		if isTestPath(places[r.id].Path) {
			ts.addSoft(r.id)
		}
	}
	for _, t := range targets {
		if err := s.namedTests(ctx, snap, t, ts); err != nil {
			return nil, nil, err
		}
	}
	syms, err := s.symbolsOf(ctx, snap, slices.Concat(ts.hard, ts.soft))
	if err != nil {
		return nil, nil, err
	}
	list := func(ids []string) []Symbol {
		out := make([]Symbol, 0, len(ids))
		for _, id := range ids {
			if sym := syms[id]; sym != nil && sym.Kind != string(fact.File) {
				out = append(out, *sym)
			}
		}
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].Path != out[j].Path {
				return out[i].Path < out[j].Path
			}
			return out[i].Line < out[j].Line
		})
		return out
	}
	return list(ts.hard), list(ts.soft), nil
}

// testClassOf returns the class a target belongs to (itself for a type) and
// the method name ("" for a type); ok is false for other kinds.
func testClassOf(t Symbol) (class, classID, method string, ok bool) {
	switch fact.NodeKind(t.Kind) {
	case fact.Class, fact.Interface, fact.Trait, fact.Enum:
		return t.QName, t.ID, "", true
	case fact.Method:
		return t.Container, t.ContainerID, t.Name, t.Container != ""
	case fact.Function:
		return "", "", t.Name, true
	}
	return "", "", "", false
}

// coversTests adds the test definitions whose docblock covers t (`@covers
// Foo`, `@covers Foo::bar`, `@covers ::bar` under `@coversDefaultClass Foo`)
// and the test classes whose covers attribute names t's class.
func (s *Service) coversTests(ctx context.Context, snap *snapshot, t Symbol, ts *testSet) error {
	class, classID, method, ok := testClassOf(t)
	if !ok {
		return nil
	}
	name := lastName(class)
	if name == "" {
		name = method
	}
	if q := lexvec.StrictQuery("covers " + name); q != "" {
		hits, err := snap.lex.SearchChunks(ctx, q, maxCoversChunks)
		if err != nil {
			return storeError(err)
		}
		var ids []string
		for _, h := range hits {
			if h.NodeID != "" && isTestPath(h.Path) {
				ids = append(ids, h.ID)
			}
		}
		texts, err := snap.lex.ChunkTexts(ctx, ids)
		if err != nil {
			return storeError(err)
		}
		for _, h := range hits {
			if txt, ok := texts[h.ID]; ok && coversNames(txt, class, method) {
				ts.addHard(h.NodeID)
			}
		}
	}
	if classID == "" {
		return nil
	}
	// #[CoversClass(Foo::class)] links the test class to Foo with a
	// references edge; the attribute is read on its line
	edges, err := snap.graph.EdgeLinksToAny(ctx, []string{classID}, []fact.EdgeKind{fact.References})
	if err != nil {
		return storeError(err)
	}
	lines := map[string][][]byte{}
	for _, e := range edges {
		if !isTestPath(e.EvidencePath) || e.EvidenceLine < 1 {
			continue
		}
		ls, ok := lines[e.EvidencePath]
		if !ok {
			b, _, err := snap.graph.Snapshot(ctx, e.EvidencePath)
			if err != nil {
				return storeError(err)
			}
			ls = bytes.Split(b, []byte("\n"))
			lines[e.EvidencePath] = ls
		}
		if e.EvidenceLine <= len(ls) && bytes.Contains(ls[e.EvidenceLine-1], []byte("#[Covers")) {
			ts.addHard(e.From)
		}
	}
	return nil
}

// coversNames reports whether a docblock's covers tags name class (and
// method, when not ""): `@covers ::m` counts under `@coversDefaultClass`.
func coversNames(doc, class, method string) bool {
	short := strings.ToLower(lastName(class))
	def := ""
	for _, m := range coversTag.FindAllStringSubmatch(doc, -1) {
		if strings.HasPrefix(m[0], "@coversDefaultClass") {
			def = strings.ToLower(lastName(m[1]))
		}
	}
	for _, m := range coversTag.FindAllStringSubmatch(doc, -1) {
		if strings.HasPrefix(m[0], "@coversDefaultClass") {
			continue
		}
		c, meth := strings.ToLower(lastName(m[1])), strings.ToLower(m[3])
		if class == "" { // a function: `@covers ::fname` or `@covers fname`
			if c == strings.ToLower(method) || meth == strings.ToLower(method) {
				return true
			}
			continue
		}
		if c != short {
			continue
		}
		if method == "" || meth == "" || meth == strings.ToLower(method) {
			return true
		}
	}
	// `@covers ::m` under `@coversDefaultClass Foo` (the tag regexp reads
	// `::m` as no class)
	if def == short && method != "" && strings.Contains(strings.ToLower(doc), "@covers ::"+strings.ToLower(method)) {
		return true
	}
	return false
}

// namedTests adds the tests named after t: in test files, the class FooTest
// of class Foo, and within it the methods test<Bar>… of Foo::bar (the class
// itself when none is).
func (s *Service) namedTests(ctx context.Context, snap *snapshot, t Symbol, ts *testSet) error {
	class, _, method, ok := testClassOf(t)
	if !ok || class == "" {
		return nil
	}
	nodes, err := snap.graph.NodesByName(ctx, lastName(class)+"Test")
	if err != nil {
		return storeError(err)
	}
	for _, n := range nodes {
		if n.Kind != fact.Class || !isTestPath(n.Path) {
			continue
		}
		if method == "" {
			ts.addSoft(n.ID)
			continue
		}
		kids, err := snap.graph.Children(ctx, n.ID)
		if err != nil {
			return storeError(err)
		}
		prefix := "test" + strings.ToLower(method)
		found := false
		for _, k := range kids {
			if k.Kind == fact.Method && strings.HasPrefix(strings.ToLower(k.Name), prefix) {
				ts.addSoft(k.ID)
				found = true
			}
		}
		if !found {
			ts.addSoft(n.ID)
		}
	}
	return nil
}
