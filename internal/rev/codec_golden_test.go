package rev

import (
	"bytes"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

var updateCodec = flag.Bool("update-codec", false, "rewrite testdata/codec from the current encoders")

// goldenEntry is a filled cache entry whose maps hold one entry each, so
// its encoding does not depend on map order.
func goldenEntry(t *testing.T) *cacheEntry {
	var c cacheEntry
	n := 0
	fill(t, reflect.ValueOf(&c).Elem(), &n)
	c.Nodes[0].Path, c.Nodes[1].Path = c.Row.Path, c.Row.Path+"x"
	c.Refs[0].Path, c.Chunks[1].Path = c.Row.Path, c.Row.Path
	c.Dataflow = []byte{}
	one := func(m map[string]string) {
		keep := slices.Min(slices.Collect(maps.Keys(m)))
		for k := range m {
			if k != keep {
				delete(m, k)
			}
		}
	}
	for i := range c.Nodes {
		one(c.Nodes[i].Props)
	}
	for i := range c.Edges {
		one(c.Edges[i].Props)
	}
	for i := range c.Refs {
		one(c.Refs[i].Props)
	}
	return &c
}

// TestCodecBytesUnchanged: cache entries and digest maps are written as
// they were before the shared codec package (committed golden files), so a
// cache written before reads after.
func TestCodecBytesUnchanged(t *testing.T) {
	digests := &encoder{}
	appendDigestMap(digests, map[string]uint64{"src/a.php": 0x0123456789abcdef})
	for name, got := range map[string][]byte{
		"entry.bin":       appendEntry(nil, goldenEntry(t)),
		"entry-empty.bin": appendEntry(nil, &cacheEntry{}),
		"digests.bin":     digests.B,
	} {
		path := filepath.Join("testdata", "codec", name)
		if *updateCodec {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the encoding changed:\n got %x\nwant %x", name, got, want)
		}
		if name != "digests.bin" {
			if _, err := decodeEntry(want); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}
