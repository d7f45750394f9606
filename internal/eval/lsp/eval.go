// Package lsp measures ragraf's semantic answers against an independent
// language server: it starts the server over stdio on an indexed corpus,
// samples declarations deterministically, asks the server for references at
// each declaration and for the definition at ragraf's use sites, and reports
// precision, recall and definition agreement with every disagreement.
//
// client.go is the JSON-RPC client; this file samples, asks and scores.
package lsp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/resolve"
	"github.com/ragraf/ragraf/internal/rev"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// Options configure one evaluation.
type Options struct {
	Server  string        // shell command that starts the server on stdio
	Corpus  string        // indexed project directory
	Sample  int           // declarations sampled
	Seed    uint64        // sampling seed
	Symbols []string      // qualified names to evaluate instead of a sample
	Timeout time.Duration // longest wait for the server's indexing
	Stderr  io.Writer     // server stderr
	Config  json.RawMessage
	// Family says which methods' uses count as a method's references:
	// "component" (its whole override component, siblings included) or
	// "chain" (what it overrides and what overrides it, transitively).
	Family string
}

// CheckFamily refuses an Options.Family other than "component" and "chain".
func CheckFamily(f string) error {
	if f != "component" && f != "chain" {
		return fmt.Errorf("--family %q: want component or chain", f)
	}
	return nil
}

// SetDefaults fills zero fields.
func (o *Options) SetDefaults() {
	if o.Sample == 0 {
		o.Sample = 200
	}
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Minute
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	if o.Family == "" {
		o.Family = "component"
	}
	if o.Config == nil {
		// intelephense: index big generated files too, as ragraf does
		o.Config = json.RawMessage(`{"files":{"maxSize":10000000},"diagnostics":{"enable":false}}`)
	}
}

// Score counts one symbol kind's agreement.
type Score struct {
	Symbols   int `json:"symbols"`
	Agree     int `json:"refs_agree"`  // use sites both report
	Ragraf    int `json:"refs_ragraf"` // use sites ragraf reports
	Server    int `json:"refs_server"` // use sites the server reports
	DefAsked  int `json:"defs_asked"`
	DefAgree  int `json:"defs_agree"`
	DefSilent int `json:"defs_server_silent"` // asked sites where the server gave no definition at all
	// ExtraGlobal counts the sites only ragraf reports whose call is typed
	// through a global variable (`global $x`, `$GLOBALS['x']`), which
	// servers do not type; MissingHeuristic the sites only the server
	// reports where ragraf holds a heuristic edge to the symbol.
	ExtraGlobal      int `json:"refs_extra_global"`
	ExtraAlias       int `json:"refs_extra_alias"`    // ragraf-only uses of a class under another name: a `use … as` alias, self, static
	ExtraAssigned    int `json:"refs_extra_assigned"` // ragraf-only calls on an untyped property typed from its assignments
	ExtraFamily      int `json:"refs_extra_family"`   // ragraf-only uses of another method of the override family
	ExtraString      int `json:"refs_extra_string"`   // ragraf-only references by a name in a string (callbacks, function_exists)
	ExtraMixin       int `json:"refs_extra_mixin"`    // ragraf-only calls found through a @mixin tag
	MissingHeuristic int `json:"refs_missing_heuristic"`
	// MissingString counts server-only sites where the name is written only
	// inside string literals (a hook name, a container key): no use of the
	// declaration in PHP's semantics unless the string is called, which is
	// what ragraf's heuristic callback edges cover.
	MissingString int `json:"refs_missing_string"`
	// AliasAsked counts the `use … as` aliases the server was asked for
	// references at, besides the declarations (aliasUses).
	AliasAsked int `json:"alias_queries"`
	// Regrown counts the references requests whose answer grew when the
	// same request was repeated (references), and the definition requests
	// answered only when asked again.
	Regrown     int     `json:"answers_regrown"`
	Precision   float64 `json:"precision"`
	Recall      float64 `json:"recall"`
	DefAgreeing float64 `json:"definition_agreement"`
	// DefAnswered is the agreement over the sites where the server gave a
	// definition: a silent server is not a different answer.
	DefAnswered float64 `json:"definition_agreement_answered"`
	// PrecisionExplained is the precision with the explained extras left
	// out: calls on receivers the server does not type (global variables,
	// untyped properties), uses through aliases, uses of other members of
	// the override family (which servers list for some families only),
	// names in strings that ragraf links, calls through @mixin.
	PrecisionExplained float64 `json:"precision_without_explained"`
	// RecallCode is the recall over the server's sites that are code, the
	// string-literal-only sites left out.
	RecallCode float64 `json:"recall_without_strings"`
}

