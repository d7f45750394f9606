package ui

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browser is a headless Chromium tab with the console errors it saw.
type browser struct {
	ctx    context.Context
	t      testing.TB
	base   string
	shots  string
	mu     sync.Mutex
	errors []string
}

func chromiumPath() string {
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// artifacts is where screenshots go: $RAGRAF_ARTIFACTS/ui, or a temporary
// directory the test names.
func artifacts(t testing.TB) string {
	dir := filepath.Join(os.Getenv("RAGRAF_ARTIFACTS"), "ui")
	if os.Getenv("RAGRAF_ARTIFACTS") == "" {
		d, err := os.MkdirTemp("", "ragraf-ui-shots-")
		if err != nil {
			t.Fatal(err)
		}
		dir = d
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

// newBrowser starts Chromium (the test skips without it) and opens base
// with the token, which sets the cookie the other pages use.
func newBrowser(t testing.TB, base, token, shots string) *browser {
	t.Helper()
	p := chromiumPath()
	if p == "" {
		t.Skip("chromium is not installed (scripts/test.sh installs the Debian package when run as root)")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(p), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 800),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 10*time.Minute)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	b := &browser{ctx: ctx, t: t, base: base, shots: shots}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.mu.Lock()
				b.errors = append(b.errors, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line+1))
				b.mu.Unlock()
			}
		}
	}()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(base+"/?token="+url.QueryEscape(token)),
		chromedp.WaitVisible(chromedp.CSS("#coverage"))); err != nil {
		t.Fatalf("opening the overview with the token: %v", err)
	}
	return b
}

// do runs actions with a time limit and fails the test on an error.
func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 90*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.t.Fatalf("%s: %v (console: %q)", what, err, b.errors)
	}
}

