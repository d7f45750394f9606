// This file builds revisions from generated facts for the facade tests and
// benchmarks: a project directory with source files, and a published
// revision whose stores hold nodes, edges and chunks made here.

package facade

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/embed"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/graph"
	"github.com/ragraf/ragraf/internal/store/lexvec"
)

// fixture is a generated project: files with their content, and facts.
type fixture struct {
	files  map[string]string
	nodes  []fact.Node
	edges  []fact.Edge
	chunks []fact.TextChunk

	noVectors bool // publish without the static model's vectors
}

func (f *fixture) node(kind fact.NodeKind, qname, name, path string, start, end int, parent, sig string) string {
	id := fact.NodeID(kind, qname, path, 0)
	f.nodes = append(f.nodes, fact.Node{ID: id, Kind: kind, Name: name, QName: qname, Path: path, StartLine: start, EndLine: end,
		Lang: "php", Parent: parent, Signature: sig})
	return id
}

func (f *fixture) edge(kind fact.EdgeKind, from, to, path string, line int, prov fact.Provenance) {
	conf := 1.0
	if prov == fact.Derived {
		conf = 0.5
	}
	f.edges = append(f.edges, fact.Edge{ID: fact.EdgeID(kind, from, to, path, line), Kind: kind, From: from, To: to,
		Provenance: prov, Confidence: conf, EvidencePath: path, EvidenceLine: line, Sources: []string{"test"}})
}

// genFixture makes n classes App\C<i> in src/C<i>.php (20 lines each) with
// methods run and helper, a base class, an interface, call chains with
// stated and derived edges, and a function App\hot in src/hot.php used hot
// times from src/many.php.
func genFixture(n, hot int) *fixture {
	f := &fixture{files: map[string]string{}}
	file := func(path string, lines int) string {
		var b strings.Builder
		b.WriteString("<?php\n")
		for i := 2; i <= lines; i++ {
			fmt.Fprintf(&b, "// %s line %d\n", path, i)
		}
		f.files[path] = b.String()
		id := f.node(fact.File, path, filepath.Base(path), path, 1, lines, "", "")
		return id
	}
	bf := file("src/Base.php", 10)
	base := f.node(fact.Class, `App\Base`, "Base", "src/Base.php", 3, 9, bf, "abstract class Base")
	baseRun := f.node(fact.Method, `App\Base::run`, "run", "src/Base.php", 5, 8, base, "public function run(): void")
	iff := file("src/Shipping.php", 6)
	iface := f.node(fact.Interface, `App\Shipping`, "Shipping", "src/Shipping.php", 3, 6, iff, "interface Shipping")
	runs, helpers, classes := make([]string, n), make([]string, n), make([]string, n)
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("src/C%d.php", i)
		fid := file(p, 20)
		classes[i] = f.node(fact.Class, fmt.Sprintf(`App\C%d`, i), fmt.Sprintf("C%d", i), p, 3, 19, fid, fmt.Sprintf("class C%d extends Base implements Shipping", i))
		runs[i] = f.node(fact.Method, fmt.Sprintf(`App\C%d::run`, i), "run", p, 5, 10, classes[i], "public function run(): void")
		helpers[i] = f.node(fact.Method, fmt.Sprintf(`App\C%d::helper`, i), "helper", p, 12, 18, classes[i], "private function helper(array $items): int")
		f.chunks = append(f.chunks, fact.TextChunk{ID: fact.ChunkID("docblock", p, 2, 0, classes[i]), NodeID: classes[i], Kind: "docblock",
			Path: p, StartLine: 2, EndLine: 2, Text: fmt.Sprintf("/** Shipping rates for zone %d: computeRate and cart totals. */", i)})
		f.edge(fact.Extends, classes[i], base, p, 3, fact.Stated)
		f.edge(fact.Implements, classes[i], iface, p, 3, fact.Stated)
		f.edge(fact.Overrides, runs[i], baseRun, p, 5, fact.Stated)
		f.edge(fact.Calls, runs[i], helpers[i], p, 6, fact.Stated)
	}
	for i := 0; i+1 < n; i++ {
		p := fmt.Sprintf("src/C%d.php", i+1)
		f.edge(fact.Calls, runs[i+1], runs[i], p, 7, fact.Stated)
		if i+2 < n {
			f.edge(fact.CallsHeuristic, runs[i+2], runs[i], fmt.Sprintf("src/C%d.php", i+2), 8, fact.Derived)
		}
	}
	hf := file("src/hot.php", 5)
	hotID := f.node(fact.Function, `App\hot`, "hot", "src/hot.php", 3, 5, hf, "function hot(int $x): int")
	if hot > 0 {
		mf := file("src/many.php", hot+2)
		many := f.node(fact.Function, `App\many`, "many", "src/many.php", 2, hot+2, mf, "function many(): void")
		for i := 0; i < hot; i++ {
			f.edge(fact.Calls, many, hotID, "src/many.php", 2+i, fact.Stated)
		}
	}
	domainFixture(f, runs[0], classes[0])
	return f
}

// publish writes the project files and the fixture as revision name of a
// project at root, and points CURRENT at it.
func (f *fixture) publish(t testing.TB, root, name string) {
	t.Helper()
	ctx := context.Background()
	for p, c := range f.files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l := rev.Layout{Root: root}
	dir := l.Rev(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gw, err := graph.Create(ctx, filepath.Join(dir, rev.GraphDB))
	if err != nil {
		t.Fatal(err)
	}
	var rows []graph.File
	for _, p := range slices.Sorted(maps.Keys(f.files)) {
		c := f.files[p]
		rows = append(rows, graph.File{Path: p, Lang: "php", Status: "parsed", Size: int64(len(c)), Lines: strings.Count(c, "\n"), Hash: sha(c)})
	}
	must(t, gw.Files(ctx, rows))
	must(t, gw.Snapshots(ctx, rows, func(p string) []byte { return []byte(f.files[p]) }))
	must(t, gw.Nodes(ctx, append([]fact.Node(nil), f.nodes...)))
	must(t, gw.Edges(ctx, append([]fact.Edge(nil), f.edges...)))
	must(t, gw.Close(ctx))
	lw, err := lexvec.Create(ctx, filepath.Join(dir, rev.LexvecDB))
	if err != nil {
		t.Fatal(err)
	}
	must(t, lw.Chunks(ctx, append([]fact.TextChunk(nil), f.chunks...)))
	must(t, lw.Symbols(ctx, f.nodes))
	if !f.noVectors {
		must(t, lw.Vectors(ctx, embed.Train(f.nodes, f.chunks)))
	}
	must(t, lw.Close(ctx))
	info := rev.Info{Rev: name, CreatedAt: "2026-01-01T00:00:00Z", Capability: rev.Capability{Level: "degraded", Reason: "no embedding model configured"}}
	b, _ := json.Marshal(info)
	must(t, os.WriteFile(filepath.Join(dir, rev.RevJSON), b, 0o644))
	must(t, os.WriteFile(l.Current(), []byte(name+"\n"), 0o644))
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// newFixtureService publishes a generated fixture and returns a Service on it.
func newFixtureService(t testing.TB, n, hot int) (*Service, *fixture, string) {
	t.Helper()
	root := t.TempDir()
	f := genFixture(n, hot)
	f.publish(t, root, "rev-0001")
	s, err := New(root, Options{})
	must(t, err)
	t.Cleanup(func() { s.Close() })
	return s, f, root
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
