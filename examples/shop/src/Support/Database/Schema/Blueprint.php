<?php

declare(strict_types=1);

namespace Shop\Support\Database\Schema;

use LogicException;

/**
 * Collects column definitions for Schema::create(). Column modifiers such as
 * nullable() and unique() apply to the most recently added column.
 */
final class Blueprint
{
    /** @var list<array{name: string, type: string, nullable: bool, default: string|int|null, unique: bool}> */
    private array $columns = [];

    /** @var list<string> */
    private array $keys = [];

    public function __construct(public readonly string $table)
    {
    }

    public function id(string $name = 'id'): static
    {
        $this->keys[] = "PRIMARY KEY ({$name})";

        return $this->addColumn($name, 'BIGINT UNSIGNED NOT NULL AUTO_INCREMENT');
    }

    public function string(string $name, int $length = 255): static
    {
        return $this->addColumn($name, "VARCHAR({$length})");
    }

    public function integer(string $name): static
    {
        return $this->addColumn($name, 'INT');
    }

    public function timestamp(string $name): static
    {
        return $this->addColumn($name, 'DATETIME');
    }

    public function timestamps(): static
    {
        $this->timestamp('created_at')->nullable();

        return $this->timestamp('updated_at')->nullable();
    }

    public function nullable(): static
    {
        return $this->modifyLast(static fn (array $column): array => ['nullable' => true] + $column);
    }

    public function unique(): static
    {
        return $this->modifyLast(static fn (array $column): array => ['unique' => true] + $column);
    }

    public function default(string|int $value): static
    {
        return $this->modifyLast(static fn (array $column): array => ['default' => $value] + $column);
    }

    public function toSql(): string
    {
        $lines = [];
        foreach ($this->columns as $column) {
            $line = "{$column['name']} {$column['type']}";
            if (!str_contains($column['type'], 'NOT NULL')) {
                $line .= $column['nullable'] ? ' NULL' : ' NOT NULL';
            }
            if ($column['default'] !== null) {
                $line .= ' DEFAULT ' . (is_int($column['default']) ? $column['default'] : "'{$column['default']}'");
            }
            $lines[] = $line;
            if ($column['unique']) {
                $this->keys[] = sprintf('UNIQUE KEY %s_%s_unique (%s)', $this->table, $column['name'], $column['name']);
            }
        }

        return sprintf("CREATE TABLE %s (\n    %s\n)", $this->table, implode(",\n    ", [...$lines, ...$this->keys]));
    }

    private function addColumn(string $name, string $type): static
    {
        $this->columns[] = ['name' => $name, 'type' => $type, 'nullable' => false, 'default' => null, 'unique' => false];

        return $this;
    }

    /**
     * @param callable(array<string, mixed>): array<string, mixed> $change
     */
    private function modifyLast(callable $change): static
    {
        $last = array_key_last($this->columns) ?? throw new LogicException('No column to modify.');
        $this->columns[$last] = $change($this->columns[$last]) + $this->columns[$last];

        return $this;
    }
}
