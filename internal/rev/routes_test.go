package rev

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/fact"
	"github.com/ragraf/ragraf/internal/store/graph"
)

// entryLines indexes the files and renders each entry point as
// "kind name -> handlers", a handler as its target's qname (prefixed by its
// role when it has one), and " (unresolved)" after a route whose URI is not
// fully known. Each handles edge must end at a node of that qname.
func entryLines(t *testing.T, files map[string]string) []string {
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
	defer g.Close()
	nodes, err := g.AllNodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]fact.Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	edges, err := g.EdgesOfKinds(ctx, []fact.EdgeKind{fact.Handles})
	if err != nil {
		t.Fatal(err)
	}
	handled := map[string][]string{}
	for _, e := range edges {
		to, ok := byID[e.To]
		if !ok {
			t.Errorf("handles edge %s ends at no node", e.ID)
			continue
		}
		h := to.QName
		if r := e.Props["role"]; r != "" {
			h = r + ":" + h
		}
		handled[e.From] = append(handled[e.From], h)
	}
	out := []string{}
	for _, n := range nodes {
		switch n.Kind {
		case fact.WebRoute, fact.HTTPEndpoint, fact.CLICommand, fact.CronJob:
		default:
			continue
		}
		hs := handled[n.ID]
		sort.Strings(hs)
		l := string(n.Kind) + " " + n.QName
		if n.Props["uri_resolved"] == "false" {
			l += " (unresolved)"
		}
		out = append(out, l+" -> "+strings.Join(hs, ","))
	}
	sort.Strings(out)
	return out
}

// wpController is a REST controller written the way WordPress core writes
// them: namespace and base from the constructor, one route with two method
// groups beside the route-level 'args' and 'schema' keys.
const wpController = `<?php
class WP_REST_Base_Controller {
	protected $namespace;
	protected $rest_base;
	public function get_items_permissions_check( $request ) { return true; }
	public function get_public_item_schema() { return array(); }
}

class WP_REST_Widgets_Controller extends WP_REST_Base_Controller {
	protected $revisions;
	public function __construct() {
		$this->namespace = 'wp/v2';
		$this->rest_base = 'widgets';
		$this->revisions = new WP_REST_Revisions_Controller();
	}
	public function register_routes() {
		register_rest_route(
			$this->namespace,
			'/' . $this->rest_base,
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'get_items' ),
					'permission_callback' => array( $this, 'get_items_permissions_check' ),
					'args'                => array( 'id' => array( 'validate_callback' => 'is_numeric' ) ),
				),
				array(
					'methods'             => WP_REST_Server::EDITABLE,
					'callback'            => array( $this, 'update_item' ),
					'permission_callback' => array( $this->revisions, 'check' ),
				),
				'allow_batch' => array( 'v1' => true ),
				'schema'      => array( $this, 'get_public_item_schema' ),
			)
		);
		register_rest_route( $this->namespace, sprintf( '/%s/(?P<id>[\d]+)', $this->rest_base ), array(
			'methods'  => array( 'GET', 'POST' ),
			'callback' => array( $this, 'get_item' ),
			'permission_callback' => '__return_true',
		) );
	}
	public function get_items( $request ) {}
	public function update_item( $request ) {}
	public function get_item( $request ) {}
}
`

const wpOther = `<?php
class WP_REST_Revisions_Controller {
	public function check() { return true; }
}
class WP_REST_Terms_Controller extends WP_REST_Base_Controller {
	protected $rest_base = 'terms';
	public function __construct( $taxonomy ) {
		$tax_obj         = get_taxonomy( $taxonomy );
		$this->namespace = ! empty( $tax_obj->rest_namespace ) ? $tax_obj->rest_namespace : 'wp/v2';
	}
	public function register_routes() {
		register_rest_route( $this->namespace, '/' . $this->rest_base, array(
			array(
				'methods'             => 'GET',
				'callback'            => array( $this, 'get_items' ),
				'permission_callback' => array( $this, 'get_items_permissions_check' ),
			),
		) );
	}
	public function get_items( $request ) {}
}
function __return_true() { return true; }
function my_plugin_routes() {
	register_rest_route( 'my/v1', '/ping', array( 'methods' => 'GET', 'callback' => 'my_ping', 'permission_callback' => function () { return true; } ) );
	register_rest_route( 'my/v1', '/open', $options );
}
function my_ping() {}
`

const wpAjax = `<?php
class My_Admin {
	public function __construct() {
		add_action( 'wp_ajax_my_save', array( $this, 'save' ) );
		add_action( 'wp_ajax_nopriv_my_save', array( 'My_Admin', 'save' ) );
		add_action( 'admin_post_my_export', 'my_export' );
		add_action( 'init', array( $this, 'init' ) );
		add_action( 'wp_ajax_' . $_GET['action'], 'wp_ajax_dispatch' );
	}
	public function save() {}
	public function init() {}
}
function my_export() {}
`

