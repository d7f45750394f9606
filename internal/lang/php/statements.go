// This file holds what the two walks of a function body share at the level of
// statements: how a statement or a block ends (endOf), and the branches of an
// if statement (ifBranches). The reference walk's type flow (typeflow.go) and
// the data-flow lowering (dataflow.go) both ask these, so they agree on what
// leaves a block.

package php

import (
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"
)

// ending is how control leaves a statement: it falls through to the next, it
// leaves the function or the loop's iteration (return, throw, exit/die,
// continue, goto), or it breaks out of the innermost loop or switch.
type ending int

const (
	fallsThrough ending = iota
	leaves
	breaks
)

// endOf tells how statement b ends. A block, a colon block or a switch case
// ends as its last statement does (comments skipped; a case holding only its
// value falls through); nested blocks are looked into. Terminating:
// `return`, `throw`, `exit` and `die` with or without parentheses and
// arguments (a bare `die;` parses as a name, `die(…)` as a call), `continue`
// and `goto` leave; `break` breaks. Loops are not judged: `while (true)`
// without a break falls through here.
func endOf(b *sitter.Node, src []byte) ending {
	if b == nil {
		return fallsThrough
	}
	switch b.Kind() {
	case "compound_statement", "colon_block", "case_statement", "default_statement":
		first := uint(0)
		if b.Kind() == "case_statement" {
			first = 1 // the case's value
		}
		for i := int(b.NamedChildCount()) - 1; i >= int(first); i-- {
			if c := b.NamedChild(uint(i)); c.Kind() != "comment" {
				return endOf(c, src)
			}
		}
		return fallsThrough
	case "return_statement", "continue_statement", "exit_statement", "goto_statement":
		return leaves
	case "break_statement":
		return breaks
	case "expression_statement":
		if b.NamedChildCount() != 1 {
			return fallsThrough
		}
		e := b.NamedChild(0)
		switch e.Kind() {
		case "throw_expression", "exit_statement":
			return leaves
		case "name":
			if isExit(e.Utf8Text(src)) {
				return leaves
			}
		case "function_call_expression":
			if fn := e.ChildByFieldName("function"); fn != nil && isExit(fn.Utf8Text(src)) {
				return leaves
			}
		}
	}
	return fallsThrough
}

// isExit reports whether name is exit or die, in any case.
func isExit(name string) bool {
	l := strings.ToLower(name)
	return l == "exit" || l == "die"
}

// branch is one way through an if statement: the clause it is (the if itself,
// an else_if_clause or an else_clause), its condition (nil for else) and its
// body.
type branch struct {
	clause, cond, body *sitter.Node
}

// ifBranches returns the branches of if statement n in source order: the if's
// own, then each elseif and else; hasElse says an else closes them.
func ifBranches(n *sitter.Node) (bs []branch, hasElse bool) {
	bs = append(bs, branch{clause: n, cond: n.ChildByFieldName("condition"), body: n.ChildByFieldName("body")})
	for _, alt := range n.ChildrenByFieldName("alternative") {
		b := branch{clause: alt, body: alt.ChildByFieldName("body")}
		if alt.Kind() == "else_clause" {
			hasElse = true
		} else {
			b.cond = alt.ChildByFieldName("condition")
		}
		bs = append(bs, b)
	}
	return bs, hasElse
}
