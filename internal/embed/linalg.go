// This file is the static model's linear algebra: the vocabulary and the
// co-occurrence counts of the documents, PPMI, and the randomised
// eigendecomposition (range finder, power iterations, Gram-Schmidt, Jacobi)
// that reduces the matrix to Dim dimensions.

package embed

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// vocabulary lists the words in at least minDocFreq documents, the
// maxVocab most frequent, sorted, with their document frequencies, and
// row, each term's row in the list (-1: not in it).
func vocabulary(docs []doc, terms []string) ([]string, []int, []int32) {
	count := make([]int, len(terms))
	last := make([]int32, len(terms)) // the last document (from 1) that counted a term
	for di, d := range docs {
		for _, w := range d.words {
			if last[w] != int32(di+1) {
				last[w] = int32(di + 1)
				count[w]++
			}
		}
	}
	var ids []int32
	for w, c := range count {
		if c >= minDocFreq {
			ids = append(ids, int32(w))
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		if count[ids[i]] != count[ids[j]] {
			return count[ids[i]] > count[ids[j]]
		}
		return terms[ids[i]] < terms[ids[j]]
	})
	if len(ids) > maxVocab {
		ids = ids[:maxVocab]
	}
	sort.Slice(ids, func(i, j int) bool { return terms[ids[i]] < terms[ids[j]] })
	words, df := make([]string, len(ids)), make([]int, len(ids))
	row := make([]int32, len(terms))
	for i := range row {
		row[i] = -1
	}
	for i, id := range ids {
		words[i], df[i], row[id] = terms[id], count[id], int32(i)
	}
	return words, df, row
}

// sparse is a symmetric matrix in compressed rows, columns sorted.
type sparse struct {
	rowStart []int
	cols     []int32
	vals     []float64
}

// encoded is a document as vocabulary rows: its sequence, and its name
// parts and its distinct words, each sorted without repeats.
type encoded struct {
	seq, name, distinct []int32
}

func encode(docs []doc, row []int32) []encoded {
	out := make([]encoded, len(docs))
	for di, d := range docs {
		seq := make([]int32, 0, len(d.words))
		for _, w := range d.words {
			if i := row[w]; i >= 0 {
				seq = append(seq, i)
			}
		}
		dist := slices.Clone(seq)
		slices.Sort(dist)
		var name []int32
		for _, w := range d.name {
			if i := row[w]; i >= 0 {
				name = append(name, i)
			}
		}
		slices.Sort(name)
		out[di] = encoded{seq: seq, name: slices.Compact(name), distinct: slices.Compact(dist)}
	}
	return out
}

// cooccurrence counts word pairs, symmetric, in compressed rows: each
// pair of words at most window apart in a document's sequence counts 1, each
// name part with each distinct word of its document 0.5 (both ways, so two
// name parts of one document count 1); a word never pairs with itself. Each
// row is summed in a scratch array from the documents the word occurs in
// (an inverted index), rows split between two goroutines: no map, and every
// row's sums run in the same order whoever computes it.
func cooccurrence(enc []encoded, n int) *sparse {
	count := make([]int, n+1)
	for _, e := range enc {
		for _, w := range e.seq {
			count[w+1]++
		}
	}
	// occurrences of each word, (document, position), in document order
	for i := 0; i < n; i++ {
		count[i+1] += count[i]
	}
	occDoc, occPos := make([]int32, count[n]), make([]int32, count[n])
	fill := slices.Clone(count[:n])
	for di, e := range enc {
		for p, w := range e.seq {
			occDoc[fill[w]], occPos[fill[w]] = int32(di), int32(p)
			fill[w]++
		}
	}
	rowCols, rowVals := make([][]int32, n), make([][]float64, n)
	var wg sync.WaitGroup
	var next atomic.Int64
	const block = 64
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := make([]float64, n)
			var touched []int32
			add := func(b int32, x float64) {
				if acc[b] == 0 {
					touched = append(touched, b)
				}
				acc[b] += x
			}
			for {
				lo := int(next.Add(block)) - block
				if lo >= n {
					return
				}
				for a := lo; a < min(lo+block, n); a++ {
					touched = touched[:0]
					last := int32(-1)
					for k := count[a]; k < count[a+1]; k++ {
						di, p := occDoc[k], int(occPos[k])
						e := &enc[di]
						seq := e.seq
						for j := max(0, p-window); j <= min(len(seq)-1, p+window); j++ {
							if b := seq[j]; j != p && b != int32(a) {
								add(b, 1)
							}
						}
						if di == last {
							continue
						}
						last = di
						if _, ok := slices.BinarySearch(e.name, int32(a)); ok {
							for _, b := range e.distinct {
								if b != int32(a) {
									add(b, 0.5)
								}
							}
						}
						for _, b := range e.name {
							if b != int32(a) {
								add(b, 0.5)
							}
						}
					}
					slices.Sort(touched)
					cols, vals := make([]int32, len(touched)), make([]float64, len(touched))
					for i, b := range touched {
						cols[i], vals[i] = b, acc[b]
						acc[b] = 0
					}
					rowCols[a], rowVals[a] = cols, vals
				}
			}
		}()
	}
	wg.Wait()
	m := &sparse{rowStart: make([]int, n+1)}
	for a := 0; a < n; a++ {
		m.rowStart[a+1] = m.rowStart[a] + len(rowCols[a])
	}
	m.cols, m.vals = make([]int32, 0, m.rowStart[n]), make([]float64, 0, m.rowStart[n])
	for a := 0; a < n; a++ {
		m.cols = append(m.cols, rowCols[a]...)
		m.vals = append(m.vals, rowVals[a]...)
	}
	return m
}

