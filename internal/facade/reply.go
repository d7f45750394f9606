// This file defines the shape every operation's answer is made in, in the
// manner of gopls's fileOf with a deferred release: begin (acquire the
// revision, check the cursor, start the envelope), target (resolve what the
// call is about, not-found with suggestions), page, cite, done (sort and
// dedupe the cited paths, stale warnings).

package facade

import (
	"context"
	"sort"
)

// reply is one operation's answer in the making, on one revision.
type reply struct {
	s       *Service
	ctx     context.Context
	snap    *snapshot
	env     *Envelope
	pg      pager
	paths   []string
	release func()
}

// begin acquires the current revision for op, refuses a cursor cut from
// another one and starts the envelope. The caller defers c.release().
func (s *Service) begin(ctx context.Context, op string, pg pager) (*reply, error) {
	snap, release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	if err := pg.check(snap); err != nil {
		release()
		return nil, err
	}
	return &reply{s: s, ctx: ctx, snap: snap, env: s.envelope(op, snap), pg: pg, release: release}, nil
}

// target resolves what the call is about (target.go). When nothing matches,
// the envelope is marked not found with the closest names and ok is false;
// the caller answers with its empty result.
func (c *reply) target(t Target) (Symbol, bool, error) {
	return c.s.resolve(c.ctx, c.snap, c.env, t)
}

// fail ends a call whose target was not found (err nil: the envelope is
// marked) or failed (err set).
func (c *reply) fail(result any, err error) (*Envelope, error) {
	if err != nil {
		return nil, err
	}
	return c.done(result)
}

// page fills the envelope's limits for returned items out of total.
func (c *reply) page(returned, total int) {
	c.env.Limits = c.pg.limits(c.snap, returned, total)
}

// cite adds paths the answer cites; done checks them for staleness.
func (c *reply) cite(paths ...string) {
	c.paths = append(c.paths, paths...)
}

// empty marks an answer that found the target but nothing about it, and
// points at the text search that reads what the graph does not link.
func (c *reply) empty(name string) {
	c.env.NotFound = true
	c.env.Suggest = append(c.env.Suggest, Suggestion{Op: "search", Args: map[string]any{"query": name}, Why: "text mentions of the name, which the graph does not link"})
}

// done sets the result and completes the envelope over the cited paths.
func (c *reply) done(result any) (*Envelope, error) {
	c.env.Result = result
	return c.s.done(c.ctx, c.env, c.snap, c.paths)
}

// done sorts and deduplicates the cited paths, finishes the envelope and
// returns it.
func (s *Service) done(ctx context.Context, env *Envelope, snap *snapshot, paths []string) (*Envelope, error) {
	sort.Strings(paths)
	uniq := paths[:0]
	for i, p := range paths {
		if p != "" && (i == 0 || p != paths[i-1]) {
			uniq = append(uniq, p)
		}
	}
	if err := s.finish(ctx, env, snap, uniq); err != nil {
		return nil, err
	}
	return env, nil
}
