// This file defines the two shapes of an answer (ARCHITECTURE.md §6):
// detailed, the full facts every operation builds, and concise, which keeps
// per item only its id, path:line, kind and one name, for agents that pay for
// every byte of context. Every operation's arguments embed Output; Call
// renders the concise form of a result that has one (conciser) after the
// operation ran, so stale marks and paging are the same in both shapes.
//
// The facade's default is detailed (the CLI's, and what golden files hold);
// the MCP server sends concise unless the caller asks for detailed.

package facade

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Answer details (the argument detail) and encodings (the argument format).
// The facade builds the detail asked for; the encoding is the transport's:
// text is the compact lines of RenderText, json the envelope.
const (
	FormatConcise  = "concise"
	FormatDetailed = "detailed"
	FormatText     = "text"
	FormatJSON     = "json"
)

// Output is the answer-shape arguments every operation embeds.
type Output struct {
	Detail string `json:"detail,omitempty" jsonschema:"concise (one line per item: path:line, name, kind) or detailed (signatures, containers, evidence chains)"`
	Format string `json:"format,omitempty" jsonschema:"text (compact lines) or json (the answer envelope)"`
}

func (o Output) output() Output { return o }

// formatted is an argument struct that embeds Output.
type formatted interface{ output() Output }

// conciser is a result with a concise form.
type conciser interface{ concise() any }

// checkFormat validates the output arguments and returns the detail; empty
// is detailed. format "concise" or "detailed" is the former spelling of
// detail and still read as it.
func checkFormat(o Output) (string, error) {
	if _, err := checkEnum("format", o.Format, "", FormatText, FormatJSON, FormatConcise, FormatDetailed); err != nil {
		return "", err
	}
	d := o.Detail
	if d == "" && (o.Format == FormatConcise || o.Format == FormatDetailed) {
		d = o.Format
	}
	return checkEnum("detail", d, FormatDetailed, FormatConcise, FormatDetailed)
}

// applyFormat replaces env's result by its concise form when asked for and
// the result has one. A concise envelope keeps every field but two texts a
// model rarely needs: the reason of the capability level (status has it) and
// the time the ledger was checked. An answer without a concise form is the
// same in both formats.
func applyFormat(env *Envelope, format string) {
	if env == nil || format != FormatConcise {
		return
	}
	if c, ok := env.Result.(conciser); ok {
		env.Result = c.concise()
		env.Capability.Reason = ""
		env.Drift.LedgerCheckedAt = ""
		env.concise = true
	}
}

// conciseEnvelope is how a concise answer's envelope is written: a field at
// its default is left out (no drift, provenance index, no stale warnings,
// found, no suggestions, a capability's false flags, the limit asked for),
// so that the envelope costs a small answer little. What an agent must not
// miss is never a default: a stale warning, drift, not_found, truncation and
// its cursor are always written when they hold.
type conciseEnvelope struct {
	Op            string            `json:"op"`
	IndexRev      string            `json:"index_rev"`
	Capability    conciseCapability `json:"capability"`
	Drift         *DriftSummary     `json:"drift,omitempty"`
	Provenance    string            `json:"provenance,omitempty"`
	Limits        conciseLimits     `json:"limits"`
	StaleWarnings []StaleWarning    `json:"stale_warnings,omitempty"`
	NotFound      bool              `json:"not_found,omitempty"`
	Suggest       []Suggestion      `json:"suggest,omitempty"`
	Result        any               `json:"result"`
}

type conciseCapability struct {
	Level       string `json:"level"`
	Dataflow    bool   `json:"dataflow,omitempty"`
	Vectors     bool   `json:"vectors,omitempty"`
	VectorModel string `json:"vector_model,omitempty"`
}

type conciseLimits struct {
	Returned  int    `json:"returned"`
	Total     int    `json:"total"`
	Truncated bool   `json:"truncated,omitempty"`
	Cursor    string `json:"cursor,omitempty"`
}

