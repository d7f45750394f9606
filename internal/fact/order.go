package fact

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"
)

// IDOrder returns the indexes 0..n-1 ordered by the id each names, and by
// index where two ids are equal. Ids are compared by their first eight bytes
// as one integer, then in full on a tie, which sorts as strings.Compare does
// at a fraction of its cost: the ids are hashes, so the prefixes rarely tie.
func IDOrder(n int, id func(i int) string) []int32 {
	type keyed struct {
		key uint64
		i   int32
	}
	ks := make([]keyed, n)
	for i := range ks {
		var b [8]byte
		copy(b[:], id(i))
		ks[i] = keyed{binary.BigEndian.Uint64(b[:]), int32(i)}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		if c := strings.Compare(id(int(a.i)), id(int(b.i))); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	order := make([]int32, n)
	for i, k := range ks {
		order[i] = k.i
	}
	return order
}