func (s *Score) finish() {
	s.Precision, s.Recall, s.DefAgreeing = ratio(s.Agree, s.Ragraf), ratio(s.Agree, s.Server), ratio(s.DefAgree, s.DefAsked)
	s.DefAnswered = ratio(s.DefAgree, s.DefAsked-s.DefSilent)
	s.PrecisionExplained = ratio(s.Agree, s.Ragraf-s.ExtraGlobal-s.ExtraAlias-s.ExtraAssigned-s.ExtraFamily-s.ExtraString-s.ExtraMixin)
	s.RecallCode = ratio(s.Agree, s.Server-s.MissingString)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// Disagreement is one place where ragraf and the server differ.
type Disagreement struct {
	What   string `json:"what"` // missing (server only), extra (ragraf only), definition
	Symbol string `json:"symbol"`
	Kind   string `json:"kind"`
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Detail string `json:"detail"`
	Cause  string `json:"cause,omitempty"` // what ragraf knows of the difference, when it knows
}

// Report is the outcome of an evaluation.
type Report struct {
	Server   string `json:"server"`
	Corpus   string `json:"corpus"`
	Revision string `json:"revision"`
	Seed     uint64 `json:"seed"`
	// ServerIndexSeconds is how long the server took from initialize to
	// reporting that indexing ended; 0 when it reported nothing.
	ServerIndexSeconds float64           `json:"server_index_seconds"`
	Total              Score             `json:"total"`
	ByKind             map[string]*Score `json:"by_kind"`
	Disagreements      []Disagreement    `json:"disagreements"`
}

// refEdgeKinds are the edges read at a declaration: the stated ones count as
// its references, a heuristic one only explains a site the server reports.
var refEdgeKinds = []string{
	string(fact.Calls), string(fact.References), string(fact.Instantiates), string(fact.Extends),
	string(fact.Implements), string(fact.UsesTrait), string(fact.Imports), string(fact.CallsHeuristic),
}

type site struct {
	path string
	line int
}

// Run evaluates the corpus against the server.
func Run(ctx context.Context, opts Options) (*Report, error) {
	opts.SetDefaults()
	if err := CheckFamily(opts.Family); err != nil {
		return nil, err
	}
	root, err := filepath.Abs(opts.Corpus)
	if err != nil {
		return nil, err
	}
	l := rev.Layout{Root: root}
	name, err := l.CurrentRev()
	if err != nil {
		return nil, fmt.Errorf("corpus %s must be indexed first: %w", root, err)
	}
	st, err := graph.Open(ctx, filepath.Join(l.Rev(name), rev.GraphDB))
	if err != nil {
		return nil, err
	}
	defer st.Close()
	sample, err := sampleNodes(ctx, st, opts.Sample, opts.Seed)
	if len(opts.Symbols) > 0 {
		sample, err = namedNodes(ctx, st, opts.Symbols)
	}
	if err != nil {
		return nil, err
	}
	c, err := Start(ctx, opts.Server, root, opts.Config, opts.Stderr)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	rootURI := fileURI(root)
	init := initializeParams{RootURI: rootURI, RootPath: root,
		WorkspaceFolders:      []workspaceFolder{{URI: rootURI, Name: filepath.Base(root)}},
		InitializationOptions: initOptions{StoragePath: filepath.Join(os.TempDir(), "ragraf-eval-lsp"), ClearCache: true}}
	init.Capabilities.Workspace.Configuration = true
	init.Capabilities.Workspace.WorkspaceFolders = true
	init.Capabilities.Window.WorkDoneProgress = true
	start := time.Now()
	if err := c.Call(ctx, "initialize", init, nil); err != nil {
		return nil, err
	}
	if err := c.Notify("initialized", struct{}{}); err != nil {
		return nil, err
	}
	indexed, err := c.WaitIndexed(ctx, opts.Timeout, 2*time.Second)
	if err != nil {
		return nil, err
	}
	e := &evaluator{c: c, root: root, st: st, files: map[string][]string{}, opened: map[string]bool{}, chain: opts.Family == "chain"}
	rep := &Report{Server: opts.Server, Corpus: root, Revision: name, Seed: opts.Seed, ByKind: map[string]*Score{}}
	if !indexed.IsZero() {
		rep.ServerIndexSeconds = math.Round(indexed.Sub(start).Seconds()*1000) / 1000
	}
	for _, n := range sample {
		kind := kindOf(n.Kind)
		s := rep.ByKind[kind]
		if s == nil {
			s = &Score{}
			rep.ByKind[kind] = s
		}
		if err := e.symbol(ctx, n, kind, s, rep); err != nil {
			return nil, err
		}
	}
	for _, s := range rep.ByKind {
		s.finish()
		rep.Total.Symbols += s.Symbols
		rep.Total.Agree += s.Agree
		rep.Total.Ragraf += s.Ragraf
		rep.Total.Server += s.Server
		rep.Total.DefAsked += s.DefAsked
		rep.Total.DefAgree += s.DefAgree
		rep.Total.DefSilent += s.DefSilent
		rep.Total.ExtraGlobal += s.ExtraGlobal
		rep.Total.ExtraAlias += s.ExtraAlias
		rep.Total.ExtraAssigned += s.ExtraAssigned
		rep.Total.ExtraFamily += s.ExtraFamily
		rep.Total.ExtraString += s.ExtraString
		rep.Total.ExtraMixin += s.ExtraMixin
		rep.Total.MissingHeuristic += s.MissingHeuristic
		rep.Total.MissingString += s.MissingString
		rep.Total.AliasAsked += s.AliasAsked
		rep.Total.Regrown += s.Regrown
	}
	rep.Total.finish()
	return rep, nil
}

func kindOf(k fact.NodeKind) string {
	if k.IsType() {
		return "class"
	}
	return string(k)
}

// sampleNodes picks n declarations (classes, methods, functions, constants)
// in a seed-determined order that does not depend on the build.
func sampleNodes(ctx context.Context, st *graph.Store, n int, seed uint64) ([]fact.Node, error) {
	all, err := st.AllNodes(ctx, fact.Class, fact.Interface, fact.Trait, fact.Enum, fact.Method, fact.Function, fact.Constant)
	if err != nil {
		return nil, err
	}
	var nodes []fact.Node
	for _, nd := range all {
		if nd.Lang != "php" || nd.Kind == fact.Method && strings.HasPrefix(nd.Name, "__") {
			continue
		}
		nodes = append(nodes, nd)
	}
	return bottomK(nodes, n, seed), nil
}

// bottomK returns the n nodes whose ids hash lowest under seed, ordered by
// that hash. A node added to or removed from the index changes the sample
// only if it is, or was, among them: two builds that differ in a few
// declarations are measured on the same symbols.
func bottomK(nodes []fact.Node, n int, seed uint64) []fact.Node {
	key := func(id string) uint64 {
		h := fnv.New64a()
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], seed)
		h.Write(b[:])
		h.Write([]byte(id))
		return h.Sum64()
	}
	keys := make(map[string]uint64, len(nodes))
	for _, nd := range nodes {
		keys[nd.ID] = key(nd.ID)
	}
	sort.Slice(nodes, func(i, j int) bool {
		a, b := keys[nodes[i].ID], keys[nodes[j].ID]
		if a != b {
			return a < b
		}
		return nodes[i].ID < nodes[j].ID
	})
	if len(nodes) > n {
		nodes = nodes[:n]
	}
	return nodes
}

