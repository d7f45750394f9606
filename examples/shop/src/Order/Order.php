<?php

declare(strict_types=1);

namespace Shop\Order;

use DateTimeImmutable;
use DomainException;
use Shop\Cart\Cart;
use Shop\Contracts\Entity;
use Shop\Money\Money;
use Shop\Support\Concerns\HasTimestamps;
use Shop\Support\Concerns\RecordsEvents;

use function Shop\Support\reference;

final class Order implements Entity
{
    use HasTimestamps, RecordsEvents {
        HasTimestamps::touch insteadof RecordsEvents;
        RecordsEvents::touch as protected touchAndRecord;
        releaseEvents as public pullEvents;
    }

    public const REFERENCE_PREFIX = 'ORD';

    /** @var OrderItem[] */
    private array $items = [];

    private OrderStatus $status = OrderStatus::DEFAULT;

    private ?string $paymentReference = null;

    /**
     * @param array<int, OrderItem> $items
     */
    public function __construct(
        private ?int $id,
        public readonly int $customerId,
        public readonly string $reference,
        array $items = [],
        private int $discountPercent = 0,
        public readonly ?string $couponCode = null,
    ) {
        foreach ($items as $item) {
            $this->addItem($item);
        }
    }

    public static function fromCart(Cart $cart, int $customerId, ?string $couponCode = null, int $discountPercent = 0): self
    {
        $items = array_map(OrderItem::fromCartItem(...), iterator_to_array($cart));
        $order = new self(null, $customerId, reference(self::REFERENCE_PREFIX), $items, $discountPercent, $couponCode);
        $order->touch();
        $order->record('order.placed', ['reference' => $order->reference, 'lines' => count($items)]);

        return $order;
    }

    /**
     * Hydrates an order from an `orders` row plus its `order_items` rows.
     *
     * @param array<string, mixed> $row
     * @param list<array<string, mixed>> $itemRows
     */
    public static function fromRow(array $row, array $itemRows = []): self
    {
        $items = array_map(
            static fn (array $i): OrderItem => new OrderItem((int) $i['product_id'], $i['sku'], (int) $i['quantity'], Money::of((int) $i['unit_price'])),
            $itemRows,
        );

        $order = new self((int) $row['id'], (int) $row['customer_id'], $row['reference'], $items, 0, $row['coupon_code'] ?? null);
        $order->status = OrderStatus::tryFrom($row['status'] ?? '') ?? OrderStatus::DEFAULT;
        $order->paymentReference = $row['payment_reference'] ?? null;
        $order->createdAt = new DateTimeImmutable($row['created_at'] ?? 'now');

        return $order;
    }

    public function addItem(OrderItem $item): static
    {
        if ($this->status !== OrderStatus::Pending) {
            throw new DomainException('Items can only be added to pending orders.');
        }
        $this->items[] = $item;

        return $this;
    }

    public function id(): ?int
    {
        return $this->id;
    }

    public function persisted(int $id): void
    {
        $this->id ??= $id;
    }

    public function status(): OrderStatus
    {
        return $this->status;
    }

    public function paymentReference(): ?string
    {
        return $this->paymentReference;
    }

    /**
     * @return OrderItem[]
     */
    public function items(): array
    {
        return $this->items;
    }

    public function subtotal(): Money
    {
        return array_reduce($this->items, fn (Money $sum, OrderItem $i): Money => $sum->add($i->lineTotal()), Money::zero());
    }

    public function total(): Money
    {
        $subtotal = $this->subtotal();

        return $subtotal->subtract($subtotal->percentage($this->discountPercent));
    }

    public function markPaid(string $paymentReference): void
    {
        $this->transitionTo(OrderStatus::Paid);
        $this->paymentReference = $paymentReference;
    }

    public function cancel(): void
    {
        $this->transitionTo(OrderStatus::Cancelled);
    }

    public function transitionTo(OrderStatus $next): void
    {
        if (!$this->status->canTransitionTo($next)) {
            throw new DomainException("Order {$this->reference} cannot go from {$this->status->value} to {$next->value}.");
        }

        $previous = $this->status;
        $this->status = $next;
        $this->touchAndRecord();
        $this->record('order.status_changed', ['from' => $previous->value, 'to' => $next->value]);
    }

    public function toArray(): array
    {
        return [
            'id' => $this->id,
            'reference' => $this->reference,
            'customer_id' => $this->customerId,
            'status' => $this->status->value,
            'status_label' => $this->status->label(),
            'items' => array_map(static fn (OrderItem $item): array => $item->toRow(), $this->items),
            'total' => $this->total(),
            'coupon_code' => $this->couponCode,
        ] + $this->timestampsToArray();
    }

    public function jsonSerialize(): array
    {
        return $this->toArray();
    }
}