// ppmi weights the symmetric counts by positive pointwise mutual
// information with context smoothing (power 0.75), which is not symmetric:
// pmi(i, j) = ln(count(i, j)·C / (sum_i · sum_j^0.75)), C the total of the
// smoothed sums. The matrix keeps the mean of max(0, pmi(i, j)) and
// max(0, pmi(j, i)), so it stays symmetric, and drops zeros.
func ppmi(c *sparse, n int) *sparse {
	rowSum := make([]float64, n)
	ctxPow := make([]float64, n)
	var ctxTotal float64
	for i := 0; i < n; i++ {
		for k := c.rowStart[i]; k < c.rowStart[i+1]; k++ {
			rowSum[i] += c.vals[k]
		}
	}
	for i := range ctxPow {
		ctxPow[i] = math.Pow(rowSum[i], 0.75)
		ctxTotal += ctxPow[i]
	}
	m := &sparse{rowStart: make([]int, n+1)}
	for i := 0; i < n; i++ {
		for k := c.rowStart[i]; k < c.rowStart[i+1]; k++ {
			j := c.cols[k]
			ij := math.Log(c.vals[k] * ctxTotal / (rowSum[i] * ctxPow[j]))
			ji := math.Log(c.vals[k] * ctxTotal / (rowSum[j] * ctxPow[i]))
			if v := (max(ij, 0) + max(ji, 0)) / 2; v > 0 {
				m.cols = append(m.cols, j)
				m.vals = append(m.vals, v)
			}
		}
		m.rowStart[i+1] = len(m.cols)
	}
	return m
}

// byDensity returns m with rows and columns renumbered in the order of
// the rows' number of entries (most first, ties by row), and pos, a row's
// new number. m must be symmetric (ppmi's is, bit for bit): the new rows
// are filled column by column in the new order, reading row j for column
// pos[j], so each comes out sorted without sorting.
func (m *sparse) byDensity(n int) ([]int, *sparse) {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	size := func(i int) int { return m.rowStart[i+1] - m.rowStart[i] }
	sort.SliceStable(order, func(a, b int) bool { return size(order[a]) > size(order[b]) })
	pos := make([]int, n)
	for p, i := range order {
		pos[i] = p
	}
	out := &sparse{rowStart: make([]int, n+1), cols: make([]int32, len(m.cols)), vals: make([]float64, len(m.vals))}
	for p, i := range order {
		out.rowStart[p+1] = out.rowStart[p] + size(i)
	}
	fill := slices.Clone(out.rowStart[:n])
	for c, j := range order {
		// column c of the new matrix is row j of m: entry (i, j) = (j, i)
		for k := m.rowStart[j]; k < m.rowStart[j+1]; k++ {
			r := pos[m.cols[k]]
			out.cols[fill[r]], out.vals[fill[r]] = int32(c), m.vals[k]
			fill[r]++
		}
	}
	return pos, out
}

// mulDense writes m·x into y, for x and y with n rows of l columns
// (row-major); rows are split between two goroutines, each row summed in
// column order.
func (m *sparse) mulDense(x, y []float64, n, l int) {
	clear(y)
	var wg sync.WaitGroup
	parts := 2
	for p := 0; p < parts; p++ {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				yi := y[i*l : (i+1)*l]
				k, end := m.rowStart[i], m.rowStart[i+1]
				for ; k+1 < end; k += 2 {
					j, j2 := int(m.cols[k]), int(m.cols[k+1])
					axpy2(m.vals[k], x[j*l:(j+1)*l], m.vals[k+1], x[j2*l:(j2+1)*l], yi)
				}
				if k < end {
					j := int(m.cols[k])
					axpy(m.vals[k], x[j*l:(j+1)*l], yi)
				}
			}
		}(n*p/parts, n*(p+1)/parts)
	}
	wg.Wait()
}

