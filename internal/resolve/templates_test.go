package resolve

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/lang"
	"github.com/ragraf/ragraf/internal/lang/blade"
	"github.com/ragraf/ragraf/internal/lang/php"
	"github.com/ragraf/ragraf/internal/lang/twig"
)

// templateApp indexes files with the real front ends and links the domain.
func templateApp(t *testing.T, files map[string]string) ([]fact.Node, Output) {
	t.Helper()
	fes := map[string]lang.FrontEnd{".php": php.FrontEnd{}, ".twig": twig.FrontEnd{}, "blade": blade.FrontEnd{}}
	var nodes []fact.Node
	var refs []fact.Ref
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for k := range files {
			if !yield(k) {
				return
			}
		}
	}) {
		var fe lang.FrontEnd
		switch {
		case len(p) > 10 && p[len(p)-10:] == ".blade.php":
			fe = fes["blade"]
		case p[len(p)-4:] == ".php":
			fe = fes[".php"]
		default:
			fe = fes[".twig"]
		}
		ps, err := fe.New(lang.Options{})
		if err != nil {
			t.Fatal(err)
		}
		f, err := ps.File(context.Background(), p, []byte(files[p]))
		ps.Close()
		if err != nil || f.Partial {
			t.Fatalf("%s: %v %s", p, err, f.Reason)
		}
		fileID := fact.FileNodeID(p)
		nodes = append(nodes, fact.Node{ID: fileID, Kind: fact.File, Name: p, QName: p, Path: p, Lang: fe.Name()})
		for _, n := range append(f.Nodes, f.Domain.Nodes...) {
			if n.Parent == "" {
				n.Parent = fileID
			}
			nodes = append(nodes, n)
		}
		refs = append(append(refs, f.Refs...), f.Domain.Refs...)
	}
	out, err := Domain(context.Background(), DomainInput{Nodes: nodes, Refs: refs})
	if err != nil {
		t.Fatal(err)
	}
	return nodes, out
}

func edgeLines(nodes []fact.Node, out Output) []string {
	names := map[string]string{}
	for _, n := range nodes {
		names[n.ID] = n.QName
	}
	var got []string
	for _, e := range out.Edges {
		got = append(got, fmt.Sprintf("%s -%s/%s-> %s", names[e.From], e.Kind, e.Provenance, names[e.To]))
	}
	return got
}

// TestTemplates_TemplatesLinkToTemplatesRoutesAndPHP: a Symfony controller's
// render() and #[Template] reach the template file; extends, include and
// import reach theirs (a @Namespace name its bundle's); path() reaches the
// route of that name; a Twig function and filter reach the extension
// method registered for them by new TwigFunction and #[AsTwigFilter]; an
// unknown template or route name stays unresolved with the reason.
func TestTemplates_TemplatesLinkToTemplatesRoutesAndPHP(t *testing.T) {
	nodes, out := templateApp(t, map[string]string{
		"src/Controller/Blog.php": `<?php
namespace App\Controller;
use Symfony\Component\Routing\Attribute\Route;
use Symfony\Bridge\Twig\Attribute\Template;
class Blog {
    #[Route('/blog', name: 'blog_index')]
    public function index() { return $this->render('blog/index.html.twig', []); }
    #[Route('/blog/{slug}', name: 'blog_post')]
    #[Template('blog/post.html.twig')]
    public function post() { return []; }
}
`,
		"src/Twig/AppExtension.php": `<?php
namespace App\Twig;
use Twig\Extension\AbstractExtension;
use Twig\TwigFunction;
use Twig\Attribute\AsTwigFilter;
class AppExtension extends AbstractExtension {
    public function getFunctions(): array { return [new TwigFunction('locales', [$this, 'getLocales'])]; }
    public function getLocales(): array { return []; }
    #[AsTwigFilter('md')]
    public function markdown(string $s): string { return $s; }
}
`,
		"templates/base.html.twig":                            "{% block body %}{% endblock %}\n",
		"templates/blog/index.html.twig":                      "{% extends 'base.html.twig' %}\n{% import '@AcmeAdmin/macros.html.twig' as m %}\n{% block body %}\n{{ path('blog_post', {slug: 1}) }} {{ locales()|join }} {{ x|md }}\n{{ include('blog/missing.html.twig') }} {{ path('nowhere') }}\n{% endblock %}\n",
		"templates/blog/post.html.twig":                       "{% extends 'base.html.twig' %}\n",
		"src/AcmeAdminBundle/templates/macros.html.twig":      "{% macro m() %}{% endmacro %}\n",
		"vendor/other/OtherBundle/templates/macros.html.twig": "{% macro m() %}{% endmacro %}\n",
	})
	got := edgeLines(nodes, out)
	for _, w := range []string{
		`App\Controller\Blog::index -references/stated-> templates/blog/index.html.twig`,
		`App\Controller\Blog::post -references/stated-> templates/blog/post.html.twig`,
		`templates/blog/index.html.twig -extends/stated-> templates/base.html.twig`,
		`templates/blog/post.html.twig -extends/stated-> templates/base.html.twig`,
		`templates/blog/index.html.twig -imports/stated-> src/AcmeAdminBundle/templates/macros.html.twig`,
		`templates/blog/index.html.twig#body -references/stated-> ANY /blog/{slug}`,
		`templates/blog/index.html.twig#body -calls/stated-> App\Twig\AppExtension::getLocales`,
		`templates/blog/index.html.twig#body -calls/stated-> App\Twig\AppExtension::markdown`,
	} {
		if !slices.Contains(got, w) {
			t.Errorf("missing %s in\n%q", w, got)
		}
	}
	var unres []string
	for _, u := range out.Unresolved {
		unres = append(unres, u.Name+": "+u.Reason)
	}
	slices.Sort(unres)
	if want := []string{"blog/missing.html.twig: template not found", "nowhere: route name not found"}; !slices.Equal(unres, want) {
		t.Errorf("unresolved %q, want %q", unres, want)
	}
	var st TemplateStats
	if err := json.Unmarshal([]byte(out.Meta[MetaTemplates]), &st); err != nil {
		t.Fatal(err)
	}
	if c := st[fact.RefTemplate]; c == nil || c.Total != 6 || c.Linked != 5 {
		t.Errorf("template stats %+v", c)
	}
}