// TestFT7_WordPressHandlers: every method group of a register_rest_route
// call is one endpoint, named by its methods and the URI resolved from the
// class's constructor and property defaults (or the expression, marked
// unresolved), linked to its callback and to its permission callback
// (role permission), inherited methods included; AJAX and admin-post hooks
// link their callbacks, other hooks give no entry point.
func TestFT7_WordPressHandlers(t *testing.T) {
	got := entryLines(t, map[string]string{
		"wp-includes/rest-api/class-wp-rest-widgets-controller.php": wpController,
		"wp-includes/rest-api/other.php":                            wpOther,
		"wp-admin/my-admin.php":                                     wpAjax,
	})
	want := []string{
		"http_endpoint GET /wp-json/my/v1/ping -> my_ping",
		"http_endpoint GET /wp-json/wp/v2/widgets -> WP_REST_Widgets_Controller::get_items,permission:WP_REST_Base_Controller::get_items_permissions_check",
		"http_endpoint GET /wp-json/{$this->namespace}/terms (unresolved) -> WP_REST_Terms_Controller::get_items,permission:WP_REST_Base_Controller::get_items_permissions_check",
		"http_endpoint GET,POST /wp-json/wp/v2/widgets/(?P<id>[\\d]+) -> WP_REST_Widgets_Controller::get_item,permission:__return_true",
		"http_endpoint POST,PUT,PATCH /wp-json/wp/v2/widgets -> WP_REST_Widgets_Controller::update_item,permission:WP_REST_Revisions_Controller::check",
		"http_endpoint ? /wp-json/my/v1/open -> ",
		"http_endpoint admin_post_my_export -> my_export",
		"http_endpoint wp_ajax_my_save -> My_Admin::save",
		"http_endpoint wp_ajax_nopriv_my_save -> My_Admin::save",
		"http_endpoint wp_ajax_{$_GET['action']} -> ", // wp_ajax_dispatch is declared nowhere
	}
	sort.Strings(want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("entry points (-want +got):\n%s", d)
	}
}

// TestFT7_NoEntryPoints: code that registers nothing gives no entry point
// and no handles edge.
func TestFT7_NoEntryPoints(t *testing.T) {
	got := entryLines(t, map[string]string{
		"src/Plain.php": "<?php\nclass Plain { public function get() { return register('x'); } }\nadd_filter('the_title', 'strtoupper');\n",
	})
	if len(got) != 0 {
		t.Errorf("entry points: %q, want none", got)
	}
}

const laravelWeb = `<?php
use App\Http\Controllers\PhotoController;
use App\Http\Controllers\ShowProfile;
use App\Http\Controllers\Admin;
use Illuminate\Support\Facades\Route;

Route::get('/photos/popular', [PhotoController::class, 'popular']);
Route::resource('photos', PhotoController::class)->only(['index', 'show', 'update']);
Route::get('/profile/{id}', ShowProfile::class)->name('profile');
Route::middleware('auth')->prefix('admin')->group(function () {
	Route::get('/users', [Admin\UserController::class, 'index']);
	Route::controller(Admin\ReportController::class)->prefix('reports')->group(function () {
		Route::get('/daily', 'daily');
		Route::post('/rebuild', 'rebuild');
	});
});
Route::group(['namespace' => 'App\Http\Controllers', 'prefix' => 'legacy'], function () {
	Route::get('/home', 'HomeController@index');
	Route::group(['namespace' => 'Admin'], function () {
		Route::post('/ban', ['uses' => 'UserController@ban', 'as' => 'ban']);
	});
});
$pages = ['about' => ShowProfile::class, 'terms' => PhotoController::class . '@terms'];
foreach ($pages as $page => $controller) {
	Route::get("/pages/{$page}", $controller);
}
Route::get('/ping', fn () => 'pong');
Route::post('/telegram/' . config('services.telegram.hook'), [PhotoController::class, 'popular']);
Route::group([], function ($router) {
	$router->post('/broadcast', '\\' . App\Http\Controllers\HomeController::class . '@index');
});
Route::fallback([PhotoController::class, 'missing']);
`

const laravelAPI = `<?php
use App\Http\Controllers\PhotoController;
use Illuminate\Support\Facades\Route;

Route::apiResource('photos.comments', App\Http\Controllers\CommentController::class)->except('destroy');
Route::match(['get', 'post'], '/search', [PhotoController::class, 'search']);
`

