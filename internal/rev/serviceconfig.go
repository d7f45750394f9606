// This file reads Symfony's service configuration for the build
// (extract/symfonycfg): event listener tags become event_listener entry
// points on the services file with their handler, and aliases that bind an
// interface to a class let a call through the interface reach the class's
// method (derived, the binding as evidence).

package rev

import (
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ragraf/ragraf/internal/corpus"
	"github.com/ragraf/ragraf/internal/extract/symfonycfg"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/secrets"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// binding is an interface (or abstract class) the container binds to a
// class, with where the binding is stated.
type binding struct {
	iface, class string // fully qualified, as written
	path         string
	line         int
}

// serviceConfig is what the service configuration gives a build.
type serviceConfig struct {
	nodes    []fact.Node
	edges    []fact.Edge
	refs     []fact.Ref
	bindings []binding
}

// isServicesFile reports whether a project path holds service definitions:
// config/services*.yaml (test environments aside), config/services/…,
// app/config/services.yml, a bundle's Resources/config/services*.
func isServicesFile(p string) bool {
	if isTestPath(p) || !strings.HasSuffix(p, ".yaml") && !strings.HasSuffix(p, ".yml") && !strings.HasSuffix(p, ".xml") {
		return false
	}
	dir, base := path.Split(p)
	name := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(base, ".xml"), ".yml"), ".yaml")
	switch {
	case dir == "config/" || dir == "app/config/":
		return name == "services"
	case strings.HasPrefix(dir, "config/services/"):
		return true
	case strings.Contains(dir, "/Resources/config/"):
		return strings.HasPrefix(name, "services") || strings.Contains(dir, "/Resources/config/services/")
	}
	return false
}

