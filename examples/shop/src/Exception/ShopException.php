<?php

declare(strict_types=1);

namespace Shop\Exception;

use RuntimeException;
use Throwable;

/**
 * Root of the shop's exception hierarchy. Every subclass knows which HTTP
 * status it maps to, so controllers can turn it into a response directly.
 */
abstract class ShopException extends RuntimeException
{
    /**
     * @param array<string, scalar|null> $context
     */
    public function __construct(string $message, private readonly array $context = [], ?Throwable $previous = null)
    {
        parent::__construct($message, 0, $previous);
    }

    abstract public function httpStatus(): int;

    /**
     * @return array<string, scalar|null>
     */
    public function context(): array
    {
        return $this->context;
    }
}