const laravelControllers = `<?php
namespace App\Http\Controllers;
class Controller {}
class PhotoController extends Controller {
	public function index() {}
	public function show($id) {}
	public function update($id) {}
	public function popular() {}
	public function search() {}
	public function terms() {}
	public function missing() {}
}
abstract class Invokable extends Controller { public function __invoke() {} }
class ShowProfile extends Invokable {}
class HomeController extends Controller { public function index() {} }
class CommentController extends Controller {
	public function index() {}
	public function store() {}
	public function show() {}
}
namespace App\Http\Controllers\Admin;
class UserController { public function index() {} public function ban() {} }
class ReportController { public function daily() {} public function rebuild() {} }
`

// TestFT7_LaravelHandlers: routes in groups (prefix, namespace, controller),
// resources with only/except (the update action is PUT and PATCH),
// invokable controllers (an inherited __invoke too), 'X@m' under a group
// namespace, ['uses' => …], '\\' . X::class . '@m' on a $router, a loop over
// a literal array, a URI built at run time (kept as the expression, marked
// unresolved), and routes/api.php
// under /api, each linked to the method that handles it; a resource action
// the controller lacks (comments' update) has no handler.
func TestFT7_LaravelHandlers(t *testing.T) {
	got := entryLines(t, map[string]string{
		"routes/web.php":                       laravelWeb,
		"routes/api.php":                       laravelAPI,
		"app/Http/Controllers/Controllers.php": laravelControllers,
	})
	want := []string{
		"web_route GET /admin/reports/daily -> App\\Http\\Controllers\\Admin\\ReportController::daily",
		"web_route GET /admin/users -> App\\Http\\Controllers\\Admin\\UserController::index",
		"web_route GET /api/photos/{photos}/comments -> App\\Http\\Controllers\\CommentController::index",
		"web_route GET /api/photos/{photos}/comments/{id} -> App\\Http\\Controllers\\CommentController::show",
		"web_route GET /api/search -> App\\Http\\Controllers\\PhotoController::search",
		"web_route GET /legacy/home -> App\\Http\\Controllers\\HomeController::index",
		"web_route GET /pages/about -> App\\Http\\Controllers\\Invokable::__invoke",
		"web_route GET /pages/terms -> App\\Http\\Controllers\\PhotoController::terms",
		"web_route GET /photos -> App\\Http\\Controllers\\PhotoController::index",
		"web_route GET /photos/popular -> App\\Http\\Controllers\\PhotoController::popular",
		"web_route GET /photos/{id} -> App\\Http\\Controllers\\PhotoController::show",
		"web_route GET /ping -> ",
		"web_route GET /profile/{id} -> App\\Http\\Controllers\\Invokable::__invoke",
		"web_route GET /{fallbackPlaceholder} -> App\\Http\\Controllers\\PhotoController::missing",
		"web_route POST /admin/reports/rebuild -> App\\Http\\Controllers\\Admin\\ReportController::rebuild",
		"web_route POST /broadcast -> App\\Http\\Controllers\\HomeController::index",
		"web_route POST /telegram/{config('services.telegram.hook')} (unresolved) -> App\\Http\\Controllers\\PhotoController::popular",
		"web_route POST /api/photos/{photos}/comments -> App\\Http\\Controllers\\CommentController::store",
		"web_route POST /api/search -> App\\Http\\Controllers\\PhotoController::search",
		"web_route POST /legacy/ban -> App\\Http\\Controllers\\Admin\\UserController::ban",
		"web_route PUT,PATCH /api/photos/{photos}/comments/{id} -> ",
		"web_route PUT,PATCH /photos/{id} -> App\\Http\\Controllers\\PhotoController::update",
	}
	sort.Strings(want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("entry points (-want +got):\n%s", d)
	}
}

const symfonyControllers = `<?php
namespace App\Controller;

use Symfony\Component\Routing\Annotation\Route;
use Symfony\Component\Routing\Attribute\Route as R;

#[Route('/blog', name: 'blog_')]
class BlogController
{
    #[Route('/', name: 'index', methods: ['GET'])]
    public function index() {}

    #[R(path: '/{slug}', name: 'show', methods: ['GET', 'HEAD'])]
    public function show(string $slug) {}

    /**
     * @Route("/{slug}/edit", name="edit", methods={"GET", "POST"})
     */
    public function edit() {}

    /**
     * @Route("/old", name="old")
     */
    /*public function old() {}*/

    /**
     * Not a route.
     */
    public function helper() {}
}

/**
 * @Route("/api")
 */
class ApiController
{
    /**
     * @Route("/status", methods={"GET"})
     */
    public function status() {}
}

#[Route('/health', methods: ['GET'])]
class HealthController
{
    public function __invoke() {}
}
`

