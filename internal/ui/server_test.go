package ui

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestUI_TokenRequired: without the token, or with a wrong one, nothing is
// served, assets included; the token in the query sets a cookie that then
// suffices on its own.
func TestUI_TokenRequired(t *testing.T) {
	base, token := serve(t, shopRoot(t))
	for _, p := range []string{"/", "/search?q=cart", "/symbol?name=Shop%5CCart%5CCart", "/static/app.js", "/api/schema", "/nope"} {
		if resp, body := get(t, "GET", base+p, nil); resp.StatusCode != http.StatusUnauthorized || strings.Contains(body, "Cart") {
			t.Errorf("GET %s without token: %d, want 401 and no content", p, resp.StatusCode)
		}
		if resp, _ := get(t, "GET", base+p+sep(p)+"token=0123456789abcdef0123456789abcdef", nil); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s with a wrong token: %d, want 401", p, resp.StatusCode)
		}
		if resp, _ := get(t, "GET", base+p, map[string]string{"Cookie": "ragraf_ui_1=" + token}); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s with another port's cookie: %d, want 401", p, resp.StatusCode)
		}
	}
	resp, body := get(t, "GET", base+"/?token="+token, nil)
	if resp.StatusCode != 200 || !strings.Contains(body, "rev-0002") {
		t.Fatalf("GET / with token: %d", resp.StatusCode)
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		cookie = c
	}
	if cookie == nil || cookie.Value != token || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("the first URL set cookie %+v, want the token, HttpOnly, SameSite=Strict", cookie)
	}
	if resp, _ := get(t, "GET", base+"/static/app.js", map[string]string{"Cookie": cookie.Name + "=" + cookie.Value}); resp.StatusCode != 200 {
		t.Errorf("GET /static/app.js with the cookie: %d", resp.StatusCode)
	}
	if resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("CORS header sent: %q", resp.Header.Get("Access-Control-Allow-Origin"))
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
}

func sep(p string) string {
	if strings.Contains(p, "?") {
		return "&"
	}
	return "?"
}

// TestUI_ForeignHostAndOrigin: a page of another site (a foreign Origin, a
// cross-site fetch) or a DNS-rebound name (a foreign Host) is refused even
// with the token; only GET and HEAD are answered.
func TestUI_ForeignHostAndOrigin(t *testing.T) {
	base, token := serve(t, shopRoot(t))
	u := base + "/?token=" + token
	port := base[strings.LastIndex(base, ":")+1:]
	cases := []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"own", nil, 200},
		{"localhost", map[string]string{"Host": "localhost:" + port}, 200},
		{"same origin", map[string]string{"Origin": base}, 200},
		{"foreign host", map[string]string{"Host": "evil.example:" + port}, 403},
		{"rebound host", map[string]string{"Host": "attacker.test"}, 403},
		{"other port", map[string]string{"Host": "127.0.0.1:1"}, 403},
		{"foreign origin", map[string]string{"Origin": "http://evil.example"}, 403},
		{"null origin", map[string]string{"Origin": "null"}, 403},
		{"https origin", map[string]string{"Origin": "https://" + strings.TrimPrefix(base, "http://")}, 403},
		{"cross-site fetch", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
	}
	for _, c := range cases {
		if resp, _ := get(t, "GET", u, c.hdr); resp.StatusCode != c.want {
			t.Errorf("%s: %d, want %d", c.name, resp.StatusCode, c.want)
		}
	}
	for _, m := range []string{"POST", "PUT", "DELETE", "OPTIONS"} {
		if resp, _ := get(t, m, u, nil); resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s: %d, want 405 without CORS", m, resp.StatusCode)
		}
	}
}

