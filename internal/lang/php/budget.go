// This file bounds the cost of one file: a budget of work and memory. Memory
// is checked by tree-sitter while it parses (syntax.Parser.SetBudget), then
// against the flattened tree, then against the facts the walkers build
// (clock.charge); work is the syntax nodes the walkers visit (clock.tick).
// Neither depends on the machine's load, so one file gives one result
// anywhere. A file over budget keeps what the finished stages found and is
// partial with the reason; the build goes on.

package php

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/ragraf/ragraf/internal/fact"
)

// Budget bounds one file's extraction; zero fields mean no limit.
type Budget struct {
	// MaxWork is the syntax nodes the walks may visit, all stages together.
	MaxWork int64
	// MaxBytes is the memory of the file: tree-sitter's while it parses,
	// then the flattened tree's plus the facts extracted from it.
	MaxBytes int64
}

// nodeBytes is what one syntax node costs once flattened: the C buffer's
// record and the Go node with its places in the child lists.
const nodeBytes = 36 + 80 + 8

// perFact is what the build adds for each node and text chunk besides the
// fact itself: its text's vector (a few hundred float32), its full-text
// index entry and its rows waiting to be written.
const perFact = 1024

// SetBudget sets the budget of every later File call.
func (x *Extractor) SetBudget(b Budget) {
	x.budget = b
	x.parser.SetBudget(b.MaxBytes, 0)
	x.only.SetBudget(b.MaxBytes, 0)
}

// clock stops a walk past its work or memory budget, or once its context is
// done: walkers call tick once per node visited and charge for every fact
// they build; the context is looked at every 1,024 ticks.
type clock struct {
	ctx      context.Context
	n        int64 // nodes visited
	maxWork  int64 // 0: none
	spent    int64 // bytes of facts built
	maxBytes int64 // 0: none
}

// stopWalk is the panic value by which a tick or a charge ends a walk; File
// recovers it.
type stopWalk struct {
	canceled bool
	memory   bool // the facts went over the memory budget (else the work did)
}

func newClock(ctx context.Context, maxWork, maxBytes int64) *clock {
	return &clock{ctx: ctx, maxWork: maxWork, maxBytes: maxBytes}
}

func (c *clock) tick() {
	if c == nil {
		return
	}
	c.n++
	if c.maxWork > 0 && c.n > c.maxWork {
		panic(stopWalk{})
	}
	if c.n&1023 == 0 && c.ctx.Err() != nil {
		panic(stopWalk{canceled: true})
	}
}

// charge counts b bytes of facts built.
func (c *clock) charge(b int) {
	if c == nil {
		return
	}
	c.spent += int64(b)
	if c.maxBytes > 0 && c.spent > c.maxBytes {
		panic(stopWalk{memory: true})
	}
}

// reason is a partial file's reason when the clock stopped stage.
func (c *clock) reason(stage string, stop stopWalk) string {
	if stop.memory {
		return fmt.Sprintf("budget: memory: the facts extracted needed more than the %d MB left beside the syntax tree; extraction stopped in the %s stage; the facts of the stages before are kept", c.maxBytes>>20, stage)
	}
	return fmt.Sprintf("budget: work: extraction stopped in the %s stage after visiting %d syntax nodes; the facts of the stages before are kept", stage, c.maxWork)
}

// Weights of the facts built, in bytes (clock.charge).
func nodeCost(n *fact.Node) int {
	return int(unsafe.Sizeof(*n)) + len(n.ID) + len(n.Name) + len(n.QName) + len(n.Signature) + perFact
}

func edgeCost(e *fact.Edge) int { return int(unsafe.Sizeof(*e)) + len(e.ID) }

func refCost(r *fact.Ref) int {
	return int(unsafe.Sizeof(*r)) + len(r.Name) + r.Recv.Len() + len(r.Alt) + len(r.Include) + len(r.Alias)
}

func chunkCost(c *fact.TextChunk) int {
	return int(unsafe.Sizeof(*c)) + len(c.ID) + len(c.Text) + perFact
}
