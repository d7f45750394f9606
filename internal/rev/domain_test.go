package rev

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// copyTree copies the directory src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if info.IsDir() {
			if rel == ".ragraf" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// domainFacts indexes a copy of dir and renders its SQL links and entry
// points one per line, in the format of testdata/shop_domain.golden.
func domainFacts(t *testing.T, dir string, cfg config.Config) (sql, entries []string, g *graph.Store) {
	t.Helper()
	root := t.TempDir()
	copyTree(t, dir, root)
	ctx := context.Background()
	info, err := Build(ctx, Options{Root: root, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	g, err = graph.Open(ctx, filepath.Join(Layout{Root: root}.Rev(info.Rev), GraphDB))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	nodes, err := g.AllNodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]fact.Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	edges, err := g.EdgesOfKinds(ctx, []fact.EdgeKind{fact.Queries, fact.ReferencesTable, fact.Handles})
	if err != nil {
		t.Fatal(err)
	}
	handled := map[string][]string{}
	seen := map[string]bool{}
	for _, e := range edges {
		switch e.Kind {
		case fact.Handles:
			handled[e.From] = append(handled[e.From], byID[e.To].QName)
		default:
			l := strings.Join([]string{string(e.Kind), e.EvidencePath + ":" + strconv.Itoa(e.EvidenceLine), byID[e.From].QName,
				e.Props["op"], byID[e.To].Name, e.Props["columns"]}, " ")
			if !seen[l] {
				seen[l] = true
				sql = append(sql, l)
			}
		}
	}
	for _, n := range nodes {
		switch n.Kind {
		case fact.WebRoute, fact.HTTPEndpoint, fact.CLICommand, fact.CronJob:
			hs := handled[n.ID]
			sort.Strings(hs)
			h := strings.Join(hs, ",")
			if h == "" {
				h = "(" + n.Props["handler"] + ")"
			}
			entries = append(entries, strings.Join([]string{string(n.Kind), n.Path + ":" + strconv.Itoa(n.StartLine), n.QName, "->", h}, " "))
		}
	}
	sort.Strings(sql)
	sort.Strings(entries)
	return sql, entries, g
}

// TestM2T4_ShopGolden checks the SQL literals and entry points of
// examples/shop against hand-annotated expectations (M2-T4, M2-T5): every
// expected line must be found (recall) and nothing else may be (precision).
func TestM2T4_ShopGolden(t *testing.T) {
	sql, entries, _ := domainFacts(t, filepath.Join("..", "..", "examples", "shop"), config.Default())
	got := append(append([]string{"# sql"}, sql...), append([]string{"# entry points"}, entries...)...)
	golden := filepath.Join("testdata", "shop_domain.golden")
	if os.Getenv("RAGRAF_UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	var nsql, nentry int
	section := ""
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(l, "# ") {
			section = l
			continue
		}
		want[l] = true
		if section == "# sql" {
			nsql++
		} else {
			nentry++
		}
	}
	if nsql < 20 || nentry < 15 {
		t.Errorf("golden holds %d SQL links and %d entry points; want at least 20 and 15", nsql, nentry)
	}
	have := map[string]bool{}
	for _, l := range got {
		have[l] = true
		if !strings.HasPrefix(l, "# ") && !want[l] {
			t.Errorf("unexpected (precision): %s", l)
		}
	}
	for l := range want {
		if !have[l] {
			t.Errorf("missing (recall): %s", l)
		}
	}
}
