<?php

declare(strict_types=1);

namespace Shop\Order;

use DomainException;
use Shop\Cart\Cart;
use Shop\Cart\CartRepository;
use Shop\Catalog\OutOfStockException;
use Shop\Catalog\ProductRepository;
use Shop\Exception\NotFoundException;
use Shop\Payment\PaymentDeclinedException;
use Shop\Payment\PaymentGateway;
use Shop\Support\Database\Connection;

/**
 * Application service for the checkout. place() is the only way an order
 * comes into existence; it takes stock, stores the order, empties the cart
 * and charges the chosen payment gateway.
 */
final class OrderService
{
    /** @var array<string, PaymentGateway> */
    private array $gateways = [];

    /** @var list<callable(Order, list<array{name: string, payload: array<string, mixed>}>): void> */
    private array $listeners = [];

    public function __construct(
        private readonly Connection $db,
        private readonly OrderRepository $orders,
        private readonly ProductRepository $products,
        private readonly CartRepository $carts,
        PaymentGateway ...$gateways,
    ) {
        foreach ($gateways as $gateway) {
            $this->gateways[$gateway->code()] = $gateway;
        }
    }

    /**
     * @param callable(Order, list<array{name: string, payload: array<string, mixed>}>): void $listener
     */
    public function onEvents(callable $listener): static
    {
        $this->listeners[] = $listener;

        return $this;
    }

    /**
     * @throws OutOfStockException when any line cannot be fulfilled
     * @throws PaymentDeclinedException when the gateway refuses the order
     */
    public function place(Cart $cart, int $customerId, string $gatewayCode, ?string $couponCode = null): Order
    {
        if ($cart->isEmpty()) {
            throw new DomainException('Cannot check out an empty cart.');
        }
        $gateway = $this->gateways[$gatewayCode] ?? throw NotFoundException::for('payment method', $gatewayCode);
        $discount = $couponCode === null ? 0 : ($this->orders->couponPercent($couponCode) ?? 0);

        $order = $this->db->transaction(function () use ($cart, $customerId, $couponCode, $discount): Order {
            foreach ($cart as $item) {
                if (!$this->products->decrementStock($item->productId, $item->quantity())) {
                    throw OutOfStockException::forSku($item->sku, $item->quantity());
                }
            }

            $order = $this->orders->insert(Order::fromCart($cart, $customerId, $couponCode, $discount));
            if ($cart->id() !== null) {
                $this->carts->delete($cart->id());
            }

            return $order;
        });

        try {
            $order->markPaid($gateway->charge($order));
        } catch (PaymentDeclinedException $e) {
            $this->cancelAndRestock($order);
            throw $e;
        }
        $this->orders->updateStatus($order);
        $this->dispatch($order);

        return $order;
    }

    public function cancel(string $reference, int $customerId): Order
    {
        $order = $this->orders->getByReference($reference);
        if ($order->customerId !== $customerId) {
            throw NotFoundException::for('order', $reference);
        }
        if (!$order->status()->isCancellable()) {
            throw new DomainException("Order {$reference} can no longer be cancelled.");
        }

        $this->cancelAndRestock($order);
        $this->dispatch($order);

        return $order;
    }

    /**
     * @return array<string, string> gateway code => label for amounts the gateway accepts
     */
    public function paymentOptions(Cart $cart): array
    {
        $subtotal = $cart->subtotal();
        $usable = array_filter($this->gateways, fn (PaymentGateway $g): bool => $g->supports($subtotal));

        return array_map(static fn (PaymentGateway $g): string => $g->label(), $usable);
    }

    private function cancelAndRestock(Order $order): void
    {
        $this->db->transaction(function () use ($order): void {
            $order->cancel();
            array_map(fn (OrderItem $item) => $this->products->restock($item->productId, $item->quantity), $order->items());
            $this->orders->updateStatus($order);
        });
    }

    private function dispatch(Order $order): void
    {
        $events = $order->pullEvents();
        foreach ($this->listeners as $listener) {
            call_user_func($listener, $order, $events);
        }
    }
}
