// This file bounds the cost of one file: a budget of time and memory, checked
// by tree-sitter while it parses (syntax.Parser.SetBudget) and by the walkers
// as they go (clock). A file over budget keeps what the finished stages found
// and is partial with the reason; the build goes on.

package php

import (
	"context"
	"fmt"
	"time"
)

// Budget bounds one file's extraction; zero fields mean no limit.
type Budget struct {
	MaxMS    int64 // wall time of parsing and walking
	MaxBytes int64 // memory of the syntax tree: tree-sitter's while it parses, then the flattened tree's
}

// nodeBytes is what one syntax node costs once flattened: the C buffer's
// record and the Go node with its places in the child lists.
const nodeBytes = 36 + 80 + 8

// SetBudget sets the budget of every later File call.
func (x *Extractor) SetBudget(b Budget) {
	x.budget = b
	x.parser.SetBudget(b.MaxBytes, b.MaxMS)
	x.only.SetBudget(b.MaxBytes, b.MaxMS)
}

// clock stops a walk past its deadline or once its context is done: walkers
// call tick once per node visited, and it looks at the time every 1,024 ticks.
type clock struct {
	ctx      context.Context
	start    time.Time
	deadline time.Time // zero: none
	n        uint32
}

// stopWalk is the panic value by which a tick ends a walk; File recovers it.
type stopWalk struct{ canceled bool }

func newClock(ctx context.Context, maxMS int64) *clock {
	c := &clock{ctx: ctx, start: time.Now()}
	if maxMS > 0 {
		c.deadline = c.start.Add(time.Duration(maxMS) * time.Millisecond)
	}
	return c
}

func (c *clock) tick() {
	if c == nil {
		return
	}
	c.n++
	if c.n&1023 != 0 {
		return
	}
	if c.ctx.Err() != nil {
		panic(stopWalk{canceled: true})
	}
	if !c.deadline.IsZero() && time.Now().After(c.deadline) {
		panic(stopWalk{})
	}
}

// timeReason is a partial file's reason when the clock stopped stage.
func (c *clock) timeReason(stage string) string {
	return fmt.Sprintf("budget: time: extraction stopped in the %s stage after %d ms; the facts of the stages before are kept", stage, time.Since(c.start).Milliseconds())
}
