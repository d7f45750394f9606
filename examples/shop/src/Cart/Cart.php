<?php

declare(strict_types=1);

namespace Shop\Cart;

use ArrayIterator;
use Countable;
use IteratorAggregate;
use LengthException;
use Shop\Catalog\OutOfStockException;
use Shop\Catalog\Product;
use Shop\Contracts\Entity;
use Shop\Money\Money;

/**
 * A shopping cart identified by an opaque token (sent as X-Cart-Token).
 *
 * @implements IteratorAggregate<int, CartItem>
 */
final class Cart implements Entity, Countable, IteratorAggregate
{
    public const MAX_LINES = 50;

    /** @var array<int, CartItem> keyed by product id */
    private array $items = [];

    public function __construct(
        private ?int $id,
        public readonly string $token,
        private ?int $customerId = null,
    ) {
    }

    public static function fresh(?int $customerId = null): self
    {
        return new self(null, bin2hex(random_bytes(16)), $customerId);
    }

    /**
     * Adds a product, merging with an existing line for the same product.
     *
     * @throws OutOfStockException
     */
    public function add(Product $product, int $quantity = 1): static
    {
        $existing = $this->items[$product->id()] ?? null;
        $wanted = $quantity + ($existing?->quantity() ?? 0);

        if (!$product->hasStock($wanted)) {
            throw OutOfStockException::forProduct($product, $wanted);
        }
        if ($existing === null && count($this->items) >= self::MAX_LINES) {
            throw new LengthException('A cart can hold at most ' . self::MAX_LINES . ' different products.');
        }

        $existing?->increase($quantity);
        $this->items[$product->id()] ??= CartItem::fromProduct($product, $quantity);

        return $this;
    }

    /**
     * Used by CartRepository when hydrating a cart from the database.
     */
    public function restore(CartItem $item): static
    {
        $this->items[$item->productId] = $item;

        return $this;
    }

    public function remove(int $productId): static
    {
        unset($this->items[$productId]);

        return $this;
    }

    public function assignTo(int $customerId): void
    {
        $this->customerId = $customerId;
    }

    public function persisted(int $id): void
    {
        $this->id ??= $id;
    }

    public function id(): ?int
    {
        return $this->id;
    }

    public function customerId(): ?int
    {
        return $this->customerId;
    }

    public function subtotal(): Money
    {
        return array_reduce(
            $this->items,
            static fn (Money $carry, CartItem $item): Money => $carry->add($item->lineTotal()),
            Money::zero(),
        );
    }

    public function isEmpty(): bool
    {
        return $this->items === [];
    }

    public function count(): int
    {
        return count($this->items);
    }

    /**
     * @return ArrayIterator<int, CartItem>
     */
    public function getIterator(): ArrayIterator
    {
        return new ArrayIterator(array_values($this->items));
    }

    /**
     * Plain-text summary used in confirmation e-mails.
     */
    public function toText(): string
    {
        $names = array_map(static fn (CartItem $item): string => $item->name, $this->items);
        $width = max([10, ...array_map(strlen(...), $names)]);

        $lines = array_map(
            static fn (CartItem $item): string => sprintf("%-{$width}s %3d x %10s", $item->name, $item->quantity(), $item->unitPrice),
            array_values($this->items),
        );
        $lines[] = str_repeat('-', $width + 17);
        $lines[] = sprintf("%-{$width}s %16s", 'Subtotal', $this->subtotal());

        return implode(PHP_EOL, $lines);
    }

    public function toArray(): array
    {
        return [
            'token' => $this->token,
            'items' => array_map(static fn (CartItem $item): array => $item->toArray(), array_values($this->items)),
            'subtotal' => $this->subtotal(),
        ];
    }

    public function jsonSerialize(): array
    {
        return $this->toArray();
    }
}
