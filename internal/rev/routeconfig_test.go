package rev

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/fact"
)

// TestConfiguration_SymfonyRoutePrefixes: the prefix and name prefix of the
// routes.yaml import that loads a controller apply to its attribute routes,
// as debug:router prints them.
func TestConfiguration_SymfonyRoutePrefixes(t *testing.T) {
	_, entries, g := domainFacts(t, filepath.Join("testdata", "symfonyroutes"), config.Default())
	want := []string{
		"web_route src/Api/PostApi.php:9 GET /api/posts/{id} -> App\\Api\\PostApi::show",
		"web_route src/Controller/BlogController.php:10 GET /{_locale}/blog -> App\\Controller\\BlogController::index",
		"web_route src/Controller/BlogController.php:15 GET /{_locale}/blog/posts/{slug} -> App\\Controller\\BlogController::show",
	}
	if diff := cmp.Diff(want, entries); diff != "" {
		t.Errorf("routes (-want +got):\n%s", diff)
	}
	routes, err := g.AllNodes(context.Background(), fact.WebRoute)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, r := range routes {
		names[r.Props["name"]] = r.Props["imported_by"]
	}
	if names["api_post"] != "config/routes.yaml:5" || names["blog_index"] != "config/routes.yaml:1" {
		t.Errorf("route names and imports %v", names)
	}
}

// TestConfiguration_SymfonyYAMLRoutes: routes declared in YAML and XML
// routing files are web routes on their line, under the prefixes and name
// prefixes of every import on the way from config/routes.yaml (relative
// files, @Bundle resources, %parameters% resolved through %env()%'s
// default), with their controller as handler; imports a vendor loader
// builds (type sylius.resource) are not followed.
func TestConfiguration_SymfonyYAMLRoutes(t *testing.T) {
	_, entries, g := domainFacts(t, filepath.Join("testdata", "symfonyyaml"), config.Default())
	want := []string{
		"web_route config/legacy.xml:3 GET /legacy/show/{id} -> App\\Controller\\HomeController::legacy",
		"web_route config/legacy.xml:3 HEAD /legacy/show/{id} -> App\\Controller\\HomeController::legacy",
		"web_route config/routes.yaml:1 ANY /{_locale} -> App\\Controller\\HomeController::__invoke",
		"web_route src/Shop/Resources/config/routing.yml:1 GET /{_locale}/cart -> Acme\\Shop\\Controller\\CartController::show",
		"web_route src/Shop/Resources/config/routing.yml:6 POST /{_locale}/cart/{id} -> (acme.controller.cart::addAction)",
		"web_route src/Shop/Resources/config/routing/admin.yaml:1 GET /backoffice -> Acme\\Shop\\Controller\\CartController::show",
		"web_route src/Shop/Resources/config/routing/checkout.yml:1 ANY /{_locale}/checkout/start -> Acme\\Shop\\Controller\\CartController::__invoke",
	}
	if diff := cmp.Diff(want, entries); diff != "" {
		t.Errorf("routes (-want +got):\n%s", diff)
	}
	routes, err := g.AllNodes(context.Background(), fact.WebRoute)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range routes {
		names = append(names, r.Props["method"]+" "+r.Props["name"])
	}
	slices.Sort(names)
	wantNames := []string{"ANY acme_checkout_start", "ANY homepage", "GET acme_cart_show", "GET admin_dashboard",
		"GET legacy_show", "HEAD legacy_show", "POST acme_cart_add"}
	if diff := cmp.Diff(wantNames, names); diff != "" {
		t.Errorf("route names (-want +got):\n%s", diff)
	}
}
