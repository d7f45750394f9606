package php

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// render prints a Result in a stable, reviewable form: one line per node and chunk.
func render(res Result) string {
	var b strings.Builder
	byID := map[string]string{}
	for _, n := range res.Nodes {
		byID[n.ID] = n.QName
	}
	for _, n := range res.Nodes {
		var props []string
		for k, v := range n.Props {
			props = append(props, k+"="+v)
		}
		sort.Strings(props)
		parent := byID[n.Parent]
		if parent == "" {
			parent = "<file>"
		}
		fmt.Fprintf(&b, "%s %s [%d-%d] in %s | %s | %s\n", n.Kind, n.QName, n.StartLine, n.EndLine, parent, n.Signature, strings.Join(props, " "))
	}
	for _, c := range res.Chunks {
		owner := byID[c.NodeID]
		if owner == "" {
			owner = "<file>"
		}
		fmt.Fprintf(&b, "chunk %s [%d-%d] -> %s: %q\n", c.Kind, c.StartLine, c.EndLine, owner, c.Text)
	}
	if res.Partial {
		fmt.Fprintf(&b, "partial: %s\n", res.Error)
	}
	return b.String()
}

// TestFT2_ExtractGolden compares each testdata/extract/<case>/input.php with its golden output.
func TestFT2_ExtractGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/extract/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	x, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, "input.php"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := x.File(context.Background(), "input.php", src)
			if err != nil {
				t.Fatal(err)
			}
			got := render(res)
			golden := filepath.Join(dir, "output.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(string(want), got); d != "" {
				t.Errorf("mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// TestWithoutComments: comments are cut from a recovered declaration's
// source, strings and attributes are kept.
func TestWithoutComments(t *testing.T) {
	for in, want := range map[string]string{
		`0/**/`:                       `0 `,
		`$a = '/* x */', $b // note`:  `$a = '/* x */', $b  `,
		"#[Sensitive] $p # why\n, $q": "#[Sensitive] $p  , $q",
		`$s = "a\"/*b*/"`:             `$s = "a\"/*b*/"`,
		`$x /* unclosed`:              `$x `,
	} {
		if got := withoutComments([]byte(in)); got != want {
			t.Errorf("withoutComments(%q) = %q, want %q", in, got, want)
		}
	}
	src := []byte("(#[A] $x) { }")
	if got := matching(src, 0, '(', ')'); got != 8 {
		t.Errorf("matching over an attribute = %d, want 8", got)
	}
}
