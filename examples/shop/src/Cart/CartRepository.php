<?php

declare(strict_types=1);

namespace Shop\Cart;

use DateTimeImmutable;
use Shop\Money\Money;
use Shop\Support\Database\Connection;
use Shop\Support\Database\Repository;

final class CartRepository extends Repository
{
    protected const TABLE = 'carts';

    public function findByToken(string $token): ?Cart
    {
        $cart = $this->db->selectOne(
            'SELECT id, token, customer_id FROM ' . $this->table . ' WHERE token = :token',
            ['token' => $token],
        );
        if ($cart === null) {
            return null;
        }

        $items = $this->prefix . 'cart_items';
        $products = $this->prefix . 'products';
        $sql = <<<SQL
            SELECT ci.product_id, ci.quantity, p.sku, p.name, p.price
            FROM {$items} ci
            INNER JOIN {$products} p ON p.id = ci.product_id
            WHERE ci.cart_id = :cart_id
            ORDER BY p.name
            SQL;

        $result = new Cart((int) $cart['id'], $cart['token'], isset($cart['customer_id']) ? (int) $cart['customer_id'] : null);
        foreach ($this->db->select($sql, ['cart_id' => (int) $cart['id']]) as $row) {
            $result->restore(new CartItem(
                (int) $row['product_id'],
                $row['sku'],
                $row['name'],
                Money::of((int) $row['price']),
                (int) $row['quantity'],
            ));
        }

        return $result;
    }

    /**
     * Saves the cart header and replaces all of its lines.
     */
    public function save(Cart $cart): void
    {
        $this->db->transaction(function (Connection $db) use ($cart): void {
            if ($cart->id() === null) {
                $cart->persisted($db->insert(
                    "INSERT INTO {$this->table} (token, customer_id, updated_at) VALUES (?, ?, CURRENT_TIMESTAMP)",
                    [$cart->token, $cart->customerId()],
                ));
            } else {
                $db->affectingStatement(
                    "UPDATE {$this->table} SET customer_id = ?, updated_at = CURRENT_TIMESTAMP WHERE id = ?",
                    [$cart->customerId(), $cart->id()],
                );
            }

            $db->affectingStatement('DELETE FROM ' . $this->prefix . 'cart_items WHERE cart_id = ?', [$cart->id()]);
            foreach ($cart as $item) {
                $db->insert(
                    sprintf('INSERT INTO %scart_items (cart_id, product_id, quantity) VALUES (%d, %d, %d)', $this->prefix, $cart->id(), $item->productId, $item->quantity()),
                );
            }
        });
    }

    /**
     * Deletes anonymous carts untouched for more than $days days.
     * Cart lines go with them through ON DELETE CASCADE.
     */
    public function pruneOlderThan(int $days): int
    {
        $cutoff = (new DateTimeImmutable())->modify("-{$days} days")->format('Y-m-d H:i:s');

        return $this->db->affectingStatement(
            "DELETE FROM {$this->table} WHERE customer_id IS NULL AND updated_at < :cutoff",
            ['cutoff' => $cutoff],
        );
    }
}
