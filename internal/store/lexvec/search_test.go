package lexvec

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
)

// TestLooseQueryDropsCommonTerms: a term in more than commonLimit chunks
// leaves the loose query when a rarer one remains, and stays when it is all
// there is.
func TestLooseQueryDropsCommonTerms(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lexvec.sqlite")
	w, err := Create(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var chunks []fact.TextChunk
	for i := 0; i < commonLimit+10; i++ {
		chunks = append(chunks, fact.TextChunk{ID: fmt.Sprintf("c%04d", i), Kind: "comment", Path: "a.php", StartLine: i + 1, EndLine: i + 1, Text: "get the value"})
	}
	chunks = append(chunks, fact.TextChunk{ID: "rare", Kind: "comment", Path: "b.php", StartLine: 1, EndLine: 1, Text: "ftp_base holds the root"})
	if err := w.Chunks(ctx, chunks); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []struct{ in, want string }{
		{"ftp_base get", `"ftp_base" OR "ftp" OR "base"`},
		{"get", `"get"`},
		{"get the", `"get" OR "the"`},
	} {
		got, err := s.LooseQuery(ctx, c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("LooseQuery(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
