package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConfiguration_SymfonyAppThroughTheBinary indexes a small Symfony
// application with the real binary: entry_points lists the routes its YAML
// and XML routing files declare under the prefixes and name prefixes of
// their imports (a bundle's routing, a %parameter% prefix) and the event
// listeners its services.yaml tags, each with its handler method; callers of
// the class the container binds to an interface finds the call made through
// the interface, derived, at the binding.
func TestConfiguration_SymfonyAppThroughTheBinary(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join(filepath.Dir(file), "testdata", "symfonyapp"))); err != nil {
		t.Fatal(err)
	}
	if r := run(t, root, "index"); r.code != 0 {
		t.Fatalf("index: %d %s", r.code, r.stderr)
	}
	query := func(op, args string, into any) {
		t.Helper()
		r := run(t, root, "query", op, "--args", args)
		if r.code != 0 {
			t.Fatalf("query %s: %d %s %s", op, r.code, r.stdout, r.stderr)
		}
		var env struct {
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &env); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(env.Result, into); err != nil {
			t.Fatalf("%s: %v in %s", op, err, env.Result)
		}
	}
	var eps struct {
		EntryPoints []struct {
			Kind     string            `json:"kind"`
			Name     string            `json:"name"`
			Path     string            `json:"path"`
			Props    map[string]string `json:"props"`
			Handlers []struct {
				QName string `json:"qname"`
			} `json:"handlers"`
		} `json:"entry_points"`
	}
	query("entry_points", `{}`, &eps)
	var got []string
	for _, e := range eps.EntryPoints {
		l := e.Kind + " " + e.Name + " " + e.Props["name"] + " " + e.Path + " ->"
		for _, h := range e.Handlers {
			l += " " + h.QName
		}
		got = append(got, l)
	}
	slices.Sort(got)
	want := []string{
		`event_listener event kernel.request  config/services.yaml -> App\Listener\RequestListener::onKernelRequest`,
		`event_listener event kernel.response  config/services.yaml -> App\Listener\RequestListener::after`,
		`event_listener event onFlush  config/services.yaml -> App\Listener\FlushListener::onFlush`,
		`web_route ANY /{_locale} homepage config/routes.yaml -> App\Controller\HomeController::__invoke`,
		`web_route ANY /{_locale}/checkout/start acme_checkout_start src/Shop/Resources/config/routing/checkout.yml -> Acme\Shop\Controller\CartController::__invoke`,
		`web_route GET /backoffice admin_dashboard src/Shop/Resources/config/routing/admin.yaml -> Acme\Shop\Controller\CartController::show`,
		`web_route GET /legacy/show/{id} legacy_show config/legacy.xml -> App\Controller\HomeController::legacy`,
		`web_route GET /{_locale}/cart acme_cart_show src/Shop/Resources/config/routing.yml -> Acme\Shop\Controller\CartController::show`,
		`web_route HEAD /legacy/show/{id} legacy_show config/legacy.xml -> App\Controller\HomeController::legacy`,
		`web_route POST /{_locale}/cart/{id} acme_cart_add src/Shop/Resources/config/routing.yml ->`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entry points (-want +got):\n%s", diff)
	}
	var callers struct {
		Derived []struct {
			QName      string `json:"qname"`
			SitePath   string `json:"site_path"`
			Provenance string `json:"provenance"`
		} `json:"derived"`
	}
	query("callers", `{"qname":"App\\Mailer\\SmtpMailer::send"}`, &callers)
	if len(callers.Derived) != 1 || callers.Derived[0].QName != `App\Service\Notifier::notify` || callers.Derived[0].SitePath != "config/services.yaml" {
		t.Errorf("derived callers of SmtpMailer::send through the binding: %+v", callers.Derived)
	}
}
