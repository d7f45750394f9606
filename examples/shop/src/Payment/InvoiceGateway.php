<?php

declare(strict_types=1);

namespace Shop\Payment;

use Shop\Money\Money;
use Shop\Order\Order;

/**
 * "Buy now, pay later": the order is confirmed immediately and an invoice is
 * sent with the parcel. Large orders are not eligible.
 */
final class InvoiceGateway implements PaymentGateway
{
    public const CODE = 'invoice';

    public function __construct(private readonly int $limitCents = 100_000)
    {
    }

    public function code(): string
    {
        return self::CODE;
    }

    public function label(): string
    {
        return 'Pay by invoice (' . Money::of($this->limitCents) . ' max.)';
    }

    public function supports(Money $amount): bool
    {
        return $amount->cents <= $this->limitCents;
    }

    public function charge(Order $order): string
    {
        if (!$this->supports($order->total())) {
            throw PaymentDeclinedException::because('amount exceeds the invoice limit', $order->reference);
        }

        return sprintf('INV-%s-%s', date('Ymd'), substr($order->reference, -6));
    }
}
