package veccache

import (
	"context"
	"path/filepath"
	"testing"
)

// TestCacheRoundTrip: vectors put under (model, text) come back for the
// same pair only, survive reopening, and count per model.
func TestCacheRoundTrip(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "vectors.sqlite")
	c, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	keys := []Key{KeyOf("a"), KeyOf("b")}
	if err := c.Put(ctx, "m1", keys, [][]float32{{1, 2}, {3, -4.5}}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := c.Get(ctx, "m1", []Key{KeyOf("b"), KeyOf("c"), KeyOf("a")})
	if err != nil {
		t.Fatal(err)
	}
	if len(got[0]) != 2 || got[0][1] != -4.5 || got[1] != nil || got[2][0] != 1 {
		t.Fatalf("Get = %v", got)
	}
	if other, _ := c.Get(ctx, "m2", keys); other[0] != nil {
		t.Fatal("another model's vector was returned")
	}
	if n, _ := c.Count(ctx, "m1"); n != 2 {
		t.Fatalf("Count = %d", n)
	}
}
