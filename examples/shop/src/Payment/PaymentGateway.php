<?php

declare(strict_types=1);

namespace Shop\Payment;

use Shop\Contracts\HasLabel;
use Shop\Money\Money;
use Shop\Order\Order;

/**
 * A way for the customer to pay. label() is shown at checkout.
 */
interface PaymentGateway extends HasLabel
{
    /** Short machine name, e.g. "invoice". */
    public function code(): string;

    public function supports(Money $amount): bool;

    /**
     * Charges the order and returns the provider's payment reference.
     *
     * @throws PaymentDeclinedException
     */
    public function charge(Order $order): string;
}
