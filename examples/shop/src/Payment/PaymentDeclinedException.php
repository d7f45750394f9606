<?php

declare(strict_types=1);

namespace Shop\Payment;

use Shop\Exception\ShopException;

final class PaymentDeclinedException extends ShopException
{
    public static function because(string $reason, string $orderReference): self
    {
        return new self("Payment for {$orderReference} was declined: {$reason}", ['order' => $orderReference]);
    }

    public function httpStatus(): int
    {
        return 402;
    }
}
