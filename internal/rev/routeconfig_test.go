package rev

import (
	"context"
	"path/filepath"
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
