<?php

declare(strict_types=1);

namespace Shop\Order;

use Shop\Contracts\HasLabel;
use ValueError;

/**
 * Lifecycle of an order. Stored in orders.status (added by the
 * 2024_01_02_add_status_to_orders migration).
 */
enum OrderStatus: string implements HasLabel
{
    case Pending = 'pending';
    case Paid = 'paid';
    case Shipped = 'shipped';
    case Cancelled = 'cancelled';

    public const DEFAULT = self::Pending;

    /** Statuses in which the customer may still cancel. */
    public const CANCELLABLE = [self::Pending, self::Paid];

    public function label(): string
    {
        return match ($this) {
            self::Pending => 'Awaiting payment',
            self::Paid => 'Paid',
            self::Shipped => 'Shipped',
            self::Cancelled => 'Cancelled',
        };
    }

    /**
     * @return list<self>
     */
    public function allowedTransitions(): array
    {
        return match ($this) {
            self::Pending => [self::Paid, self::Cancelled],
            self::Paid => [self::Shipped, self::Cancelled],
            self::Shipped, self::Cancelled => [],
        };
    }

    public function canTransitionTo(self $next): bool
    {
        return in_array($next, $this->allowedTransitions(), true);
    }

    public function isFinal(): bool
    {
        return $this->allowedTransitions() === [];
    }

    public function isCancellable(): bool
    {
        return in_array($this, self::CANCELLABLE, true);
    }

    public static function fromLabel(string $label): self
    {
        foreach (self::cases() as $case) {
            if (strcasecmp($case->label(), $label) === 0) {
                return $case;
            }
        }

        throw new ValueError("Unknown order status label \"{$label}\".");
    }

    /**
     * @return array<string, string> value => label, for select boxes
     */
    public static function options(): array
    {
        return array_combine(
            array_map(fn (self $status): string => $status->value, self::cases()),
            array_map(fn (self $status): string => $status->label(), self::cases()),
        );
    }
}