// namedNodes returns the declarations with the given qualified names, in
// that order; a name that matches no declaration is an error.
func namedNodes(ctx context.Context, st *graph.Store, qnames []string) ([]fact.Node, error) {
	all, err := st.AllNodes(ctx, fact.Class, fact.Interface, fact.Trait, fact.Enum, fact.Method, fact.Function, fact.Constant)
	if err != nil {
		return nil, err
	}
	var out []fact.Node
	for _, q := range qnames {
		found := false
		for _, n := range all {
			if strings.EqualFold(n.QName, q) {
				out = append(out, n)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("no class, method, function or constant named %s in the index", q)
		}
	}
	return out, nil
}

type evaluator struct {
	c      *Client
	root   string
	st     *graph.Store
	files  map[string][]string
	opened map[string]bool
	ifaces map[string][]string // class node id -> built-in interfaces it implements
	chain  bool                // Options.Family is "chain"
}

func (e *evaluator) lines(p string) []string {
	if l, ok := e.files[p]; ok {
		return l
	}
	b, err := os.ReadFile(filepath.Join(e.root, filepath.FromSlash(p)))
	var l []string
	if err == nil {
		l = strings.Split(string(b), "\n")
	}
	e.files[p] = l
	return l
}

func (e *evaluator) open(p string) error {
	if e.opened[p] {
		return nil
	}
	e.opened[p] = true
	b, err := os.ReadFile(filepath.Join(e.root, filepath.FromSlash(p)))
	if err != nil {
		return nil
	}
	return e.c.Notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{
		URI: fileURI(filepath.Join(e.root, filepath.FromSlash(p))), LanguageID: "php", Version: 1, Text: string(b)}})
}

