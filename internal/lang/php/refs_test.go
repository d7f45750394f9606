package php

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// renderRefs prints one line per reference: line:col kind name [alt] [recv] from.
func renderRefs(res Result) string {
	byID := map[string]string{}
	for _, n := range res.Nodes {
		byID[n.ID] = n.QName
	}
	var b strings.Builder
	for _, r := range res.Refs {
		from := byID[r.From]
		if from == "" {
			from = "<file>"
		}
		fmt.Fprintf(&b, "%d:%d %s %s", r.Line, r.Col, r.Kind, r.Name)
		if r.Alt != "" {
			fmt.Fprintf(&b, " alt=%s", r.Alt)
		}
		if r.Recv.Known() {
			fmt.Fprintf(&b, " recv=%s", r.Recv)
		}
		if r.Include != "" {
			fmt.Fprintf(&b, " include=%s", r.Include)
		}
		if r.Alias != "" {
			fmt.Fprintf(&b, " alias=%s", r.Alias)
		}
		fmt.Fprintf(&b, " from=%s\n", from)
	}
	return b.String()
}

// TestRefsGolden compares each testdata/refs/<case>/input.php with refs.txt.
func TestRefsGolden(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/refs/*")
	if len(dirs) == 0 {
		t.Fatal("no cases")
	}
	x, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	for _, d := range dirs {
		t.Run(filepath.Base(d), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(d, "input.php"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := x.File(context.Background(), "src/"+filepath.Base(d)+".php", src)
			if err != nil {
				t.Fatal(err)
			}
			got := renderRefs(res)
			golden := filepath.Join(d, "refs.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, _ := os.ReadFile(golden)
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("refs mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
