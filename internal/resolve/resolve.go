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
// resolve.go holds the entry point, the dispatch by language and by
// reference kind, and the rules for classes, functions and constants;
// calls.go resolves method and dynamic calls (proven targets, then the
// candidates a receiver leaves open); members.go property and class
// constant access; mention.go named mentions; index.go builds the lookup
// tables and the class hierarchy; types.go evaluates the receiver type
// descriptors extractors emit (package typ); includes.go evaluates include
// paths; builtins.go knows PHP's own names, methods and object return types;
// props.go types properties that declare no type from what methods assign;
// globals.go the types of global variables; domain.go, orm.go and derived.go
// the domain facts.
package resolve

import (
	"context"
	"encoding/json"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/ragraf/ragraf/internal/fact"
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
		countOutcome(stats, ref.Kind, o)
	}
	return stats, nil
}

// countOutcome adds one resolved reference of kind to stats.
func countOutcome(stats map[fact.RefKind]*KindStats, kind fact.RefKind, o outcome) {
	s := stats[kind]
	if s == nil {
		s = &KindStats{}
		stats[kind] = s
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
