package twig

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
)

func read(t *testing.T, src string) lang.Facts {
	t.Helper()
	p, _ := FrontEnd{}.New(lang.Options{})
	f, err := p.File(context.Background(), "templates/a.html.twig", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func refs(f lang.Facts) []string {
	var out []string
	for _, r := range f.Domain.Refs {
		s := string(r.Kind) + " " + r.Name + " " + r.Props["rel"] + r.Props["kind"] + "@" + itoa(r.Line)
		out = append(out, strings.Replace(s, "  ", " ", 1))
	}
	return out
}

func itoa(i int) string { return fmt.Sprintf("%02d", i) }

// TestTemplates_TwigTemplateNodesAndEdges: blocks and macros are nodes with
// their line ranges, nested blocks below their block; extends, include,
// embed, import, from, use and form_theme name templates with their edge
// kind; path() and url() name routes; project functions and filters are
// referenced, Twig's own are not; comments and verbatim blocks are not read.
func TestTemplates_TwigTemplateNodesAndEdges(t *testing.T) {
	src := `{% extends 'base.html.twig' %}
{% import 'macros/forms.html.twig' as forms %}
{% from "@Admin/x.html.twig" import a, b %}
{% use 'blocks.html.twig' %}
{# {% include 'commented.html.twig' %} #}
{% block body %}
  {%- block inner -%}
    {{ include('part.html.twig', {a: 1}) }}
    <a href="{{ path('blog_post', {slug: post.slug}) }}">{{ post.title|markdown_to_html|raw }}</a>
  {%- endblock -%}
  {% include ['x.html.twig', 'y.html.twig'] with {a: 1} only %}
  {% embed 'card.html.twig' %}{% block card_body %}hi{% endblock %}{% endembed %}
  {% if is_rtl() and x is not empty %}{{ url('home') }}{% endif %}
{% endblock %}
{% block title 'Short' %}
{% verbatim %}{% include 'not.html.twig' %}{{ path('no') }}{% endverbatim %}
{% macro field(name, value = "") %}
  {{ name|upper }} {{ forms.input(name) }}
{% endmacro %}
{% form_theme form 'form/theme.html.twig' %}
`
	f := read(t, src)
	if f.Partial {
		t.Fatalf("partial: %s", f.Reason)
	}
	var nodes []string
	parent := map[string]string{}
	names := map[string]string{"": "file"}
	for _, n := range f.Nodes {
		names[n.ID] = n.Name
		parent[n.Name] = n.Parent
		nodes = append(nodes, string(n.Kind)+" "+n.Name+" "+itoa(n.StartLine)+"-"+itoa(n.EndLine))
	}
	want := []string{"block body 06-14", "block inner 07-10", "block card_body 12-12", "block title 15-15", "macro field 17-19"}
	if !slices.Equal(nodes, want) {
		t.Errorf("nodes\n got %q\nwant %q", nodes, want)
	}
	if names[parent["inner"]] != "body" || names[parent["body"]] != "file" {
		t.Errorf("inner's parent %q, body's %q", names[parent["inner"]], names[parent["body"]])
	}
	got := refs(f)
	for _, w := range []string{
		"template base.html.twig extends@01", "template macros/forms.html.twig imports@02",
		"template @Admin/x.html.twig imports@03", "template blocks.html.twig imports@04",
		"template part.html.twig includes@08", "route_name blog_post @09", "template_func markdown_to_html filter@09",
		"template x.html.twig includes@11", "template y.html.twig includes@11", "template card.html.twig includes@12",
		"template_func is_rtl function@13", "route_name home @13", "template form/theme.html.twig includes@20",
	} {
		if !slices.Contains(got, w) {
			t.Errorf("missing %q in %q", w, got)
		}
	}
	for _, g := range got {
		for _, bad := range []string{"commented", "not.html", " no ", " raw ", " upper ", " empty ", " input ", " include "} {
			if strings.Contains(g, bad) {
				t.Errorf("unexpected %q", g)
			}
		}
	}
}

// TestTemplates_TwigBadTemplateIsPartialWithLine: a tag that is not closed,
// an end tag without its start or a block not ended make the file partial
// with the line; the blocks read before stay.
func TestTemplates_TwigBadTemplateIsPartialWithLine(t *testing.T) {
	for src, want := range map[string]string{
		"{% block a %}\n{% endblock %}\n{{ x\n":         "line 3: unclosed {{",
		"{% block a %}\n{% endblock %}\n{% endblock %}": "line 3: end of block without its start",
		"\n{% block a %}\nx\n":                          "line 2: block not closed",
		"{% macro m() %}\n{{ 'a }}\n":                   "line 2: unclosed {{",
	} {
		f := read(t, src)
		if !f.Partial || f.Reason != want {
			t.Errorf("%q: partial %v %q, want %q", src, f.Partial, f.Reason, want)
		}
		if len(f.Nodes) == 0 || f.Nodes[0].Kind != fact.Block && f.Nodes[0].Kind != fact.Macro {
			t.Errorf("%q: nodes %v", src, f.Nodes)
		}
	}
}
