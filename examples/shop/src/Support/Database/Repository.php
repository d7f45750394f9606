<?php

declare(strict_types=1);

namespace Shop\Support\Database;

/**
 * Base class for table gateways. Subclasses set TABLE; the prefixed name is
 * available as $this->table and the raw prefix as $this->prefix.
 */
abstract class Repository
{
    protected const TABLE = '';

    protected readonly string $prefix;

    protected readonly string $table;

    public function __construct(protected readonly Connection $db)
    {
        $this->prefix = $db->prefix;
        $this->table = $this->prefix . static::TABLE;
    }

    /**
     * @return static
     */
    public static function on(Connection $db): static
    {
        return new static($db);
    }

    /**
     * @return array<string, mixed>|null
     */
    public function find(int $id): ?array
    {
        return $this->db->selectOne("SELECT * FROM {$this->table} WHERE id = ?", [$id]);
    }

    public function delete(int $id): bool
    {
        return $this->db->affectingStatement('DELETE FROM ' . $this->table . ' WHERE id = :id', ['id' => $id]) > 0;
    }

    public function count(): int
    {
        return (int) ($this->db->selectOne(sprintf('SELECT COUNT(*) AS aggregate FROM %s', $this->table))['aggregate'] ?? 0);
    }
}
