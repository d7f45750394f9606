<?php

declare(strict_types=1);

/*
 * Application configuration. Every environment-specific value is read from
 * the process environment; nothing sensitive is kept in this file.
 */
return [
    'name' => 'Shop',
    'env' => getenv('SHOP_ENV') ?: 'production',
    'debug' => filter_var(getenv('SHOP_DEBUG'), FILTER_VALIDATE_BOOL),
    'dsn' => getenv('SHOP_DB_DSN') ?: 'mysql:host=127.0.0.1;dbname=shop;charset=utf8mb4',
    'db_user' => getenv('SHOP_DB_USER') ?: 'shop',
    'db_password' => getenv('SHOP_DB_PASSWORD'),
    'db_prefix' => getenv('SHOP_DB_PREFIX') ?: '',
    'currency' => 'EUR',
    'cart_ttl_days' => 30,
    'payment' => [
        'default' => 'invoice',
        'invoice_limit_cents' => 250_000,
    ],
];
