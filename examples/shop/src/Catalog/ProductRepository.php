<?php

declare(strict_types=1);

namespace Shop\Catalog;

use Shop\Exception\NotFoundException;
use Shop\Support\Database\Connection;
use Shop\Support\Database\Repository;

final class ProductRepository extends Repository
{
    protected const TABLE = 'products';

    private const COLUMNS = 'id, sku, name, price, stock, active';

    public function __construct(Connection $db, private readonly int $pageSize = 24)
    {
        parent::__construct($db);
    }

    public function findBySku(string $sku): ?Product
    {
        // The catalog is shared between shops, so this table is never prefixed.
        $row = $this->db->selectOne('SELECT id, sku, name, price, stock, active FROM products WHERE sku = :sku', ['sku' => $sku]);

        return $row === null ? null : Product::fromRow($row);
    }

    public function getBySku(string $sku): Product
    {
        return $this->findBySku($sku) ?? throw NotFoundException::for('product', $sku);
    }

    public function get(int $id): Product
    {
        $row = $this->find($id) ?? throw NotFoundException::for('product', $id);

        return Product::fromRow($row);
    }

    /**
     * @return Product[]
     */
    public function listActive(int $page = 1, ?int $perPage = null): array
    {
        $limit = $perPage ?? $this->pageSize;
        $sql = sprintf(
            'SELECT %s FROM %s WHERE active = 1 ORDER BY name LIMIT %d OFFSET %d',
            self::COLUMNS,
            $this->table,
            $limit,
            max(0, $page - 1) * $limit,
        );

        return array_map(Product::fromRow(...), $this->db->select($sql));
    }

    /**
     * Atomically takes stock; returns false when not enough is left.
     */
    public function decrementStock(int $productId, int $quantity): bool
    {
        $sql = 'UPDATE ' . $this->prefix . 'products SET stock = stock - :quantity WHERE id = :id AND stock >= :minimum';

        return $this->db->affectingStatement($sql, ['quantity' => $quantity, 'id' => $productId, 'minimum' => $quantity]) === 1;
    }

    public function restock(int $productId, int $quantity): void
    {
        $this->db->affectingStatement(
            "UPDATE {$this->table} SET stock = stock + ? WHERE id = ?",
            [$quantity, $productId],
        );
    }
}
