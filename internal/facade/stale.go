// This file computes the envelope's drift summary and stale warnings. The
// drift ledger fills them; until a ledger exists for the revision they stay
// empty.

package facade

import "context"

// stale fills env.Drift and env.StaleWarnings for paths.
func (s *Service) stale(ctx context.Context, env *Envelope, snap *snapshot, paths []string) error {
	_ = ctx
	_ = snap
	_ = paths
	return nil
}