// axpy adds a·x to y (len(x) >= len(y)), four lanes at a time.
func axpy(a float64, x, y []float64) {
	x = x[:len(y)]
	i := 0
	for ; i+4 <= len(y); i += 4 {
		y[i] += a * x[i]
		y[i+1] += a * x[i+1]
		y[i+2] += a * x[i+2]
		y[i+3] += a * x[i+3]
	}
	for ; i < len(y); i++ {
		y[i] += a * x[i]
	}
}

// axpy2 adds a·x and then b·z to y (len(x), len(z) >= len(y)): the
// operations of axpy(a, x, y) followed by axpy(b, z, y), in one pass over y.
func axpy2(a float64, x []float64, b float64, z []float64, y []float64) {
	x, z = x[:len(y)], z[:len(y)]
	i := 0
	for ; i+4 <= len(y); i += 4 {
		y0 := y[i] + a*x[i]
		y1 := y[i+1] + a*x[i+1]
		y2 := y[i+2] + a*x[i+2]
		y3 := y[i+3] + a*x[i+3]
		y[i] = y0 + b*z[i]
		y[i+1] = y1 + b*z[i+1]
		y[i+2] = y2 + b*z[i+2]
		y[i+3] = y3 + b*z[i+3]
	}
	for ; i < len(y); i++ {
		y[i] = (y[i] + a*x[i]) + b*z[i]
	}
}

// dot64 is the dot product of x and y (len(y) >= len(x)), summed in four
// lanes (a fixed order: deterministic).
func dot64(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// orthonormalise makes the l columns of the n×l row-major matrix x
// orthonormal (modified Gram-Schmidt, passes times: twice gives the
// orthogonality of the final basis, once is enough between power
// iterations, whose next product mixes the columns anyway; on a transposed
// copy in t, of x's size, so every column is contiguous); a column that
// vanishes becomes zero.
func orthonormalise(x, t []float64, n, l, passes int) {
	for i := 0; i < n; i++ {
		for c := 0; c < l; c++ {
			t[c*n+i] = x[i*l+c]
		}
	}
	for pass := 0; pass < passes; pass++ {
		for c0 := 0; c0 < l; c0 += gsBlock {
			c1 := min(c0+gsBlock, l)
			// the block's columns against every column before it, each
			// finished: the same operations in the same order as column by
			// column, but each earlier column is read once for the block
			for p := 0; p < c0; p++ {
				prev := t[p*n : (p+1)*n]
				for c := c0; c < c1; c++ {
					col := t[c*n : (c+1)*n]
					axpy(-dot64(col, prev), prev, col)
				}
			}
			for c := c0; c < c1; c++ {
				col := t[c*n : (c+1)*n]
				for p := c0; p < c; p++ {
					prev := t[p*n : (p+1)*n]
					axpy(-dot64(col, prev), prev, col)
				}
				normaliseColumn(col)
			}
		}
	}
	for i := 0; i < n; i++ {
		for c := 0; c < l; c++ {
			x[i*l+c] = t[c*n+i]
		}
	}
}

// gsBlock is how many columns Gram-Schmidt takes at a time: four columns
// and the one they are projected on fit a core's L2 cache on WordPress.
const gsBlock = 4

// normaliseColumn scales a column to unit length, or zeroes it when it
// has vanished.
func normaliseColumn(col []float64) {
	norm := math.Sqrt(dot64(col, col))
	for i := range col {
		if norm > 1e-12 {
			col[i] /= norm
		} else {
			col[i] = 0
		}
	}
}

// reduce returns n word vectors of Dim dimensions (flat, float32,
// L2-normalised) from the top eigenpairs of the symmetric matrix m.
func reduce(m *sparse, n int) []float32 {
	l := min(Dim+oversample, n)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	q0 := make([]float64, n*l)
	for i := range q0 {
		q0[i] = rng.NormFloat64()
	}
	// rows in the order of their number of entries, most first: the rows of
	// the dense factor that most products read stay in the cache together
	// (the eigenpairs do not depend on the order of the rows)
	pos, m := m.byDensity(n)
	q := make([]float64, n*l)
	for i := 0; i < n; i++ {
		copy(q[pos[i]*l:(pos[i]+1)*l], q0[i*l:(i+1)*l])
	}
	y, scratch := make([]float64, n*l), make([]float64, n*l)
	m.mulDense(q, y, n, l)
	q, y = y, q
	orthonormalise(q, scratch, n, l, 1)
	for it := 0; it < powerIters; it++ {
		m.mulDense(q, y, n, l)
		q, y = y, q
		passes := 1
		if it == powerIters-1 {
			passes = 2
		}
		orthonormalise(q, scratch, n, l, passes)
	}
	// t = qᵀ m q, l×l symmetric: the upper triangle, mirrored
	mq := y
	m.mulDense(q, mq, n, l)
	t := make([]float64, l*l)
	for i := 0; i < n; i++ {
		qi, mi := q[i*l:(i+1)*l], mq[i*l:(i+1)*l]
		for a := 0; a < l; a++ {
			if qi[a] != 0 {
				axpy(qi[a], mi[a:], t[a*l+a:(a+1)*l])
			}
		}
	}
	for a := 0; a < l; a++ {
		for b := a + 1; b < l; b++ {
			t[b*l+a] = t[a*l+b]
		}
	}
	vals, vecs := jacobi(t, l)
	order := make([]int, l)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return vals[order[i]] > vals[order[j]] })
	k := min(Dim, l)
	// the eigenvectors kept, each contiguous, scaled by the root of its value
	ev := make([]float64, k*l)
	for d := 0; d < k; d++ {
		e := order[d]
		if vals[e] <= 0 {
			continue
		}
		r := math.Sqrt(vals[e])
		for a := 0; a < l; a++ {
			ev[d*l+a] = vecs[a*l+e] * r
		}
	}
	out := make([]float32, n*Dim)
	row := make([]float64, Dim)
	for i := 0; i < n; i++ {
		clear(row)
		qi := q[pos[i]*l : (pos[i]+1)*l]
		for d := 0; d < k; d++ {
			row[d] = dot64(qi, ev[d*l:(d+1)*l])
		}
		normalise64(row)
		for d := range row {
			out[i*Dim+d] = float32(row[d])
		}
	}
	fixSigns(out, n)
	return out
}

