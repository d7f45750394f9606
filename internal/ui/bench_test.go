package ui

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ragraf/ragraf/internal/facade"
)

// benchRequests are ~200 varied paths per page on the index at root:
// functions and classes found by search, their files, entry points.
func benchRequests(b *testing.B, svc *facade.Service) map[string][]string {
	ctx := context.Background()
	hits := func(kind string) []facade.Hit {
		env, err := svc.Call(ctx, "search", []byte(fmt.Sprintf(`{"query":"get","kind":%q,"limit":200}`, kind)))
		if err != nil {
			b.Fatal(err)
		}
		return env.Result.(facade.SearchResult).Hits
	}
	fns, classes := hits("function"), hits("class")
	if len(fns) == 0 {
		fns = hits("method")
	}
	env, err := svc.Call(ctx, "entry_points", []byte(`{"limit":200}`))
	if err != nil {
		b.Fatal(err)
	}
	eps := env.Result.(facade.EntryPointsResult).EntryPoints
	out := map[string][]string{}
	for i := 0; i < 200; i++ {
		f := fns[i%len(fns)]
		out["overview"] = append(out["overview"], "/")
		out["search"] = append(out["search"], "/search?q="+url.QueryEscape(f.Name+" get"))
		out["symbol"] = append(out["symbol"], "/symbol?id="+url.QueryEscape(f.ID))
		out["file"] = append(out["file"], "/file?path="+url.QueryEscape(f.Path))
		out["calls"] = append(out["calls"], "/graph/calls?id="+url.QueryEscape(f.ID))
		if len(classes) > 0 {
			c := classes[i%len(classes)]
			out["hierarchy"] = append(out["hierarchy"], "/graph/hierarchy?id="+url.QueryEscape(c.ID))
		}
		if len(eps) > 0 {
			e := eps[i%len(eps)]
			out["entry"] = append(out["entry"], "/graph/entry?id="+url.QueryEscape(e.ID)+"&path="+url.QueryEscape(e.Path))
		}
		out["entries"] = append(out["entries"], "/entries")
		out["schema"] = append(out["schema"], "/schema")
		out["revisions"] = append(out["revisions"], "/revisions")
		out["ledger"] = append(out["ledger"], "/ledger")
	}
	return out
}

var benchPages = []string{"overview", "search", "symbol", "file", "calls", "hierarchy", "entry", "entries", "schema", "revisions", "ledger"}

// BenchmarkUIPagesWordPress times each page, its facade calls and its
// rendering, on varied real requests: p50 and p95 per page.
func BenchmarkUIPagesWordPress(b *testing.B) {
	root := wordpressRoot(b)
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer svc.Close()
	const addr = "127.0.0.1:1"
	srv, err := New(svc, Options{Token: "0123456789abcdef0123456789abcdef", Addr: addr})
	if err != nil {
		b.Fatal(err)
	}
	reqs := benchRequests(b, svc)
	for _, page := range benchPages {
		paths := reqs[page]
		if len(paths) == 0 {
			continue
		}
		b.Run(page, func(b *testing.B) {
			// the first request of a page opens what it needs (the
			// revision, the drift checker, the table map): not timed
			serveOne(b, srv, addr, paths[0])
			facade.Percentiles(b, func(i int) { serveOne(b, srv, addr, paths[i%len(paths)]) })
		})
	}
}

func serveOne(b *testing.B, srv *Server, addr, path string) {
	req := httptest.NewRequest("GET", "http://"+addr+path, nil)
	req.AddCookie(&http.Cookie{Name: srv.cookie, Value: srv.token})
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, req)
	if w.Code != 200 {
		b.Fatalf("%s: %d %s", path, w.Code, w.Body.String()[:min(w.Body.Len(), 300)])
	}
}

// BenchmarkUIHubGraphWordPress loads the call neighbourhood of WordPress's
// get_option (hundreds of callers) in Chromium and reports the time from the
// start of the navigation to the graph drawn (the page's data, the scripts,
// Cytoscape's first frame), and the nodes drawn.
func BenchmarkUIHubGraphWordPress(b *testing.B) {
	root := wordpressRoot(b)
	base, token := serve(b, root)
	svc, err := facade.New(root, facade.Options{})
	if err != nil {
		b.Fatal(err)
	}
	env, err := svc.Call(context.Background(), "symbol", []byte(`{"qname":"get_option","path":"wp-includes/option.php"}`))
	svc.Close()
	if err != nil {
		b.Fatal(err)
	}
	syms := env.Result.(facade.SymbolResult).Symbols
	if len(syms) != 1 {
		b.Fatalf("get_option: %d definitions in wp-includes/option.php", len(syms))
	}
	br := newBrowser(b, base, token, b.TempDir())
	path := "/graph/calls?id=" + url.QueryEscape(syms[0].ID)
	br.open(path, "body[data-graph-ready]") // warm: the browser caches the scripts as a person's would
	var times []time.Duration
	nodes := 0
	for b.Loop() {
		br.open(path, "body[data-graph-ready]")
		ms, err := strconv.ParseFloat(eval[string](br, `document.body.dataset.graphReady`), 64)
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Duration(ms*float64(time.Millisecond)))
		nodes = eval[int](br, `ragrafCy.nodes().not(".box").length`)
	}
	br.clean(path)
	p := percentiles(times)
	b.ReportMetric(p[0], "p50-ms")
	b.ReportMetric(p[1], "p95-ms")
	b.ReportMetric(float64(nodes), "nodes")
	// responsive: a pan and a zoom answer within one frame or two
	start := eval[float64](br, `(() => { const t = performance.now(); ragrafCy.zoom(ragrafCy.zoom() * 1.5); ragrafCy.panBy({x: 100, y: 50}); return t; })()`)
	end, err := chromedp.Run(br.ctx, chromedp.Evaluate[float64](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now()))))`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(end-start, "zoom-pan-ms")
}

func percentiles(ts []time.Duration) [2]float64 {
	if len(ts) == 0 {
		return [2]float64{}
	}
	s := slices.Sorted(slices.Values(ts))
	at := func(q float64) float64 {
		return float64(s[min(len(s)-1, int(q*float64(len(s))))].Microseconds()) / 1000
	}
	return [2]float64{at(0.5), at(0.95)}
}
