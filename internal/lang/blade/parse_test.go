package blade

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/lang"
)

func read(t *testing.T, src string) lang.Facts {
	t.Helper()
	p, _ := FrontEnd{}.New(lang.Options{})
	f, err := p.File(context.Background(), "resources/views/a.blade.php", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestTemplates_BladeTemplateNodesAndEdges: @section, @yield and @fragment
// are block nodes with their ranges; @extends, @include*, @each and
// @component name templates; <x-…> tags and @livewire name components;
// route() and view() in echoes and directive arguments name routes and
// templates; comments, @verbatim, @@ escapes and e-mail addresses are not
// read as directives.
func TestTemplates_BladeTemplateNodesAndEdges(t *testing.T) {
	src := `@extends('layouts.app')
@section('title', 'Books')
{{-- @include('commented') --}}
@section('content')
  @include('partials.nav', ['a' => 1])
  @includeWhen($x, 'partials.when')
  @includeFirst(['custom.a', 'admin.a'])
  @each('books.item', $books, 'book', 'books.empty')
  <a href="{{ route('books.show', $book) }}">{!! view("inline.x")->render() !!}</a>
  <x-alert type="error" :message="$m"/>
  <x-forms.input name="a"><x-slot:label>L</x-slot></x-forms.input>
  @if(route('home') == $u) mail me: a@b.com @@include('no') @endif
  @verbatim {{ route('not') }} @include('not') @endverbatim
  @livewire('counter')
@endsection
@yield('scripts')
@push('js')
  <script></script>
@endpush
@push('body-class', 'x ')
@include('auth.parts.login-form-' . $method)
`
	f := read(t, src)
	if f.Partial {
		t.Fatalf("partial: %s", f.Reason)
	}
	var nodes []string
	for _, n := range f.Nodes {
		nodes = append(nodes, fmt.Sprintf("%s %s %d-%d", n.Kind, n.Name, n.StartLine, n.EndLine))
	}
	want := []string{"block title 2-2", "block content 4-15", "block scripts 16-16"}
	if !slices.Equal(nodes, want) {
		t.Errorf("nodes\n got %q\nwant %q", nodes, want)
	}
	var got []string
	for _, r := range f.Domain.Refs {
		got = append(got, fmt.Sprintf("%s %s %s@%d", r.Kind, r.Name, r.Props["rel"], r.Line))
	}
	for _, w := range []string{
		"template layouts.app extends@1", "template partials.nav includes@5", "template partials.when includes@6",
		"template custom.a includes@7", "template admin.a includes@7", "template books.item includes@8",
		"template books.empty includes@8", "route_name books.show @9", "template inline.x references@9",
		"component alert @10", "component forms.input @11", "route_name home @12", "component counter @14",
	} {
		if !slices.Contains(got, w) {
			t.Errorf("missing %q in %q", w, got)
		}
	}
	for _, g := range got {
		for _, bad := range []string{"commented", " no ", " not ", "slot", "b.com", "login-form"} {
			if strings.Contains(g, bad) {
				t.Errorf("unexpected %q", g)
			}
		}
	}
}

// TestTemplates_BladeBadTemplateIsPartialWithLine: an unclosed comment or
// echo, a section without its end or an end without its start make the
// file partial with the line.
func TestTemplates_BladeBadTemplateIsPartialWithLine(t *testing.T) {
	for src, want := range map[string]string{
		"@section('a')\nx\n":            "line 1: section not closed",
		"x\n@endsection\n":              "line 2: end of section without its start",
		"@section('a')\n{{-- x\n":       "line 2: unclosed {{--",
		"a\n\n{{ $x \n@endsection":      "line 3: unclosed {{",
		"@include('a'\n@section('b')\n": "line 1: @include not closed by )",
	} {
		f := read(t, src)
		if !f.Partial || f.Reason != want {
			t.Errorf("%q: partial %v %q, want %q", src, f.Partial, f.Reason, want)
		}
	}
}
