// This file is `reindex --commit`: the next revision of an indexed project,
// built from the extraction cache (cache.go) so only changed files are parsed
// again, resolved as a whole so references into and out of changed files are
// current, published like any build, and followed by the archive of the
// parent's drift ledger (archive.go). The static model is reused from the
// parent when few symbol texts changed (staticmodel.go).

package rev

import (
	"context"
	"os"
)

// Reindex builds and publishes the next revision of an indexed project and
// archives the current revision's ledger. It fails with ErrNotIndexed when
// there is no revision yet.
func Reindex(ctx context.Context, opts Options) (Info, error) {
	l := Layout{Root: opts.Root}
	if _, err := l.CurrentRev(); err != nil {
		return Info{}, err
	}
	opts.Archive, opts.ReuseModel = true, true
	return Build(ctx, opts)
}

// CacheEntries counts the extraction cache's entries (for tests).
func CacheEntries(root string) int {
	b, err := os.ReadFile(cachePath(Layout{Root: root}))
	if err != nil {
		return 0
	}
	h, _, ok := packHeader(b)
	if !ok {
		return 0
	}
	return h.Entries
}
