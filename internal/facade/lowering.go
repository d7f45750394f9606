// This file says which languages slice and flow can answer for: only a
// language with a data-flow lowering (PHP, internal/lang/php/dataflow.go).
// A place in a file of another language answers E_CAPABILITY naming the
// language, never an empty slice.

package facade

import (
	"context"

	"github.com/ragraf/ragraf/internal/lang/php"
)

// checkLowering fails with E_CAPABILITY when a place lies in a file whose
// language has no data-flow lowering. Places the graph does not know pass:
// the engine reports them not found.
func checkLowering(ctx context.Context, snap *snapshot, places ...place) error {
	for _, p := range places {
		path := p.path
		if p.id != "" {
			n, ok, err := snap.graph.Node(ctx, p.id)
			if err != nil {
				return storeError(err)
			}
			if !ok {
				continue
			}
			path = n.Path
		}
		if path == "" {
			continue
		}
		row, ok, err := snap.graph.File(ctx, path)
		if err != nil {
			return storeError(err)
		}
		if ok && row.Lang != php.Lang {
			return &Error{Code: ErrCapability, Message: "no data-flow lowering for " + row.Lang + " (" + path +
				"): slice and flow follow PHP only; use callers, callees and references for this file"}
		}
	}
	return nil
}