func eval[T any](b *browser, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// open navigates to path and waits for sel.
func (b *browser) open(path, sel string) {
	b.t.Helper()
	b.do("opening "+path, chromedp.Navigate(b.base+path), chromedp.WaitVisible(chromedp.CSS(sel)))
}

// shot saves a PNG of the viewport as name.png.
func (b *browser) shot(name string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(b.shots, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// expect drops the console errors that contain text.
func (b *browser) expect(text string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.errors[:0]
	for _, e := range b.errors {
		if !strings.Contains(e, text) {
			kept = append(kept, e)
		}
	}
	b.errors = kept
}

// clean fails the test if the console saw an error since the last call.
func (b *browser) clean(where string) {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.errors {
		b.t.Errorf("%s: console: %s", where, e)
	}
	b.errors = nil
}

// TestUI_BrowserShop opens every page on examples/shop in Chromium as a
// person would: no console errors, the expected elements, the clicks from
// search to symbol to graph to file, the keyboard, a narrow window, and the
// planted markup never run.
func TestUI_BrowserShop(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	base, token := serve(t, shopRoot(t))
	b := newBrowser(t, base, token, artifacts(t))
	pages := []struct{ name, path, sel string }{
		{"overview", "/", "#coverage"},
		{"search", "/search?q=cart+total", "#hits"},
		{"symbol", "/symbol?name=" + url.QueryEscape(`Shop\Cart\Cart::add`), "#definition .tk-k"},
		{"calls", "/graph/calls?depth=2&name=" + url.QueryEscape(`Shop\Cart\Cart::add`), "body[data-graph-ready]"},
		{"hierarchy", "/graph/hierarchy?name=" + url.QueryEscape(`Shop\Contracts\Entity`), "body[data-graph-ready]"},
		{"entries", "/entries", "#entries"},
		{"schema", "/schema", "body[data-graph-ready]"},
		{"file", "/file?path=src/Cart/Cart.php#L45", "#current .drift"},
		{"revisions", "/revisions", "#report"},
		{"ledger", "/ledger", "#ledger"},
		{"notfound", "/symbol?name=NoSuchThing", "#notfound"},
		{"error", "/file?path=../../etc/passwd", "#error-message"},
	}
	for _, p := range pages {
		b.open(p.path, p.sel)
		b.shot("shop-" + p.name)
		if p.name == "error" {
			b.expect("status of 400") // the refusal itself
		}
		b.clean(p.path)
	}
	// the entry point graph of the first entry point listed
	b.open("/entries", "#entries")
	href := eval[string](b, `document.querySelector("#entries a[href^='/graph/entry']").getAttribute("href")`)
	b.open(href, "body[data-graph-ready]")
	if n := eval[int](b, `ragrafCy.nodes("[kind = 'table']").length`); n == 0 {
		t.Errorf("%s: no table reached", href)
	}
	b.shot("shop-entry")
	b.clean(href)

	// search -> symbol -> graph -> expand -> file, by clicks
	b.open("/search?q=add", "#hits")
	b.do("clicking the hit", chromedp.Click(chromedp.CSS(`#hits a.hitlink[href="/symbol?name=Shop%5CCart%5CCart%3A%3Aadd"]`)),
		chromedp.WaitVisible(chromedp.CSS("#symbol-name")))
	if h := eval[string](b, `document.getElementById("symbol-name").textContent`); !strings.Contains(h, `Shop\Cart\Cart::add`) {
		t.Fatalf("the hit opened %q", h)
	}
	b.do("clicking the call graph", chromedp.Click(chromedp.CSS("#to-calls")), chromedp.WaitVisible(chromedp.CSS("body[data-graph-ready]")))
	before := eval[int](b, `ragrafCy.nodes().length`)
	b.do("expanding a callee", chromedp.Evaluate[chromedp.Void](`void ragrafCy.nodes(".k-method").not(".center")[0].emit("tap")`))
	var status string
	for i := 0; i < 50 && !strings.HasPrefix(status, "Added"); i++ {
		time.Sleep(100 * time.Millisecond)
		status = eval[string](b, `document.querySelector("p[role=status]").textContent`)
	}
	if !strings.HasPrefix(status, "Added") {
		t.Errorf("expanding a node: status %q", status)
	}
	t.Logf("expanding: %s (%d nodes before)", status, before)
	b.do("filtering derived edges", chromedp.Click(chromedp.CSS("#filters label:last-child input")))
	if n := eval[int](b, `ragrafCy.edges(".derived").filter(e => e.style("display") !== "none").length`); n != 0 {
		t.Errorf("%d derived edges still shown after the filter", n)
	}
	b.do("clicking a place in the list", chromedp.Click(chromedp.CSS("#nodelist a.loc")), chromedp.WaitVisible(chromedp.CSS("#file-path")))
	if loc := eval[string](b, `location.pathname + location.hash`); !strings.HasPrefix(loc, "/file") || !strings.Contains(loc, "#L") {
		t.Errorf("the list link opened %q, want /file...#L", loc)
	}
	b.clean("clicks")

	// keyboard: "/" focuses the search box
	b.open("/", "#coverage")
	b.do("pressing /", chromedp.KeyEvent("/"))
	if id := eval[string](b, `document.activeElement.id`); id != "q-top" {
		t.Errorf("after /, focus is on %q, want the search box", id)
	}

	// planted markup is shown as text and never runs
	for _, p := range []string{"/symbol?name=" + url.QueryEscape(`Shop\Support\Probe`), "/symbol?name=" + url.QueryEscape(`Shop\Support\Probe::render`),
		"/file?path=src/Support/Probe.php", "/search?q=pwned", "/ledger"} {
		b.open(p, "main")
		if v := eval[string](b, `typeof window.pwned + "|" + document.title`); strings.HasPrefix(v, "number") || strings.HasSuffix(v, "|pwned") {
			t.Errorf("%s: planted script ran: %s", p, v)
		}
		b.clean(p)
	}
	b.open("/symbol?name="+url.QueryEscape(`Shop\Support\Probe`), "#doc")
	if doc := eval[string](b, `document.getElementById("doc").textContent`); !strings.Contains(doc, `<script>window.pwned = 1;`) {
		t.Errorf("the docblock is not shown as text: %q", doc)
	}
	b.shot("shop-probe")

	// a narrow window: no page wider than the viewport
	b.do("narrowing", chromedp.EmulateViewport(390, 800))
	for _, p := range []string{"/", "/symbol?name=" + url.QueryEscape(`Shop\Cart\Cart::add`), "/graph/calls?name=" + url.QueryEscape(`Shop\Cart\Cart::add`), "/file?path=src/Cart/Cart.php"} {
		b.open(p, "main")
		if w := eval[string](b, `document.documentElement.scrollWidth + "/" + window.innerWidth`); !narrow(w) {
			t.Errorf("%s at 390 px: scroll width/viewport %s", p, w)
		}
	}
	b.shot("shop-narrow-symbol")
	b.clean("narrow")
}

func narrow(w string) bool {
	var sw, iw int
	fmt.Sscanf(w, "%d/%d", &sw, &iw)
	return sw <= iw+1
}

// wordpressRoot is the WordPress corpus when it has an index.
func wordpressRoot(t testing.TB) string {
	home, _ := os.UserHomeDir()
	root := filepath.Join(home, ".cache", "ragraf-corpora", "wordpress")
	if dir := os.Getenv("RAGRAF_UI_WORDPRESS"); dir != "" {
		root = dir // an indexed copy, e.g. the one bench/semantic makes
	}
	if _, err := os.Stat(filepath.Join(root, ".ragraf", "CURRENT")); err != nil {
		t.Skip("no indexed WordPress corpus (get it with ../shared/corpora/get.sh, then `ragraf index --project " + root + "`)")
	}
	return root
}

// TestUI_BrowserWordPress opens every page on WordPress: no console errors
// and the expected elements on a large real project.
func TestUI_BrowserWordPress(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	root := wordpressRoot(t)
	base, token := serve(t, root)
	b := newBrowser(t, base, token, artifacts(t))
	pages := []struct{ name, path, sel string }{
		{"overview", "/", "#coverage"},
		{"search", "/search?q=get_option", "#hits"},
		{"choices", "/symbol?name=get_option", "#choices"},
		{"calls", "/graph/calls?name=get_option", "body[data-graph-ready]"},
		{"hierarchy", "/graph/hierarchy?name=WP_REST_Controller", "body[data-graph-ready]"},
		{"entries", "/entries", "#entries"},
		{"schema", "/schema", "body[data-graph-ready]"},
		{"file", "/file?path=wp-includes/option.php#L78", "#indexed"},
		{"revisions", "/revisions", "#revisions"},
		{"ledger", "/ledger", "main"},
	}
	for _, p := range pages {
		b.open(p.path, p.sel)
		b.shot("wordpress-" + p.name)
		b.clean(p.path)
	}
	// get_option has two definitions: pick the real one
	b.open("/symbol?name=get_option", "#choices")
	href := eval[string](b, `[...document.querySelectorAll("#choices li")].find(li => li.textContent.includes("wp-includes/option.php")).querySelector("a").getAttribute("href")`)
	b.open(href, "#definition .tk-k")
	b.shot("wordpress-symbol")
	b.do("clicking the call graph", chromedp.Click(chromedp.CSS("#to-calls")), chromedp.WaitVisible(chromedp.CSS("body[data-graph-ready]")))
	if n := eval[int](b, `document.querySelectorAll("#nodelist li").length`); n < 100 {
		t.Errorf("get_option's call graph lists %d nodes, want its hundreds of callers", n)
	}
	b.shot("wordpress-calls-hub")
	b.clean("get_option")
}
