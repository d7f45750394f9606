// This file turns what the query found into facts: declarations nested by
// range into containers, doc comments into text chunks of their symbol, and
// the uses into references from their innermost declaration.

package tags

import (
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
)

// PropKind on a class node names the language's own kind where it differs
// from the node kind (struct, type, module).
const PropKind = "kind"

// PropTest is "true" on the declarations of a test file.
const PropTest = "test"

// nodeKind maps a capture's KIND to a node kind and, where the language's
// own word differs, the PropKind value.
func nodeKind(k string) (fact.NodeKind, string) {
	switch k {
	case "function":
		return fact.Function, ""
	case "method":
		return fact.Method, ""
	case "class":
		return fact.Class, ""
	case "interface":
		return fact.Interface, ""
	case "enum":
		return fact.Enum, ""
	case "trait":
		return fact.Trait, ""
	case "module":
		return fact.Namespace, "module"
	case "struct", "type", "union", "record", "object":
		return fact.Class, k
	}
	return fact.Function, ""
}

// holds tells whether a declaration of node kind k makes the functions
// directly inside it methods.
func holds(k fact.NodeKind) bool { return k.IsType() }

func (x *extraction) facts() lang.Facts {
	var f lang.Facts
	test := x.spec.IsTest != nil && x.spec.IsTest(x.path)
	ids := make([]string, len(x.defs))
	qnames := make([]string, len(x.defs))
	kinds := make([]fact.NodeKind, len(x.defs))
	parents := make([]int, len(x.defs))
	disamb := map[string]int{}
	topType := map[string]int{} // class-like declarations by name, the first of each
	var stack []int
	for i := range x.defs {
		d := &x.defs[i]
		for len(stack) > 0 && x.defs[stack[len(stack)-1]].end <= d.start {
			stack = stack[:len(stack)-1]
		}
		parents[i] = -1
		if len(stack) > 0 {
			parents[i] = stack[len(stack)-1]
		}
		kind, own := nodeKind(d.kind)
		if d.receiver != "" {
			if t, ok := topType[d.receiver]; ok {
				parents[i] = t
			}
			kind = fact.Method
		}
		if kind == fact.Function && parents[i] >= 0 && holds(kinds[parents[i]]) {
			kind = fact.Method
		}
		kinds[i] = kind
		qn := d.name
		switch {
		case parents[i] >= 0:
			qn = qnames[parents[i]] + "." + d.name
		case d.receiver != "":
			qn = d.receiver + "." + d.name
		}
		qnames[i] = qn
		key := string(kind) + "\x00" + qn
		ids[i] = fact.NodeID(kind, qn, x.path, disamb[key])
		disamb[key]++
		if kind.IsType() {
			if _, dup := topType[d.name]; !dup {
				topType[d.name] = i
			}
		}
		n := fact.Node{
			ID: ids[i], Kind: kind, Name: d.name, QName: qn, Path: x.path,
			StartLine: d.line, EndLine: d.last, Lang: x.spec.Lang, Signature: x.signature(d),
		}
		if parents[i] >= 0 {
			n.Parent = ids[parents[i]]
		}
		if own != "" || test {
			n.Props = map[string]string{}
			if own != "" {
				n.Props[PropKind] = own
			}
			if test {
				n.Props[PropTest] = "true"
			}
		}
		f.Nodes = append(f.Nodes, n)
		if parents[i] >= 0 {
			f.Edges = append(f.Edges, fact.Edge{
				ID: fact.EdgeID(fact.Contains, n.Parent, n.ID, x.path, n.StartLine), Kind: fact.Contains,
				From: n.Parent, To: n.ID, Provenance: fact.Stated, Confidence: 1,
				EvidencePath: x.path, EvidenceLine: n.StartLine, Sources: []string{x.spec.Lang},
			})
		}
		if text, from, to := x.docComment(d); text != "" {
			f.Chunks = append(f.Chunks, x.chunk(text, from, to, ids[i]))
		}
		stack = append(stack, i)
	}
	// docstrings and uses belong to their innermost declaration
	inner := func(start uint) int {
		best := -1
		for i := range x.defs {
			if x.defs[i].start > start {
				break
			}
			if start < x.defs[i].end {
				best = i
			}
		}
		return best
	}
	for _, d := range x.docs {
		if i := inner(d.start); i >= 0 {
			f.Chunks = append(f.Chunks, x.chunk(cleanDoc(d.name), d.line, d.col, ids[i])) // col holds the last line
		}
	}
	// variables of a known type by their scope: the innermost declaration
	// (-1 the file)
	varTypes := map[int]map[string]string{}
	stack = stack[:0]
	next := 0
	for _, v := range x.vars {
		for next < len(x.defs) && x.defs[next].start <= v.start {
			for len(stack) > 0 && x.defs[stack[len(stack)-1]].end <= x.defs[next].start {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, next)
			next++
		}
		for len(stack) > 0 && x.defs[stack[len(stack)-1]].end <= v.start {
			stack = stack[:len(stack)-1]
		}
		scope := -1
		if len(stack) > 0 {
			scope = stack[len(stack)-1]
		}
		if varTypes[scope] == nil {
			varTypes[scope] = map[string]string{}
		}
		varTypes[scope][v.name] = v.alt
	}
	// typeOf is the type of variable name seen from the declarations on the
	// stack, innermost first, then the file
	typeOf := func(name string) string {
		for i := len(stack) - 1; i >= 0; i-- {
			if t, ok := varTypes[stack[i]][name]; ok {
				return t
			}
		}
		return varTypes[-1][name]
	}
	// uses come in source order: the innermost declaration is found with a
	// stack in one sweep
	stack = stack[:0]
	next = 0
	for _, u := range x.uses {
		for next < len(x.defs) && x.defs[next].start <= u.start {
			for len(stack) > 0 && x.defs[stack[len(stack)-1]].end <= x.defs[next].start {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, next)
			next++
		}
		for len(stack) > 0 && x.defs[stack[len(stack)-1]].end <= u.start {
			stack = stack[:len(stack)-1]
		}
		from := x.fileID
		if len(stack) > 0 {
			from = ids[stack[len(stack)-1]]
		}
		if u.kind == fact.RefImport {
			from = x.fileID
		}
		if t, ok := topType[u.owner]; ok && u.owner != "" {
			from = ids[t]
		}
		// a declaration's own name is no use of it
		if len(stack) > 0 {
			d := &x.defs[stack[len(stack)-1]]
			if d.name == u.name && d.line == u.line && d.col == u.col {
				continue
			}
		}
		alt := u.alt
		if u.kind == fact.RefMethodCall && len(varTypes) > 0 && u.recv != "" && !strings.Contains(u.recv, ".") {
			alt = typeOf(u.recv) // the receiver's class when it is a variable of a known type
		}
		f.Refs = append(f.Refs, fact.Ref{Kind: u.kind, From: from, Path: x.path, Line: u.line, Col: u.col,
			Name: u.name, Qualifier: u.recv, Alt: alt})
	}
	return f
}

