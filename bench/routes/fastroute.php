<?php
// fastroute.php lists phpMyAdmin's routes with their handlers, as registered
// by FastRoute itself (Debian's php-nikic-fast-route, 1.3): its RouteCollector
// runs libraries/routes.php and records every route with FastRoute's own
// group prefix. A truth for ragraf's handler linking (bench/routes/main.go).
//
// Usage: php fastroute.php ROOT
//
// One line per route method:   fastroute  METHOD /uri  Class::__invoke
// (phpMyAdmin's controllers are invokable; the class that declares __invoke
// is found with PHP's tokenizer), or "missing:Class" when none declares it.

set_include_path('/usr/share/php' . PATH_SEPARATOR . get_include_path());
require_once 'FastRoute/autoload.php';
require __DIR__ . '/classes.php';

$root = rtrim($argv[1] ?? '.', '/');
define('PHPMYADMIN', true);

class RecordingCollector extends FastRoute\RouteCollector {
    public array $seen = [];
    public function addRoute($httpMethod, $route, $handler) {
        foreach ((array) $httpMethod as $m) { $this->seen[] = [$m, $this->currentGroupPrefix . $route, $handler]; }
        parent::addRoute($httpMethod, $route, $handler);
    }
}
$rc = new RecordingCollector(new FastRoute\RouteParser\Std(), new FastRoute\DataGenerator\GroupCountBased());
(require "$root/libraries/routes.php")($rc);

[$parents, $methods, $names] = classIndex($root);
foreach ($rc->seen as [$m, $uri, $h]) {
    $target = 'closure';
    if (is_string($h)) {
        $d = declaring(strtolower(ltrim($h, '\\')), '__invoke', $parents, $methods);
        $target = $d === null ? "missing:$h" : $names[$d] . '::__invoke';
    }
    echo "fastroute\t$m /" . ltrim($uri, '/') . "\t$target\n";
}
