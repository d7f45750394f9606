// This file links templates (lang/twig, lang/blade and the PHP that renders
// them): a template named by its engine name to its file (extends,
// includes, imports, references), a route named by path()/url()/route() to
// the route, a Twig function or filter to the extension method that
// defines it, and a Blade component tag to its class and its view.

package resolve

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/ragraf/ragraf/internal/fact"
)

// MetaTemplates holds TemplateStats as JSON.
const MetaTemplates = "templates"

// TemplateStats counts, per template reference kind, the references read
// and those linked.
type TemplateStats map[fact.RefKind]*TemplateCount

// TemplateCount is the outcome of one kind of template reference.
type TemplateCount struct {
	Total  int `json:"total"`
	Linked int `json:"linked"`
}

// maxTemplateCandidates bounds the files one ambiguous template name links.
const maxTemplateCandidates = 4

type templateLinker struct {
	l        *domainLinker
	byBase   map[string][]string // lower base name -> template paths
	routes   map[string][]int    // route name -> node indexes
	funcs    map[string][]string // kind NUL name -> handlers
	classes  []int               // class node indexes (components)
	stats    TemplateStats
	prepared bool
}

func (t *templateLinker) prepare() {
	if t.prepared {
		return
	}
	t.prepared = true
	t.byBase, t.routes, t.funcs, t.stats = map[string][]string{}, map[string][]int{}, map[string][]string{}, TemplateStats{}
	for i := range t.l.nodes {
		n := &t.l.nodes[i]
		switch {
		case n.Kind == fact.File && (n.Lang == "twig" || n.Lang == "blade"):
			b := strings.ToLower(path.Base(n.Path))
			t.byBase[b] = append(t.byBase[b], n.Path)
		case n.Kind == fact.WebRoute || n.Kind == fact.HTTPEndpoint:
			if name := n.Props["name"]; name != "" {
				t.routes[name] = append(t.routes[name], i)
			}
		case n.Kind == fact.Class:
			t.classes = append(t.classes, i)
		}
	}
	for i := range t.l.in.Refs {
		if r := &t.l.in.Refs[i]; r.Kind == fact.RefTemplateFuncDef && r.Props["handler"] != "" {
			k := r.Props["kind"] + "\x00" + r.Name
			t.funcs[k] = append(t.funcs[k], r.Props["handler"])
		}
	}
}

func (t *templateLinker) count(kind fact.RefKind, linked bool) {
	c := t.stats[kind]
	if c == nil {
		c = &TemplateCount{}
		t.stats[kind] = c
	}
	c.Total++
	if linked {
		c.Linked++
	}
}

// link links one template reference.
func (t *templateLinker) link(ref *fact.Ref) {
	t.prepare()
	switch ref.Kind {
	case fact.RefTemplate:
		ok := t.template(ref)
		t.count(ref.Kind, ok)
		if !ok {
			t.l.unresolved(ref, ref.Name, "template not found")
		}
	case fact.RefRouteName:
		ids := t.routes[ref.Name]
		for _, i := range ids {
			t.l.edge(fact.References, ref.From, t.l.nodes[i].ID, ref, fact.Stated, 1, map[string]string{"via": ref.Props["via"]})
		}
		t.count(ref.Kind, len(ids) > 0)
		if len(ids) == 0 {
			t.l.unresolved(ref, ref.Name, "route name not found")
		}
	case fact.RefTemplateFunc:
		// functions the framework defines (asset, form_widget, trans) have
		// no project definition: counted, not reported
		t.count(ref.Kind, t.function(ref))
	case fact.RefComponent:
		ok := t.component(ref)
		t.count(ref.Kind, ok)
		if !ok {
			t.l.unresolved(ref, ref.Name, "component not found")
		}
	}
}

// relKinds maps a template reference's rel to its edge kind.
var relKinds = map[string]fact.EdgeKind{"extends": fact.Extends, "includes": fact.Includes, "imports": fact.Imports}

// template links a template name to the file(s) it names.
func (t *templateLinker) template(ref *fact.Ref) bool {
	files := t.templateFiles(ref.Name, ref.Props["engine"])
	if len(files) == 0 {
		return false
	}
	kind := relKinds[ref.Props["rel"]]
	if kind == "" {
		kind = fact.References
	}
	props := map[string]string{"via": ref.Props["via"]}
	for _, f := range files {
		prov, conf := fact.Stated, 1.0
		if len(files) > 1 {
			prov, conf = fact.Derived, round3(0.9/float64(len(files)))
		}
		t.l.edge(kind, ref.From, fact.FileNodeID(f), ref, prov, conf, props)
	}
	return true
}

