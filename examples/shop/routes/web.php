<?php

declare(strict_types=1);

use Shop\Http\Controller\CartController;
use Shop\Http\Controller\OrderController;
use Shop\Http\Controller\ProductController;
use Shop\Support\Http\Request;
use Shop\Support\Http\Response;
use Shop\Support\Routing\Router;

/**
 * Web routes. Loaded by public/index.php with $router and $config in scope.
 *
 * @var Router $router
 * @var array<string, mixed> $config
 */

$router->get('/', fn (Request $request): Response => Response::redirect('/products'));

$router->get('/health', function () use ($config): Response {
    return Response::json(['app' => $config['name'], 'version' => SHOP_VERSION]);
});

// Catalog
$router->get('/products', 'ProductController@index');
$router->get('/products/{sku}', [ProductController::class, 'show']);

// Cart (the same paths are documented with #[Route] on CartController)
$router->get('/cart', [CartController::class, 'show']);
$router->post('/cart/items', [CartController::class, 'add']);
$router->delete('/cart/items/{productId}', [CartController::class, 'remove']);

// Customer account area
$router->group(['prefix' => 'account'], function (Router $router): void {
    $router->get('/orders', [OrderController::class, 'history']);
    $router->get('/orders/{reference}', [OrderController::class, 'show']);
});

// Checkout and cancellation are declared with #[Route] attributes.
$router->registerController(OrderController::class);