// MarshalJSON writes a detailed envelope as it is and a concise one as
// conciseEnvelope.
func (e Envelope) MarshalJSON() ([]byte, error) {
	type plain Envelope // without this method
	if !e.concise {
		return marshalNoEscape(plain(e))
	}
	c := conciseEnvelope{
		Op: e.Op, IndexRev: e.IndexRev,
		Capability: conciseCapability{
			Level: e.Capability.Level, Dataflow: e.Capability.Dataflow,
			Vectors: e.Capability.Vectors, VectorModel: e.Capability.VectorModel,
		},
		Limits:        conciseLimits{Returned: e.Limits.Returned, Total: e.Limits.Total, Truncated: e.Limits.Truncated, Cursor: e.Limits.Cursor},
		StaleWarnings: e.StaleWarnings, NotFound: e.NotFound, Suggest: e.Suggest, Result: e.Result,
	}
	if e.Drift.Entries != 0 || e.Drift.Unacked != 0 {
		d := e.Drift
		c.Drift = &d
	}
	if e.Provenance != "index" {
		c.Provenance = e.Provenance
	}
	return marshalNoEscape(c)
}

// marshalNoEscape is json.Marshal without HTML escaping, as every answer is
// encoded (EncodeJSON): code holds <, > and & often.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Brief is one item of a concise answer: the id of what it names, where it
// is (path:line), its kind and one name. For a use or a call, at is the site
// and id, name the definition holding it.
type Brief struct {
	ID      string `json:"id,omitempty"`
	At      string `json:"at"`
	Kind    string `json:"kind"`
	Name    string `json:"name,omitempty"`
	Depth   int    `json:"depth,omitempty"`   // beyond 1 only
	Derived bool   `json:"derived,omitempty"` // inferred, not proven (provenance derived)
	Stale   bool   `json:"stale,omitempty"`   // its lines (or a step of its chain) changed since the revision
	Via     string `json:"via,omitempty"`     // the family declaration a call or use goes through
}

// at is "path:line".
func at(path string, line int) string {
	return path + ":" + strconv.Itoa(line)
}

// parseAt splits "path:line"; ok is false for anything else.
func parseAt(s string) (path string, line int, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n < 0 {
		return "", 0, false
	}
	return s[:i], n, true
}

func briefSymbol(s Symbol) Brief {
	return Brief{ID: s.ID, At: at(s.Path, s.Line), Kind: s.Kind, Name: s.QName, Stale: s.Stale != nil}
}

// briefTarget is the concise form of an answer's target: nil when there is
// none (not found), so that no empty place is cited.
func briefTarget(s Symbol) *Brief {
	if s.ID == "" {
		return nil
	}
	b := briefSymbol(s)
	return &b
}

func briefSymbols(ss []Symbol) []Brief {
	out := make([]Brief, 0, len(ss))
	for _, s := range ss {
		out = append(out, briefSymbol(s))
	}
	return out
}

// SymbolBrief is a definition in concise form: a Brief and its signature,
// the one fact a lookup is usually for.
type SymbolBrief struct {
	Brief
	EndLine   int    `json:"end_line,omitempty"` // the definition's last line, beyond its first
	Signature string `json:"signature,omitempty"`
}

// SymbolConcise is symbol in concise form.
type SymbolConcise struct {
	Symbols []SymbolBrief `json:"symbols"`
}

func (r SymbolResult) concise() any {
	out := SymbolConcise{Symbols: make([]SymbolBrief, 0, len(r.Symbols))}
	for _, s := range r.Symbols {
		sb := SymbolBrief{Brief: briefSymbol(s), Signature: s.Signature}
		if s.EndLine > s.Line {
			sb.EndLine = s.EndLine
		}
		out.Symbols = append(out.Symbols, sb)
	}
	return out
}

// ImplementationBrief is one implementation in concise form: how it relates
// to the target (its first edge), without the evidence chain.
type ImplementationBrief struct {
	Brief
	Relation string `json:"relation"`
}

// ImplementationsConcise is implementations in concise form.
type ImplementationsConcise struct {
	Target          *Brief                `json:"target"`
	Implementations []ImplementationBrief `json:"implementations"`
}