// templateFiles finds the files a template name means: Twig names are
// paths below a templates directory, "@Ns/x" in a namespace (a bundle's
// templates) and "Bundle:Dir:x" in the old bundle notation; Blade names are
// dotted paths below resources/views ("ns::x" in a package's views).
func (t *templateLinker) templateFiles(name, engine string) []string {
	name = strings.TrimSpace(name)
	ns := ""
	var rels []string
	switch {
	case engine == "blade" || !strings.Contains(name, ".twig") && !strings.Contains(name, "/"):
		if i := strings.Index(name, "::"); i >= 0 {
			ns, name = name[:i], name[i+2:]
		}
		p := strings.ReplaceAll(strings.TrimSuffix(name, ".blade.php"), ".", "/")
		rels = []string{p + ".blade.php", p + "/index.blade.php"}
	default:
		if strings.HasPrefix(name, "@") {
			if i := strings.IndexByte(name, '/'); i > 0 {
				ns, name = name[1:i], name[i+1:]
			}
		} else if strings.Count(name, ":") == 2 && !strings.Contains(name, "/") {
			parts := strings.Split(name, ":")
			ns, name = parts[0], path.Join(parts[1], parts[2])
		}
		rels = []string{strings.TrimPrefix(strings.TrimPrefix(name, "./"), "/")}
	}
	for _, rel := range rels {
		best, bestScore := []string(nil), -1
		for _, p := range t.byBase[strings.ToLower(path.Base(rel))] {
			lp, lr := strings.ToLower(p), strings.ToLower(rel)
			if lp != lr && !strings.HasSuffix(lp, "/"+lr) {
				continue
			}
			score := 0
			dir := strings.TrimSuffix(lp[:len(lp)-len(lr)], "/")
			switch path.Base(dir) {
			case "templates", "views":
				score += 2
			}
			if ns != "" && nsMatches(lp, ns) {
				score += 4
			}
			if ns == "" && !strings.Contains(dir, "vendor/") && !strings.Contains(dir, "bundle") {
				score++
			}
			switch {
			case score > bestScore:
				best, bestScore = []string{p}, score
			case score == bestScore:
				best = append(best, p)
			}
		}
		if len(best) > maxTemplateCandidates {
			best = best[:maxTemplateCandidates]
		}
		if len(best) > 0 {
			return best
		}
	}
	return nil
}

// nsMatches reports whether a template path lies in the namespace ns: every
// word of "SyliusShop" (sylius, shop) or "mail" appears in the path.
func nsMatches(lp, ns string) bool {
	ns = strings.TrimSuffix(ns, "Bundle")
	var words []string
	start := 0
	for i := 1; i <= len(ns); i++ {
		if i == len(ns) || ns[i] >= 'A' && ns[i] <= 'Z' || ns[i] == '_' || ns[i] == '-' {
			if w := strings.Trim(strings.ToLower(ns[start:i]), "_-"); w != "" {
				words = append(words, w)
			}
			start = i
		}
	}
	for _, w := range words {
		if !strings.Contains(lp, w) {
			return false
		}
	}
	return len(words) > 0
}

// function links a Twig function, filter or test to the methods or
// functions the project's extensions register for it.
func (t *templateLinker) function(ref *fact.Ref) bool {
	found := false
	for _, h := range t.funcs[ref.Props["kind"]+"\x00"+ref.Name] {
		kind := fact.Function
		if strings.Contains(h, "::") {
			kind = fact.Method
		}
		for _, i := range t.l.byQName[string(kind)+"\x00"+fact.Lower(h)] {
			t.l.edge(fact.Calls, ref.From, t.l.nodes[i].ID, ref, fact.Stated, 1, map[string]string{"via": "twig " + ref.Props["kind"]})
			found = true
		}
	}
	return found
}

// component links a Blade component tag to its class (App\View\Components\
// Forms\Input for <x-forms.input>, App\Livewire\Counter for a Livewire
// component) and its anonymous view (components/forms/input.blade.php).
func (t *templateLinker) component(ref *fact.Ref) bool {
	name := ref.Name
	ns := ""
	if i := strings.Index(name, "::"); i >= 0 {
		ns, name = name[:i], name[i+2:]
	}
	var segs []string
	for _, s := range strings.Split(name, ".") {
		segs = append(segs, studly(s))
	}
	suffixes := []string{`\view\components\` + fact.Lower(strings.Join(segs, `\`)), `\components\` + fact.Lower(strings.Join(segs, `\`))}
	if ref.Props["kind"] == "livewire" {
		suffixes = []string{`\livewire\` + fact.Lower(strings.Join(segs, `\`)), `\http\livewire\` + fact.Lower(strings.Join(segs, `\`))}
	}
	found := false
	for _, i := range t.classes {
		q := `\` + fact.Lower(t.l.nodes[i].QName)
		for _, s := range suffixes {
			if strings.HasSuffix(q, s) {
				t.l.edge(fact.References, ref.From, t.l.nodes[i].ID, ref, fact.Stated, 1, map[string]string{"via": ref.Props["via"]})
				found = true
				break
			}
		}
	}
	if ref.Props["kind"] == "livewire" {
		return found
	}
	view := "components." + name
	if ns != "" {
		view = ns + "::" + view
	}
	files := t.templateFiles(view, "blade")
	for _, f := range files {
		prov, conf := fact.Stated, 1.0
		if len(files) > 1 {
			prov, conf = fact.Derived, round3(0.9/float64(len(files)))
		}
		t.l.edge(fact.Includes, ref.From, fact.FileNodeID(f), ref, prov, conf, map[string]string{"via": ref.Props["via"]})
		found = true
	}
	return found
}

// studly turns a kebab-case name into StudlyCase: "alert-box" -> "AlertBox".
func studly(s string) string {
	var sb strings.Builder
	up := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '-' || c == '_' {
			up = true
			continue
		}
		if up && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		up = false
		sb.WriteByte(c)
	}
	return sb.String()
}

// meta is the statistics as the graph meta value.
func (t *templateLinker) meta() string {
	if t.stats == nil {
		t.stats = TemplateStats{}
	}
	b, _ := json.Marshal(t.stats)
	return string(b)
}
