<?php

declare(strict_types=1);

namespace Shop\Money;

use InvalidArgumentException;
use JsonSerializable;
use Stringable;

/**
 * An amount of money in minor units (cents). Immutable; every operation
 * returns a new instance.
 */
final readonly class Money implements JsonSerializable, Stringable
{
    public const DEFAULT_CURRENCY = 'EUR';

    private const SYMBOLS = ['EUR' => '€', 'USD' => '$', 'GBP' => '£'];

    private function __construct(
        public int $cents,
        public string $currency,
    ) {
    }

    public static function of(int $cents, string $currency = self::DEFAULT_CURRENCY): self
    {
        if ($cents < 0) {
            throw new InvalidArgumentException("Money cannot be negative, got {$cents}.");
        }

        return new self($cents, strtoupper($currency));
    }

    public static function zero(string $currency = self::DEFAULT_CURRENCY): self
    {
        return self::of(0, $currency);
    }

    public static function fromDecimal(string|int|float $amount, string $currency = self::DEFAULT_CURRENCY): self
    {
        return self::of((int) round((float) $amount * 100), $currency);
    }

    public function add(Money $other): self
    {
        $this->assertSameCurrency($other);

        return new self($this->cents + $other->cents, $this->currency);
    }

    public function subtract(Money $other): self
    {
        $this->assertSameCurrency($other);

        return self::of(max(0, $this->cents - $other->cents), $this->currency);
    }

    public function multiply(int $factor): self
    {
        return self::of($this->cents * $factor, $this->currency);
    }

    /**
     * Returns the given percentage of this amount, rounded half up.
     */
    public function percentage(int $percent): self
    {
        return self::of(intdiv($this->cents * $percent + 50, 100), $this->currency);
    }

    public function equals(Money $other): bool
    {
        return $this->currency === $other->currency && $this->cents === $other->cents;
    }

    public function isZero(): bool
    {
        return $this->cents === 0;
    }

    public function format(): string
    {
        $symbol = self::SYMBOLS[$this->currency] ?? $this->currency . ' ';

        return $symbol . number_format($this->cents / 100, 2, '.', ',');
    }

    public function __toString(): string
    {
        return $this->format();
    }

    /**
     * @return array{cents: int, currency: string, formatted: string}
     */
    public function jsonSerialize(): array
    {
        return ['cents' => $this->cents, 'currency' => $this->currency, 'formatted' => $this->format()];
    }

    private function assertSameCurrency(Money $other): void
    {
        if ($other->currency !== $this->currency) {
            throw new InvalidArgumentException("Currency mismatch: {$this->currency} vs {$other->currency}.");
        }
    }
}
