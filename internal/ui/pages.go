// This file fills the data of the overview, search, symbol, entry points,
// revisions and ledger pages, each from facade operations.

package ui

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/ragraf/ragraf/internal/facade"
	"github.com/ragraf/ragraf/internal/rev"
)

// listLimit is the page size the pages ask for: the facade's maximum.
const listLimit = 500

// pageEnv is the envelope facts every page shows in its header.
type pageEnv struct {
	Rev        string
	Capability rev.Capability
	Drift      facade.DriftSummary
	Stale      []facade.StaleWarning
	Truncated  bool
	Total      int
	Cursor     string // the next page's cursor, when there is one
}

func envOf(env *facade.Envelope) pageEnv {
	if env == nil {
		return pageEnv{}
	}
	return pageEnv{Rev: env.IndexRev, Capability: env.Capability, Drift: env.Drift, Stale: env.StaleWarnings,
		Truncated: env.Limits.Truncated, Total: env.Limits.Total, Cursor: env.Limits.Cursor}
}

// count is a name and a number, for sorted tables.
type count struct {
	Name string
	N    int
}

func counts(m map[string]int) []count {
	out := make([]count, 0, len(m))
	for k, v := range m {
		out = append(out, count{k, v})
	}
	slices.SortFunc(out, func(a, b count) int { return cmp.Or(b.N-a.N, strings.Compare(a.Name, b.Name)) })
	return out
}

type langRow struct {
	Lang     string
	ByStatus []count
	Total    int
}

type overviewData struct {
	Env       pageEnv
	Status    facade.StatusResult
	Langs     []langRow
	ByStatus  []count
	Reasons   []count
	Nodes     []count
	Ledger    []count // entries by kind
	Report    *rev.Report
	ReportOf  string
	Revisions int
}

func (s *Server) overview(r *http.Request) (any, error) {
	ctx := r.Context()
	var d overviewData
	env, st, err := call[facade.StatusResult](ctx, s, "status", facade.StatusArgs{Examples: 50})
	if err != nil {
		return nil, err
	}
	d.Env, d.Status = envOf(env), st
	d.ByStatus, d.Reasons, d.Nodes = counts(st.Files.ByStatus), counts(st.Files.Reasons), counts(st.Nodes)
	for lang, m := range st.Files.ByLanguage {
		row := langRow{Lang: lang, ByStatus: counts(m)}
		for _, n := range m {
			row.Total += n
		}
		d.Langs = append(d.Langs, row)
	}
	slices.SortFunc(d.Langs, func(a, b langRow) int { return cmp.Or(b.Total-a.Total, strings.Compare(a.Lang, b.Lang)) })
	_, dr, err := call[facade.DriftResult](ctx, s, "drift", facade.DriftArgs{Limit: 1000})
	if err != nil {
		return nil, err
	}
	byKind := map[string]int{}
	for _, e := range dr.Entries {
		byKind[e.Kind]++
	}
	d.Ledger = counts(byKind)
	_, rv, err := call[facade.RevisionsResult](ctx, s, "revisions", facade.RevisionsArgs{Page: facade.Page{Limit: listLimit}})
	if err != nil {
		return nil, err
	}
	d.Revisions = len(rv.Revisions)
	if name := lastReport(rv.Reports); name != "" {
		env, err := s.svc.ArchiveReport(ctx, facade.ArchiveReportArgs{Name: name})
		if err != nil {
			return nil, err
		}
		if rep, ok := env.Result.(rev.Report); ok && !env.NotFound {
			d.Report, d.ReportOf = &rep, name
		}
	}
	return d, nil
}

// reportNames are the base names of the JSON reports, newest last.
func reportNames(reports []string) []string {
	var out []string
	for _, p := range reports {
		base := p[strings.LastIndex(p, "/")+1:]
		if n, ok := strings.CutSuffix(base, ".json"); ok {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(reportTo(a), reportTo(b)) })
	return out
}

func reportTo(name string) string { return name[strings.LastIndex(name, ".")+1:] }

func lastReport(reports []string) string {
	names := reportNames(reports)
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1]
}

// searchPage is how many hits the search page shows; "more" pages on.
const searchPage = 20

