// This file bounds the depth of a tree, so that walkers written as plain
// recursion over it stay within a small Go stack on any input. Real code
// nests a few dozen levels; what goes deeper is nearly always one long chain
// of a binary operator (`$a . $b . $c …` with thousands of operands, which
// tree-sitter nests one level per operand). Such a chain is rebalanced: the
// same operands and operators in the same order, under a balanced tree of the
// same binary nodes, so its depth is the logarithm of its length. What is
// still deeper than MaxDepth is cut there: the node at MaxDepth keeps its
// range but shows no children, and Shape says how much was cut and where, so
// the extractor can call the file partial instead of losing the build.

package syntax

// MaxDepth is the deepest level a walker sees; the root is level 0. A
// walker's frames for one level take a few hundred bytes, so a walk stays
// within a few megabytes of stack.
const MaxDepth = 2000

// minChain is the number of operands from which a chain of one binary
// operator is rebalanced. Shorter chains keep tree-sitter's shape, which is
// all ordinary code ever has.
const minChain = 64

// Shape says what reshape changed in a tree.
type Shape struct {
	Balanced int   // chains of one binary operator rebalanced
	Cut      int   // nodes below MaxDepth left out
	CutAt    Point // where the first cut subtree starts
}

// Shape reports what was changed to keep the tree within MaxDepth; the zero
// Shape for every tree of ordinary code.
func (t *Tree) Shape() Shape { return t.shape }

// reshape rebalances long binary chains, cuts what is still deeper than
// MaxDepth, and lays the tree out again in preorder.
func (t *Tree) reshape() {
	n := int32(len(t.nodes))
	// children of each node as the new tree will have them; nil means the
	// node's own children
	over := make([][]int32, n)
	kidsOf := func(i int32) []int32 {
		if k := over[i]; k != nil {
			return k
		}
		nd := &t.nodes[i]
		return t.kids[nd.kidsAt : nd.kidsAt+nd.nkids]
	}
	t.balance(over)
	// depth of every node through the new children; cut at MaxDepth
	depth := make([]int32, n)
	stack := []int32{0}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ks := kidsOf(i)
		if depth[i] >= MaxDepth && len(ks) > 0 {
			if t.shape.Cut == 0 {
				first := &t.nodes[ks[0]]
				t.shape.CutAt = Point{Row: uint(first.startRow), Column: uint(first.startCol)}
			}
			t.shape.Cut += t.subtreeSize(ks, kidsOf)
			over[i] = []int32{}
			continue
		}
		for _, k := range ks {
			depth[k] = depth[i] + 1
			stack = append(stack, k)
		}
	}
	t.layout(kidsOf)
}

// subtreeSize counts the nodes under the roots ks.
func (t *Tree) subtreeSize(ks []int32, kidsOf func(int32) []int32) int {
	count := 0
	stack := append([]int32(nil), ks...)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count++
		stack = append(stack, kidsOf(i)...)
	}
	return count
}