// fixSigns flips each dimension so that its largest-magnitude entry is
// positive: an eigenvector's sign is arbitrary.
func fixSigns(v []float32, n int) {
	for d := 0; d < Dim; d++ {
		var best float32
		for i := 0; i < n; i++ {
			if x := v[i*Dim+d]; abs32(x) > abs32(best) {
				best = x
			}
		}
		if best < 0 {
			for i := 0; i < n; i++ {
				v[i*Dim+d] = -v[i*Dim+d]
			}
		}
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

func normalise64(v []float64) {
	var s float64
	for _, x := range v {
		s += x * x
	}
	if s == 0 {
		return
	}
	s = math.Sqrt(s)
	for i := range v {
		v[i] /= s
	}
}

// jacobi returns the eigenvalues and eigenvectors (columns of an l×l
// row-major matrix) of the symmetric matrix a, by cyclic Jacobi rotations.
func jacobi(a []float64, l int) ([]float64, []float64) {
	a = slices.Clone(a)
	v := make([]float64, l*l)
	for i := 0; i < l; i++ {
		v[i*l+i] = 1
	}
	for sweep := 0; sweep < 50; sweep++ {
		var off float64
		for p := 0; p < l; p++ {
			for q := p + 1; q < l; q++ {
				off += a[p*l+q] * a[p*l+q]
			}
		}
		if off < 1e-22 {
			break
		}
		for p := 0; p < l; p++ {
			for q := p + 1; q < l; q++ {
				apq := a[p*l+q]
				if math.Abs(apq) < 1e-300 {
					continue
				}
				theta := (a[q*l+q] - a[p*l+p]) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := 0; k < l; k++ {
					akp, akq := a[k*l+p], a[k*l+q]
					a[k*l+p] = c*akp - s*akq
					a[k*l+q] = s*akp + c*akq
				}
				for k := 0; k < l; k++ {
					apk, aqk := a[p*l+k], a[q*l+k]
					a[p*l+k] = c*apk - s*aqk
					a[q*l+k] = s*apk + c*aqk
				}
				for k := 0; k < l; k++ {
					vkp, vkq := v[k*l+p], v[k*l+q]
					v[k*l+p] = c*vkp - s*vkq
					v[k*l+q] = s*vkp + c*vkq
				}
			}
		}
	}
	vals := make([]float64, l)
	for i := 0; i < l; i++ {
		vals[i] = a[i*l+i]
	}
	return vals, v
}
