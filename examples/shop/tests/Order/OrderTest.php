<?php

declare(strict_types=1);

namespace Shop\Tests\Order;

use DomainException;
use PHPUnit\Framework\TestCase;
use Shop\Cart\Cart;
use Shop\Catalog\Product;
use Shop\Money\Money;
use Shop\Order\Order;
use Shop\Order\OrderStatus;

final class OrderTest extends TestCase
{
    private function order(int $discountPercent = 0): Order
    {
        $cart = Cart::fresh(7)->add(new Product(1, 'TEA-01', 'Green tea', Money::of(850), 20), 2);

        return Order::fromCart($cart, 7, $discountPercent > 0 ? 'SPRING' : null, $discountPercent);
    }

    public function testTotalAppliesTheCouponDiscount(): void
    {
        self::assertSame(1_700, $this->order()->total()->cents);
        self::assertSame(1_530, $this->order(10)->total()->cents);
    }

    public function testPaidOrdersRecordAStatusChange(): void
    {
        $order = $this->order();
        $order->pullEvents();

        $order->markPaid('INV-1');

        self::assertSame(OrderStatus::Paid, $order->status());
        self::assertSame(
            ['touched', 'order.status_changed'],
            array_column($order->pullEvents(), 'name'),
        );
    }

    public function testShippedOrdersCannotBeCancelled(): void
    {
        $order = $this->order();
        $order->markPaid('INV-2');
        $order->transitionTo(OrderStatus::Shipped);

        $this->expectException(DomainException::class);
        $order->cancel();
    }

    public function testStatusLabelsRoundTrip(): void
    {
        foreach (OrderStatus::cases() as $status) {
            self::assertSame($status, OrderStatus::fromLabel($status->label()));
        }
        self::assertSame(OrderStatus::Pending, OrderStatus::DEFAULT);
    }
}
