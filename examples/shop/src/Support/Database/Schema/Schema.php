<?php

declare(strict_types=1);

namespace Shop\Support\Database\Schema;

use Closure;
use LogicException;
use Shop\Support\Database\Connection;

/**
 * Minimal schema builder used by the PHP migrations in database/migrations/.
 */
final class Schema
{
    private static ?Connection $connection = null;

    public static function setConnection(Connection $connection): void
    {
        self::$connection = $connection;
    }

    /**
     * @param Closure(Blueprint): void $callback
     */
    public static function create(string $table, Closure $callback): void
    {
        $blueprint = new Blueprint(self::connection()->table($table));
        $callback($blueprint);

        self::connection()->statement($blueprint->toSql());
    }

    public static function dropIfExists(string $table): void
    {
        self::connection()->statement('DROP TABLE IF EXISTS ' . self::connection()->table($table));
    }

    private static function connection(): Connection
    {
        return self::$connection ?? throw new LogicException('Schema::setConnection() has not been called.');
    }
}