// TestUI_PathTraversalRefused: every parameter that names a file or a
// report refuses paths out of the project (or out of the archive), and no
// answer carries the file it aimed at.
func TestUI_PathTraversalRefused(t *testing.T) {
	base, token := serve(t, shopRoot(t))
	// the first are traversals; the last two are odd but legal names on
	// Linux, which must find nothing
	bad := []string{"../../../../etc/passwd", "/etc/passwd", "src/../../../../etc/passwd", "src/Cart/../../../../../etc/passwd", "..%2f..%2fetc%2fpasswd", `..\..\etc\passwd`}
	pages := []string{
		"/file?path=%s", "/ledger?path=%s", "/search?q=cart&path=%s", "/graph/entry?id=x&path=%s", "/api/graph/entry?id=x&path=%s",
		"/revisions?report=%s", "/symbol?name=%s", "/symbol?id=%s", "/graph/calls?name=%s", "/api/graph/calls?id=%s",
		"/graph/hierarchy?name=%s", "/entries?kind=%s", "/static/%s",
	}
	for _, pg := range pages {
		for i, b := range bad {
			u := base + strings.Replace(pg, "%s", url.QueryEscape(b), 1)
			if strings.HasPrefix(pg, "/static/") {
				u = base + "/static/" + b
			}
			resp, body := get(t, "GET", u+sep(u)+"token="+token, nil)
			if strings.Contains(body, "root:x:0:0") || strings.Contains(body, "root:*:0:0") {
				t.Errorf("%s served /etc/passwd", u)
			}
			if i < 4 && resp.StatusCode == 200 && (strings.HasPrefix(pg, "/file") || strings.HasPrefix(pg, "/ledger") || strings.HasPrefix(pg, "/revisions") || strings.Contains(pg, "entry")) {
				t.Errorf("%s: 200, want it refused", u)
			}
			if resp.StatusCode >= 500 {
				t.Errorf("%s: %d, want a 4xx refusal or an empty answer", u, resp.StatusCode)
			}
		}
	}
	// archive reports outside the archive, by a name revisions never lists
	for _, name := range []string{"../rev.json", "../../../go", "rev-0001..rev-0002/../../project"} {
		if resp, _ := get(t, "GET", base+"/revisions?report="+url.QueryEscape(name)+"&token="+token, nil); resp.StatusCode != 400 {
			t.Errorf("report %q: %d, want 400", name, resp.StatusCode)
		}
	}
}

// TestUI_PagesServeTheFacade: each page answers 200 on the shop with what
// the facade knows, and markup from indexed code and notes arrives as text.
func TestUI_PagesServeTheFacade(t *testing.T) {
	base, token := serve(t, shopRoot(t))
	cases := []struct {
		path string
		want []string
	}{
		{"/", []string{"rev-0002", "Coverage", "php", "rev-0001..rev-0002"}},
		{"/search?q=add", []string{`href="/symbol?name=Shop%5CCart%5CCart%3A%3Aadd"`}},
		{"/search?q=cart&mode=lexical", []string{"Mode <b>lexical</b>"}},
		{"/symbol?name=Shop%5CCart%5CCart%3A%3Aadd", []string{"Callers", "Stated", "Derived", `id="definition"`, "Impact of a change", "/file?path=src%2FCart%2FCart.php#L"}},
		{"/symbol?name=Shop%5CCart%5CCart", []string{"Hierarchy", "Shop\\Contracts\\Entity", "Members"}},
		{"/symbol?name=Shop%5CSupport%5CProbe", []string{"&lt;script&gt;window.pwned = 1"}},
		{"/file?path=src%2FCart%2FCart.php", []string{`id="L1"`, "modified", `class="line drift"`, "Current file", "stale"}},
		{"/file?path=src%2FSupport%2FProbe.php", []string{"&lt;script&gt;window.pwned = 3&lt;/script&gt;"}},
		{"/graph/calls?name=Shop%5CCart%5CCart%3A%3Aadd&depth=2", []string{`id="graph"`, `id="nodelist"`, "data-graph="}},
		{"/graph/hierarchy?name=Shop%5CCart%5CCart", []string{"Shop\\Contracts\\Entity"}},
		{"/entries", []string{`id="entries"`, "/graph/entry?id="}},
		{"/schema", []string{"Database schema", "orders"}},
		{"/revisions", []string{"rev-0001..rev-0002", "constant added on purpose", "(current)"}},
		{"/ledger", []string{"&lt;b id=&#34;ack-markup&#34;&gt;kept&lt;/b&gt;", "src/Cart/Cart.php"}},
		{"/ledger?unacked=1", []string{"0 entries"}},
	}
	for _, c := range cases {
		resp, body := get(t, "GET", base+c.path+sep(c.path)+"token="+token, nil)
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d: %s", c.path, resp.StatusCode, excerpt(body))
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: no %q in the page", c.path, w)
			}
		}
		if strings.Contains(body, "<script>window.pwned") || strings.Contains(body, `<b id="ack-markup">`) {
			t.Errorf("%s: indexed markup served unescaped", c.path)
		}
	}
}

