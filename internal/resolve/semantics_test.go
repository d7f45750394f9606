package resolve

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang/php"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fixture indexes the PHP project under dir the way a build does.
func fixture(t *testing.T, dir string) (Input, Output) {
	t.Helper()
	x, err := php.New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var in Input
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".php") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		res, err := x.File(context.Background(), rel, src)
		if err != nil {
			return err
		}
		in.Nodes = append(in.Nodes, fact.Node{ID: fact.FileNodeID(rel), Kind: fact.File, Name: filepath.Base(rel), QName: rel, Path: rel})
		in.Nodes = append(in.Nodes, res.Nodes...)
		in.Refs = append(in.Refs, res.Refs...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	in.Lang = "php"
	out, err := Resolve(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return in, out
}

// facts renders edges and unresolved references as one line each, named by
// qualified names so the golden file reads as the source does.
func facts(in Input, out Output) []string {
	q := map[string]string{}
	for _, n := range in.Nodes {
		q[n.ID] = string(n.Kind) + ":" + n.QName
	}
	var lines []string
	for _, e := range out.Edges {
		l := fmt.Sprintf("%s %s -> %s @%s:%d %s %.3g use=%s", e.Kind, q[e.From], q[e.To], e.EvidencePath, e.EvidenceLine, e.Provenance, e.Confidence, e.Props["use"])
		for _, k := range slices.Sorted(maps.Keys(e.Props)) {
			if k != "use" {
				l += " " + k + "=" + e.Props[k]
			}
		}
		lines = append(lines, l)
	}
	for _, u := range out.Unresolved {
		lines = append(lines, fmt.Sprintf("unresolved %s %q @%s:%d %s", u.Kind, u.Name, u.Path, u.Line, u.Reason))
	}
	sort.Strings(lines)
	return dedup(lines)
}

func dedup(s []string) []string {
	var out []string
	for i, l := range s {
		if i == 0 || l != s[i-1] {
			out = append(out, l)
		}
	}
	return out
}

// TestFT3_FixtureDefinitionsReferencesImplementations compares the resolved
// facts of every annotated fixture project with its expected.txt and requires
// precision and recall 1.0.
func TestFT3_FixtureDefinitionsReferencesImplementations(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/semantics/*")
	if len(dirs) == 0 {
		t.Fatal("no fixtures")
	}
	for _, d := range dirs {
		t.Run(filepath.Base(d), func(t *testing.T) {
			in, out := fixture(t, filepath.Join(d, "src"))
			got := facts(in, out)
			golden := filepath.Join(d, "expected.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			b, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]bool{}
			for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				if l != "" && !strings.HasPrefix(l, "#") {
					want[l] = true
				}
			}
			tp := 0
			for _, g := range got {
				if want[g] {
					tp++
				} else {
					t.Errorf("unexpected: %s", g)
				}
			}
			gotSet := map[string]bool{}
			for _, g := range got {
				gotSet[g] = true
			}
			for w := range want {
				if !gotSet[w] {
					t.Errorf("missing: %s", w)
				}
			}
			precision := float64(tp) / float64(max(len(got), 1))
			recall := float64(tp) / float64(max(len(want), 1))
			t.Logf("precision %.4f recall %.4f (%d facts)", precision, recall, len(want))
			if precision != 1 || recall != 1 {
				t.Errorf("precision %.4f recall %.4f, want 1.0", precision, recall)
			}
		})
	}
}

// TestFT4_DynamicCallsNeverInCalls checks that no dynamic call becomes a
// proven calls edge.
func TestFT4_DynamicCallsNeverInCalls(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/semantics/*")
	for _, d := range dirs {
		_, out := fixture(t, filepath.Join(d, "src"))
		heuristic := 0
		for _, e := range out.Edges {
			if e.Props["use"] == string(fact.RefDynamicCall) {
				if e.Kind == fact.Calls {
					t.Errorf("%s: dynamic call became calls: %+v", d, e)
				}
				heuristic++
			}
		}
		if heuristic == 0 {
			t.Errorf("%s: no heuristic edge for dynamic calls", d)
		}
	}
}

// TestFT10_EveryEdgeHasProvenance checks provenance, confidence, evidence and
// sources on every resolved edge.
func TestFT10_EveryEdgeHasProvenance(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/semantics/*")
	for _, d := range dirs {
		_, out := fixture(t, filepath.Join(d, "src"))
		for _, e := range out.Edges {
			ok := e.EvidencePath != "" && e.EvidenceLine > 0 && len(e.Sources) > 0 && e.ID != ""
			switch e.Provenance {
			case fact.Stated:
				ok = ok && e.Confidence == 1
			case fact.Derived:
				ok = ok && e.Confidence > 0 && e.Confidence < 1 && e.Kind != fact.Calls
			default:
				ok = false
			}
			if !ok {
				t.Errorf("%s: edge without proper provenance: %+v", d, e)
			}
		}
		for _, u := range out.Unresolved {
			if u.Kind == "" || u.Path == "" || u.Line == 0 || u.Reason == "" {
				t.Errorf("%s: unresolved without kind/path/line/reason: %+v", d, u)
			}
		}
	}
}

// TestFT3_CallsOnBuiltinReceiversAreExternal checks that calls on receivers
// proven to be of a built-in class (a built-in type, `new`, instanceof, a
// built-in function's or method's return type, a method inherited from a
// built-in class) count as external: as many as the fixture marks with
// `// external [n]`, and none of them guessed by name (the golden file).
func TestFT3_CallsOnBuiltinReceiversAreExternal(t *testing.T) {
	dir := filepath.Join("testdata", "semantics", "builtins", "src")
	want := 0
	files, _ := filepath.Glob(filepath.Join(dir, "*.php"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range externalMark.FindAllStringSubmatch(string(b), -1) {
			n := 1
			if m[1] != "" {
				n, _ = strconv.Atoi(m[1])
			}
			want += n
		}
	}
	_, out := fixture(t, dir)
	var stats map[string]KindStats
	if err := json.Unmarshal([]byte(out.Meta[MetaResolution]), &stats); err != nil {
		t.Fatal(err)
	}
	got := stats[string(fact.RefMethodCall)].External + stats[string(fact.RefStaticCall)].External
	if want == 0 || got != want {
		t.Errorf("external method calls: got %d, want %d", got, want)
	}
}

var externalMark = regexp.MustCompile(`// external(?: (\d+))?`)

// TestIsBuiltinConstant: PHP's constants are known with their case, the
// project's are not PHP's.
func TestIsBuiltinConstant(t *testing.T) {
	for name, want := range map[string]bool{"PHP_EOL": true, `\E_ALL`: true, "php_eol": false, "WP_DEBUG": false, "SODIUM_CRYPTO_SIGN_PUBLICKEYBYTES": true} {
		if got := IsBuiltinConstant(name); got != want {
			t.Errorf("IsBuiltinConstant(%q) = %v, want %v", name, got, want)
		}
	}
}
