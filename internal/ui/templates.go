// This file parses the page templates: each page is templates/layout.html
// with the page's own file, which defines "title" and "content".

package ui

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/url"
	"strings"

	"github.com/ragraf/ragraf/internal/facade"
)

var pageNames = []string{"overview", "search", "symbol", "file", "graph", "entries", "revisions", "ledger", "error"}

var funcs = template.FuncMap{
	"fileURL": fileURL,
	"symURL":  symURL,
	"q":       url.QueryEscape,
	"graphURL": func(view, qname, id string) string { // id picks one of several definitions of qname
		return "/graph/" + view + "?name=" + url.QueryEscape(qname) + "&id=" + url.QueryEscape(id)
	},
	"entryURL": func(ep facade.EntryPoint) string {
		return "/graph/entry?id=" + url.QueryEscape(ep.ID) + "&path=" + url.QueryEscape(ep.Path)
	},
	"reportURL": func(name string) string { return "/revisions?report=" + url.QueryEscape(name) },
	"join":      strings.Join,
	"pct":       func(f float64) string { return fmt.Sprintf("%.0f %%", f*100) },
	"conf":      func(f float64) string { return fmt.Sprintf("%.2f", f) },
	"short": func(s string, n int) string {
		if len(s) <= n {
			return s
		}
		return s[:n] + "…"
	},
	"add": func(a, b int) int { return a + b },
	"site": func(site string) string { // "path:line" -> file URL
		if i := strings.LastIndex(site, ":"); i > 0 {
			return "/file?path=" + url.QueryEscape(site[:i]) + "#L" + site[i+1:]
		}
		return "/file?path=" + url.QueryEscape(site)
	},
	"ranges": func(lr [][2]int) string {
		var out []string
		for _, r := range lr {
			out = append(out, fmt.Sprintf("%d–%d", r[0], r[1]))
		}
		return strings.Join(out, ", ")
	},
	"firstLine": func(lr [][2]int) int {
		if len(lr) == 0 {
			return 0
		}
		return lr[0][0]
	},
	"seq": func(n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = i + 1
		}
		return out
	},
}

func parsePages() (map[string]*template.Template, error) {
	out := map[string]*template.Template{}
	for _, name := range pageNames {
		t, err := template.New(name).Funcs(funcs).ParseFS(files, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("ui: parsing template %s: %w", name, err)
		}
		out[name] = t
	}
	return out, nil
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