// signature is the declaration's first line, without its body's brace.
func (x *extraction) signature(d *def) string {
	s := string(x.src[max(d.sig, d.start):d.end])
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimSuffix(s, "{"))
	if len(s) > 200 {
		s = s[:200]
	}
	return strings.ToValidUTF8(s, "")
}

// chunk is a doc text chunk of node id, cut to the chunk budget.
func (x *extraction) chunk(text string, from, to int, id string) fact.TextChunk {
	if max := x.opts.ChunkTokens * 4; max > 0 && len(text) > max {
		text = strings.ToValidUTF8(text[:max], "")
	}
	return fact.TextChunk{ID: fact.ChunkID("docblock", x.path, from, 0, id), NodeID: id, Kind: "docblock",
		Path: x.path, StartLine: from, EndLine: to, Text: text}
}

// docComment is the comment block directly above d (or above its wrapper:
// an export statement, a decorator) when the language counts it as doc.
func (x *extraction) docComment(d *def) (string, int, int) {
	if x.spec.IsDoc == nil {
		return "", 0, 0
	}
	n := d.node
	for {
		p := n.Parent()
		if p == nil || !x.isKind(x.spec.Wrappers, p.Kind()) || p.StartByte() > n.StartByte() {
			break
		}
		if prev := n.PrevNamedSibling(); prev != nil && !x.isKind(x.spec.Comments, prev.Kind()) {
			break
		}
		n = *p
	}
	var parts []string
	top := int(n.StartPosition().Row)
	first, last := 0, 0
	for prev := n.PrevSibling(); prev != nil && x.isKind(x.spec.Comments, prev.Kind()); prev = prev.PrevSibling() {
		if int(prev.EndPosition().Row) < top-1 {
			break
		}
		parts = append(parts, prev.Utf8Text(x.src))
		top = int(prev.StartPosition().Row)
		first = top + 1
		if last == 0 {
			last = int(prev.EndPosition().Row) + 1
		}
	}
	if len(parts) == 0 {
		return "", 0, 0
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	if strings.HasPrefix(parts[0], "#!") { // a script's interpreter line
		parts, first = parts[1:], first+1
	}
	if len(parts) == 0 || !x.spec.IsDoc(parts[0]) {
		return "", 0, 0
	}
	text := cleanDoc(strings.Join(parts, "\n"))
	if text == "" {
		return "", 0, 0
	}
	return text, first, last
}

func (x *extraction) isKind(kinds []string, k string) bool {
	for _, c := range kinds {
		if c == k {
			return true
		}
	}
	return false
}

// cleanDoc strips comment and string markers from each line of a doc.
func cleanDoc(s string) string {
	s = strings.TrimSpace(s)
	for _, q := range []string{`"""`, `'''`} {
		if strings.HasPrefix(s, q) && strings.HasSuffix(s, q) && len(s) >= 6 {
			s = s[3 : len(s)-3]
		}
	}
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(l, "/**")
		l = strings.TrimPrefix(l, "/*")
		l = strings.TrimSuffix(l, "*/")
		for _, p := range []string{"///", "//!", "//", "---", "--", "#", "*"} {
			if strings.HasPrefix(l, p) {
				l = strings.TrimPrefix(l, p)
				break
			}
		}
		out = append(out, strings.TrimSpace(l))
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}
