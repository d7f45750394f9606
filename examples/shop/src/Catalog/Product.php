<?php

declare(strict_types=1);

namespace Shop\Catalog;

use Shop\Contracts\Entity;
use Shop\Contracts\HasLabel;
use Shop\Money\Money;

final class Product implements Entity, HasLabel
{
    public function __construct(
        public readonly ?int $id,
        public readonly string $sku,
        public readonly string $name,
        public readonly Money $price,
        private int $stock = 0,
        private bool $active = true,
    ) {
    }

    /**
     * @param array{id: int|string, sku: string, name: string, price: int|string, stock: int|string, active?: int|string|bool} $row
     */
    public static function fromRow(array $row): static
    {
        return new static(
            (int) $row['id'],
            $row['sku'],
            $row['name'],
            Money::of((int) $row['price']),
            (int) $row['stock'],
            (bool) ($row['active'] ?? true),
        );
    }

    public function id(): ?int
    {
        return $this->id;
    }

    public function label(): string
    {
        return "{$this->name} ({$this->sku})";
    }

    public function stock(): int
    {
        return $this->stock;
    }

    public function isActive(): bool
    {
        return $this->active;
    }

    public function hasStock(int $quantity): bool
    {
        return $this->active && $this->stock >= $quantity;
    }

    /**
     * Reserves stock in memory; ProductRepository::decrementStock() persists it.
     */
    public function reserve(int $quantity): void
    {
        if (!$this->hasStock($quantity)) {
            throw OutOfStockException::forProduct($this, $quantity);
        }
        $this->stock -= $quantity;
    }

    public function toArray(): array
    {
        return [
            'id' => $this->id,
            'sku' => $this->sku,
            'name' => $this->name,
            'price' => $this->price->jsonSerialize(),
            'stock' => $this->stock,
            'active' => $this->active,
        ];
    }

    public function jsonSerialize(): array
    {
        return $this->toArray();
    }
}
