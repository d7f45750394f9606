<?php

declare(strict_types=1);

namespace Shop\Support\Database;

use Closure;
use PDO;
use PDOStatement;
use Throwable;

/**
 * Thin wrapper around PDO. It owns the table prefix and gives repositories a
 * small, predictable API; anything else is forwarded to PDO through __call.
 *
 * @method bool beginTransaction()
 * @method bool commit()
 * @method bool rollBack()
 * @method bool inTransaction()
 * @method string|false lastInsertId(?string $name = null)
 */
final class Connection
{
    public function __construct(
        private readonly PDO $pdo,
        public readonly string $prefix = '',
    ) {
        $this->pdo->setAttribute(PDO::ATTR_ERRMODE, PDO::ERRMODE_EXCEPTION);
        $this->pdo->setAttribute(PDO::ATTR_DEFAULT_FETCH_MODE, PDO::FETCH_ASSOC);
    }

    /**
     * @param array{dsn: string, db_user?: string|null, db_password?: string|false|null, db_prefix?: string} $config
     */
    public static function fromConfig(array $config): self
    {
        $password = $config['db_password'] ?? null;
        $pdo = new PDO($config['dsn'], $config['db_user'] ?? null, is_string($password) ? $password : null);

        return new self($pdo, $config['db_prefix'] ?? '');
    }

    /**
     * @param array<int|string, scalar|null> $bindings
     * @return list<array<string, mixed>>
     */
    public function select(string $sql, array $bindings = []): array
    {
        return $this->run($sql, $bindings)->fetchAll();
    }

    /**
     * @param array<int|string, scalar|null> $bindings
     * @return array<string, mixed>|null
     */
    public function selectOne(string $sql, array $bindings = []): ?array
    {
        $row = $this->run($sql, $bindings)->fetch();

        return $row === false ? null : $row;
    }

    /**
     * Runs an INSERT and returns the generated id.
     *
     * @param array<int|string, scalar|null> $bindings
     */
    public function insert(string $sql, array $bindings = []): int
    {
        $this->run($sql, $bindings);

        return (int) $this->pdo->lastInsertId();
    }

    /**
     * Runs an UPDATE or DELETE and returns the number of affected rows.
     *
     * @param array<int|string, scalar|null> $bindings
     */
    public function affectingStatement(string $sql, array $bindings = []): int
    {
        return $this->run($sql, $bindings)->rowCount();
    }

    public function statement(string $sql): bool
    {
        return $this->pdo->exec($sql) !== false;
    }

    /**
     * @template T
     * @param Closure(self): T $callback
     * @return T
     */
    public function transaction(Closure $callback): mixed
    {
        $this->pdo->beginTransaction();
        try {
            $result = $callback($this);
            $this->pdo->commit();

            return $result;
        } catch (Throwable $e) {
            $this->pdo->rollBack();
            throw $e;
        }
    }

    public function table(string $name): string
    {
        return $this->prefix . $name;
    }

    /**
     * @param array<int, mixed> $arguments
     */
    public function __call(string $method, array $arguments): mixed
    {
        return $this->pdo->{$method}(...$arguments);
    }

    /**
     * @param array<int|string, scalar|null> $bindings
     */
    private function run(string $sql, array $bindings): PDOStatement
    {
        $statement = $this->pdo->prepare($sql);
        foreach ($bindings as $key => $value) {
            $statement->bindValue(
                is_int($key) ? $key + 1 : ':' . ltrim($key, ':'),
                $value,
                match (true) {
                    is_int($value) => PDO::PARAM_INT,
                    is_bool($value) => PDO::PARAM_BOOL,
                    $value === null => PDO::PARAM_NULL,
                    default => PDO::PARAM_STR,
                },
            );
        }
        $statement->execute();

        return $statement;
    }
}
