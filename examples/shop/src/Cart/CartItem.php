<?php

declare(strict_types=1);

namespace Shop\Cart;

use InvalidArgumentException;
use Shop\Catalog\Product;
use Shop\Money\Money;

/**
 * One line in a cart. Product data is copied in when the line is created so
 * the cart keeps showing the price the customer saw.
 */
final class CartItem
{
    public function __construct(
        public readonly int $productId,
        public readonly string $sku,
        public readonly string $name,
        public readonly Money $unitPrice,
        private int $quantity = 1,
    ) {
        if ($quantity < 1) {
            throw new InvalidArgumentException('Quantity must be at least 1.');
        }
    }

    public static function fromProduct(Product $product, int $quantity = 1): self
    {
        return new self((int) $product->id(), $product->sku, $product->name, $product->price, $quantity);
    }

    public function quantity(): int
    {
        return $this->quantity;
    }

    public function increase(int $by): void
    {
        $this->quantity += $by;
    }

    public function lineTotal(): Money
    {
        return $this->unitPrice->multiply($this->quantity);
    }

    /**
     * @return array<string, mixed>
     */
    public function toArray(): array
    {
        return [
            'product_id' => $this->productId,
            'sku' => $this->sku,
            'name' => $this->name,
            'quantity' => $this->quantity,
            'unit_price' => $this->unitPrice,
            'line_total' => $this->lineTotal(),
        ];
    }
}
