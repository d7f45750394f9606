<?php

declare(strict_types=1);

namespace Shop\Order;

use Shop\Exception\NotFoundException;
use Shop\Support\Database\Repository;

final class OrderRepository extends Repository
{
    protected const TABLE = 'orders';

    public function insert(Order $order): Order
    {
        $id = $this->db->insert(
            'INSERT INTO ' . $this->prefix . 'orders (customer_id, reference, total, currency, status, coupon_code, created_at) '
            . 'VALUES (:customer_id, :reference, :total, :currency, :status, :coupon_code, CURRENT_TIMESTAMP)',
            [
                'customer_id' => $order->customerId,
                'reference' => $order->reference,
                'total' => $order->total()->cents,
                'currency' => $order->total()->currency,
                'status' => $order->status()->value,
                'coupon_code' => $order->couponCode,
            ],
        );
        $order->persisted($id);

        foreach ($order->items() as $item) {
            $this->db->insert(
                "INSERT INTO {$this->prefix}order_items (order_id, product_id, sku, quantity, unit_price) VALUES (?, ?, ?, ?, ?)",
                [$id, ...array_values($item->toRow())],
            );
        }

        return $order;
    }

    public function updateStatus(Order $order): void
    {
        $this->db->affectingStatement(
            'UPDATE ' . $this->prefix . 'orders SET status = :status, payment_reference = :payment_reference, updated_at = CURRENT_TIMESTAMP WHERE id = :id',
            ['status' => $order->status()->value, 'payment_reference' => $order->paymentReference(), 'id' => $order->id()],
        );
    }

    public function findByReference(string $reference): ?Order
    {
        $sql = <<<SQL
            SELECT o.id, o.customer_id, o.reference, o.status, o.payment_reference, o.coupon_code, o.created_at,
                   i.product_id, i.sku, i.quantity, i.unit_price
            FROM {$this->table} o
            LEFT JOIN {$this->prefix}order_items i ON i.order_id = o.id
            WHERE o.reference = :reference
            ORDER BY i.id
            SQL;

        $rows = $this->db->select($sql, ['reference' => $reference]);
        if ($rows === []) {
            return null;
        }

        return Order::fromRow($rows[0], array_values(array_filter($rows, static fn (array $row): bool => $row['product_id'] !== null)));
    }

    public function getByReference(string $reference): Order
    {
        return $this->findByReference($reference) ?? throw NotFoundException::for('order', $reference);
    }

    /**
     * @return list<array{id: int, total: int}>
     */
    public function totalsForCustomer(int $customerId): array
    {
        $rows = $this->db->select("SELECT id, total FROM {$this->table} WHERE customer_id = ? ORDER BY id DESC", [$customerId]);

        return array_map(static fn (array $row): array => ['id' => (int) $row['id'], 'total' => (int) $row['total']], $rows);
    }

    /**
     * @return list<string> references of the customer's orders, newest first
     */
    public function referencesForCustomer(int $customerId, int $limit = 20): array
    {
        $sql = sprintf("SELECT reference FROM %s WHERE customer_id = %d ORDER BY created_at DESC LIMIT %d", $this->table, $customerId, $limit);

        return array_column($this->db->select($sql), 'reference');
    }

    /**
     * Returns the discount of a valid coupon, or null when the code is unknown or expired.
     */
    public function couponPercent(string $code): ?int
    {
        $row = $this->db->selectOne(
            'SELECT percent_off FROM ' . $this->prefix . 'coupons WHERE code = :code AND (expires_at IS NULL OR expires_at > CURRENT_TIMESTAMP)',
            ['code' => strtoupper($code)],
        );

        return $row === null ? null : (int) $row['percent_off'];
    }
}