// TestFT7_SymfonyHandlers: #[Route] attributes (aliased too) and @Route
// annotations under the class-level prefix of either form; a class-level
// route on an invokable controller is the route of __invoke; an annotation
// in a docblock that belongs to commented-out code is not a route.
func TestFT7_SymfonyHandlers(t *testing.T) {
	got := entryLines(t, map[string]string{"src/Controller/Controllers.php": symfonyControllers})
	want := []string{
		"web_route GET /api/status -> App\\Controller\\ApiController::status",
		"web_route GET /blog -> App\\Controller\\BlogController::index",
		"web_route GET /blog/{slug} -> App\\Controller\\BlogController::show",
		"web_route GET /blog/{slug}/edit -> App\\Controller\\BlogController::edit",
		"web_route GET /health -> App\\Controller\\HealthController::__invoke",
		"web_route HEAD /blog/{slug} -> App\\Controller\\BlogController::show",
		"web_route POST /blog/{slug}/edit -> App\\Controller\\BlogController::edit",
	}
	sort.Strings(want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("entry points (-want +got):\n%s", d)
	}
}

const slimRoutes = `<?php
use App\Action\Action;
use App\Action\ListUsersAction;
use Slim\App;
use Slim\Interfaces\RouteCollectorProxyInterface as Group;

return function (App $app) {
    $app->get('/', function ($request, $response) { return $response; });
    $app->group('/users', function (Group $group) {
        $group->get('', ListUsersAction::class);
        $group->post('/{id}', 'App\Action\UserController:update');
        $group->delete('/{id}', [App\Action\UserController::class, 'delete']);
    });
};
`

const slimActions = `<?php
namespace App\Action;
abstract class Action { public function __invoke($request, $response, $args) {} }
class ListUsersAction extends Action {}
class UserController { public function update() {} public function delete() {} }
`

const fastRoutes = `<?php
use FastRoute\RouteCollector;
use App\Controllers\HomeController;
use App\Controllers\Database;

return static function (RouteCollector $routes): void {
    $routes->addRoute(['GET', 'POST'], '[/]', HomeController::class);
    $routes->addGroup('/database', static function (RouteCollector $routes): void {
        $routes->get('/structure', Database\StructureController::class);
    });
};
`

const fastControllers = `<?php
namespace App\Controllers;
class HomeController { public function __invoke() {} }
namespace App\Controllers\Database;
class StructureController { public function __invoke() {} }
`

// TestFT7_SlimAndFastRouteHandlers: Slim routes in groups with invokable
// actions (inherited __invoke), 'Class:method' strings and array callables;
// FastRoute groups and method lists (phpMyAdmin's shape), labelled fastroute.
func TestFT7_SlimAndFastRouteHandlers(t *testing.T) {
	got := entryLines(t, map[string]string{
		"app/routes.php":           slimRoutes,
		"src/Action/Actions.php":   slimActions,
		"libraries/routes.php":     fastRoutes,
		"src/Controllers/Ctrl.php": fastControllers,
	})
	want := []string{
		"web_route DELETE /users/{id} -> App\\Action\\UserController::delete",
		"web_route GET / -> ",
		"web_route GET /[/] -> App\\Controllers\\HomeController::__invoke",
		"web_route GET /database/structure -> App\\Controllers\\Database\\StructureController::__invoke",
		"web_route GET /users -> App\\Action\\Action::__invoke",
		"web_route POST /[/] -> App\\Controllers\\HomeController::__invoke",
		"web_route POST /users/{id} -> App\\Action\\UserController::update",
	}
	sort.Strings(want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("entry points (-want +got):\n%s", d)
	}
}

// TestFT7_LaravelAPIFileNamesItsPrefix: a routes/api.php that writes the api
// prefix itself is loaded without Laravel's, so its URIs are not doubled;
// the api middleware is not such a prefix.
func TestFT7_LaravelAPIFileNamesItsPrefix(t *testing.T) {
	controllers := "<?php\nnamespace App;\nclass C { public function a() {} public function b() {} }\n"
	for _, tc := range []struct{ name, api, want string }{
		{"own prefix", "<?php\nuse Illuminate\\Support\\Facades\\Route;\nRoute::prefix('api/v2')->middleware('api')->group(function () {\n\tRoute::get('/a', [App\\C::class, 'a']);\n});\n",
			"web_route GET /api/v2/a -> App\\C::a"},
		{"middleware only", "<?php\nuse Illuminate\\Support\\Facades\\Route;\nRoute::middleware(['api'])->get('/b', [App\\C::class, 'b']);\n",
			"web_route GET /api/b -> App\\C::b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := entryLines(t, map[string]string{"routes/api.php": tc.api, "app/C.php": controllers})
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("entry points %q, want [%q]", got, tc.want)
			}
		})
	}
}
