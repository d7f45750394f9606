<?php

declare(strict_types=1);

namespace Shop\Support\Routing;

use Attribute;

/**
 * Declares an HTTP route on a controller method, e.g.
 * #[Route('/checkout', methods: ['POST'], name: 'checkout')].
 */
#[Attribute(Attribute::TARGET_METHOD | Attribute::IS_REPEATABLE)]
final class Route
{
    /**
     * @param list<string> $methods
     */
    public function __construct(
        public readonly string $path,
        public readonly array $methods = ['GET'],
        public readonly ?string $name = null,
    ) {
    }
}