// aliasAt returns the alias under which file st.path imports class-like n
// (`use Ns\Pdf as PdfLib;`) when line st writes it, or "".
func (e *evaluator) aliasAt(st site, n fact.Node) string {
	if !n.Kind.IsType() {
		return ""
	}
	re, err := regexp.Compile(`(?i)^\s*use\s+\\?` + regexp.QuoteMeta(n.QName) + `\s+as\s+(\w+)\s*;`)
	if err != nil {
		return ""
	}
	line := e.lineText(st.path, st.line)
	if re.MatchString(line) {
		return "" // the use statement itself
	}
	for _, l := range e.lines(st.path) {
		if m := re.FindStringSubmatch(l); m != nil && wordIndex(line, m[1]) >= 0 {
			return m[1]
		}
	}
	return ""
}

// maxAsks bounds how often one references request is repeated.
const maxAsks = 5

// references asks the server for references until an answer adds nothing
// to the ones before, and returns the union of its answers. A server
// may answer from an index it is still loading: intelephense's first answer
// for WP_REST_Block_Types_Controller::get_item lists 5 uses and the same
// request again 22 (the uses of the whole override family, as it lists for
// each other member). Answers that grew are counted in s.Regrown.
func (e *evaluator) references(ctx context.Context, params referenceParams, s *Score) ([]location, error) {
	var all []location
	seen := map[location]bool{}
	for ask := 1; ; ask++ {
		var locs []location
		if err := e.c.Call(ctx, "textDocument/references", params, &locs); err != nil {
			return nil, err
		}
		grew := false
		for _, l := range locs {
			if !seen[l] {
				seen[l], grew = true, true
				all = append(all, l)
			}
		}
		if ask > 1 && grew {
			s.Regrown++
		}
		if ask > 1 && !grew || ask == maxAsks {
			return all, nil
		}
	}
}

// aliasUses adds to theirs what the server lists at each `use … as` alias
// of n among the sites it listed for n: a server answers references per
// name binding, and the uses written under an alias are the alias's
// (`use Ns\Hasher as HasherContract; new HasherContract()`), so the
// declaration alone does not bring them. Only aliases the server itself
// listed as a use of n are asked.
func (e *evaluator) aliasUses(ctx context.Context, n fact.Node, theirs map[site]bool, s *Score) error {
	if !n.Kind.IsType() && n.Kind != fact.Function && (n.Kind != fact.Constant || isMember(n)) {
		return nil
	}
	sites := slices.SortedFunc(maps.Keys(theirs), func(a, b site) int {
		return cmp.Or(strings.Compare(a.path, b.path), a.line-b.line)
	})
	for _, st := range sites {
		text := e.lineText(st.path, st.line)
		col := aliasColumn(text, n.QName)
		if col < 0 {
			continue
		}
		if err := e.open(st.path); err != nil {
			return err
		}
		locs, err := e.references(ctx, referencesAt(e.root, st.path, positionAt(st.line, text, col)), s)
		if err != nil {
			return err
		}
		s.AliasAsked++
		for _, l := range locs {
			if p := e.rel(l.URI); p != "" {
				theirs[site{p, l.Range.Start.Line + 1}] = true
			}
		}
	}
	return nil
}