func excerpt(body string) string {
	if i := strings.Index(body, "<main"); i >= 0 {
		body = body[i:]
	}
	return body[:min(len(body), 600)]
}

// TestUI_SymbolDocIsTheCommentAbove: the symbol page's documentation is the
// comment block right above the definition (docblock, // or # lines,
// attributes between), and nothing when the lines above end in code.
func TestUI_SymbolDocIsTheCommentAbove(t *testing.T) {
	cases := []struct{ above, want string }{
		{"}\n\n/**\n * Adds an item.\n */\n#[Pure]\n", "/**\n * Adds an item.\n */\n"},
		{"$x = 1;\n    /** One line. */\n", "    /** One line. */\n"},
		{"}\n// Saves it.\n// Twice.\n\n", "// Saves it.\n// Twice.\n"},
		{"}\n# Python style\n", "# Python style\n"},
		{"$x = 1;\n}\n\n", ""},
		{"", ""},
	}
	for _, c := range cases {
		if got := leadingDoc(c.above); got != c.want {
			t.Errorf("leadingDoc(%q) = %q, want %q", c.above, got, c.want)
		}
	}
}

// between returns the text of body between the first from and the next to.
func between(body, from, to string) string {
	i := strings.Index(body, from)
	if i < 0 {
		return ""
	}
	rest := body[i+len(from):]
	if j := strings.Index(rest, to); j >= 0 {
		return rest[:j]
	}
	return rest
}

// TestUI_SymbolPageDefinitionAndDoc: the symbol page shows the same
// definition and documentation whether it was asked by name (one read of
// the lines above and the definition) or by id (the definition read to find
// it, the lines above apart).
func TestUI_SymbolPageDefinitionAndDoc(t *testing.T) {
	base, token := serve(t, shopRoot(t))
	_, byName := get(t, "GET", base+"/symbol?name=Shop%5CSupport%5CProbe&token="+token, nil)
	u, err := url.Parse(html.UnescapeString(between(byName, `id="to-hierarchy" href="`, `"`)))
	id := ""
	if err == nil {
		id = u.Query().Get("id")
	}
	if id == "" {
		t.Fatalf("no id of Probe in its page: %s", excerpt(byName))
	}
	_, byID := get(t, "GET", base+"/symbol?id="+url.QueryEscape(id)+"&token="+token, nil)
	for _, part := range []struct{ from, to string }{{`id="definition"><code>`, "</code>"}, {`id="doc">`, "</pre>"}} {
		a, b := between(byName, part.from, part.to), between(byID, part.from, part.to)
		if a == "" || a != b {
			t.Errorf("%s by name %q, by id %q", part.from, a, b)
		}
	}
	if !strings.Contains(between(byName, `id="doc">`, "</pre>"), "&lt;script&gt;window.pwned = 1") {
		t.Errorf("Probe's docblock is not its documentation: %q", between(byName, `id="doc">`, "</pre>"))
	}
	if d := between(byName, `id="definition"><code>`, "</code>"); !strings.HasPrefix(d, "final class Probe") {
		t.Errorf("the definition does not start at the class line: %q", d[:min(len(d), 200)])
	}
}

// TestUI_SearchPagesOn: search shows a bounded page of hits and a "more"
// link with the facade's cursor that shows the next ones.
func TestUI_SearchPagesOn(t *testing.T) {
	base, token := serve(t, shopRoot(t))
	_, first := get(t, "GET", base+"/search?q=function&mode=lexical&token="+token, nil)
	if n := strings.Count(first, `<li class="hit">`); n != searchPage {
		t.Fatalf("first page: %d hits, want %d", n, searchPage)
	}
	more := html.UnescapeString(between(first, `id="more" rel="next" href="`, `"`))
	if !strings.Contains(more, "cursor=") || !strings.Contains(more, "mode=lexical") {
		t.Fatalf("more link %q: want the cursor and the mode", more)
	}
	_, second := get(t, "GET", base+more+"&token="+token, nil)
	if strings.Count(second, `<li class="hit">`) == 0 {
		t.Fatalf("the next page has no hits: %s", excerpt(second))
	}
	if between(first, `<li class="hit">`, "</li>") == between(second, `<li class="hit">`, "</li>") {
		t.Errorf("the next page starts with the first page's first hit")
	}
}
