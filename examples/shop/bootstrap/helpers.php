<?php

declare(strict_types=1);

/*
 * Small helper functions. Namespaced helpers live in Shop\Support; the two
 * global ones are kept for templates and config files that expect them.
 */

namespace Shop\Support {

    use Shop\Money\Money;

    const DEFAULT_LOCALE = 'de_DE';

    function money(int $cents, ?string $currency = null): Money
    {
        return Money::of($cents, $currency ?? Money::DEFAULT_CURRENCY);
    }

    /**
     * Generates a short, human-friendly reference such as "ORD-7K2M9QXA".
     */
    function reference(string $prefix, int $length = 8): string
    {
        $alphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
        $chars = array_map(
            static fn (int $i): string => $alphabet[random_int(0, strlen($alphabet) - 1)],
            range(1, $length),
        );

        return $prefix . '-' . implode('', $chars);
    }
}

namespace {

    if (!function_exists('shop_config')) {
        /**
         * Reads a value from the config array using dot notation ("payment.default").
         *
         * @param array<string, mixed> $config
         */
        function shop_config(array $config, string $key, mixed $default = null): mixed
        {
            return array_reduce(
                explode('.', $key),
                static fn (mixed $carry, string $segment): mixed => is_array($carry) && array_key_exists($segment, $carry)
                    ? $carry[$segment]
                    : $default,
                $config,
            );
        }
    }

    function shop_env(string $key, ?string $default = null): ?string
    {
        $value = getenv($key);

        return $value === false ? $default : $value;
    }
}
