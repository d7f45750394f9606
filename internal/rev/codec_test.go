package rev

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/ragraf/ragraf/internal/store/graph"
	"github.com/ragraf/ragraf/internal/store/lexvec"
	"github.com/ragraf/ragraf/internal/typ"
)

// fill sets every field reachable from v to a distinct non-zero value: two
// elements per slice, two entries per map. A field added to a cached type
// is filled too, so a codec that forgets it fails the round trip below.
func fill(t *testing.T, v reflect.Value, n *int) {
	*n++
	if v.Type() == reflect.TypeOf(typ.Desc{}) {
		// a descriptor is built, not filled: its fields are its own
		d := typ.Union(typ.NewClass(fmt.Sprintf("C%d", *n)), typ.NewGlobal("g")).Then(typ.Step{Kind: typ.Method, Name: "m"})
		v.Set(reflect.ValueOf(d))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n%7)) // repeats, for the back references
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n) * 1000003)
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.25)
	case reflect.Uint8:
		v.SetUint(uint64(*n % 256))
	case reflect.Uint64:
		v.SetUint(uint64(*n) * 0x9e3779b97f4a7c15)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, v.Field(i), n)
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(t, s.Index(i), n)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 2 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(t, k, n)
			*n += 7 // distinct keys
			fill(t, e, n)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), n)
		v.Set(p)
	default:
		t.Fatalf("fill: no rule for %s", v.Type())
	}
}

func TestCacheEntryRoundTrip(t *testing.T) {
	var c cacheEntry
	n := 0
	fill(t, reflect.ValueOf(&c).Elem(), &n)
	// paths equal to the entry's own take the short form, others not
	c.Nodes[0].Path, c.Nodes[1].Path = c.Row.Path, c.Row.Path+"x"
	c.Refs[0].Path, c.Chunks[1].Path = c.Row.Path, c.Row.Path
	b := appendEntry(nil, &c)
	got, err := decodeEntry(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*got, c) {
		t.Fatalf("round trip differs:\n got %+v\nwant %+v", *got, c)
	}
	// empty slices and maps come back nil, as they did through gob
	var empty cacheEntry
	if got, err := decodeEntry(appendEntry(nil, &empty)); err != nil || !reflect.DeepEqual(*got, empty) {
		t.Fatalf("empty entry: %v %+v", err, got)
	}
	// every cut of the encoding is an error, never a panic or a silent success
	for i := range len(b) {
		if _, err := decodeEntry(b[:i]); err == nil {
			t.Fatalf("cut at %d of %d decoded without error", i, len(b))
		}
	}
	if _, err := decodeEntry(append(b, 0)); err == nil {
		t.Fatal("trailing byte accepted")
	}
}

func TestRowDigestsRoundTrip(t *testing.T) {
	d := &rowDigests{Graph: &graph.Digests{}, Lex: &lexvec.Digests{}}
	n := 0
	fill(t, reflect.ValueOf(d.Graph).Elem(), &n)
	fill(t, reflect.ValueOf(d.Lex).Elem(), &n)
	dir := t.TempDir()
	if err := writeDigests(dir, d); err != nil {
		t.Fatal(err)
	}
	got := readDigests(dir)
	if got == nil || !reflect.DeepEqual(got.Graph, d.Graph) || !reflect.DeepEqual(got.Lex, d.Lex) {
		t.Fatalf("round trip differs: %+v", got)
	}
}
