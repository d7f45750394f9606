// This file defines how an operation finds what it is asked about: a node
// id, a qualified name, a short name (add, Cart::add, Cart) or path:line,
// whichever the agent has in hand. One match is answered; several are never
// merged: the one the context makes clear (the file or namespace of path) is
// answered and the others are listed with the call that selects each; none
// is a not-found answer naming the closest names.

package facade

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// Target names the definition an operation answers about. Every operation
// that takes one embeds it.
type Target struct {
	ID    string `json:"id,omitempty"`
	QName string `json:"qname,omitempty" jsonschema:"a name (add, Cart::add), qualified name, path:line or id"`
	// Near is the file the agent is in: a name several definitions share
	// resolves to the one in that file or its namespace.
	Near string `json:"near,omitempty" jsonschema:"your file: picks among same-named definitions"`
}

// text is what the target names, for messages and suggestions.
func (t Target) text() string { return t.ID + t.QName }

// check validates a target that must be given.
func (t Target) check() error {
	if t.ID == "" && t.QName == "" {
		return badInput("pass id or qname")
	}
	if t.ID != "" && t.QName != "" {
		return badInput("pass id or qname, not both")
	}
	if err := checkID("id", t.ID); err != nil {
		return err
	}
	if err := checkName("qname", t.QName, optional); err != nil {
		return err
	}
	return checkName("near", t.Near, optional)
}

// resolve resolves t to one definition. An unknown id is an error (ids come
// from earlier answers); a name that matches nothing marks env not found
// with the closest names; a name that matches several answers the best and
// lists the others in env.Suggest, each with the arguments that select it.
func (s *Service) resolve(ctx context.Context, snap *snapshot, env *Envelope, t Target) (Symbol, bool, error) {
	cands, err := s.candidates(ctx, snap, t)
	if err != nil {
		return Symbol{}, false, err
	}
	if len(cands) == 0 {
		s.notFoundName(ctx, snap, env, t.text())
		return Symbol{}, false, nil
	}
	if t.Near != "" && len(cands) > 1 {
		near := strings.TrimPrefix(strings.TrimPrefix(t.Near, "./"), "/")
		ns := namespaceIn(ctx, snap, near)
		sort.SliceStable(cands, func(i, j int) bool { return nearRank(cands[i], near, ns) < nearRank(cands[j], near, ns) })
	}
	for i, c := range cands[1:] {
		if i == maxOthers {
			env.Suggest = append(env.Suggest, Suggestion{Op: env.Op, Args: map[string]any{"qname": t.text(), "near": "<file>"},
				Why: strconv.Itoa(len(cands)-1-maxOthers) + " more definitions of the name: pass near to choose"})
			break
		}
		args := map[string]any{"qname": c.QName}
		if sameQName(cands, c.QName) > 1 {
			args = map[string]any{"qname": at(c.Path, c.Line)}
		}
		env.Suggest = append(env.Suggest, Suggestion{Op: env.Op, Args: args, Why: "another definition named " + t.text() + ": " + c.Kind + " " + c.QName + " at " + at(c.Path, c.Line)})
	}
	return cands[0], true, nil
}

// maxOthers bounds the other definitions an ambiguous name lists.
const maxOthers = 8

func sameQName(ss []Symbol, q string) int {
	n := 0
	for _, s := range ss {
		if strings.EqualFold(s.QName, q) {
			n++
		}
	}
	return n
}

