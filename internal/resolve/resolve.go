// Package resolve links references across files: it turns the Refs that
// language extractors emit into edges with provenance, and keeps the ones it
// cannot link as Unresolved.
//
// # Proven and heuristic edges
//
// calls, references, instantiates and the hierarchy edges are emitted only
// when the target is proven: the name resolves to a declaration and, for
// member access, the receiver's type is known (provenance stated, confidence
// 1.0). Calls whose receiver has no known type and dynamic calls become
// calls_heuristic edges to every candidate, with the confidence of
// heuristicConfidence; they never become calls.
//
// # Files
//
// resolve.go holds the entry point and the per-reference rules; index.go
// builds the lookup tables and the class hierarchy; types.go evaluates the
// receiver type descriptors extractors emit; includes.go evaluates include
// paths; builtins.go knows PHP's own names, methods and object return types;
// props.go types properties that declare no type from what methods assign.
package resolve

import (
	"context"
	"encoding/json"
	"maps"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/typ"
)

// Source names this package in edge provenance.
const Source = "php-resolve"

// MetaResolution is the graph meta key holding per reference kind the counts
// of references resolved stated, derived, unresolved and external (JSON).
const MetaResolution = "resolution"

// Input is every node of a build and the references of one language.
type Input struct {
	Lang  string      // the language of Refs: it picks the resolver
	Nodes []fact.Node // of every language
	Refs  []fact.Ref
}

// Output is what resolution adds to the graph.
type Output struct {
	Edges      []fact.Edge
	Unresolved []fact.Unresolved
	// Nodes are the nodes a linker adds (Domain: the tables queries name
	// that no schema source declares).
	Nodes []fact.Node
	// Meta holds graph meta entries (key MetaResolution).
	Meta map[string]string
}

// KindStats counts how the references of one kind ended.
type KindStats struct {
	Total      int     `json:"total"`
	Stated     int     `json:"stated"`
	Derived    int     `json:"derived"`
	Unresolved int     `json:"unresolved"`
	External   int     `json:"external"` // PHP built-ins and names declared only in PHPDoc
	StatedPct  float64 `json:"stated_share"`
	DerivedPct float64 `json:"derived_share"`
	UnresPct   float64 `json:"unresolved_share"`
}

// outcome of one reference.
type outcome int

const (
	stated outcome = iota
	derived
	unresolved
	external
	skip // declaration facts: not counted
)

// resolvers link the references of one language, by language name (the
// front end's, package lang); a language without one keeps its references
// unresolved with that reason.
var resolvers = map[string]func(context.Context, Input) (Output, error){
	"php": resolvePHP,
	// templates state only domain references (Domain links them)
	"twig":  resolveNone,
	"blade": resolveNone,
}

// resolveNone is the resolver of a language whose references are all
// domain references.
func resolveNone(ctx context.Context, _ Input) (Output, error) {
	return Output{Meta: map[string]string{}}, ctx.Err()
}

// Resolve links in.Refs to in.Nodes with the resolver of in.Lang.
func Resolve(ctx context.Context, in Input) (Output, error) {
	if res, ok := resolvers[in.Lang]; ok {
		return res(ctx, in)
	}
	out := Output{Meta: map[string]string{}}
	for i := range in.Refs {
		ref := &in.Refs[i]
		out.Unresolved = append(out.Unresolved, fact.Unresolved{
			ID: unresolvedID(ref, ref.Name), Kind: ref.Kind, Name: ref.Name, From: ref.From, Path: ref.Path, Line: ref.Line,
			Reason: "no resolver for language " + in.Lang,
		})
	}
	return out, ctx.Err()
}

// Merge joins the outputs of several languages' resolutions: edges and
// unresolved references in the order given, the resolution counts summed by
// reference kind.
func Merge(outs ...Output) (Output, error) {
	if len(outs) == 1 {
		return outs[0], nil
	}
	m := Output{Meta: map[string]string{}}
	stats := map[fact.RefKind]*KindStats{}
	for _, o := range outs {
		m.Edges = append(m.Edges, o.Edges...)
		m.Unresolved = append(m.Unresolved, o.Unresolved...)
		for k, v := range o.Meta {
			if k != MetaResolution {
				m.Meta[k] = v
				continue
			}
			var st map[fact.RefKind]*KindStats
			if err := json.Unmarshal([]byte(v), &st); err != nil {
				return Output{}, err
			}
			for kind, s := range st {
				if t := stats[kind]; t != nil {
					t.Total, t.Stated, t.Derived = t.Total+s.Total, t.Stated+s.Stated, t.Derived+s.Derived
					t.Unresolved, t.External = t.Unresolved+s.Unresolved, t.External+s.External
					t.shares()
				} else {
					stats[kind] = s
				}
			}
		}
	}
	if len(stats) > 0 {
		b, err := json.Marshal(stats)
		if err != nil {
			return Output{}, err
		}
		m.Meta[MetaResolution] = string(b)
	}
	sort.Slice(m.Unresolved, func(i, j int) bool { return m.Unresolved[i].ID < m.Unresolved[j].ID })
	return m, nil
}

