// This file pairs a deleted file with an added one into a rename when the
// content is mostly unchanged, so a move is one entry and not two.

package drift

import (
	"context"
	"sort"

	"github.com/ragraf/ragraf/internal/corpus"
)

// renameThreshold is the share of common lines above which a delete and an
// add are one rename; git's default similarity index is 50%.
const renameThreshold = 0.5

// maxRenamePairs bounds the pairwise comparison on large moves; beyond it the
// remaining deletes and adds are reported as such.
const maxRenamePairs = 250_000

// pairRenames replaces delete+add pairs of similar content with rename deltas.
func pairRenames(ctx context.Context, src Source, tree *corpus.Tree, ds []Delta) ([]Delta, error) {
	var dels, adds []int
	for i, d := range ds {
		switch d.Kind {
		case KindDelete:
			dels = append(dels, i)
		case KindAdd:
			adds = append(adds, i)
		}
	}
	if len(dels) == 0 || len(adds) == 0 || len(dels)*len(adds) > maxRenamePairs {
		return ds, nil
	}
	old := make(map[int][]byte, len(dels))
	for _, i := range dels {
		b, _, err := src.Snapshot(ctx, ds[i].Path)
		if err != nil {
			return nil, err
		}
		old[i] = b
	}
	cur := make(map[int]current, len(adds))
	for _, i := range adds {
		c, _, err := readCurrent(ctx, tree, ds[i].Path)
		if corpus.Unreadable(err) != "" {
			continue // gone unreadable since it was checked: stays an add
		}
		if err != nil {
			return nil, err
		}
		cur[i] = c
	}
	type pair struct {
		del, add int
		sim      float64
	}
	var pairs []pair
	for _, d := range dels {
		for _, a := range adds {
			if s := similarity(old[d], cur[a].data); s > renameThreshold {
				pairs = append(pairs, pair{d, a, s})
			}
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].sim > pairs[j].sim })
	used := map[int]bool{}
	var renames []Delta
	for _, p := range pairs {
		if used[p.del] || used[p.add] {
			continue
		}
		used[p.del], used[p.add] = true, true
		from, to := ds[p.del], ds[p.add]
		diff := diffLines(old[p.del], cur[p.add].data)
		renames = append(renames, Delta{Kind: KindRename, Path: to.Path, OldPath: from.Path,
			Lines: diff.Ranges, Nodes: from.Nodes, ContentHash: cur[p.add].hash,
			DedupKey: key(src.Rev, KindRename, from.Path, to.Path, cur[p.add].hash)})
	}
	if len(renames) == 0 {
		return ds, nil
	}
	out := renames
	for i, d := range ds {
		if !used[i] {
			out = append(out, d)
		}
	}
	return out, nil
}
