<?php

declare(strict_types=1);

namespace Shop\Tests\Money;

use InvalidArgumentException;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use Shop\Money\Money;

final class MoneyTest extends TestCase
{
    public function testAddsAmountsOfTheSameCurrency(): void
    {
        $sum = Money::of(1_250)->add(Money::of(99));

        self::assertSame(1_349, $sum->cents);
        self::assertSame('€13.49', $sum->format());
    }

    public function testRejectsMixedCurrencies(): void
    {
        $this->expectException(InvalidArgumentException::class);

        Money::of(100, 'EUR')->add(Money::of(100, 'USD'));
    }

    /**
     * @return iterable<string, array{int, int, int}>
     */
    public static function percentages(): iterable
    {
        yield 'ten percent' => [10_000, 10, 1_000];
        yield 'rounds half up' => [999, 15, 150];
        yield 'nothing' => [500, 0, 0];
    }

    #[DataProvider('percentages')]
    public function testPercentage(int $cents, int $percent, int $expected): void
    {
        self::assertSame($expected, Money::of($cents)->percentage($percent)->cents);
    }

    public function testSubtractNeverGoesNegative(): void
    {
        self::assertTrue(Money::of(100)->subtract(Money::of(250))->isZero());
    }
}