// readServiceConfig reads the services files among rows.
func readServiceConfig(root string, rows []graph.File, log func(msg string, args ...any)) serviceConfig {
	var out serviceConfig
	var files []string
	for _, r := range rows {
		if isServicesFile(r.Path) && r.Size <= symfonycfg.MaxFileBytes {
			files = append(files, r.Path)
		}
	}
	sort.Strings(files)
	classOf := map[string]string{}
	type alias struct {
		id, target, path string
		line             int
	}
	var aliases []alias
	seen := map[string]int{}
	for _, p := range files {
		c, err := corpus.Read(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil || c.Binary {
			continue
		}
		data, _ := secrets.Redact(c.Data)
		svcs, err := symfonycfg.ReadServices(p, data)
		if err != nil {
			log("services file not read", "path", p, "reason", err.Error())
			continue
		}
		for _, s := range svcs {
			if s.Class != "" {
				if _, ok := classOf[s.ID]; !ok {
					classOf[s.ID] = s.Class
				}
			}
			if s.Alias != "" {
				aliases = append(aliases, alias{s.ID, s.Alias, p, s.Line})
			} else if s.Class != "" && s.Class != s.ID && strings.Contains(s.ID, `\`) {
				aliases = append(aliases, alias{s.ID, s.ID, p, s.Line}) // Interface: {class: Impl}
			}
			for _, t := range s.Tags {
				fw, ok := symfonycfg.ListenerTags[t.Name]
				if !ok || t.Event == "" && t.Name != "doctrine.orm.entity_listener" || s.Class == "" {
					continue
				}
				m := t.Method
				if m == "" {
					if fw == "doctrine" {
						m = t.Event
					} else {
						m = listenerMethodOf(t.Event)
					}
				}
				ev := t.Event
				if ev == "" {
					ev = "entity"
				}
				q := "event " + ev
				k := p + "\x00" + q
				id := fact.NodeID(fact.EventListener, q, p, seen[k])
				seen[k]++
				lang := "yaml"
				if strings.HasSuffix(p, ".xml") {
					lang = "xml"
				}
				handler := strings.TrimPrefix(s.Class, `\`) + "::" + m
				fileID := fact.FileNodeID(p)
				out.nodes = append(out.nodes, fact.Node{ID: id, Kind: fact.EventListener, Name: q, QName: q, Path: p,
					StartLine: t.Line, EndLine: t.Line, Lang: lang, Parent: fileID,
					Props: map[string]string{"event": ev, "framework": fw, "handler": handler, "service": s.ID}})
				out.edges = append(out.edges, fact.Edge{
					ID: fact.EdgeID(fact.Contains, fileID, id, p, t.Line), Kind: fact.Contains,
					From: fileID, To: id, Provenance: fact.Stated, Confidence: 1,
					EvidencePath: p, EvidenceLine: t.Line, Sources: []string{"services"},
				})
				out.refs = append(out.refs, fact.Ref{Kind: fact.RefHandles, From: id, Path: p, Line: t.Line, Name: handler,
					Props: map[string]string{"raw": s.ID}})
			}
		}
	}
	for _, a := range aliases {
		target := a.target
		for range 8 { // an alias of an alias
			if c, ok := classOf[target]; ok && c != target {
				target = c
				continue
			}
			break
		}
		if strings.Contains(a.id, `\`) && strings.Contains(target, `\`) && a.id != target {
			out.bindings = append(out.bindings, binding{strings.TrimPrefix(a.id, `\`), strings.TrimPrefix(target, `\`), a.path, a.line})
		}
	}
	return out
}

// listenerMethodOf is Symfony's default method of a kernel.event_listener
// tag without one: "on" and the event's words in camel case.
func listenerMethodOf(event string) string {
	var b strings.Builder
	b.WriteString("on")
	for _, w := range strings.FieldsFunc(event, func(r rune) bool { return r == '.' || r == '_' || r == '-' || r == '\\' }) {
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

// bindingCalls adds, for every call edge to a method of an interface the
// container binds to one class, a derived call to that class's method of
// the same name, the binding as evidence.
func bindingCalls(nodes []fact.Node, edges []fact.Edge, bs []binding) []fact.Edge {
	if len(bs) == 0 {
		return nil
	}
	byIface := map[string][]binding{}
	for _, b := range bs {
		k := fact.Lower(b.iface)
		byIface[k] = append(byIface[k], b)
	}
	methods := map[string]string{} // lower "class::m" -> node id
	var ifaceMethod = map[string]string{}
	for i := range nodes {
		n := &nodes[i]
		if n.Kind != fact.Method {
			continue
		}
		q := fact.Lower(n.QName)
		methods[q] = n.ID
		if c, _, ok := strings.Cut(q, "::"); ok && len(byIface[c]) == 1 {
			ifaceMethod[n.ID] = q
		}
	}
	var out []fact.Edge
	seen := map[string]bool{}
	for _, e := range edges {
		if e.Kind != fact.Calls {
			continue
		}
		q, ok := ifaceMethod[e.To]
		if !ok {
			continue
		}
		c, m, _ := strings.Cut(q, "::")
		b := byIface[c][0]
		to, ok := methods[fact.Lower(b.class)+"::"+m]
		id := fact.EdgeID(fact.Calls, e.From, to, b.path, b.line)
		if !ok || to == e.To || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, fact.Edge{
			ID: id, Kind: fact.Calls,
			From: e.From, To: to, Provenance: fact.Derived, Confidence: 0.9,
			EvidencePath: b.path, EvidenceLine: b.line, Sources: []string{"container"},
			Props: map[string]string{"via": "binding " + b.iface + " -> " + b.class, "call_at": e.EvidencePath + ":" + strconv.Itoa(e.EvidenceLine)},
		})
	}
	return out
}

// codeBindings are the container bindings PHP code states (Laravel's
// $this->app->bind and its kin).
func codeBindings(refs []fact.Ref) []binding {
	var out []binding
	for i := range refs {
		if r := &refs[i]; r.Kind == fact.RefContainerBind && r.Props["class"] != "" {
			out = append(out, binding{r.Name, r.Props["class"], r.Path, r.Line})
		}
	}
	return out
}