// shares sets the shares of s from its counts.
func (s *KindStats) shares() {
	if n := s.Total - s.External; n > 0 {
		s.StatedPct = round3(float64(s.Stated) / float64(n))
		s.DerivedPct = round3(float64(s.Derived) / float64(n))
		s.UnresPct = round3(float64(s.Unresolved) / float64(n))
	}
}

// resolvePHP links the references of PHP files.
func resolvePHP(ctx context.Context, in Input) (Output, error) {
	r := newResolver(in.Nodes)
	r.declare(in.Refs)
	r.hierarchyEdges()
	r.implementors = r.builtinImplementors()
	r.traitUsers = r.usersOfTraits()
	r.children = r.childClasses()
	// The per-reference loop only reads the index built above and writes
	// memos and output, so it runs on every core, each worker with its own
	// memos and output over a contiguous share of the references; the outputs
	// are joined in reference order, as one loop would have made them.
	workers := min(runtime.GOMAXPROCS(0), max(1, len(in.Refs)/2048))
	parts := make([]*resolver, workers)
	partStats := make([]map[fact.RefKind]*KindStats, workers)
	var g errgroup.Group
	for w := range workers {
		lo, hi := w*len(in.Refs)/workers, (w+1)*len(in.Refs)/workers
		wr := *r
		wr.evalMemo, wr.lookMemo, wr.out = map[string][]rtype{}, map[string][]int{}, Output{}
		parts[w] = &wr
		g.Go(func() error {
			st, err := wr.resolveAll(ctx, in.Refs[lo:hi])
			partStats[w] = st
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return Output{}, err
	}
	stats := map[fact.RefKind]*KindStats{}
	for w, p := range parts {
		r.out.Edges = append(r.out.Edges, p.out.Edges...)
		r.out.Unresolved = append(r.out.Unresolved, p.out.Unresolved...)
		for k, ps := range partStats[w] {
			s := stats[k]
			if s == nil {
				s = &KindStats{}
				stats[k] = s
			}
			s.Total += ps.Total
			s.Stated += ps.Stated
			s.Derived += ps.Derived
			s.Unresolved += ps.Unresolved
			s.External += ps.External
		}
	}
	for _, s := range stats {
		s.shares()
	}
	b, err := json.Marshal(stats) // map keys are sorted by encoding/json
	if err != nil {
		return Output{}, err
	}
	r.out.Meta = map[string]string{MetaResolution: string(b)}
	sort.Slice(r.out.Unresolved, func(i, j int) bool { return r.out.Unresolved[i].ID < r.out.Unresolved[j].ID })
	// the same use seen twice (e.g. a name inside a nested expression walked
	// for two purposes) is one unresolved row
	u := r.out.Unresolved
	if len(u) > 0 {
		k := 1
		for i := 1; i < len(u); i++ {
			if u[i].ID != u[k-1].ID {
				u[k] = u[i]
				k++
			}
		}
		r.out.Unresolved = u[:k]
	}
	return r.out, ctx.Err()
}

// resolveAll resolves refs in order and counts the outcomes by kind.
func (r *resolver) resolveAll(ctx context.Context, refs []fact.Ref) (map[fact.RefKind]*KindStats, error) {
	stats := map[fact.RefKind]*KindStats{}
	for i := range refs {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		ref := &refs[i]
		o := r.resolve(ref)
		if o == skip {
			continue
		}
		s := stats[ref.Kind]
		if s == nil {
			s = &KindStats{}
			stats[ref.Kind] = s
		}
		s.Total++
		switch o {
		case stated:
			s.Stated++
		case derived:
			s.Derived++
		case unresolved:
			s.Unresolved++
		case external:
			s.External++
		}
	}
	return stats, nil
}

func round3(f float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 3, 64), 64)
	return v
}

// sources is every resolved edge's Sources, shared: capped at its length, an
// append to it copies.
var sources = []string{Source}