func (r ImplementationsResult) concise() any {
	out := ImplementationsConcise{Target: briefTarget(r.Target), Implementations: make([]ImplementationBrief, 0, len(r.Implementations))}
	for _, im := range r.Implementations {
		b := briefSymbol(im.Symbol)
		b.Derived = im.Provenance == "derived"
		if im.Depth > 1 {
			b.Depth = im.Depth
		}
		out.Implementations = append(out.Implementations, ImplementationBrief{Brief: b, Relation: im.Relation})
	}
	return out
}

// OutlineBrief is a definition of an outline in concise form: its short
// name (the tree says what contains it) and its members.
type OutlineBrief struct {
	Brief
	Children []OutlineBrief `json:"children,omitempty"`
}

// OutlineConcise is outline in concise form.
type OutlineConcise struct {
	Path    string         `json:"path"`
	Lang    string         `json:"lang"`
	Status  string         `json:"status"`
	Lines   int            `json:"lines"`
	Symbols []OutlineBrief `json:"symbols"`
}

func briefOutline(items []OutlineItem) []OutlineBrief {
	out := make([]OutlineBrief, 0, len(items))
	for _, it := range items {
		b := OutlineBrief{Brief: Brief{ID: it.ID, At: at(it.Path, it.Line), Kind: it.Kind, Name: it.Name, Stale: it.Stale != nil}}
		if len(it.Children) > 0 {
			b.Children = briefOutline(it.Children)
		}
		out = append(out, b)
	}
	return out
}

func (r OutlineResult) concise() any {
	return OutlineConcise{Path: r.Path, Lang: r.Lang, Status: r.Status, Lines: r.Lines, Symbols: briefOutline(r.Symbols)}
}

// ReferencesConcise is references in concise form: uses[].at is the use
// site, id and name the definition holding it.
type ReferencesConcise struct {
	Target *Brief  `json:"target"`
	Uses   []Brief `json:"uses"`
}

func (r ReferencesResult) concise() any {
	out := ReferencesConcise{Uses: make([]Brief, 0, len(r.Uses))}
	if r.Target != nil {
		b := briefSymbol(*r.Target)
		out.Target = &b
	}
	for _, u := range r.Uses {
		b := Brief{At: at(u.Path, u.Line), Kind: u.Kind, Derived: u.Provenance == "derived", Stale: u.Stale != nil, Via: u.Via}
		if u.From != nil {
			b.ID, b.Name = u.From.ID, u.From.QName
		}
		out.Uses = append(out.Uses, b)
	}
	return out
}

// CallsConcise is callers or callees in concise form: at is the call site,
// id and name the calling (or called) definition.
type CallsConcise struct {
	Target  *Brief  `json:"target"`
	Stated  []Brief `json:"stated"`
	Derived []Brief `json:"derived"`
}

func (r CallsResult) concise() any {
	calls := func(cs []Call) []Brief {
		out := make([]Brief, 0, len(cs))
		for _, c := range cs {
			b := Brief{ID: c.ID, At: at(c.SitePath, c.SiteLine), Kind: c.Kind, Name: c.QName, Derived: c.Provenance == "derived", Stale: c.Stale != nil, Via: c.Via}
			if c.Depth > 1 {
				b.Depth = c.Depth
			}
			out = append(out, b)
		}
		return out
	}
	return CallsConcise{Target: briefTarget(r.Target), Stated: calls(r.Stated), Derived: calls(r.Derived)}
}

// ImpactFileConcise is one impacted file: at is its first impacted line.
type ImpactFileConcise struct {
	At      string `json:"at"`
	Symbols int    `json:"symbols"`
}

// ImpactBlockConcise is one block of impact in concise form; items are the
// impacted definitions (at is the definition), chains only in detailed.
type ImpactBlockConcise struct {
	Symbols          []Brief             `json:"symbols"`
	SymbolsTotal     int                 `json:"symbols_total"`
	Files            []ImpactFileConcise `json:"files"`
	FilesTotal       int                 `json:"files_total"`
	EntryPoints      []Brief             `json:"entry_points"`
	EntryPointsTotal int                 `json:"entry_points_total"`
	Tables           []Brief             `json:"tables"`
	TablesTotal      int                 `json:"tables_total"`
	Tests            []Brief             `json:"tests"`
}