// balance finds every chain of one binary operator with at least minChain
// operands and gives its binary nodes new children in over: operands and
// operators in their order, split at the middle operator at every level.
func (t *Tree) balance(over [][]int32) {
	left, lok := t.lang.fieldN["left"]
	right, rok := t.lang.fieldN["right"]
	op, ook := t.lang.fieldN["operator"]
	if !lok || !rok || !ook {
		return
	}
	// binary reports whether i is a binary node with exactly left, operator
	// and right (a comment among them keeps the node as it is) and returns
	// its operator's symbol
	binary := func(i int32) (uint16, bool) {
		nd := &t.nodes[i]
		if nd.nkids != 3 || t.lang.kinds[nd.symbol] != "binary_expression" {
			return 0, false
		}
		ks := t.kids[nd.kidsAt : nd.kidsAt+3]
		if t.nodes[ks[0]].field != left || t.nodes[ks[1]].field != op || t.nodes[ks[2]].field != right {
			return 0, false
		}
		return t.nodes[ks[1]].symbol, true
	}
	inChain := make([]bool, len(t.nodes))
	for i := int32(0); i < int32(len(t.nodes)); i++ {
		sym, ok := binary(i)
		if !ok || inChain[i] {
			continue
		}
		// flatten the chain in order: operands, operators, binary nodes
		var operands, operators, inner []int32
		type item struct {
			i   int32
			mid bool // the node's operator and right side are still to come
		}
		stack := []item{{i, false}}
		for len(stack) > 0 {
			it := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			nd := &t.nodes[it.i]
			ks := t.kids[nd.kidsAt : nd.kidsAt+nd.nkids]
			if it.mid {
				operators = append(operators, ks[1])
				stack = append(stack, item{ks[2], false})
				continue
			}
			if s, ok := binary(it.i); ok && s == sym {
				inner = append(inner, it.i)
				stack = append(stack, item{it.i, true}, item{ks[0], false})
				continue
			}
			operands = append(operands, it.i)
		}
		for _, x := range inner {
			inChain[x] = true
		}
		if len(operands) < minChain {
			continue
		}
		t.shape.Balanced++
		// inner[0] is the chain's root: it keeps its place in its parent
		next := 0
		var build func(lo, hi int) int32 // operands lo..hi, hi > lo; depth log(len)
		build = func(lo, hi int) int32 {
			slot := inner[next]
			next++
			mid := (lo + hi + 1) / 2 // operator mid-1 sits between operands mid-1 and mid
			var l, r int32
			if mid-1 == lo {
				l = operands[lo]
			} else {
				l = build(lo, mid-1)
			}
			if hi == mid {
				r = operands[hi]
			} else {
				r = build(mid, hi)
			}
			t.nodes[l].field, t.nodes[operators[mid-1]].field, t.nodes[r].field = left, op, right
			over[slot] = []int32{l, operators[mid-1], r}
			// l and r hold their final ranges: operands their own, built slots theirs
			nd, first, last := &t.nodes[slot], &t.nodes[l], &t.nodes[r]
			nd.startByte, nd.startRow, nd.startCol = first.startByte, first.startRow, first.startCol
			nd.endByte, nd.endRow, nd.endCol = last.endByte, last.endRow, last.endCol
			return slot
		}
		build(0, len(operands)-1)
	}
}

// layout writes the nodes again in the preorder of kidsOf, dropping those
// no longer reached, and rebuilds the child lists.
func (t *Tree) layout(kidsOf func(int32) []int32) {
	old := t.nodes
	nodes := make([]Node, 0, len(old))
	type item struct{ i, parent int32 }
	stack := []item{{0, -1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := old[it.i]
		nd.t, nd.idx, nd.parent = t, int32(len(nodes)), it.parent
		nd.nkids, nd.nnamed, nd.namedPos = 0, 0, -1
		nodes = append(nodes, nd)
		ks := kidsOf(it.i)
		for j := len(ks) - 1; j >= 0; j-- {
			stack = append(stack, item{ks[j], nd.idx})
		}
	}
	// has_error follows the children the node still shows
	for j := len(nodes) - 1; j > 0; j-- {
		if nodes[j].flags&(flagHasError|flagError) != 0 {
			nodes[nodes[j].parent].flags |= flagHasError
		}
	}
	counts := make([]int32, 2*len(nodes))
	cnt, ncnt := counts[:len(nodes)], counts[len(nodes):]
	for j := 1; j < len(nodes); j++ {
		cnt[nodes[j].parent]++
		if nodes[j].flags&flagNamed != 0 {
			ncnt[nodes[j].parent]++
		}
	}
	var off, noff int32
	for j := range nodes {
		nodes[j].kidsAt, nodes[j].namedAt = off, noff
		off += cnt[j]
		noff += ncnt[j]
	}
	kids, named := make([]int32, off), make([]int32, noff)
	for j := 1; j < len(nodes); j++ {
		nd := &nodes[j]
		p := &nodes[nd.parent]
		nd.pos = p.nkids
		kids[p.kidsAt+p.nkids] = int32(j)
		p.nkids++
		if nd.flags&flagNamed != 0 {
			nd.namedPos = p.nnamed
			named[p.namedAt+p.nnamed] = int32(j)
			p.nnamed++
		}
	}
	t.nodes, t.kids, t.named = nodes, kids, named
}
