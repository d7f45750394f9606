<?php

declare(strict_types=1);

use Shop\Order\OrderService;
use Shop\Payment\InvoiceGateway;
use Shop\Support\Database\Connection;
use Shop\Support\Database\Schema\Schema;

/*
 * Boots the application and returns a tiny service container:
 *   ['config' => array, 'db' => Connection, 'resolve' => Closure(class-string): object]
 * Used by public/index.php (web) and bin/console.php (CLI).
 */

define('SHOP_ROOT', dirname(__DIR__));
define('SHOP_VERSION', '1.4.0');
const SHOP_MIN_PHP = '8.2.0';

if (version_compare(PHP_VERSION, SHOP_MIN_PHP, '<')) {
    fwrite(STDERR, 'Shop requires PHP ' . SHOP_MIN_PHP . ' or newer.' . PHP_EOL);
    exit(1);
}

if (is_file(SHOP_ROOT . '/vendor/autoload.php')) {
    require_once SHOP_ROOT . '/vendor/autoload.php';
} else {
    spl_autoload_register(static function (string $class): void {
        $prefix = 'Shop\\';
        if (!str_starts_with($class, $prefix)) {
            return;
        }
        $file = SHOP_ROOT . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) {
            require $file;
        }
    });
    require_once __DIR__ . '/helpers.php';
}

/** @var array<string, mixed> $config */
$config = require __DIR__ . '/../config/app.php';

// Optional per-machine overrides, never committed.
if (is_file(__DIR__ . '/../config/local.php')) {
    $config = array_replace_recursive($config, include __DIR__ . '/../config/local.php');
}

$db = Connection::fromConfig($config);
Schema::setConnection($db);

/** @var array<class-string, Closure(Closure): object> $factories */
$factories = [
    Connection::class => static fn (): Connection => $db,
    OrderService::class => static fn (Closure $resolve): OrderService => new OrderService(
        $resolve(Connection::class),
        $resolve(Shop\Order\OrderRepository::class),
        $resolve(Shop\Catalog\ProductRepository::class),
        $resolve(Shop\Cart\CartRepository::class),
        new InvoiceGateway((int) shop_config($config, 'payment.invoice_limit_cents', 100_000)),
    ),
];
$instances = [];

/**
 * Resolves a class by name: explicit factories first, otherwise constructor
 * autowiring by parameter type. Instances are shared.
 */
$resolve = static function (string $class) use (&$resolve, &$instances, $factories): object {
    if (isset($instances[$class])) {
        return $instances[$class];
    }
    if (isset($factories[$class])) {
        return $instances[$class] = $factories[$class]($resolve);
    }

    $constructor = (new ReflectionClass($class))->getConstructor();
    $arguments = [];
    foreach ($constructor?->getParameters() ?? [] as $parameter) {
        $type = $parameter->getType();
        if ($type instanceof ReflectionNamedType && !$type->isBuiltin()) {
            $arguments[] = $resolve($type->getName());
        } elseif ($parameter->isDefaultValueAvailable()) {
            $arguments[] = $parameter->getDefaultValue();
        }
    }

    return $instances[$class] = new $class(...$arguments);
};

return ['config' => $config, 'db' => $db, 'resolve' => $resolve];
