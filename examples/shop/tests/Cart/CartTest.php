<?php

declare(strict_types=1);

namespace Shop\Tests\Cart;

use PHPUnit\Framework\TestCase;
use Shop\Cart\Cart;
use Shop\Catalog\OutOfStockException;
use Shop\Catalog\Product;
use Shop\Money\Money;

final class CartTest extends TestCase
{
    private Cart $cart;

    protected function setUp(): void
    {
        $this->cart = Cart::fresh();
    }

    private function product(int $id, int $price, int $stock = 10): Product
    {
        return new Product($id, 'SKU-' . $id, 'Product ' . $id, Money::of($price), $stock);
    }

    public function testMergesLinesForTheSameProduct(): void
    {
        $mug = $this->product(1, 1_200);

        $this->cart->add($mug)->add($mug, 2);

        self::assertCount(1, $this->cart);
        self::assertSame(3_600, $this->cart->subtotal()->cents);
    }

    public function testRefusesMoreThanIsInStock(): void
    {
        $this->expectException(OutOfStockException::class);

        $this->cart->add($this->product(2, 500, stock: 1), 2);
    }

    public function testRemoveDropsTheLine(): void
    {
        $this->cart->add($this->product(3, 100))->remove(3);

        self::assertTrue($this->cart->isEmpty());
        self::assertEquals(['token' => $this->cart->token, 'items' => [], 'subtotal' => Money::zero()], $this->cart->toArray());
    }
}