// TestTemplates_BladeLinksViewsComponentsAndRoutes: view(), View::make and
// Route::view reach the Blade file of the dotted name; @extends and
// @include theirs; <x-alert> reaches its component class and
// <x-forms.input> its anonymous component view; route() the named route.
func TestTemplates_BladeLinksViewsComponentsAndRoutes(t *testing.T) {
	nodes, out := templateApp(t, map[string]string{
		"routes/web.php": `<?php
use Illuminate\Support\Facades\Route;
use Illuminate\Support\Facades\View;
Route::get('/books', fn () => view('books.index'))->name('books.index');
Route::view('/about', 'pages.about');
function mail_body() { return View::make('emails.welcome'); }
`,
		"app/View/Components/Alert.php":                    "<?php\nnamespace App\\View\\Components;\nclass Alert {}\n",
		"resources/views/layouts/app.blade.php":            "<html>@yield('content')</html>\n",
		"resources/views/books/index.blade.php":            "@extends('layouts.app')\n@section('content')\n@include('books._row')\n<x-alert/><x-forms.input/>\n<a href=\"{{ route('books.index') }}\">\n@endsection\n",
		"resources/views/books/_row.blade.php":             "row\n",
		"resources/views/pages/about.blade.php":            "about\n",
		"resources/views/emails/welcome.blade.php":         "hi\n",
		"resources/views/components/alert.blade.php":       "alert\n",
		"resources/views/components/forms/input.blade.php": "input\n",
	})
	got := edgeLines(nodes, out)
	for _, w := range []string{
		`routes/web.php -references/stated-> resources/views/books/index.blade.php`,
		`routes/web.php -references/stated-> resources/views/pages/about.blade.php`,
		`mail_body -references/stated-> resources/views/emails/welcome.blade.php`,
		`resources/views/books/index.blade.php -extends/stated-> resources/views/layouts/app.blade.php`,
		`resources/views/books/index.blade.php#content -includes/stated-> resources/views/books/_row.blade.php`,
		`resources/views/books/index.blade.php#content -references/stated-> App\View\Components\Alert`,
		`resources/views/books/index.blade.php#content -includes/stated-> resources/views/components/alert.blade.php`,
		`resources/views/books/index.blade.php#content -includes/stated-> resources/views/components/forms/input.blade.php`,
		`resources/views/books/index.blade.php#content -references/stated-> GET /books`,
	} {
		if !slices.Contains(got, w) {
			t.Errorf("missing %s in\n%q", w, got)
		}
	}
	if len(out.Unresolved) != 0 {
		t.Errorf("unresolved %+v", out.Unresolved)
	}
}
