<?php

declare(strict_types=1);

namespace Shop\Order;

use Shop\Cart\CartItem;
use Shop\Money\Money;

/**
 * A line of a placed order; a snapshot that never changes after checkout.
 */
final readonly class OrderItem
{
    public function __construct(
        public int $productId,
        public string $sku,
        public int $quantity,
        public Money $unitPrice,
    ) {
    }

    public static function fromCartItem(CartItem $item): self
    {
        return new self($item->productId, $item->sku, $item->quantity(), $item->unitPrice);
    }

    public function lineTotal(): Money
    {
        return $this->unitPrice->multiply($this->quantity);
    }

    /**
     * @return array{product_id: int, sku: string, quantity: int, unit_price: int}
     */
    public function toRow(): array
    {
        return [
            'product_id' => $this->productId,
            'sku' => $this->sku,
            'quantity' => $this->quantity,
            'unit_price' => $this->unitPrice->cents,
        ];
    }
}