type searchData struct {
	Env                 pageEnv
	Q, Mode, Kind, Path string
	Cursor              string // this page's cursor ("" on the first)
	More                string // the next page's URL
	Modes               []string
	Result              facade.SearchResult
	Suggest             []facade.Suggestion
	NotFound, Searched  bool
}

func (s *Server) search(r *http.Request) (any, error) {
	q := r.URL.Query()
	d := searchData{Q: q.Get("q"), Mode: q.Get("mode"), Kind: q.Get("kind"), Path: q.Get("path"), Cursor: q.Get("cursor"),
		Modes: []string{"", "lexical", "semantic", "hybrid"}}
	if strings.TrimSpace(d.Q) == "" {
		return d, nil
	}
	env, res, err := call[facade.SearchResult](r.Context(), s, "search", facade.SearchArgs{Query: d.Q, Mode: d.Mode, Kind: d.Kind,
		PathGlob: d.Path, Page: facade.Page{Limit: searchPage, Cursor: d.Cursor}})
	if err != nil {
		return nil, err
	}
	d.Env, d.Result, d.Suggest, d.NotFound, d.Searched = envOf(env), res, env.Suggest, env.NotFound, true
	if d.Env.Cursor != "" {
		more := url.Values{"q": {d.Q}, "cursor": {d.Env.Cursor}}
		for k, v := range map[string]string{"mode": d.Mode, "kind": d.Kind, "path": d.Path} {
			if v != "" {
				more.Set(k, v)
			}
		}
		d.More = "/search?" + more.Encode()
	}
	return d, nil
}

type symbolData struct {
	Env        pageEnv
	Name       string
	Choices    []facade.Symbol // more than one definition: pick one
	Target     *facade.Symbol
	Code       facade.CodeResult
	Doc        string               // the comment block right above the definition, as indexed
	Members    []facade.OutlineItem // a type's members, from its file's outline
	Refs       facade.ReferencesResult
	RefsEnv    pageEnv
	Callers    facade.CallsResult
	CallersEnv pageEnv
	Callees    facade.CallsResult
	Impls      facade.ImplementationsResult
	Supers     facade.SupertypesResult
	Impact     facade.ImpactResult
	IsType     bool
	IsCallable bool
}

// target finds the definition a page is about: id= wins, else name= as a
// qualified name, else as a short name. More than one is a choice. With
// id= it reads the definition's code, which it returns too.
func (s *Server) target(r *http.Request) (*facade.Envelope, []facade.Symbol, *facade.CodeResult, error) {
	q := r.URL.Query()
	ctx := r.Context()
	if id := q.Get("id"); id != "" {
		env, res, err := call[facade.CodeResult](ctx, s, "code", facade.CodeArgs{ID: id})
		if err != nil || res.Symbol == nil {
			return env, nil, nil, err
		}
		return env, []facade.Symbol{*res.Symbol}, &res, nil
	}
	name := strings.TrimSpace(q.Get("name"))
	if name == "" {
		return nil, nil, nil, &facade.Error{Code: facade.ErrBadInput, Message: "name= (a qualified name, e.g. App\\Cart::addItem) or id= is required"}
	}
	env, res, err := call[facade.SymbolResult](ctx, s, "symbol", facade.SymbolArgs{QName: name, Page: facade.Page{Limit: 50}})
	if err != nil {
		return nil, nil, nil, err
	}
	if len(res.Symbols) == 0 && !strings.ContainsAny(name, `\:`) {
		env, res, err = call[facade.SymbolResult](ctx, s, "symbol", facade.SymbolArgs{Name: name, Page: facade.Page{Limit: 50}})
		if err != nil {
			return nil, nil, nil, err
		}
	}
	return env, res.Symbols, nil, nil
}

func isType(kind string) bool {
	switch kind {
	case "class", "interface", "trait", "enum":
		return true
	}
	return false
}

func isCallable(kind string) bool { return kind == "function" || kind == "method" }

