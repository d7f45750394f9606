<?php

declare(strict_types=1);

use Shop\Support\Http\Request;
use Shop\Support\Http\Response;
use Shop\Support\Routing\Router;

$app = require __DIR__ . '/../bootstrap/app.php';
$config = $app['config'];

$router = new Router($app['resolve']);
require __DIR__ . '/../routes/web.php';

try {
    $response = $router->dispatch(Request::fromGlobals());
} catch (Throwable $e) {
    error_log((string) $e);
    $response = $config['debug']
        ? Response::json(['error' => $e->getMessage(), 'trace' => $e->getTrace()], 500)
        : Response::json(['error' => 'Internal Server Error'], 500);
}

$response->send();
