package symfonycfg

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConfiguration_RouteImports: the imports of attribute routes are read
// with their prefix and name prefix, relative to the routing file; bundle,
// service and environment-only imports are not.
func TestConfiguration_RouteImports(t *testing.T) {
	src := `
homepage:
    path: /{_locale}
    controller: App\Controller\HomeController

controllers:
    resource: routing.controllers
    prefix: /{_locale}

api:
    resource:
        path: ../src/Api/
        namespace: App\Api
    type: attribute
    prefix: /api
    name_prefix: api_

kernel:
    resource: ../src/Kernel.php
    type: attribute

_errors:
    resource: '@FrameworkBundle/Resources/config/routing/errors.php'
    prefix: /_error

when@dev:
    dev:
        resource: ../src/Dev/
        prefix: /dev
`
	got, err := RouteImports("config/routes.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Import{
		{Name: "controllers", Resource: "src/Controller/", Dir: true, Prefix: "/{_locale}", Path: "config/routes.yaml", Line: 6},
		{Name: "api", Resource: "src/Api/", Dir: true, Prefix: "/api", NamePrefix: "api_", Path: "config/routes.yaml", Line: 10},
		{Name: "kernel", Resource: "src/Kernel.php", Path: "config/routes.yaml", Line: 18},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("imports (-want +got):\n%s", diff)
	}
	if u := got[0].Apply("/blog/posts/{slug}"); u != "/{_locale}/blog/posts/{slug}" {
		t.Errorf("Apply = %q", u)
	}
	if u := got[1].Apply("/"); u != "/api" {
		t.Errorf("Apply on root = %q", u)
	}
	if !got[0].Covers("src/Controller/Admin/BlogController.php") || got[0].Covers("src/Entity/Post.php") || !got[2].Covers("src/Kernel.php") {
		t.Error("Covers")
	}
}

// TestConfiguration_YAMLBomb: anchors that would expand exponentially are
// never expanded, and a file over the budget reports it.
func TestConfiguration_YAMLBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 30; i++ {
		b.WriteString("a" + itoa(i) + ": &a" + itoa(i) + " [*a" + itoa(i-1) + ", *a" + itoa(i-1) + ", *a" + itoa(i-1) + ", *a" + itoa(i-1) + ", *a" + itoa(i-1) + "]\n")
	}
	b.WriteString("ctl:\n    resource: ../src/Controller/\n    prefix: *a29\n")
	got, err := RouteImports("config/routes.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Prefix != "" {
		t.Errorf("imports %+v, want the one import without the aliased prefix", got)
	}
	if _, err := RouteImports("config/routes.yaml", make([]byte, MaxFileBytes+1)); err != ErrBudget {
		t.Errorf("err = %v, want the budget error", err)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// TestConfiguration_DeclaredRoutes: routes declared in YAML and XML routing
// files are read with their path as debug:router prints it, methods and
// controller (controller: or defaults._controller); imports of routing
// files and bundles are kept for the build to follow, others are skipped
// with the reason.
func TestConfiguration_DeclaredRoutes(t *testing.T) {
	yml := `
cart_add:
    path: /cart/{id<\d+>}
    methods: POST|put
    defaults:
        _controller: acme.controller.cart::addAction
show:
    path: /show/{slug:post}
    controller: App\Controller\ShowController
shop:
    resource: "@AcmeShopBundle/Resources/config/routing.yml"
    prefix: /shop
books:
    resource: |
        alias: app.book
    type: sylius.resource
`
	f, err := ReadRouting("config/routes.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	want := File{
		Imports: []Import{{Name: "shop", Resource: "Resources/config/routing.yml", Prefix: "/shop", Path: "config/routes.yaml", Line: 10, Bundle: "AcmeShopBundle", Routing: true}},
		Routes: []Route{
			{Name: "cart_add", Path: "/cart/{id}", Methods: []string{"POST", "PUT"}, Controller: "acme.controller.cart::addAction", Line: 2, EndLine: 6},
			{Name: "show", Path: "/show/{slug}", Controller: `App\Controller\ShowController`, Line: 7, EndLine: 9},
		},
		Skipped: []string{"books: type sylius.resource"},
	}
	if diff := cmp.Diff(want, f); diff != "" {
		t.Errorf("YAML (-want +got):\n%s", diff)
	}
	xml := `<?xml version="1.0"?>
<routes xmlns="http://symfony.com/schema/routing">
    <import resource="admin.xml" prefix="/admin" name-prefix="admin_"/>
    <route id="blog_show" path="/blog/{slug}" controller="App\Controller\BlogController::show" methods="GET"/>
    <route id="old">
    </route>
</routes>`
	f, err = ReadRouting("config/routes/app.xml", []byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	want = File{
		Imports: []Import{{Name: "admin.xml", Resource: "config/routes/admin.xml", Prefix: "/admin", NamePrefix: "admin_", Path: "config/routes/app.xml", Line: 3, Routing: true}},
		Routes:  []Route{{Name: "blog_show", Path: "/blog/{slug}", Methods: []string{"GET"}, Controller: `App\Controller\BlogController::show`, Line: 4, EndLine: 4}},
	}
	if diff := cmp.Diff(want, f); diff != "" {
		t.Errorf("XML (-want +got):\n%s", diff)
	}
	if _, err := ReadRouting("config/routes/bad.xml", []byte("<routes><route id='x' path='/a<'/></routes>")); err == nil {
		t.Error("a malformed XML file gave no error")
	}
}