func (s *Server) symbol(r *http.Request) (any, error) {
	env, syms, code, err := s.target(r)
	if err != nil {
		return nil, err
	}
	d := symbolData{Name: r.URL.Query().Get("name"), Env: envOf(env)}
	if len(syms) != 1 {
		d.Choices = syms
		return d, nil
	}
	t := syms[0]
	d.Target, d.IsType, d.IsCallable = &t, isType(t.Kind), isCallable(t.Kind)
	ctx := r.Context()
	g, gctx := errgroup.WithContext(ctx)
	// code reads (and redacts) the whole file: the doc above the definition
	// and the definition come from one read, and none when target read it
	start := max(1, t.Line-docLookback)
	switch {
	case code == nil && t.Line > 1 && t.EndLine >= t.Line && t.EndLine-start < maxReadLines:
		g.Go(func() error {
			_, res, err := call[facade.CodeResult](gctx, s, "code", facade.CodeArgs{Path: t.Path, StartLine: start, EndLine: t.EndLine})
			doc, def := splitAt(res.Text, t.Line-start)
			d.Doc = leadingDoc(doc)
			d.Code = facade.CodeResult{Path: res.Path, Line: t.Line, EndLine: res.EndLine, Text: def, Symbol: &t, Stale: res.Stale, FileState: res.FileState}
			return err
		})
	default:
		if code != nil {
			d.Code = *code
		} else {
			g.Go(func() (err error) {
				_, d.Code, err = call[facade.CodeResult](gctx, s, "code", facade.CodeArgs{ID: t.ID})
				return err
			})
		}
		if t.Line > 1 {
			g.Go(func() error {
				_, res, err := call[facade.CodeResult](gctx, s, "code", facade.CodeArgs{Path: t.Path, StartLine: start, EndLine: t.Line - 1})
				d.Doc = leadingDoc(res.Text)
				return err
			})
		}
	}
	if d.IsType {
		g.Go(func() error {
			_, res, err := call[facade.OutlineResult](gctx, s, "outline", facade.OutlineArgs{Path: t.Path})
			d.Members = membersOf(res.Symbols, t.ID)
			return err
		})
	}
	g.Go(func() error {
		env, res, err := call[facade.ReferencesResult](gctx, s, "references", facade.ReferencesArgs{Target: facade.Target{ID: t.ID}, Page: facade.Page{Limit: 200}})
		d.Refs, d.RefsEnv = res, envOf(env)
		return err
	})
	if d.IsCallable {
		g.Go(func() error {
			env, res, err := call[facade.CallsResult](gctx, s, "callers", facade.CallersArgs{Target: facade.Target{ID: t.ID}, Depth: 1, Page: facade.Page{Limit: 200}})
			d.Callers, d.CallersEnv = res, envOf(env)
			return err
		})
		g.Go(func() (err error) {
			_, d.Callees, err = call[facade.CallsResult](gctx, s, "callees", facade.CalleesArgs{Target: facade.Target{ID: t.ID}, Page: facade.Page{Limit: 200}})
			return err
		})
	}
	if d.IsType || t.Kind == "method" {
		g.Go(func() (err error) {
			_, d.Impls, err = call[facade.ImplementationsResult](gctx, s, "implementations", facade.ImplementationsArgs{Target: facade.Target{ID: t.ID}, Page: facade.Page{Limit: 200}})
			return err
		})
		g.Go(func() error {
			env, err := s.svc.Supertypes(gctx, facade.SupertypesArgs{ID: t.ID})
			if err == nil {
				d.Supers, _ = env.Result.(facade.SupertypesResult)
			}
			return err
		})
	}
	g.Go(func() (err error) {
		_, d.Impact, err = call[facade.ImpactResult](gctx, s, "impact", facade.ImpactArgs{ID: t.ID, Depth: 3, Page: facade.Page{Limit: 50}})
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return d, nil
}

// entriesPage is how many entry points the list shows; "more" pages on.
const entriesPage = 200

type entriesData struct {
	Env   pageEnv
	Kind  string
	Kinds []string
	List  []facade.EntryPoint
	More  string // the next page's URL
}

func (s *Server) entries(r *http.Request) (any, error) {
	q := r.URL.Query()
	kind := q.Get("kind")
	env, res, err := call[facade.EntryPointsResult](r.Context(), s, "entry_points", facade.EntryPointsArgs{Kind: kind, Limit: entriesPage, Cursor: q.Get("cursor")})
	if err != nil {
		return nil, err
	}
	d := entriesData{Env: envOf(env), Kind: kind, Kinds: []string{"", "web_route", "http_endpoint", "cli_command", "cron_job", "event_listener"},
		List: res.EntryPoints}
	if d.Env.Cursor != "" {
		more := url.Values{"cursor": {d.Env.Cursor}}
		if kind != "" {
			more.Set("kind", kind)
		}
		d.More = "/entries?" + more.Encode()
	}
	return d, nil
}

type revisionsData struct {
	Env     pageEnv
	Result  facade.RevisionsResult
	Reports []string
	Name    string
	Report  *rev.Report
}

func (s *Server) revisions(r *http.Request) (any, error) {
	ctx := r.Context()
	env, res, err := call[facade.RevisionsResult](ctx, s, "revisions", facade.RevisionsArgs{Page: facade.Page{Limit: listLimit}})
	if err != nil {
		return nil, err
	}
	d := revisionsData{Env: envOf(env), Result: res, Reports: reportNames(res.Reports)}
	slices.Reverse(d.Reports)
	d.Name = r.URL.Query().Get("report")
	if d.Name == "" && len(d.Reports) > 0 {
		d.Name = d.Reports[0]
	}
	if d.Name != "" {
		env, err := s.svc.ArchiveReport(ctx, facade.ArchiveReportArgs{Name: d.Name})
		if err != nil {
			return nil, err
		}
		if env.NotFound {
			return nil, &facade.Error{Code: facade.ErrBadInput, Message: "no archive report named " + strconv.Quote(d.Name)}
		}
		rep := env.Result.(rev.Report)
		d.Report = &rep
	}
	return d, nil
}

type ledgerData struct {
	Env     pageEnv
	Path    string
	Kind    string
	Unacked bool
	Kinds   []string
	Result  facade.DriftResult
}

func (s *Server) ledger(r *http.Request) (any, error) {
	q := r.URL.Query()
	d := ledgerData{Path: q.Get("path"), Kind: q.Get("kind"), Unacked: q.Get("unacked") != "",
		Kinds: []string{"", "add", "modify", "delete", "rename", "slice_boundary", "schema_change", "note"}}
	env, res, err := call[facade.DriftResult](r.Context(), s, "drift", facade.DriftArgs{Path: d.Path, Kind: d.Kind, Unacked: d.Unacked, Limit: 1000})
	if err != nil {
		return nil, err
	}
	d.Env, d.Result = envOf(env), res
	return d, nil
}

// docLookback is how many lines above a definition its doc comment may start.
const docLookback = 60

// maxReadLines is below the most lines one code call returns (2,000).
const maxReadLines = 1900

// splitAt splits text after its first n lines.
func splitAt(text string, n int) (string, string) {
	i := 0
	for ; n > 0; n-- {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			return text, ""
		}
		i += j + 1
	}
	return text[:i], text[i:]
}

// leadingDoc is the comment block that ends text (the lines right above a
// definition): a /** … */ or /* … */ block, or a run of //, # or ///
// lines, attributes and blank lines between it and the definition skipped;
// "" when none.
func leadingDoc(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	end := len(lines) - 1
	for end >= 0 {
		l := strings.TrimSpace(lines[end])
		if l == "" || strings.HasPrefix(l, "#[") || strings.HasPrefix(l, "@") {
			end--
			continue
		}
		break
	}
	if end < 0 {
		return ""
	}
	last := strings.TrimSpace(lines[end])
	start := end
	switch {
	case strings.HasSuffix(last, "*/"):
		for start >= 0 && !strings.Contains(lines[start], "/*") {
			start--
		}
		if start < 0 {
			return ""
		}
	case strings.HasPrefix(last, "//") || strings.HasPrefix(last, "#") && !strings.HasPrefix(last, "#["):
		for start > 0 {
			l := strings.TrimSpace(lines[start-1])
			if !strings.HasPrefix(l, "//") && !(strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "#[")) {
				break
			}
			start--
		}
	default:
		return ""
	}
	return strings.Join(lines[start:end+1], "\n") + "\n"
}

// membersOf finds the outline item id and returns its children.
func membersOf(items []facade.OutlineItem, id string) []facade.OutlineItem {
	for _, it := range items {
		if it.ID == id {
			return it.Children
		}
		if m := membersOf(it.Children, id); m != nil {
			return m
		}
	}
	return nil
}