// edge appends an edge at the reference's use site.
func (r *resolver) edge(kind fact.EdgeKind, from, to string, ref *fact.Ref, prov fact.Provenance, conf float64) *fact.Edge {
	if from == "" || to == "" {
		return nil
	}
	r.out.Edges = append(r.out.Edges, fact.Edge{
		ID: fact.EdgeID(kind, from, to, ref.Path, ref.Line), Kind: kind, From: from, To: to,
		Provenance: prov, Confidence: conf, EvidencePath: ref.Path, EvidenceLine: ref.Line,
		Sources: sources[:1:1], Props: map[string]string{"use": string(ref.Kind)},
	})
	return &r.out.Edges[len(r.out.Edges)-1]
}

// edgeProps is edge with one more property, how the edge was found.
func (r *resolver) edgeProps(kind fact.EdgeKind, from, to string, ref *fact.Ref, prov fact.Provenance, conf float64, key, value string) {
	if e := r.edge(kind, from, to, ref, prov, conf); e != nil {
		e.Props[key] = value
	}
}

// throughMixin tells whether method node t was found on none of the receiver
// classes or their parents, traits and interfaces: only through a @mixin.
func (r *resolver) throughMixin(classes []string, t int) bool {
	owner, _, ok := strings.Cut(r.nodes[t].QName, "::")
	if !ok {
		return false
	}
	owner = fact.Lower(owner)
	for _, c := range classes {
		if r.inherits(c, owner, 0) {
			return false
		}
	}
	return true
}

