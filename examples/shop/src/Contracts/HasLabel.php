<?php

declare(strict_types=1);

namespace Shop\Contracts;

/**
 * Anything that can be shown to a customer with a short human-readable name.
 */
interface HasLabel
{
    public function label(): string;
}
