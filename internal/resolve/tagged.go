// This file links the references of the tree-parsed languages read by the
// tags engine (package lang/tags): JavaScript and TypeScript (one family:
// they import each other), Python, Go and the others.
//
// A reference is stated when the language's scoping proves the target:
// a name declared at the top of the same file (Go: in the same package),
// a name imported from a file of the project (relative ES imports, Python
// modules of the tree, Go packages of the module), a module's member through
// its import binding, and this/self members of the enclosing class. Other
// names are matched by name among the declarations of the same language
// family: calls_heuristic (or a derived edge of the reference's kind) to at
// most maxCandidates candidates, unresolved past that or when nothing
// carries the name.

package resolve

import (
	"context"
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// TaggedSource names the tags resolver in edge provenance.
const TaggedSource = "tags-resolve"

var taggedSources = []string{TaggedSource}

// taggedFamily is the family whose declarations a language's references may
// name: JavaScript and TypeScript import each other.
func taggedFamily(l string) string {
	switch l {
	case "javascript", "typescript":
		return "ecmascript"
	case "c", "cpp":
		return "c"
	}
	return l
}

// TaggedLanguages are the languages the tags resolver links.
var TaggedLanguages = []string{"javascript", "typescript", "python", "go", "java", "csharp", "ruby", "rust", "c", "cpp", "bash",
	"kotlin", "swift", "scala", "lua"}

func init() {
	for _, l := range TaggedLanguages {
		resolvers[l] = resolveTagged
	}
}

// binding is what one imported name of a file stands for.
type binding struct {
	files   []string // the project files of the module; nil when outside the project
	name    string   // the exported name; "*" the module itself
	targets []int    // the declarations a Java or C# import names, found when bound
}

// wildImport is a package or namespace a file imports whole, and where.
type wildImport struct {
	ns  string
	ref *fact.Ref
}

// packageRef is the Name of the import reference stating a file's package
// (Java) or file-scoped namespace (C#): lang/tags.PackageRef.
const packageRef = "<package>"

type taggedResolver struct {
	family  string
	nodes   []fact.Node
	byID    map[string]int
	byName  map[string][]int            // declarations of the family by name
	top     map[string]map[string][]int // file → name → top-level declarations
	members map[string]map[string][]int // container id → name → declarations
	files   map[string]bool             // files of the family
	dirs    map[string][]string         // directory → files of the family (Go packages)
	binds   map[string]map[string]binding
	// Java and C#: declarations by package or namespace, the files of each,
	// each file's package and the packages it imports whole
	ns      map[string]map[string][]int
	nsFiles map[string][]string
	pkgOf   map[string]string
	wild    map[string][]wildImport
	linked  map[[2]string]bool // file pairs an import through a wildcard linked
	out     Output
	stats   map[fact.RefKind]*KindStats
}

func resolveTagged(ctx context.Context, in Input) (Output, error) {
	r := &taggedResolver{family: taggedFamily(in.Lang), byID: map[string]int{}, byName: map[string][]int{},
		top: map[string]map[string][]int{}, members: map[string]map[string][]int{}, files: map[string]bool{},
		dirs: map[string][]string{}, binds: map[string]map[string]binding{}, stats: map[fact.RefKind]*KindStats{},
		ns: map[string]map[string][]int{}, nsFiles: map[string][]string{}, pkgOf: map[string]string{}, wild: map[string][]wildImport{}, linked: map[[2]string]bool{},
		out: Output{Meta: map[string]string{}}}
	for i := range in.Nodes {
		n := &in.Nodes[i]
		if taggedFamily(n.Lang) != r.family {
			continue
		}
		r.nodes = append(r.nodes, *n)
		k := len(r.nodes) - 1
		r.byID[n.ID] = k
		if n.Kind == fact.File {
			r.files[n.Path] = true
			d := path.Dir(n.Path)
			r.dirs[d] = append(r.dirs[d], n.Path)
			continue
		}
		r.byName[n.Name] = append(r.byName[n.Name], k)
		if n.Parent == fact.FileNodeID(n.Path) {
			add(r.top, n.Path, n.Name, k)
		}
		add(r.members, n.Parent, n.Name, k)
	}
	r.packages(in.Refs)
	// imports first: calls read the bindings
	for i := range in.Refs {
		if ref := &in.Refs[i]; ref.Kind == fact.RefImport && ref.Name != packageRef {
			r.count(ref, r.importRef(ref))
		}
	}
	for i := range in.Refs {
		if i%4096 == 0 && ctx.Err() != nil {
			return Output{}, ctx.Err()
		}
		if ref := &in.Refs[i]; ref.Kind != fact.RefImport {
			r.count(ref, r.resolve(ref))
		}
	}
	for _, s := range r.stats {
		s.shares()
	}
	b, err := json.Marshal(r.stats)
	if err != nil {
		return Output{}, err
	}
	r.out.Meta[MetaResolution] = string(b)
	slices.SortFunc(r.out.Unresolved, func(a, b fact.Unresolved) int { return strings.Compare(a.ID, b.ID) })
	r.out.Unresolved = slices.CompactFunc(r.out.Unresolved, func(a, b fact.Unresolved) bool { return a.ID == b.ID })
	return r.out, ctx.Err()
}

func add(m map[string]map[string][]int, k1, k2 string, v int) {
	inner := m[k1]
	if inner == nil {
		inner = map[string][]int{}
		m[k1] = inner
	}
	inner[k2] = append(inner[k2], v)
}

func (r *taggedResolver) count(ref *fact.Ref, o outcome) { countOutcome(r.stats, ref.Kind, o) }

func (r *taggedResolver) edge(kind fact.EdgeKind, from, to string, ref *fact.Ref, prov fact.Provenance, conf float64) {
	if from == "" || to == "" {
		return
	}
	r.out.Edges = append(r.out.Edges, fact.Edge{
		ID: fact.EdgeID(kind, from, to, ref.Path, ref.Line), Kind: kind, From: from, To: to,
		Provenance: prov, Confidence: conf, EvidencePath: ref.Path, EvidenceLine: ref.Line,
		Sources: taggedSources[:1:1], Props: map[string]string{"use": string(ref.Kind)},
	})
}

func (r *taggedResolver) unresolved(ref *fact.Ref, reason string) outcome {
	r.out.Unresolved = append(r.out.Unresolved, fact.Unresolved{
		ID: unresolvedID(ref, ref.Name), Kind: ref.Kind, Name: ref.Name, From: ref.From, Path: ref.Path,
		Line: ref.Line, Reason: reason,
	})
	return unresolved
}

// packages files the declarations of Java and C# by package or namespace:
// a file's top-level declarations belong to its package (Java) or
// file-scoped namespace (C#), the members of a namespace block to the
// block's qualified name.
func (r *taggedResolver) packages(refs []fact.Ref) {
	if r.family != "java" && r.family != "csharp" {
		return
	}
	for i := range refs {
		if ref := &refs[i]; ref.Kind == fact.RefImport && ref.Name == packageRef {
			r.pkgOf[ref.Path] = ref.Qualifier
		}
	}
	for k := range r.nodes {
		n := &r.nodes[k]
		pkg := ""
		if n.Parent == fact.FileNodeID(n.Path) {
			pkg = r.pkgOf[n.Path]
		} else if p, ok := r.byID[n.Parent]; ok && r.nodes[p].Kind == fact.Namespace {
			pkg = r.nodes[p].QName
		}
		if pkg == "" || n.Kind == fact.File {
			continue
		}
		add(r.ns, pkg, n.Name, k)
		if fs := r.nsFiles[pkg]; len(fs) == 0 || fs[len(fs)-1] != n.Path {
			r.nsFiles[pkg] = append(fs, n.Path)
		}
	}
}

// importJVM binds a Java import or a C# using: a package or namespace
// imported whole (`import a.b.*`, `using A.B;`), a type of one (`import
// a.b.C`, `using C = A.B.C;`) or a member of a type (`import a.b.C.D`,
// `import static a.b.C.m`).
func (r *taggedResolver) importJVM(ref *fact.Ref) outcome {
	from := fact.FileNodeID(ref.Path)
	linkFiles := func(files []string) {
		for _, f := range files {
			if f != ref.Path {
				r.edge(fact.Imports, from, fact.FileNodeID(f), ref, fact.Stated, 1)
			}
		}
	}
	if ref.Alt == "*" {
		if _, ok := r.ns[ref.Qualifier]; !ok {
			return external
		}
		// the files are linked when a name is found through the import:
		// a namespace may hold hundreds of files the file never uses
		r.wild[ref.Path] = append(r.wild[ref.Path], wildImport{ref.Qualifier, ref})
		return stated
	}
	t := r.ns[ref.Qualifier][ref.Alt]
	if len(t) == 0 {
		// a member of a type: the qualifier is package.Type
		if i := strings.LastIndexByte(ref.Qualifier, '.'); i > 0 {
			for _, c := range r.filter(r.ns[ref.Qualifier[:i]][ref.Qualifier[i+1:]], fact.NodeKind.IsType) {
				t = append(t, r.members[r.nodes[c].ID][ref.Alt]...)
			}
		}
	}
	if r.binds[ref.Path] == nil {
		r.binds[ref.Path] = map[string]binding{}
	}
	r.binds[ref.Path][ref.Name] = binding{name: ref.Alt, targets: t}
	if len(t) == 0 {
		return external
	}
	var files []string
	for _, k := range t {
		if p := r.nodes[k].Path; !slices.Contains(files, p) {
			files = append(files, p)
		}
	}
	linkFiles(files)
	return stated
}

// inPackage finds name in the packages ref's scope sees without an import:
// its enclosing namespaces and their parents (C#), the file's package, and
// then the packages the file imports whole.
func (r *taggedResolver) inPackage(ref *fact.Ref, name string) []int {
	var scopes []string
	for id, i := ref.From, 0; i < 32; i++ {
		k, ok := r.byID[id]
		if !ok {
			break
		}
		if r.nodes[k].Kind == fact.Namespace {
			scopes = append(scopes, r.nodes[k].QName)
		}
		id = r.nodes[k].Parent
	}
	if p := r.pkgOf[ref.Path]; p != "" {
		scopes = append(scopes, p)
	}
	for _, s := range scopes {
		for {
			if t := r.ns[s][name]; len(t) > 0 {
				return t
			}
			i := strings.LastIndexByte(s, '.')
			if i < 0 || r.family == "java" { // Java's packages do not nest
				break
			}
			s = s[:i]
		}
	}
	var out []int
	for _, w := range r.wild[ref.Path] {
		t := r.ns[w.ns][name]
		for _, k := range t {
			to := r.nodes[k].Path
			if key := [2]string{ref.Path, to}; to != ref.Path && !r.linked[key] {
				r.linked[key] = true
				r.edge(fact.Imports, fact.FileNodeID(ref.Path), fact.FileNodeID(to), w.ref, fact.Stated, 1)
			}
		}
		out = append(out, t...)
	}
	return out
}

// importRef binds ref's local name in its file and links the file to the
// module's files.
func (r *taggedResolver) importRef(ref *fact.Ref) outcome {
	if r.family == "java" || r.family == "csharp" {
		return r.importJVM(ref)
	}
	files := r.moduleFiles(ref.Path, ref.Qualifier)
	if r.binds[ref.Path] == nil {
		r.binds[ref.Path] = map[string]binding{}
	}
	b := binding{files: files, name: ref.Alt}
	if len(files) == 0 && ref.Alt != "*" {
		// `from pkg import mod`: the name may be a module of the package
		if sub := r.moduleFiles(ref.Path, joinModule(ref.Qualifier, ref.Alt)); len(sub) > 0 {
			b = binding{files: sub, name: "*"}
			files = sub
		}
	}
	r.binds[ref.Path][ref.Name] = b
	if len(files) == 0 {
		return external
	}
	from := fact.FileNodeID(ref.Path)
	for _, f := range files {
		if f != ref.Path {
			r.edge(fact.Imports, from, fact.FileNodeID(f), ref, fact.Stated, 1)
		}
	}
	return stated
}

// joinModule names the submodule name of module m (Python).
func joinModule(m, name string) string {
	if strings.HasSuffix(m, ".") {
		return m + name
	}
	return m + "." + name
}

// moduleFiles are the project files module m, as written in file from,
// stands for; nil when it is not in the project.
func (r *taggedResolver) moduleFiles(from, m string) []string {
	switch r.family {
	case "ecmascript":
		if !strings.HasPrefix(m, ".") {
			return nil
		}
		base := path.Join(path.Dir(from), m)
		stem := strings.TrimSuffix(base, path.Ext(base))
		for _, c := range []string{base, base + ".ts", base + ".tsx", base + ".d.ts", base + ".js", base + ".jsx",
			base + ".mjs", base + ".cjs", stem + ".ts", stem + ".tsx", base + "/index.ts", base + "/index.tsx",
			base + "/index.js", base + "/index.jsx"} {
			if r.files[c] {
				return []string{c}
			}
		}
	case "python":
		rel := m
		dir := ""
		if strings.HasPrefix(m, ".") {
			dots := len(m) - len(strings.TrimLeft(m, "."))
			dir = path.Dir(from)
			for range dots - 1 {
				dir = path.Dir(dir)
			}
			rel = m[dots:]
		}
		p := strings.ReplaceAll(rel, ".", "/")
		for _, c := range []string{path.Join(dir, p+".py"), path.Join(dir, p, "__init__.py")} {
			if r.files[c] {
				return []string{c}
			}
		}
		if dir == "" && p != "" {
			// an absolute module below a source root (src/pkg/mod.py)
			var found []string
			for f := range r.files {
				if strings.HasSuffix(f, "/"+p+".py") || strings.HasSuffix(f, "/"+p+"/__init__.py") {
					found = append(found, f)
				}
			}
			if len(found) == 1 {
				return found
			}
		}
	case "go":
		// the longest directory of the tree that ends the import path
		best := ""
		for d := range r.dirs {
			if d != "." && (m == d || strings.HasSuffix(m, "/"+d)) && len(d) > len(best) {
				best = d
			}
		}
		if best != "" {
			var fs []string
			for _, f := range r.dirs[best] {
				if !strings.HasSuffix(f, "_test.go") {
					fs = append(fs, f)
				}
			}
			slices.Sort(fs)
			return fs
		}
	}
	return nil
}

// inFiles are the top-level declarations named name in files.
func (r *taggedResolver) inFiles(files []string, name string) []int {
	var out []int
	for _, f := range files {
		out = append(out, r.top[f][name]...)
	}
	return out
}

// scoped finds name where the file's scope proves it: declared at the top
// of the file (Go: of the package) or imported from a project file.
// bound says the name is an import binding (possibly outside the project).
func (r *taggedResolver) scoped(ref *fact.Ref, name string) (targets []int, bound bool) {
	if b, ok := r.binds[ref.Path][name]; ok {
		if len(b.targets) > 0 {
			return b.targets, true
		}
		if b.name == "*" || len(b.files) == 0 {
			return nil, true
		}
		t := r.inFiles(b.files, b.name)
		if len(t) == 0 && b.name == "default" {
			t = r.inFiles(b.files, name)
		}
		return t, true
	}
	if t := r.top[ref.Path][name]; len(t) > 0 {
		return t, false
	}
	switch r.family {
	case "go":
		return r.inFiles(r.dirs[path.Dir(ref.Path)], name), false
	case "java", "csharp":
		return r.inPackage(ref, name), false
	}
	return nil, false
}

// module finds member name of the module recv is bound to in the file;
// bound says recv is a module binding, inProject that the module is the
// project's.
func (r *taggedResolver) module(ref *fact.Ref) (targets []int, bound, inProject bool) {
	b, ok := r.binds[ref.Path][ref.Qualifier]
	if !ok || b.name != "*" {
		return nil, false, false
	}
	return r.inFiles(b.files, ref.Name), true, len(b.files) > 0
}

// typeMembers are the methods named ref.Name of the type ref's qualifier
// names in the file's scope, or of the qualifier's type when the front end
// knows it (Alt: `const x = new Foo()`, `x: Foo`).
func (r *taggedResolver) typeMembers(ref *fact.Ref) []int {
	q := ref.Qualifier
	if ref.Alt != "" {
		q = ref.Alt
	}
	if q == "" || strings.ContainsAny(q, ".") {
		return nil
	}
	ts, _ := r.scoped(ref, q)
	var out []int
	for _, c := range r.filter(ts, fact.NodeKind.IsType) {
		out = append(out, r.filter(r.members[r.nodes[c].ID][ref.Name], isMethod)...)
	}
	return out
}

// enclosingType is the id of the class-like declaration around from.
func (r *taggedResolver) enclosingType(from string) string {
	for range 32 {
		k, ok := r.byID[from]
		if !ok {
			return ""
		}
		if r.nodes[k].Kind.IsType() {
			return from
		}
		from = r.nodes[k].Parent
	}
	return ""
}

// callable keeps the candidates a kind of reference may name.
func (r *taggedResolver) filter(ts []int, keep func(fact.NodeKind) bool) []int {
	var out []int
	for _, t := range ts {
		if keep(r.nodes[t].Kind) {
			out = append(out, t)
		}
	}
	return out
}

func isCallable(k fact.NodeKind) bool { return k == fact.Function || k == fact.Method || k.IsType() }
func isFunc(k fact.NodeKind) bool     { return k == fact.Function || k.IsType() }
func isMethod(k fact.NodeKind) bool   { return k == fact.Method }

// link adds the edges of ref to targets: for a call, calls (or instantiates
// when the target is a class); for the others, kind.
func (r *taggedResolver) link(ref *fact.Ref, kind fact.EdgeKind, targets []int, prov fact.Provenance, conf float64) {
	for _, t := range targets {
		k := kind
		if k == fact.Calls || k == fact.CallsHeuristic {
			if r.nodes[t].Kind.IsType() {
				k = fact.Instantiates
			}
		}
		r.edge(k, ref.From, r.nodes[t].ID, ref, prov, conf)
	}
}

// byNameOf links ref by name among the candidates keep allows.
func (r *taggedResolver) byNameOf(ref *fact.Ref, kind fact.EdgeKind, keep func(fact.NodeKind) bool) outcome {
	c := r.filter(r.byName[ref.Name], keep)
	switch {
	case len(c) == 0:
		return r.unresolved(ref, "no declaration named "+ref.Name+" in the project's "+r.family+" files")
	case len(c) > maxCandidates:
		return r.unresolved(ref, "ambiguous: more than 8 declarations named "+ref.Name)
	}
	if kind == fact.Calls {
		kind = fact.CallsHeuristic
	}
	r.link(ref, kind, c, fact.Derived, heuristicConfidence(pByName, len(c)))
	return derived
}

func (r *taggedResolver) resolve(ref *fact.Ref) outcome {
	switch ref.Kind {
	case fact.RefCall:
		if t, bound := r.scoped(ref, ref.Name); len(t) > 0 {
			r.link(ref, fact.Calls, r.filter(t, isCallable), fact.Stated, 1)
			return stated
		} else if bound {
			return external
		}
		if r.family == "java" || r.family == "csharp" {
			// a bare call names a method of the enclosing class
			if c := r.enclosingType(ref.From); c != "" {
				if t := r.filter(r.members[c][ref.Name], isMethod); len(t) > 0 {
					r.link(ref, fact.Calls, t, fact.Stated, 1)
					return stated
				}
			}
		}
		return r.byNameOf(ref, fact.Calls, isFunc)
	case fact.RefMethodCall:
		if t, bound, in := r.module(ref); bound {
			if !in {
				return external
			}
			if len(t) == 0 {
				return r.unresolved(ref, "module "+ref.Qualifier+" declares no "+ref.Name)
			}
			r.link(ref, fact.Calls, r.filter(t, isCallable), fact.Stated, 1)
			return stated
		}
		if _, ok := r.binds[ref.Path][ref.Qualifier]; ok && r.family == "go" {
			return external // a package outside the module
		}
		// a static call through a type the scope names (Foo.bar()) or a
		// call on a variable of such a type
		if t := r.typeMembers(ref); len(t) > 0 {
			r.link(ref, fact.Calls, t, fact.Stated, 1)
			return stated
		}
		switch ref.Qualifier {
		case "this", "self", "cls", "super":
			if c := r.enclosingType(ref.From); c != "" {
				if t := r.filter(r.members[c][ref.Name], isMethod); len(t) > 0 {
					r.link(ref, fact.Calls, t, fact.Stated, 1)
					return stated
				}
			}
		}
		// a member of the enclosing type with that name is the likeliest
		if c := r.enclosingType(ref.From); c != "" {
			if t := r.filter(r.members[c][ref.Name], isMethod); len(t) > 0 {
				r.link(ref, fact.CallsHeuristic, t, fact.Derived, heuristicConfidence(pByName, len(t)))
				return derived
			}
		}
		return r.byNameOf(ref, fact.Calls, isMethod)
	case fact.RefNew, fact.RefExtends, fact.RefImplements, fact.RefType:
		kind := map[fact.RefKind]fact.EdgeKind{fact.RefNew: fact.Instantiates, fact.RefExtends: fact.Extends,
			fact.RefImplements: fact.Implements, fact.RefType: fact.References}[ref.Kind]
		if ref.Qualifier != "" {
			if t, bound, in := r.module(ref); bound {
				if !in {
					return external
				}
				if t = r.filter(t, fact.NodeKind.IsType); len(t) == 0 {
					return r.unresolved(ref, "module "+ref.Qualifier+" declares no type "+ref.Name)
				}
				r.link(ref, kind, t, fact.Stated, 1)
				return stated
			}
			if _, ok := r.binds[ref.Path][ref.Qualifier]; ok {
				return external
			}
		}
		if t, bound := r.scoped(ref, ref.Name); len(t) > 0 {
			if t = r.filter(t, fact.NodeKind.IsType); len(t) > 0 {
				r.link(ref, kind, t, fact.Stated, 1)
				return stated
			}
		} else if bound {
			return external
		}
		return r.byNameOf(ref, kind, fact.NodeKind.IsType)
	}
	return r.unresolved(ref, "reference kind "+string(ref.Kind)+" is not linked for "+r.family)
}
