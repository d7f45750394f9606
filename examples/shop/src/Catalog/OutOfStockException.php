<?php

declare(strict_types=1);

namespace Shop\Catalog;

use Shop\Exception\ShopException;

final class OutOfStockException extends ShopException
{
    public static function forSku(string $sku, int $requested, int $available = 0): self
    {
        return new self(
            "Only {$available} of {$sku} left, {$requested} requested.",
            ['sku' => $sku, 'requested' => $requested, 'available' => $available],
        );
    }

    public static function forProduct(Product $product, int $requested): self
    {
        return self::forSku($product->sku, $requested, $product->stock());
    }

    public function httpStatus(): int
    {
        return 409;
    }
}
