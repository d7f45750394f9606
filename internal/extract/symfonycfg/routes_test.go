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