// ImpactConcise is impact in concise form.
type ImpactConcise struct {
	Targets []Brief            `json:"targets"`
	Depth   int                `json:"depth"`
	Mode    string             `json:"mode"`
	List    string             `json:"list"`
	Hard    ImpactBlockConcise `json:"hard"`
	Soft    ImpactBlockConcise `json:"soft"`
	Cursors map[string]string  `json:"cursors,omitempty"`
	Data    *ImpactDataConcise `json:"data,omitempty"`
	// CoChanged is the co_changed block: files and definitions as
	// "path:line" briefs with "support/with" counts (always derived).
	CoChanged *CoChangedConcise `json:"co_changed,omitempty"`
}

// CoChangedConcise is impact's co_changed block in concise form.
type CoChangedConcise struct {
	Basis   string           `json:"basis,omitempty"`
	With    int              `json:"with"`
	Files   []CoChangedBrief `json:"files,omitempty"`
	Symbols []CoChangedBrief `json:"symbols,omitempty"`
	Reason  string           `json:"reason,omitempty"`
}

// CoChangedBrief is one co-changed file or definition: its place, name,
// and in how many of the target's commits it changed.
type CoChangedBrief struct {
	At      string `json:"at"`
	Name    string `json:"name,omitempty"`
	Support int    `json:"support"`
}

func (c *CoChanged) concise() *CoChangedConcise {
	if c == nil {
		return nil
	}
	out := &CoChangedConcise{Basis: c.Basis, With: c.With, Reason: c.Reason}
	for _, f := range c.Files {
		out.Files = append(out.Files, CoChangedBrief{At: f.Path, Support: f.Support})
	}
	for _, x := range c.Symbols {
		out.Symbols = append(out.Symbols, CoChangedBrief{At: at(x.Path, x.Line), Name: x.QName, Support: x.Support})
	}
	return out
}

// ImpactDataConcise is impact's data block in concise form: each change at
// its first definition with its read count, each read as a Brief (at the
// reading place, id and name the function holding it) with of, the change it
// reads; cut points as "path:line reason".
type ImpactDataConcise struct {
	Status    string              `json:"status"`
	Reason    string              `json:"reason,omitempty"`
	Changed   []DataChangeConcise `json:"changed"`
	Reads     []DataReadConcise   `json:"reads"`
	Total     int                 `json:"total"`
	Truncated bool                `json:"truncated,omitempty"`
	Complete  bool                `json:"complete,omitempty"`
	Cuts      []string            `json:"cuts,omitempty"`
}

// DataChangeConcise is one changed value.
type DataChangeConcise struct {
	At    string `json:"at"`
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	Reads int    `json:"reads"`
	Stale bool   `json:"stale,omitempty"`
}

// DataReadConcise is one read of a changed value.
type DataReadConcise struct {
	Brief
	Of string `json:"of"`
}

func (d *ImpactData) concise() *ImpactDataConcise {
	if d == nil {
		return nil
	}
	out := &ImpactDataConcise{Status: d.Status, Reason: d.Reason, Changed: make([]DataChangeConcise, 0, len(d.Changed)),
		Reads: make([]DataReadConcise, 0, len(d.Reads)), Total: d.Total, Truncated: d.Truncated, Complete: d.Complete}
	for _, c := range d.Changed {
		out.Changed = append(out.Changed, DataChangeConcise{At: at(c.Path, c.Line), Kind: c.Kind, Name: c.Name, Reads: c.Reads, Stale: c.Stale != nil})
	}
	for _, r := range d.Reads {
		name := r.FunctionName
		if name == "" {
			name = r.Location
		}
		b := Brief{ID: r.Function, At: at(r.Path, r.Line), Kind: r.Kind, Name: name, Derived: r.Provenance == "derived", Stale: r.Stale != nil}
		if r.Depth > 1 {
			b.Depth = r.Depth
		}
		out.Reads = append(out.Reads, DataReadConcise{Brief: b, Of: r.Changed})
	}
	for _, c := range d.CutPoints {
		s := c.Reason
		if c.Path != "" {
			s = at(c.Path, c.Line) + " " + s
		}
		out.Cuts = append(out.Cuts, s)
	}
	return out
}

