package codec

import (
	"bytes"
	"errors"
	"testing"
)

// write writes one value of each kind, in a fixed order.
func write(u uint64, i int64, s string, b []byte, v bool) []byte {
	w := &Writer{}
	w.Uvarint(u)
	w.Varint(i)
	w.Int(int(i))
	w.Fixed64(u)
	w.Bool(v)
	w.Str(s)
	w.IntStr(s)
	w.OptBytes(b)
	w.Raw(s)
	return w.B
}

// FuzzRoundTrip: every value a Writer writes reads back the same, the
// whole encoding is read, and a nil byte slice stays apart from an empty one.
func FuzzRoundTrip(f *testing.F) {
	f.Add(uint64(0), int64(0), "", []byte(nil), false)
	f.Add(uint64(1<<63), int64(-1<<63), "src/Cart/Cart.php", []byte{}, true)
	f.Add(uint64(300), int64(-300), "é\x00\xff", []byte{0, 1, 2}, true)
	f.Fuzz(func(t *testing.T, u uint64, i int64, s string, b []byte, v bool) {
		enc := write(u, i, s, b, v)
		r := NewReader(enc)
		if r.Intern() != r {
			t.Fatal("Intern returns another reader")
		}
		gu, gi, gint, gfix, gv := r.Uvarint(), r.Varint(), r.Int(), r.Fixed64(), r.Bool()
		gs, gis, gb, graw := r.Str(), r.IntStr(), r.OptBytes(), string(r.Next(uint64(len(s))))
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		if gu != u || gi != i || int64(gint) != int64(int(i)) || gfix != u || gv != v || gs != s || gis != s || graw != s {
			t.Fatalf("read %v %v %v %v %v %q %q %q, wrote %v %v %v %q", gu, gi, gint, gfix, gv, gs, gis, graw, u, i, v, s)
		}
		if !bytes.Equal(gb, b) || (gb == nil) != (b == nil) {
			t.Fatalf("bytes %v (nil %v), wrote %v (nil %v)", gb, gb == nil, b, b == nil)
		}
		if r.Len() != 0 {
			t.Fatalf("%d bytes left", r.Len())
		}
		// every cut of the encoding is an error, never a panic
		for n := range len(enc) {
			r := NewReader(enc[:n])
			r.Uvarint()
			r.Varint()
			r.Int()
			r.Fixed64()
			r.Bool()
			r.Str()
			r.IntStr()
			r.OptBytes()
			r.Next(uint64(len(s)))
			if !errors.Is(r.Err(), ErrCorrupt) {
				t.Fatalf("a cut at %d of %d read without error", n, len(enc))
			}
		}
	})
}

// FuzzReader: any bytes, read in any order, give values or ErrCorrupt,
// never a panic; a count never exceeds what the bytes left can hold; after
// the first error every read is a zero value.
func FuzzReader(f *testing.F) {
	f.Add([]byte{}, []byte{0, 1, 2})
	f.Add(write(5, -5, "abc", []byte("x"), true), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, []byte{6, 7, 8, 9})
	f.Add([]byte{0x80}, []byte{0, 1, 4, 5})
	f.Fuzz(func(t *testing.T, data, ops []byte) {
		r := NewReader(data)
		if len(ops)%2 == 0 {
			r.Intern()
		}
		for _, op := range ops {
			left := r.Len()
			failed := r.Err() != nil
			zero := true
			switch op % 11 {
			case 0:
				zero = r.Uvarint() == 0
			case 1:
				zero = r.Varint() == 0
			case 2:
				zero = r.Int() == 0
			case 3:
				zero = r.Fixed64() == 0
			case 4:
				zero = !r.Bool()
			case 5:
				zero = r.Str() == ""
			case 6:
				zero = r.IntStr() == ""
			case 7:
				zero = r.OptBytes() == nil
			case 8:
				min := int(op>>4) + 1
				n := r.Count(min)
				zero = n == 0
				if n > left/min+1 {
					t.Fatalf("count %d from %d bytes at %d each", n, left, min)
				}
			case 9:
				n := r.IntCount()
				zero = n == 0
				if n > left {
					t.Fatalf("count %d from %d bytes", n, left)
				}
			case 10:
				zero = len(r.Next(uint64(op>>4))) == 0
			}
			if r.Len() > left {
				t.Fatalf("%d bytes left after %d", r.Len(), left)
			}
			if failed && (!zero || r.Len() != 0) {
				t.Fatalf("op %d read a value after an error", op%11)
			}
			if err := r.Err(); err != nil && !errors.Is(err, ErrCorrupt) {
				t.Fatal(err)
			}
		}
	})
}