// aliasColumn returns the byte column of the alias a `use` statement on
// this line gives qname (`use A\B as C;`, `use function a\b as c, …;`,
// `use A\{X, B as C};`), or -1.
func aliasColumn(text, qname string) int {
	t := strings.TrimLeft(text, " \t")
	if len(t) < 4 || !strings.EqualFold(t[:3], "use") || wordByte(t[3]) {
		return -1
	}
	off := len(text) - len(t) + 3
	body := text[off:]
	if i := strings.IndexByte(body, ';'); i >= 0 {
		body = body[:i]
	}
	prefix := ""
	if i := strings.IndexByte(body, '{'); i >= 0 {
		m := usePrefix.FindStringSubmatch(body[:i])
		if m == nil {
			return -1
		}
		prefix = m[1] + `\`
		off += i + 1
		body = body[i+1:]
		if j := strings.IndexByte(body, '}'); j >= 0 {
			body = body[:j]
		}
	}
	for len(body) > 0 {
		item, rest, more := strings.Cut(body, ",")
		if m := useItem.FindStringSubmatchIndex(item); m != nil && strings.EqualFold(prefix+item[m[2]:m[3]], strings.TrimPrefix(qname, `\`)) {
			return off + m[4]
		}
		if !more {
			break
		}
		off += len(item) + 1
		body = rest
	}
	return -1
}

var (
	usePrefix = regexp.MustCompile(`(?i)^\s*(?:(?:function|const)\s+)?\\?([\w\\]+?)\\\s*$`)
	useItem   = regexp.MustCompile(`(?i)^\s*(?:(?:function|const)\s+)?\\?([\w\\]+)\s+as\s+(\w+)\s*$`)
)

type location struct {
	URI       string `json:"uri"`
	TargetURI string `json:"targetUri"`
	Range     struct {
		Start struct {
			Line int `json:"line"`
		} `json:"start"`
		End struct {
			Line int `json:"line"`
		} `json:"end"`
	} `json:"range"`
	TargetRange struct {
		Start struct {
			Line int `json:"line"`
		} `json:"start"`
	} `json:"targetSelectionRange"`
}

func (e *evaluator) rel(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return ""
	}
	r, err := filepath.Rel(e.root, u.Path)
	if err != nil || strings.HasPrefix(r, "..") {
		return ""
	}
	return filepath.ToSlash(r)
}

func (e *evaluator) symbol(ctx context.Context, n fact.Node, kind string, s *Score, rep *Report) error {
	pos, ok := e.declPosition(n)
	if !ok {
		return nil
	}
	s.Symbols++
	uses, err := e.st.UsesOf(ctx, n.ID, refEdgeKinds...)
	if err != nil {
		return err
	}
	ours := map[site]bool{}
	// a method's references are those of its override family (family)
	family, err := e.familyUses(ctx, n)
	if err != nil {
		return err
	}
	member := map[site]string{} // family member a family use belongs to
	all := make([]graph.Use, 0, len(family)+len(uses))
	for _, x := range family {
		if x.Provenance == string(fact.Stated) {
			member[site{x.Path, x.Line}] = x.Member
		}
		all = append(all, x.Use)
	}
	via := map[site]string{}     // how the receiver was typed, when not locally
	mixin := map[site]bool{}     // calls found only through a @mixin
	own := map[site]bool{}       // sites of n itself, not of its family
	heuristic := map[site]bool{} // sites where ragraf has only a derived edge
	for i, u := range append(all, uses...) {
		st := site{u.Path, u.Line}
		if u.Provenance == string(fact.Stated) {
			ours[st] = true
			own[st] = own[st] || i >= len(family)
			if u.Receiver != "" {
				via[st] = u.Receiver
			}
			if u.Via == "@mixin" {
				mixin[st] = true
			}
		} else {
			heuristic[st] = true
		}
	}
	if err := e.open(n.Path); err != nil {
		return err
	}
	locs, err := e.references(ctx, referencesAt(e.root, n.Path, pos), s)
	if err != nil {
		return err
	}
	theirs := map[site]bool{}
	for _, l := range locs {
		if p := e.rel(l.URI); p != "" {
			st := site{p, l.Range.Start.Line + 1}
			if st.path == n.Path && st.line == pos.Line+1 && kind != "method" {
				continue // the declaration itself: the line of its name, where we asked
			}
			theirs[st] = true
		}
	}
	if err := e.aliasUses(ctx, n, theirs, s); err != nil {
		return err
	}
	for st := range ours {
		s.Ragraf++
		if theirs[st] {
			s.Agree++
		} else {
			d := Disagreement{What: "extra", Symbol: n.QName, Kind: kind, Path: st.path, Line: st.line, Detail: e.snippet(st)}
			switch v := via[st]; {
			case strings.HasPrefix(v, "global "):
				s.ExtraGlobal++
				d.Cause = "receiver is " + v + ", typed by the @global tag of its function; the server does not read @global"
			case strings.HasPrefix(v, "assigned ->"):
				s.ExtraAssigned++
				d.Cause = "receiver is the property " + strings.TrimPrefix(v, "assigned ") + ", which declares no type; ragraf types it from what its class assigns to it, the server does not"
			case mixin[st]:
				s.ExtraMixin++
				d.Cause = "found through the receiver class's @mixin tag; the server does not list calls through a mixin here"
			case !own[st] && member[st] != "":
				s.ExtraFamily++
				m, _, _ := e.st.Node(ctx, member[st])
				d.Cause = "a use of " + m.QName + ", in this method's override family; the server does not list it here"
			}
			line := e.lineText(st.path, st.line)
			if a := e.aliasAt(st, n); d.Cause == "" && a != "" {
				s.ExtraAlias++
				d.Cause = "written under the alias " + a + " (use " + n.QName + " as " + a + "); the server does not list uses through an alias"
			} else if d.Cause == "" && n.Kind.IsType() && wordIndex(line, n.Name) < 0 && (wordIndex(line, "self") >= 0 || wordIndex(line, "static") >= 0) {
				s.ExtraAlias++
				d.Cause = "written as self or static inside the class; the server does not list these"
			} else if d.Cause == "" && n.Kind == fact.Constant && selfInDocType(line, n.Name) {
				s.ExtraAlias++
				d.Cause = "written as self::" + n.Name + " in a PHPDoc type; the server does not list class constants named through self there"
			} else if d.Cause == "" && onlyInStrings(e.lineText(st.path, st.line), n.Name, isMember(n)) {
				s.ExtraString++
				d.Cause = "named in a string literal (a callback, or a function_exists/is_callable check), which ragraf links as a reference"
			}
			rep.Disagreements = append(rep.Disagreements, d)
		}
	}
	for st := range theirs {
		s.Server++
		if !ours[st] {
			d := Disagreement{What: "missing", Symbol: n.QName, Kind: kind, Path: st.path, Line: st.line, Detail: e.snippet(st)}
			if heuristic[st] {
				s.MissingHeuristic++
				d.Cause = "ragraf has a heuristic edge here, not a proven one"
			} else if onlyInStrings(e.lineText(st.path, st.line), n.Name, isMember(n)) {
				s.MissingString++
				d.Cause = "the name is only inside a string literal on this line (a hook name or a container key), not a use of the " + kind
			} else if n.Kind == fact.Constant && !isMember(n) && resolve.IsBuiltinConstant(n.Name) {
				d.Cause = "PHP declares this constant too; ragraf links its uses to PHP's, since the project's define() runs only where PHP lacks it"
			}
			rep.Disagreements = append(rep.Disagreements, d)
		}
	}
	// definition at up to two of ragraf's own use sites
	asked := 0
	for _, u := range uses {
		if asked == 2 || u.Provenance != string(fact.Stated) || u.Kind == string(fact.Imports) {
			continue
		}
		p, ok := e.usePosition(u.Path, u.Line, n)
		if !ok {
			continue
		}
		asked++
		s.DefAsked++
		if err := e.open(u.Path); err != nil {
			return err
		}
		dp := docAt(e.root, u.Path, p)
		var defs []location
		for ask := 1; ask <= 2 && len(defs) == 0; ask++ {
			// a silent answer is asked again, as a partial references
			// answer is (references)
			var raw json.RawMessage
			if err := e.c.Call(ctx, "textDocument/definition", dp, &raw); err != nil {
				return err
			}
			if defs = decodeLocations(raw); ask > 1 && len(defs) > 0 {
				s.Regrown++
			}
		}
		agree := false
		var got []string
		for _, d := range defs {
			uri, line, end := d.URI, d.Range.Start.Line, d.Range.End.Line
			if uri == "" {
				uri, line, end = d.TargetURI, d.TargetRange.Start.Line, d.TargetRange.Start.Line
			}
			rp := e.rel(uri)
			got = append(got, fmt.Sprintf("%s:%d", rp, line+1))
			// servers give the declaration with its docblock; ranges overlap
			if rp == n.Path && line+1 <= n.EndLine && end+1 >= n.StartLine {
				agree = true
			}
		}
		if len(defs) == 0 {
			s.DefSilent++
		}
		if agree {
			s.DefAgree++
		} else {
			d := Disagreement{What: "definition", Symbol: n.QName, Kind: kind, Path: u.Path, Line: u.Line,
				Detail: fmt.Sprintf("ragraf %s:%d, server %s | %s", n.Path, n.StartLine, strings.Join(got, ","), e.snippet(site{u.Path, u.Line}))}
			if len(defs) == 0 && u.Receiver != "" {
				d.Cause = "the server answers nothing on a receiver it does not type (" + u.Receiver + ")"
			} else if len(defs) == 0 && u.Via == "@mixin" {
				d.Cause = "found through the receiver class's @mixin tag; the server answers nothing there"
			} else if len(defs) == 0 && n.Kind == fact.Constant && selfInDocType(e.lineText(u.Path, u.Line), n.Name) {
				d.Cause = "self::" + n.Name + " in a PHPDoc type; the server answers nothing there"
			}
			rep.Disagreements = append(rep.Disagreements, d)
		}
	}
	return nil
}

func decodeLocations(raw json.RawMessage) []location {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var many []location
	if raw[0] == '[' {
		_ = json.Unmarshal(raw, &many)
		return many
	}
	var one location
	_ = json.Unmarshal(raw, &one)
	return []location{one}
}

func (e *evaluator) snippet(s site) string {
	t := strings.TrimSpace(e.lineText(s.path, s.line))
	if len(t) > 140 {
		t = t[:140] + "…"
	}
	return t
}

func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

// Write prints the report as text: totals, per kind, then every disagreement.
func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "server %s\ncorpus %s (%s), seed %d\n", r.Server, r.Corpus, r.Revision, r.Seed)
	if r.ServerIndexSeconds > 0 {
		fmt.Fprintf(w, "server indexed the corpus in %.2f s\n", r.ServerIndexSeconds)
	}
	row := func(name string, s *Score) {
		fmt.Fprintf(w, "%-9s symbols %4d  refs: precision %.4f recall %.4f (agree %d, ragraf %d, server %d)  definition agreement %.4f (%d/%d; %.4f where the server answers, silent at %d)\n",
			name, s.Symbols, s.Precision, s.Recall, s.Agree, s.Ragraf, s.Server, s.DefAgreeing, s.DefAgree, s.DefAsked, s.DefAnswered, s.DefSilent)
	}
	kinds := make([]string, 0, len(r.ByKind))
	for k := range r.ByKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		row(k, r.ByKind[k])
	}
	row("total", &r.Total)
	if r.Total.Regrown > 0 {
		fmt.Fprintf(w, "%d answers grew when the same request was repeated; a references request is repeated until an answer adds nothing, a silent definition request once\n", r.Total.Regrown)
	}
	if r.Total.AliasAsked > 0 {
		fmt.Fprintf(w, "references were also asked at %d `use … as` aliases the server listed as uses\n", r.Total.AliasAsked)
	}
	fmt.Fprintf(w, "ragraf-only sites: %d calls on global variables (the server types none), %d calls on untyped properties typed from their assignments (the server types none), "+
		"%d uses of a class under another name (self, static, an alias the server does not list), %d uses of other methods of the override family, %d names in strings, %d calls through @mixin: precision without them %.4f\n",
		r.Total.ExtraGlobal, r.Total.ExtraAssigned, r.Total.ExtraAlias, r.Total.ExtraFamily, r.Total.ExtraString, r.Total.ExtraMixin, r.Total.PrecisionExplained)
	fmt.Fprintf(w, "server-only sites: %d where the name is only in a string literal (recall without them %.4f), %d where ragraf has a heuristic edge\n",
		r.Total.MissingString, r.Total.RecallCode, r.Total.MissingHeuristic)
	sort.Slice(r.Disagreements, func(i, j int) bool {
		a, b := r.Disagreements[i], r.Disagreements[j]
		if a.What != b.What {
			return a.What < b.What
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	fmt.Fprintf(w, "\n%d disagreements\n", len(r.Disagreements))
	for _, d := range r.Disagreements {
		fmt.Fprintf(w, "%-10s %-8s %s  %s:%d  %s\n", d.What, d.Kind, d.Symbol, d.Path, d.Line, d.Detail)
		if d.Cause != "" {
			fmt.Fprintf(w, "           because: %s\n", d.Cause)
		}
	}
}