func (r ImpactResult) concise() any {
	items := func(is []ImpactItem) []Brief {
		out := make([]Brief, 0, len(is))
		for _, it := range is {
			b := briefSymbol(it.Symbol)
			if it.Depth > 1 {
				b.Depth = it.Depth
			}
			for _, st := range it.Chain {
				if st.Provenance == "derived" {
					b.Derived = true
				}
			}
			out = append(out, b)
		}
		return out
	}
	block := func(b ImpactBlock) ImpactBlockConcise {
		files := make([]ImpactFileConcise, 0, len(b.Files))
		for _, f := range b.Files {
			files = append(files, ImpactFileConcise{At: at(f.Path, f.Line), Symbols: f.Symbols})
		}
		return ImpactBlockConcise{Symbols: items(b.Symbols), SymbolsTotal: b.SymbolsTotal, Files: files, FilesTotal: b.FilesTotal,
			EntryPoints: items(b.EntryPoints), EntryPointsTotal: b.EntryPointsTotal, Tables: items(b.Tables), TablesTotal: b.TablesTotal,
			Tests: briefSymbols(b.Tests)}
	}
	return ImpactConcise{Targets: briefSymbols(r.Targets), Depth: r.Depth, Mode: r.Mode, List: r.List,
		Hard: block(r.Hard), Soft: block(r.Soft), Cursors: r.Cursors, Data: r.Data.concise(), CoChanged: r.CoChanged.concise()}
}

// SearchConcise is search in concise form, hits best first: a symbol hit is
// named by its qname, a text hit by its first line and has no id.
type SearchConcise struct {
	Query    string  `json:"query"`
	Mode     string  `json:"mode"`
	Fallback string  `json:"fallback,omitempty"`
	Hits     []Brief `json:"hits"`
}

// briefText is the name of a text hit: its first line that holds more than
// comment punctuation, without the comment's leader ("/**", " * ", "//",
// "#"), cut at 60 characters.
func briefText(s string) string {
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimSpace(strings.TrimLeft(l, "/*#"))
		l = strings.TrimSpace(strings.TrimSuffix(l, "*/"))
		if l == "" {
			continue
		}
		if r := []rune(l); len(r) > 60 {
			return string(r[:60]) + "…"
		}
		return l
	}
	return ""
}

func (r SearchResult) concise() any {
	out := SearchConcise{Query: r.Query, Mode: r.Mode, Fallback: r.Fallback, Hits: make([]Brief, 0, len(r.Hits))}
	for _, h := range r.Hits {
		id, name := h.ID, h.QName
		if h.Type == "text" {
			// A chunk's id is taken by no operation: at reaches its lines.
			id, name = "", briefText(h.Text)
		}
		out.Hits = append(out.Hits, Brief{ID: id, At: at(h.Path, h.Line), Kind: h.Kind, Name: name, Stale: h.Stale != nil})
	}
	return out
}

// EntryPointConcise is one entry point with the qualified name of its first
// handler (the expression as written when none resolved).
type EntryPointConcise struct {
	Brief
	Handler string `json:"handler,omitempty"`
}

// EntryPointsConcise is entry_points in concise form.
type EntryPointsConcise struct {
	EntryPoints []EntryPointConcise `json:"entry_points"`
}

func (r EntryPointsResult) concise() any {
	out := EntryPointsConcise{EntryPoints: make([]EntryPointConcise, 0, len(r.EntryPoints))}
	for _, e := range r.EntryPoints {
		c := EntryPointConcise{Brief: Brief{ID: e.ID, At: at(e.Path, e.Line), Kind: e.Kind, Name: e.Name}, Handler: e.Props["handler"]}
		for _, h := range e.Handlers {
			if h.Role == "" {
				c.Handler, c.Derived = h.QName, h.Provenance == "derived"
				break
			}
		}
		out.EntryPoints = append(out.EntryPoints, c)
	}
	return out
}
