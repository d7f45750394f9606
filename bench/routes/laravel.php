<?php
// laravel.php lists the routes of a Laravel application with their
// handlers, as registered by Laravel's own router (Illuminate\Routing from
// Debian's php-laravel-framework, 8.83), as a truth for ragraf's handler
// linking (bench/routes/main.go compares the two).
//
// Usage: php laravel.php ROOT
//
// The application's route files are loaded the way its route provider or
// bootstrap/app.php loads them (the table $apps below, read by hand from each
// application; other applications get Laravel's default: routes/web.php, and
// routes/api.php under the prefix api). Facades, config() and the like are
// stubbed where route files call them. One line per route method:
//
//   laravel  METHOD /uri  target
//
// target is Class::method of the class that declares the method (found with
// PHP's tokenizer over ROOT/app, walking `extends`), "closure", or
// "missing:Class::method" when the application declares no such method (a
// resource action its controller lacks). HEAD beside GET is left out.

set_include_path('/usr/share/php' . PATH_SEPARATOR . get_include_path());
require_once 'Illuminate/Routing/autoload.php';
require_once 'Illuminate/Events/autoload.php';

use Illuminate\Container\Container;
use Illuminate\Events\Dispatcher;
use Illuminate\Routing\Router;
use Illuminate\Support\Facades\Facade;

$root = rtrim($argv[1] ?? '.', '/');

// how each application loads its route files: [file, group attributes]
$apps = [
    'bookstack' => [['routes/web.php', ['middleware' => 'web']], ['routes/api.php', ['middleware' => 'api', 'prefix' => 'api']]],
    'koel' => [['routes/web.base.php', []], ['routes/api.base.php', []], ['routes/subsonic.php', ['middleware' => 'api']]],
    'firefly-iii' => [['routes/web.php', ['middleware' => 'web']], ['routes/api.php', ['middleware' => 'api', 'prefix' => 'api']]],
    'pixelfed' => [['routes/web-admin.php', ['namespace' => 'App\Http\Controllers']], ['routes/web-portfolio.php', ['namespace' => 'App\Http\Controllers']],
        ['routes/web-api.php', ['namespace' => 'App\Http\Controllers']], ['routes/web.php', ['namespace' => 'App\Http\Controllers']], ['routes/api.php', ['namespace' => 'App\Http\Controllers']]],
    'invoiceninja' => [['routes/web.php', []], ['routes/api.php', []], ['routes/contact.php', []], ['routes/client.php', []], ['routes/shop.php', []], ['routes/vendor.php', []]],
];
$app = strtolower(basename($root));
$files = $apps[$app] ?? [['routes/web.php', ['middleware' => 'web']], ['routes/api.php', ['middleware' => 'api', 'prefix' => 'api']]];

$container = new Container();
Container::setInstance($container);
$router = new Router(new Dispatcher($container), $container);
$container->instance('router', $router);
$container->instance('config', new class {
    public function get($k, $d = null) { return $d; }
});
Facade::setFacadeApplication($container);
foreach (['Route' => 'Illuminate\Support\Facades\Route'] as $alias => $cls) {
    if (!class_exists($alias, false)) { class_alias($cls, $alias); }
}
// Route macros and helpers newer Laravel versions have and route files use
foreach (['middlewareFor', 'withoutMiddlewareFor', 'can', 'scopeBindings', 'withoutScopedBindings', 'withTrashed', 'missing', 'lazy', 'whereIn', 'whereUuid', 'whereUlid', 'whereAlphaNumeric', 'whereAlpha', 'whereNumber'] as $m) {
    if (!method_exists(Illuminate\Routing\Route::class, $m)) {
        Illuminate\Routing\Route::macro($m, function (...$a) { return $this; });
    }
    if (!method_exists(Illuminate\Routing\PendingResourceRegistration::class, $m)) {
        Illuminate\Routing\PendingResourceRegistration::macro($m, function (...$a) { return $this; });
    }
}
// classes of the application (facades in conditions) are stubs: every call
// answers a truthy stub, so conditional routes are registered
class AnyStub {
    public function __call($m, $a) { return $this; }
    public static function __callStatic($m, $a) { return new AnyStub(); }
    public function __get($p) { return $this; }
    public function __toString(): string { return 'stub'; }
    public function __invoke() {}
}
spl_autoload_register(function ($c) {
    if (str_starts_with($c, 'Illuminate\\') || str_starts_with($c, 'Symfony\\')) { return; }
    $i = strrpos($c, '\\');
    $ns = $i === false ? '' : substr($c, 0, $i);
    $short = $i === false ? $c : substr($c, $i + 1);
    // literal constants of the real class (PSR-4 from composer.json) are kept
    global $root;
    $consts = '';
    $psr4 = json_decode(@file_get_contents("$root/composer.json"), true)['autoload']['psr-4'] ?? [];
    foreach ($psr4 as $prefix => $dir) {
        if (str_starts_with($c, $prefix) && is_file($f = "$root/" . rtrim(is_array($dir) ? $dir[0] : $dir, '/') . '/' . str_replace('\\', '/', substr($c, strlen($prefix))) . '.php')) {
            preg_match_all('/\bconst\s+(?:\w+\s+)?(\w+)\s*=\s*(\'[^\']*\'|"[^"]*"|\d+)\s*;/', file_get_contents($f), $mm, PREG_SET_ORDER);
            foreach ($mm as $m) { $consts .= "const {$m[1]} = {$m[2]}; "; }
        }
    }
    eval(($ns !== '' ? "namespace $ns; " : '') . "class $short extends \\AnyStub { $consts}");
});
eval('namespace Safe; function define($a, $b) { return \\define($a, $b); }');
if (!function_exists('app')) { function app($c = null) { return $c === null ? new AnyStub() : Container::getInstance()->make($c); } }
if (!function_exists('view')) { function view(...$a) { return new AnyStub(); } }
// a feature switch read from config is on: conditional routes count
if (!function_exists('config')) { function config($k = null, $d = null) { return $d ?? new AnyStub(); } }
if (!function_exists('env')) { function env($k, $d = null) { return $d; } }
if (!function_exists('base_path')) { function base_path($p = '') { global $root; return $root . '/' . $p; } }

foreach ($files as [$file, $attrs]) {
    if (!is_file("$root/$file")) { continue; }
    $router->group($attrs, function () use ($root, $file) {
        $router = app_router();
        require "$root/$file";
    });
}
function app_router() { return Container::getInstance()->make('router'); }

require __DIR__ . '/classes.php';
[$parents, $methods, $names] = classIndex($root);

foreach ($router->getRoutes()->getRoutes() as $route) {
    $uses = $route->getAction('uses');
    if ($uses instanceof Closure) {
        $target = 'closure';
    } elseif (is_string($uses) && str_contains($uses, '@')) {
        [$c, $m] = explode('@', ltrim($uses, '\\'), 2);
        $d = declaring(strtolower($c), $m, $parents, $methods);
        $target = $d === null ? "missing:$c::$m" : $names[$d] . '::' . $m;
    } elseif (is_string($uses)) {
        $target = 'missing:' . $uses;
    } else {
        $target = 'closure'; // view and redirect routes
    }
    $ms = $route->methods();
    if (in_array('GET', $ms, true)) { $ms = array_values(array_diff($ms, ['HEAD'])); }
    foreach ($ms as $verb) {
        echo "laravel\t$verb /" . ltrim($route->uri(), '/') . "\t$target\n";
    }
}
