// This file reads Symfony's service configuration, YAML and XML: a
// service's class, aliases (an interface bound to its implementation), and
// the event listener tags (kernel.event_listener, doctrine.event_listener,
// doctrine.orm.entity_listener) that make a method an entry point.

package symfonycfg

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Service is one service definition.
type Service struct {
	ID    string
	Class string // the class key, or the id when it names a class
	Alias string // the service an alias stands for ("" when not an alias)
	Line  int
	Tags  []Tag
}

// Tag is a tag of a service with the attributes a listener uses.
type Tag struct {
	Name   string
	Event  string
	Method string
	Line   int
}

// ListenerTags are the tags that make a service's method an event listener,
// with the framework that calls it.
var ListenerTags = map[string]string{
	"kernel.event_listener":        "symfony",
	"doctrine.event_listener":      "doctrine",
	"doctrine.orm.entity_listener": "doctrine",
}

// ReadServices reads the services of a YAML (.yaml, .yml) or XML file.
func ReadServices(file string, data []byte) ([]Service, error) {
	if len(data) > MaxFileBytes {
		return nil, ErrBudget
	}
	if strings.HasSuffix(file, ".xml") {
		return servicesXML(data)
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, err
	}
	var out []Service
	for _, doc := range f.Docs {
		for _, top := range values(doc.Body) {
			if keyOf(top) != "services" {
				continue
			}
			for _, mv := range values(top.Value) {
				id := keyOf(mv)
				if id == "_defaults" || id == "_instanceof" {
					continue
				}
				s := Service{ID: id, Line: mv.Key.GetToken().Position.Line}
				if v, ok := str(mv.Value); ok {
					if a, ok := strings.CutPrefix(v, "@"); ok {
						s.Alias = a // Interface: '@Impl'
					}
				}
				for _, f := range values(mv.Value) {
					switch keyOf(f) {
					case "class":
						s.Class, _ = str(f.Value)
					case "alias":
						s.Alias, _ = str(f.Value)
					case "resource":
						s.ID = "" // a prototype: every class of a directory
					case "tags":
						s.Tags = yamlTags(f.Value)
					}
				}
				if s.ID == "" {
					continue
				}
				s.Alias = strings.TrimPrefix(s.Alias, "@")
				if s.Class == "" && s.Alias == "" && isClassName(id) {
					s.Class = id
				}
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// yamlTags reads `tags: [name, {name: n, event: e}, {n: {event: e}}]`.
func yamlTags(n ast.Node) []Tag {
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		return nil
	}
	var out []Tag
	for _, v := range seq.Values {
		t := Tag{Line: v.GetToken().Position.Line}
		if s, ok := str(v); ok {
			t.Name = s
			out = append(out, t)
			continue
		}
		attrs := values(v)
		if len(attrs) == 1 && keyOf(attrs[0]) != "name" {
			if inner := values(attrs[0].Value); len(inner) > 0 {
				t.Name = keyOf(attrs[0]) // {kernel.event_listener: {event: e}}
				attrs = inner
			}
		}
		for _, a := range attrs {
			s, _ := str(a.Value)
			switch keyOf(a) {
			case "name":
				t.Name = s
			case "event":
				t.Event = s
			case "method":
				t.Method = s
			}
		}
		if t.Name != "" {
			out = append(out, t)
		}
	}
	return out
}

func isClassName(s string) bool {
	return strings.Contains(s, `\`) && !strings.ContainsAny(s, " .%@")
}

// servicesXML reads <service id class alias><tag name event method/></service>.
func servicesXML(data []byte) ([]Service, error) {
	var out []Service
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = false
	var cur *Service
	depth := 0 // of nested elements inside the open <service>
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			a := attrs(t)
			line, _ := dec.InputPos()
			switch {
			case t.Name.Local == "service" && cur == nil:
				s := Service{ID: a["id"], Class: a["class"], Alias: a["alias"], Line: line}
				if s.Class == "" && s.Alias == "" && isClassName(s.ID) {
					s.Class = s.ID
				}
				cur, depth = &s, 0
			case t.Name.Local == "tag" && cur != nil:
				name := a["name"]
				if name == "" {
					name = a["key"]
				}
				cur.Tags = append(cur.Tags, Tag{Name: name, Event: a["event"], Method: a["method"], Line: line})
				depth++
			case cur != nil:
				depth++
			}
		case xml.EndElement:
			if cur == nil {
				continue
			}
			if depth > 0 {
				depth--
				continue
			}
			if t.Name.Local == "service" {
				if cur.ID != "" {
					out = append(out, *cur)
				}
				cur = nil
			}
		}
	}
	return out, nil
}