// nearRank orders candidates by closeness to the file near: in it, in its
// namespace, elsewhere.
func nearRank(s Symbol, near, ns string) int {
	switch {
	case s.Path == near:
		return 0
	case ns != "" && strings.HasPrefix(strings.ToLower(s.QName), strings.ToLower(ns)+`\`):
		return 1
	}
	return 2
}

// namespaceIn is the first namespace declared in path, "" for none.
func namespaceIn(ctx context.Context, snap *snapshot, path string) string {
	nodes, err := snap.graph.NodesInFile(ctx, path)
	if err != nil {
		return ""
	}
	for _, n := range nodes {
		if n.Kind == fact.Namespace {
			return n.QName
		}
	}
	return ""
}

// candidates lists the definitions t names, best first: an id names one; a
// qualified name the definitions declared under it; path:line the innermost
// definition there; a short name (or Class::member) the definitions named so,
// types and functions before members (symbolLess).
func (s *Service) candidates(ctx context.Context, snap *snapshot, t Target) ([]Symbol, error) {
	g := snap.graph
	text := strings.TrimSpace(t.QName)
	id := t.ID
	if id == "" && idRE.MatchString(text) {
		id = text
	}
	if id != "" {
		n, ok, err := g.Node(ctx, id)
		if err != nil {
			return nil, storeError(err)
		}
		if !ok {
			return nil, &Error{Code: ErrUnknownID, Message: "no node " + id + " in " + snap.name + "; ids change only between revisions: look the name up again with symbol"}
		}
		return symbols(ctx, g, []fact.Node{n})
	}
	if p, line, ok := parseAt(text); ok && line > 0 && strings.ContainsAny(p, "./") {
		sym, ok, err := s.symbolAt(ctx, snap, p, line)
		if err != nil || !ok {
			return nil, err
		}
		return []Symbol{sym}, nil
	}
	ns, err := g.NodesByQName(ctx, text)
	if err != nil {
		return nil, storeError(err)
	}
	if len(ns) == 0 && strings.HasPrefix(text, `\`) {
		if ns, err = g.NodesByQName(ctx, text[1:]); err != nil {
			return nil, storeError(err)
		}
	}
	if len(ns) == 0 {
		if ns, err = s.byShortName(ctx, snap, text); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(ns, func(i, j int) bool { return symbolLess(ns[i], ns[j]) })
	return symbols(ctx, g, ns)
}

// byShortName finds the definitions a short name means: "add" by name,
// "Cart::add" (or "App\Cart::add", "Cart::$items", "Cart::MAX") by member
// name within a container whose qualified name ends in "Cart".
func (s *Service) byShortName(ctx context.Context, snap *snapshot, text string) ([]fact.Node, error) {
	g := snap.graph
	owner, member, scoped := strings.Cut(text, "::")
	if !scoped {
		owner, member = "", text
	}
	member = strings.TrimSuffix(strings.TrimSpace(member), "()")
	if member == "" {
		return nil, nil
	}
	ns, err := g.NodesByName(ctx, member)
	if err != nil {
		return nil, storeError(err)
	}
	if len(ns) == 0 && strings.HasPrefix(member, "$") {
		if ns, err = g.NodesByName(ctx, member[1:]); err != nil {
			return nil, storeError(err)
		}
	}
	if !scoped {
		return ns, nil
	}
	owner = strings.ToLower(strings.TrimPrefix(owner, `\`))
	parents := make([]string, 0, len(ns))
	for _, n := range ns {
		parents = append(parents, n.Parent)
	}
	byID, err := g.NodesByID(ctx, parents)
	if err != nil {
		return nil, storeError(err)
	}
	var out []fact.Node
	for _, n := range ns {
		pq := strings.ToLower(byID[n.Parent].QName)
		if pq == owner || strings.HasSuffix(pq, `\`+owner) {
			out = append(out, n)
		}
	}
	return out, nil
}

// notFoundName marks an answer whose target names nothing, with the closest
// names the index holds and the searches that read more widely (FT-21).
func (s *Service) notFoundName(ctx context.Context, snap *snapshot, env *Envelope, text string) {
	env.NotFound = true
	if text == "" {
		return
	}
	if name := lastName(strings.TrimSuffix(text, "()")); name != "" {
		if like, _, err := snap.graph.NodesLike(ctx, name, "", "", maxOthers, 0); err == nil && len(like) > 0 {
			sort.SliceStable(like, func(i, j int) bool { return symbolLess(like[i], like[j]) })
			for _, n := range like {
				env.Suggest = append(env.Suggest, Suggestion{Op: env.Op, Args: map[string]any{"qname": n.QName},
					Why: "a close name: " + string(n.Kind) + " at " + at(n.Path, n.StartLine)})
			}
		}
	}
	notFound(env, text)
}

// notFound marks an empty answer and points at operations that read more
// widely (FT-21).
func notFound(env *Envelope, text string) {
	env.NotFound = true
	if text != "" {
		env.Suggest = append(env.Suggest,
			Suggestion{Op: "search", Args: map[string]any{"query": text}, Why: "lexical search over names, signatures and comments"},
			Suggestion{Op: "symbol", Args: map[string]any{"name": lastName(text), "fuzzy": true}, Why: "names containing the text"})
	}
}

// notFoundPath suggests reading the working-tree file directly.
func notFoundPath(env *Envelope, path string) {
	env.NotFound = true
	env.Suggest = append(env.Suggest,
		Suggestion{Op: "live_read", Args: map[string]any{"path": path}, Why: "the file as it is in the working tree"},
		Suggestion{Op: "search", Args: map[string]any{"query": lastName(path)}, Why: "lexical search over names, signatures and comments"})
}

// lastName is the last segment of a qualified name or path.
func lastName(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '\\' || s[i] == ':' || s[i] == '/' || s[i] == '$' {
			if i < len(s)-1 {
				return s[i+1:]
			}
		}
	}
	return s
}

// symbolAt is the innermost definition of path whose lines hold line (the
// file itself for top-level code).
func (s *Service) symbolAt(ctx context.Context, snap *snapshot, p string, line int) (Symbol, bool, error) {
	nodes, err := snap.graph.NodesInFile(ctx, p)
	if err != nil {
		return Symbol{}, false, storeError(err)
	}
	var best *fact.Node
	for i := range nodes {
		n := &nodes[i]
		if n.StartLine > line || n.EndLine < line || n.Kind == fact.Namespace {
			continue
		}
		if best == nil || (best.Kind == fact.File && n.Kind != fact.File) ||
			(n.Kind != fact.File && n.EndLine-n.StartLine < best.EndLine-best.StartLine) {
			best = n
		}
	}
	if best == nil {
		return Symbol{}, false, nil
	}
	syms, err := symbols(ctx, snap.graph, []fact.Node{*best})
	if err != nil {
		return Symbol{}, false, err
	}
	return syms[0], true, nil
}

// symbolsOf loads the definitions with the given ids.
func (s *Service) symbolsOf(ctx context.Context, snap *snapshot, ids []string) (map[string]*Symbol, error) {
	byID, err := snap.graph.NodesByID(ctx, ids)
	if err != nil {
		return nil, storeError(err)
	}
	nodes := make([]fact.Node, 0, len(byID))
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		nodes = append(nodes, byID[id])
	}
	syms, err := symbols(ctx, snap.graph, nodes)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*Symbol, len(syms))
	for i := range syms {
		out[syms[i].ID] = &syms[i]
	}
	return out, nil
}

func srcIDs(es []fact.Edge) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, e.From)
	}
	return out
}
