package rev

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// buildGraph indexes files in a temporary project and opens its graph.
func buildGraph(t *testing.T, files map[string]string) *graph.Store {
	t.Helper()
	root := t.TempDir()
	for p, src := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	info, err := Build(ctx, Options{Root: root, Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Open(ctx, filepath.Join(Layout{Root: root}.Rev(info.Rev), GraphDB))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

// listenerLines are the event listeners ("event_listener NAME framework
// path:line -> handlers") and the calls of kind via a hook ("calls FROM ->
// TO via ... provenance at path:line").
func listenerLines(t *testing.T, g *graph.Store) (listeners, calls []string) {
	t.Helper()
	ctx := context.Background()
	nodes, err := g.AllNodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]fact.Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	edges, err := g.EdgesOfKinds(ctx, []fact.EdgeKind{fact.Handles, fact.Calls})
	if err != nil {
		t.Fatal(err)
	}
	handled := map[string][]string{}
	for _, e := range edges {
		switch {
		case e.Kind == fact.Handles:
			handled[e.From] = append(handled[e.From], byID[e.To].QName)
		case strings.HasPrefix(e.Props["via"], "hook "):
			calls = append(calls, byID[e.From].QName+" -> "+byID[e.To].QName+" "+e.Props["via"]+" "+string(e.Provenance)+
				" at "+e.EvidencePath+":"+strconv.Itoa(e.EvidenceLine))
		}
	}
	for _, n := range nodes {
		if n.Kind != fact.EventListener {
			continue
		}
		hs := handled[n.ID]
		sort.Strings(hs)
		listeners = append(listeners, n.Props["framework"]+" "+n.QName+" "+n.Path+":"+strconv.Itoa(n.StartLine)+" -> "+strings.Join(hs, ","))
	}
	sort.Strings(listeners)
	sort.Strings(calls)
	return listeners, calls
}

// TestConfiguration_WordPressHooks: add_action and add_filter make their
// callback an entry point (event_listener, the hook as event), and the
// function firing the hook (do_action, apply_filters) calls every callback
// registered for it: derived, the hook as evidence. A hook fired with no
// callback and a dynamic hook name link nothing.
func TestConfiguration_WordPressHooks(t *testing.T) {
	g := buildGraph(t, map[string]string{
		"plugin/plugin.php": `<?php
class My_Plugin {
	public function __construct() {
		add_action( 'save_post', array( $this, 'on_save' ), 10, 2 );
		add_filter( 'the_title', 'my_title' );
		add_action( 'wp_ajax_my_save', array( $this, 'on_save' ) );
	}
	public function on_save( $id ) {}
}
function my_title( $t ) { return $t; }
`,
		"core/post.php": `<?php
function wp_insert_post( $post ) {
	do_action( 'save_post', 1, $post );
	do_action( 'wp_insert_post', 1 );
	do_action( "save_post_{$post->post_type}", 1 );
}
function get_the_title( $p ) {
	return apply_filters( 'the_title', 'x', $p );
}
`,
	})
	listeners, calls := listenerLines(t, g)
	want := []string{
		"wordpress event save_post plugin/plugin.php:4 -> My_Plugin::on_save",
		"wordpress event the_title plugin/plugin.php:5 -> my_title",
	}
	if diff := cmp.Diff(want, listeners); diff != "" {
		t.Errorf("listeners (-want +got):\n%s", diff)
	}
	wantCalls := []string{
		"get_the_title -> my_title hook the_title derived at core/post.php:8",
		"wp_insert_post -> My_Plugin::on_save hook save_post derived at core/post.php:3",
	}
	if diff := cmp.Diff(wantCalls, calls); diff != "" {
		t.Errorf("calls through hooks (-want +got):\n%s", diff)
	}
}

// TestConfiguration_SymfonyServices: services.yaml tags kernel.event_listener
// and doctrine.event_listener make their method an event listener (the
// method named, else Symfony's on<Event>, Doctrine's event name); an alias
// binding an interface to a service's class makes a call through the
// interface reach the class's method, derived, the binding as evidence.
func TestConfiguration_SymfonyServices(t *testing.T) {
	root := t.TempDir()
	copyTree(t, filepath.Join("testdata", "symfonyservices"), root)
	ctx := context.Background()
	info, err := Build(ctx, Options{Root: root, Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Open(ctx, filepath.Join(Layout{Root: root}.Rev(info.Rev), GraphDB))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	listeners, _ := listenerLines(t, g)
	want := []string{
		"doctrine event onFlush config/services.yaml:20 -> App\\Listener\\FlushListener::onFlush",
		"symfony event kernel.request config/services.yaml:15 -> App\\Listener\\RequestListener::onKernelRequest",
		"symfony event kernel.response config/services.yaml:16 -> App\\Listener\\RequestListener::after",
	}
	if diff := cmp.Diff(want, listeners); diff != "" {
		t.Errorf("listeners (-want +got):\n%s", diff)
	}
	nodes, err := g.AllNodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]fact.Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	edges, err := g.EdgesOfKinds(ctx, []fact.EdgeKind{fact.Calls})
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, e := range edges {
		if byID[e.From].QName == `App\Service\Notifier::notify` {
			calls = append(calls, byID[e.To].QName+" "+string(e.Provenance)+" "+e.EvidencePath+":"+strconv.Itoa(e.EvidenceLine)+" "+e.Props["via"])
		}
	}
	sort.Strings(calls)
	wantCalls := []string{
		`App\Mailer\MailerInterface::send stated src/Service/Notifier.php:15 `,
		`App\Mailer\SmtpMailer::send derived config/services.yaml:8 binding App\Mailer\MailerInterface -> App\Mailer\SmtpMailer`,
	}
	if diff := cmp.Diff(wantCalls, calls); diff != "" {
		t.Errorf("calls of Notifier::notify (-want +got):\n%s", diff)
	}
}

// TestConfiguration_LaravelBindings: a binding in a service provider
// ($this->app->singleton(I::class, C::class)) makes a call through the
// interface reach the bound class's method, derived, the binding's line as
// evidence.
func TestConfiguration_LaravelBindings(t *testing.T) {
	g := buildGraph(t, map[string]string{
		"app/Providers/AppServiceProvider.php": `<?php
namespace App\Providers;

use App\Billing\PaymentGateway;
use App\Billing\StripeGateway;

class AppServiceProvider
{
    public function register(): void
    {
        $this->app->singleton(PaymentGateway::class, StripeGateway::class);
    }
}
`,
		"app/Billing/PaymentGateway.php": "<?php\nnamespace App\\Billing;\n\ninterface PaymentGateway\n{\n    public function charge(int $cents): void;\n}\n",
		"app/Billing/StripeGateway.php":  "<?php\nnamespace App\\Billing;\n\nclass StripeGateway implements PaymentGateway\n{\n    public function charge(int $cents): void {}\n}\n",
		"app/Http/Checkout.php": `<?php
namespace App\Http;

use App\Billing\PaymentGateway;

class Checkout
{
    public function __construct(private PaymentGateway $gateway) {}

    public function pay(): void
    {
        $this->gateway->charge(100);
    }
}
`,
	})
	ctx := context.Background()
	nodes, err := g.AllNodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]fact.Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	edges, err := g.EdgesOfKinds(ctx, []fact.EdgeKind{fact.Calls})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range edges {
		if byID[e.From].QName == `App\Http\Checkout::pay` && e.Props["via"] != "" {
			got = append(got, byID[e.To].QName+" "+string(e.Provenance)+" "+e.EvidencePath+":"+strconv.Itoa(e.EvidenceLine))
		}
	}
	want := []string{`App\Billing\StripeGateway::charge derived app/Providers/AppServiceProvider.php:11`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls through the binding (-want +got):\n%s", diff)
	}
}
