// This file judges an answer's cited places against a task's truth and
// counts tokens the way every side is counted (cl100k_base).

package stand

import (
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// lead is how many lines before a truth place a cited place may start and
// still name it: an attribute or a call's receiver on the line above, a
// statement that begins before its SQL literal.
const lead = 3

// Judgement compares cited places with the truth.
type Judgement struct {
	Cited     int  `json:"cited"`      // distinct places the answer cites
	TrueCited int  `json:"true_cited"` // of them, matched to a truth place
	Truth     int  `json:"truth"`
	Covered   int  `json:"covered"` // truth places matched
	Correct   bool `json:"correct"`
}

// Precision is TrueCited/Cited (1 for an answer citing nothing and a task
// with no truth; 0 for one citing nothing otherwise).
func (j Judgement) Precision() float64 {
	if j.Cited == 0 {
		if j.Truth == 0 {
			return 1
		}
		return 0
	}
	return float64(j.TrueCited) / float64(j.Cited)
}

// Recall is Covered/Truth.
func (j Judgement) Recall() float64 {
	if j.Truth == 0 {
		return 1
	}
	return float64(j.Covered) / float64(j.Truth)
}

// judge maps each cited place to the nearest truth place it names: one in
// the same file that starts at most lead lines after it and does not end
// before it. Several cited places may name one truth place (two calls in one
// caller), one cited place names at most one. The answer is correct when it
// names every truth place and at least half of what it cites is true.
func judge(truth, cited []Place) Judgement {
	cited = uniqPlaces(append([]Place(nil), cited...))
	j := Judgement{Cited: len(cited), Truth: len(truth)}
	hit := map[int]bool{}
	for _, c := range cited {
		best, bestD := -1, 0
		for ti, t := range truth {
			if c.Path != t.Path || c.Line < t.Line-lead || c.Line > t.end() {
				continue
			}
			d := c.Line - t.Line
			if d < 0 {
				d = -d
			}
			if best < 0 || d < bestD {
				best, bestD = ti, d
			}
		}
		if best >= 0 {
			j.TrueCited++
			hit[best] = true
		}
	}
	j.Covered = len(hit)
	j.Correct = j.Covered == j.Truth && 2*j.TrueCited >= j.Cited
	return j
}

// seenCovers says whether every truth place has a line among seen
// (path -> line -> true).
func seenCovers(truth []Place, seen map[string]map[int]bool) bool {
	for _, t := range truth {
		ok := false
		for l := t.Line; l <= t.end() && !ok; l++ {
			ok = seen[t.Path][l]
		}
		if !ok {
			return false
		}
	}
	return true
}

var (
	encOnce sync.Once
	enc     *tiktoken.Tiktoken
	encErr  error
)

// tokens counts s in cl100k_base, as bench/mcpsize does for answers.
func tokens(s string) (int, error) {
	encOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		enc, encErr = tiktoken.GetEncoding("cl100k_base")
	})
	if encErr != nil {
		return 0, encErr
	}
	return len(enc.Encode(s, nil, nil)), nil
}