// inherits tells whether class is target or has it among its parents, traits
// and interfaces, transitively (@mixin classes excluded).
func (r *resolver) inherits(class, target string, depth int) bool {
	if class == target {
		return true
	}
	if depth > maxDepth {
		return false
	}
	for _, c := range r.classes[class] {
		for _, list := range [][]string{c.parents, c.traits, c.ifaces} {
			for _, p := range list {
				if r.inherits(p, target, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// globalIn returns the name of the first global variable a receiver
// descriptor starts from ("" for none): the base of an alternative, or of
// one in a group, in the order they are written.
func globalIn(desc typ.Desc) string {
	for _, a := range desc.Alts() {
		switch b := a.Base(); b.Kind {
		case typ.Global:
			return b.Name
		case typ.Group:
			if g := globalIn(b.Group); g != "" {
				return g
			}
		}
	}
	return ""
}

// assignedProp returns the property name when a receiver descriptor (of one
// alternative) ends in a property (`static->registry`) that declares no type
// and is typed by what its class's methods assign to it (props.go), or "".
func (r *resolver) assignedProp(desc typ.Desc) string {
	if len(desc.Alts()) != 1 {
		return ""
	}
	rest, last, ok := desc.Alts()[0].Last()
	if !ok || last.Kind != typ.Prop {
		return ""
	}
	name := last.Name
	for _, c := range r.eval(rest, "", 0) {
		if !c.object() {
			continue
		}
		for _, p := range r.lookupProp(c.class, name) {
			if _, declared := r.propTypes[r.nodes[p].ID]; !declared && len(r.assigned[r.nodes[p].ID]) > 0 {
				return name
			}
		}
	}
	return ""
}

// unresolvedRef records a reference that names nothing known.
func (r *resolver) unresolvedRef(ref *fact.Ref, name, reason string) outcome {
	r.out.Unresolved = append(r.out.Unresolved, fact.Unresolved{
		ID:   unresolvedID(ref, name),
		Kind: ref.Kind, Name: name, From: ref.From, Path: ref.Path, Line: ref.Line, Reason: reason,
	})
	return unresolved
}

// unresolvedID is the id of ref's unresolved row, name the name it reports.
func unresolvedID(ref *fact.Ref, name string) string {
	return "u" + fact.Hash(string(ref.Kind), ref.From, name, ref.Path, strconv.Itoa(ref.Line), strconv.Itoa(ref.Col))
}

// heuristicConfidence is the confidence of a calls_heuristic edge to one of n
// candidates. p is the share of single-candidate heuristic edges judged
// correct on sampled real code (docs/accuracy.md): name matching with an
// unknown receiver (pByName) is right less often than a callback whose name
// or receiver is written out (pNamed). With n candidates at most one is the
// runtime target of a given call, so the probability spreads evenly.
func heuristicConfidence(p float64, n int) float64 {
	return round3(p / float64(n))
}

const (
	pByName = 0.8  // unknown receiver, method picked by name
	pNamed  = 0.9  // callback naming its function, or its method with a typed receiver
	pMagic  = 0.7  // a typed receiver without the method: its class's __call or __callStatic
	pGlobal = 0.95 // a global variable typed by what the project assigns to it (docs/accuracy.md)
	// a receiver typed by one of PHP's interfaces or classes: the project
	// classes that implement the method (docs/accuracy.md)
	pImplements = 0.8
	// $this, self or static in a trait, the method declared by the classes
	// that use the trait (docs/accuracy.md)
	pTraitUser = 0.8
	// a receiver whose class or interface lacks the method: the methods of
	// its subclasses and implementations (docs/accuracy.md)
	pSubclass = 0.8
	// maxCandidates bounds name-matched candidates; more is noise, recorded unresolved.
	maxCandidates = 8
	// maxImplementations bounds the implementations of a method of PHP's
	// own types a call may reach: they are exact, not matched by name, so
	// the bound is wider; past it the call is external.
	maxImplementations = 32
)

func (r *resolver) resolve(ref *fact.Ref) outcome {
	switch ref.Kind {
	case fact.RefReturns, fact.RefPropType, fact.RefDocMethod, fact.RefDocProperty, fact.RefMixin,
		fact.RefTraitAlias, fact.RefDefine, fact.RefGlobal, fact.RefPropAssign:
		return skip
	case fact.RefExtends:
		return r.classTarget(ref, fact.Extends)
	case fact.RefImplements:
		return r.classTarget(ref, fact.Implements)
	case fact.RefUsesTrait:
		return r.classTarget(ref, fact.UsesTrait)
	case fact.RefNew:
		return r.classTarget(ref, fact.Instantiates)
	case fact.RefImportClass:
		return r.classTarget(ref, fact.Imports)
	case fact.RefClassName, fact.RefType, fact.RefDocType, fact.RefInstanceof, fact.RefCatch, fact.RefAttribute:
		return r.classTarget(ref, fact.References)
	case fact.RefCall:
		return r.call(ref)
	case fact.RefImportFunc:
		if ids := r.funcs[fact.Lower(ref.Name)]; len(ids) > 0 {
			for _, i := range ids {
				r.edge(fact.Imports, fact.FileNodeID(ref.Path), r.nodes[i].ID, ref, fact.Stated, 1)
			}
			return stated
		}
		if builtins().funcs[fact.Lower(ref.Name)] {
			return external
		}
		return r.unresolvedRef(ref, ref.Name, "function not found")
	case fact.RefConst, fact.RefImportConst:
		return r.constant(ref)
	case fact.RefMethodCall, fact.RefStaticCall:
		return r.methodCall(ref)
	case fact.RefPropFetch, fact.RefStaticProp:
		return r.member(ref, r.lookupProp, "property")
	case fact.RefClassConst:
		return r.member(ref, r.lookupConst, "constant")
	case fact.RefDynamicCall:
		return r.dynamicCall(ref)
	case fact.RefInclude:
		return r.include(ref)
	case fact.RefMention:
		return r.mention(ref)
	}
	return skip
}

func (r *resolver) classTarget(ref *fact.Ref, kind fact.EdgeKind) outcome {
	defs := r.classes[fact.Lower(ref.Name)]
	if len(defs) == 0 {
		if kind == fact.Imports && r.namespaces[fact.Lower(ref.Name)] {
			return skip // `use A\B as C` naming a namespace
		}
		if builtins().classes[fact.Lower(ref.Name)] {
			return external
		}
		return r.unresolvedRef(ref, ref.Name, "class not found")
	}
	from := ref.From
	if kind == fact.Imports {
		from = fact.FileNodeID(ref.Path)
	}
	for _, c := range defs {
		r.edge(kind, from, r.nodes[c.idx].ID, ref, fact.Stated, 1)
	}
	return stated
}

func (r *resolver) call(ref *fact.Ref) outcome {
	ids := r.funcs[fact.Lower(ref.Name)]
	name := ref.Name
	if len(ids) == 0 && ref.Alt != "" {
		// the global fallback: a project polyfill of a built-in keeps its
		// calls here too, as for a call written in the global namespace
		ids, name = r.funcs[fact.Lower(ref.Alt)], ref.Alt
	}
	if len(ids) == 0 {
		if builtins().funcs[fact.Lower(name)] {
			return external
		}
		return r.unresolvedRef(ref, name, "function not found")
	}
	for _, i := range ids {
		r.edge(fact.Calls, ref.From, r.nodes[i].ID, ref, fact.Stated, 1)
	}
	return stated
}

// constant resolves a constant. A global constant PHP itself declares is
// PHP's, even where the project defines a fallback (`if (!defined('X'))
// define('X', …)`): define() of an existing constant fails. A project
// function of a built-in name, by contrast, keeps its calls: it is the
// polyfill the project ships, and callers are worth seeing there.
func (r *resolver) constant(ref *fact.Ref) outcome {
	if global := strings.TrimPrefix(ref.Name, `\`); !strings.Contains(global, `\`) && builtins().consts[global] {
		return external
	}
	ids := r.consts[ref.Name]
	name := ref.Name
	if len(ids) == 0 && ref.Alt != "" {
		if builtins().consts[ref.Alt] {
			return external // the global fallback finds PHP's own first
		}
		ids, name = r.consts[ref.Alt], ref.Alt
	}
	if len(ids) == 0 {
		if builtins().consts[name] || builtins().consts[ref.Name] {
			return external
		}
		return r.unresolvedRef(ref, name, "constant not found")
	}
	from := ref.From
	kind := fact.References
	if ref.Kind == fact.RefImportConst {
		from, kind = fact.FileNodeID(ref.Path), fact.Imports
	}
	for _, i := range ids {
		r.edge(kind, from, r.nodes[i].ID, ref, fact.Stated, 1)
	}
	return stated
}

// receiver evaluates a reference's receiver and sorts the classes into
// project classes and the rest.
func (r *resolver) receiver(ref *fact.Ref) (project, builtin []string, missing bool) {
	for _, c := range r.eval(ref.Recv, "", 0) {
		switch {
		case c.dims > 0:
		case c.outside:
			missing = true
		case r.classes[c.class] != nil:
			project = append(project, c.class)
		case builtins().classes[c.class]:
			builtin = append(builtin, c.class)
		default:
			missing = true
		}
	}
	return project, builtin, missing
}

func (r *resolver) methodCall(ref *fact.Ref) outcome {
	if ref.Props[fact.PropAnonMethod] == "true" {
		return r.unresolvedRef(ref, ref.Name, "method of an anonymous class, which the index does not hold")
	}
	if !ref.Recv.Known() {
		return r.byName(ref, fact.Lower(ref.Name), pByName, "unknown receiver")
	}
	classes, builtin, missing := r.receiver(ref)
	var targets []int
	for _, c := range classes {
		targets = append(targets, r.lookupMethod(c, fact.Lower(ref.Name))...)
	}
	if len(targets) > 0 {
		targets = dedupInts(targets)
		// wide: typed from what the whole project assigns to a global; g:
		// made on a global variable, typed that way or by an @global tag
		wide := globalIn(ref.Recv)
		g := ref.Props[fact.PropReceiverGlobal]
		if g == "" {
			g = wide
		}
		if wide != "" {
			// a global variable typed by what code across the project
			// assigns to it: which value this call sees depends on what ran
			// before (a test's mock, another entry point), so the methods
			// are candidates, not proven targets; an @global tag at the
			// function is a statement and stays proven
			for _, t := range targets {
				r.edgeProps(fact.CallsHeuristic, ref.From, r.nodes[t].ID, ref, fact.Derived, heuristicConfidence(pGlobal, len(targets)), "receiver", "global $"+g)
			}
			return derived
		}
		via := ""
		if g != "" {
			via = "global $" + g
		} else if p := r.assignedProp(ref.Recv); p != "" {
			via = "assigned ->" + p
		}
		for _, t := range targets {
			e := r.edge(fact.Calls, ref.From, r.nodes[t].ID, ref, fact.Stated, 1)
			if e == nil {
				continue
			}
			if via != "" {
				e.Props["receiver"] = via
			}
			if r.throughMixin(classes, t) {
				e.Props["via"] = "@mixin" // delegated, as the class's @mixin tag says
			}
		}
		return stated
	}
	for _, c := range classes {
		if r.hasDocMethod(c, fact.Lower(ref.Name)) {
			return external
		}
		if _, ok := r.builtinMethod(c, fact.Lower(ref.Name), 0); ok {
			return external // inherited from a built-in class
		}
	}
	switch {
	case len(builtin) > 0 && !missing:
		if len(classes) == 0 && ref.Kind == fact.RefMethodCall && !strings.HasPrefix(ref.Name, "__") {
			return r.implementedCall(ref, builtin)
		}
		return external // static calls (parent::__construct()) bind to PHP's own method
	case len(classes) == 0 && len(builtin) == 0 && !missing:
		return r.byName(ref, fact.Lower(ref.Name), pByName, "receiver type unknown")
	case len(classes) == 0:
		return r.unresolvedRef(ref, ref.Name, "receiver class not found")
	}
	if r.traitUserCall(ref, classes) {
		return derived
	}
	owner := r.qname(classes[0])
	if strings.HasPrefix(ref.Name, "__") {
		// magic methods (a constructor above all) are never dispatched to
		// __call or __callStatic
		return r.unresolvedRef(ref, ref.Name, "method not found on "+owner)
	}
	for _, c := range classes {
		if p := r.foreignAncestor(c, 0); p != "" {
			// most likely inherited from a class the project does not hold
			return r.unresolvedRef(ref, ref.Name, "method not found on "+owner+"; may be inherited from "+p+", outside the project")
		}
	}
	// the magic fallbacks: a method call, or parent::/self::/static:: from an
	// instance method, goes to __call; a static call to __callStatic
	magic := []string{"__callstatic"}
	if ref.Kind == fact.RefMethodCall {
		magic = []string{"__call"}
	} else if ref.Props[fact.PropRelativeScope] == "true" {
		magic = []string{"__call", "__callstatic"}
	}
	for _, c := range classes {
		for _, name := range magic {
			if m := r.lookupMethod(c, name); len(m) > 0 {
				for _, t := range m {
					r.edge(fact.CallsHeuristic, ref.From, r.nodes[t].ID, ref, fact.Derived, heuristicConfidence(pMagic, len(m)))
				}
				return derived
			}
		}
	}
	if ref.Kind == fact.RefMethodCall && r.subclassCall(ref, classes) {
		return derived
	}
	return r.unresolvedRef(ref, ref.Name, "method not found on "+owner)
}

// subclassCall resolves an instance call to a method the receiver's class
// or interface neither declares nor inherits, nor catches with __call
// (`$this->_exec()` in WordPress's ftp_base, which each of its subclasses
// declares): the object is one of a subclass or implementation that has
// it, so their methods are the candidates (calls_heuristic, p =
// pSubclass / n, at most maxImplementations, prop `subclass_of`). It
// reports whether there was one.
func (r *resolver) subclassCall(ref *fact.Ref, classes []string) bool {
	targets, via := r.methodsOfMembers(fact.Lower(ref.Name), classes, r.descendants, r.qname, nil)
	return r.candidateCalls(ref, targets, pSubclass, "subclass_of", via)
}

// descendants lists the project classes and interfaces that extend or
// implement class, directly or not.
func (r *resolver) descendants(class string) []string {
	var out []string
	seen := map[string]bool{class: true}
	stack := slices.Clone(r.children[class])
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, d)
		stack = append(stack, r.children[d]...)
	}
	return out
}

// candidateCalls links ref to each of targets, found exactly (not matched by
// name), as a calls_heuristic candidate of confidence p / n, with prop key
// saying how they were found. It reports false, linking nothing, when there
// are none or more than maxImplementations.
func (r *resolver) candidateCalls(ref *fact.Ref, targets []int, p float64, key, value string) bool {
	targets = dedupInts(targets)
	if len(targets) == 0 || len(targets) > maxImplementations {
		return false
	}
	conf := heuristicConfidence(p, len(targets))
	for _, t := range targets {
		r.edgeProps(fact.CallsHeuristic, ref.From, r.nodes[t].ID, ref, fact.Derived, conf, key, value)
	}
	return true
}

// childClasses maps each class and interface to the project classes and
// interfaces that extend or implement it directly, sorted.
func (r *resolver) childClasses() map[string][]string {
	out := map[string][]string{}
	for _, c := range slices.Sorted(maps.Keys(r.classes)) {
		for _, ci := range r.classes[c] {
			for _, list := range [][]string{ci.parents, ci.ifaces} {
				for _, p := range list {
					if !slices.Contains(out[p], c) {
						out[p] = append(out[p], c)
					}
				}
			}
		}
	}
	return out
}

// implementedCall resolves an instance method call (`->`, never a magic
// method) on a receiver typed only by PHP's own classes and interfaces
// (`$v->jsonSerialize()` after `$v instanceof JsonSerializable`). When PHP
// declares the method there, the call runs the implementation of whatever
// object the receiver holds: one of the project's classes that inherit from
// that type and implement the method, or a class the project does not hold.
// The project's implementations are candidates, at most maxImplementations
// of them; the call stays external otherwise.
func (r *resolver) implementedCall(ref *fact.Ref, builtin []string) outcome {
	name := fact.Lower(ref.Name)
	var declaring []string
	for _, b := range builtin {
		if _, ok := builtins().methods[b+"::"+name]; ok {
			declaring = append(declaring, b)
		}
	}
	targets, via := r.methodsOfMembers(name, declaring, func(b string) []string { return r.implementors[b] }, builtinName,
		func(t int) bool { return !r.abstract(t) })
	if !r.candidateCalls(ref, targets, pImplements, "implements", via) {
		return external
	}
	return derived
}

// methodsOfMembers collects the methods name of the member classes of each
// group (a type's implementations, a trait's users, a class's subclasses)
// that keep accepts (nil: all), and the labels of the groups that gave one,
// joined by "|".
func (r *resolver) methodsOfMembers(name string, groups []string, members func(g string) []string, label func(g string) string, keep func(t int) bool) ([]int, string) {
	var targets []int
	var via []string
	for _, g := range groups {
		found := false
		for _, c := range members(g) {
			for _, t := range r.lookupMethod(c, name) {
				if r.nodes[t].Kind == fact.Method && (keep == nil || keep(t)) {
					targets, found = append(targets, t), true
				}
			}
		}
		if found {
			via = append(via, label(g))
		}
	}
	return targets, strings.Join(via, "|")
}

// qname is the qualified name of project class c (lower-cased FQ key).
func (r *resolver) qname(c string) string {
	return r.nodes[r.classes[c][0].idx].QName
}

// traitUserCall resolves a call on $this, self or static inside a trait to
// a method the trait does not declare (`$this->app->make()` in a trait whose
// using classes declare $app): the method is the using class's, so the
// project classes that use the trait, and declare or inherit the method,
// give its candidates. Classes outside the project may use the trait too,
// so the targets are derived (calls_heuristic, p = pTraitUser / n, prop
// `trait`), never proven. It reports false when classes are not all traits
// or no using class has the method.
func (r *resolver) traitUserCall(ref *fact.Ref, classes []string) bool {
	for _, c := range classes {
		if r.nodes[r.classes[c][0].idx].Kind != fact.Trait {
			return false
		}
	}
	targets, via := r.methodsOfMembers(fact.Lower(ref.Name), classes, func(c string) []string { return r.traitUsers[c] }, r.qname, nil)
	return r.candidateCalls(ref, targets, pTraitUser, "trait", via)
}

// usersOfTraits maps each trait to the project classes (not traits) that
// use it, directly or through traits that use it, sorted.
func (r *resolver) usersOfTraits() map[string][]string {
	users := map[string][]string{}
	var add func(class, trait string, depth int)
	add = func(class, trait string, depth int) {
		if depth > maxDepth || slices.Contains(users[trait], class) {
			return
		}
		users[trait] = append(users[trait], class)
		for _, t := range r.classes[trait] {
			for _, tt := range t.traits {
				add(class, tt, depth+1)
			}
		}
	}
	for _, c := range slices.Sorted(maps.Keys(r.classes)) {
		for _, ci := range r.classes[c] {
			if r.nodes[ci.idx].Kind == fact.Trait {
				continue
			}
			for _, t := range ci.traits {
				add(c, t, 0)
			}
		}
	}
	for _, u := range users {
		slices.Sort(u)
	}
	return users
}

// foreignAncestor returns the name of a parent or used trait of class, or of
// its ancestors, that is neither in the project nor built into PHP ("" when
// there is none): a method missing from the project's classes may be
// defined there.
func (r *resolver) foreignAncestor(class string, depth int) string {
	if depth > maxDepth {
		return ""
	}
	for _, c := range r.classes[class] {
		for _, list := range [][]string{c.parents, c.traits} {
			for _, p := range list {
				if r.classes[p] == nil {
					if !builtins().classes[p] {
						return p
					}
					continue
				}
				if f := r.foreignAncestor(p, depth+1); f != "" {
					return f
				}
			}
		}
	}
	return ""
}

// byName links a call with an unknown receiver to every method of that name.
func (r *resolver) byName(ref *fact.Ref, lower string, p float64, reason string) outcome {
	cands := r.methodsByName[lower]
	if len(cands) == 0 || len(cands) > maxCandidates {
		if len(cands) == 0 {
			return r.unresolvedRef(ref, ref.Name, reason+"; no method of that name")
		}
		return r.unresolvedRef(ref, ref.Name, reason+"; "+strconv.Itoa(len(cands))+" candidates")
	}
	conf := heuristicConfidence(p, len(cands))
	for _, t := range cands {
		r.edge(fact.CallsHeuristic, ref.From, r.nodes[t].ID, ref, fact.Derived, conf)
	}
	return derived
}

func (r *resolver) member(ref *fact.Ref, lookup func(class, name string) []int, what string) outcome {
	if !ref.Recv.Known() {
		return r.unresolvedRef(ref, ref.Name, "receiver type unknown")
	}
	classes, builtin, missing := r.receiver(ref)
	var targets []int
	for _, c := range classes {
		targets = append(targets, lookup(c, ref.Name)...)
	}
	if len(targets) > 0 {
		for _, t := range dedupInts(targets) {
			r.edge(fact.References, ref.From, r.nodes[t].ID, ref, fact.Stated, 1)
		}
		return stated
	}
	if what == "property" {
		for _, c := range classes {
			if r.docPropType(c, ref.Name, 0).Known() || r.hasDocProp(c, ref.Name) {
				return external
			}
		}
	}
	switch {
	case len(builtin) > 0 && !missing:
		return external
	case len(classes) == 0 && !missing:
		return r.unresolvedRef(ref, ref.Name, "receiver type unknown")
	case len(classes) == 0:
		return r.unresolvedRef(ref, ref.Name, "receiver class not found")
	}
	if ref.Kind == fact.RefPropFetch && r.magicProperty(ref, classes) {
		return derived
	}
	reason := what + " not found on " + r.qname(classes[0])
	if users := r.declaredByUsers(classes, ref.Name, lookup); len(users) > 0 {
		// a reference must be proven, and classes outside the project may
		// use the trait too; the reason names where the project declares it
		reason += ", a trait; declared by the classes that use it: " + strings.Join(users, ", ")
	}
	return r.unresolvedRef(ref, ref.Name, reason)
}

// declaredByUsers returns the qualified names, at most four, of the members
// named name that the project classes using trait classes[0] declare or
// inherit.
func (r *resolver) declaredByUsers(classes []string, name string, lookup func(class, name string) []int) []string {
	var out []string
	for _, u := range r.traitUsers[classes[0]] {
		for _, t := range lookup(u, name) {
			if q := r.nodes[t].QName; !slices.Contains(out, q) && len(out) < 4 {
				out = append(out, q)
			}
		}
	}
	slices.Sort(out)
	return out
}

// magicProperty links an access to a property the receiver's classes do not
// declare to the magic methods PHP runs for it: __get to read, __set to
// write, both for `.=` and the like. An object of a subclass may declare
// the property, so these are candidates (calls_heuristic, p = pMagic / n for
// n classes' methods), as for __call. It reports whether any class has them.
func (r *resolver) magicProperty(ref *fact.Ref, classes []string) bool {
	var magic []string
	switch ref.Props[fact.PropAccess] {
	case fact.AccessWrite:
		magic = []string{"__set"}
	case fact.AccessReadWrite:
		magic = []string{"__get", "__set"}
	default:
		magic = []string{"__get"}
	}
	found := false
	for _, name := range magic {
		var targets []int
		for _, c := range classes {
			targets = append(targets, r.lookupMethod(c, name)...)
		}
		targets = dedupInts(targets)
		for _, t := range targets {
			r.edge(fact.CallsHeuristic, ref.From, r.nodes[t].ID, ref, fact.Derived, heuristicConfidence(pMagic, len(targets)))
			found = true
		}
	}
	return found
}

func (r *resolver) dynamicCall(ref *fact.Ref) outcome {
	if ref.Name == "" {
		return r.unresolvedRef(ref, ref.Name, "dynamic callee")
	}
	if !ref.Recv.Known() {
		ids := r.funcs[fact.Lower(ref.Name)]
		if len(ids) == 0 {
			if builtins().funcs[fact.Lower(ref.Name)] {
				return external
			}
			return r.unresolvedRef(ref, ref.Name, "callback function not found")
		}
		for _, i := range ids {
			// the callable names its function: a proven reference, a
			// heuristic call (whether and when it runs is not known)
			r.edge(fact.References, ref.From, r.nodes[i].ID, ref, fact.Stated, 1)
			r.edge(fact.CallsHeuristic, ref.From, r.nodes[i].ID, ref, fact.Derived, heuristicConfidence(pNamed, len(ids)))
		}
		return derived
	}
	classes, builtin, _ := r.receiver(ref)
	var targets []int
	for _, c := range classes {
		targets = append(targets, r.lookupMethod(c, fact.Lower(ref.Name))...)
	}
	targets = dedupInts(targets)
	if len(targets) > 0 {
		for _, t := range targets {
			r.edge(fact.References, ref.From, r.nodes[t].ID, ref, fact.Stated, 1)
			r.edge(fact.CallsHeuristic, ref.From, r.nodes[t].ID, ref, fact.Derived, heuristicConfidence(pNamed, len(targets)))
		}
		return derived
	}
	if len(builtin) > 0 {
		return external
	}
	return r.byName(ref, fact.Lower(ref.Name), pByName, "callback receiver unknown")
}

func dedupInts(xs []int) []int {
	if len(xs) < 2 {
		return xs
	}
	sort.Ints(xs)
	out := xs[:1]
	for _, x := range xs[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}
