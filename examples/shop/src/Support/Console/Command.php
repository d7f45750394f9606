<?php

declare(strict_types=1);

namespace Shop\Support\Console;

/**
 * Base class for console commands. The signature holds the command name and
 * its options with defaults, e.g. 'shop:prune-carts {--days=30}'.
 */
abstract class Command
{
    protected string $signature = '';

    protected string $description = '';

    /** @var array<string, string|bool|null> */
    private array $options = [];

    abstract public function handle(): int;

    public function name(): string
    {
        return strtok($this->signature, ' ') ?: static::class;
    }

    public function description(): string
    {
        return $this->description;
    }

    /**
     * @return array<string, string|null> option defaults parsed from the signature
     */
    public function defaults(): array
    {
        preg_match_all('/\{--([\w-]+)(?:=([^}]*))?\}/', $this->signature, $matches, PREG_SET_ORDER);

        return array_column(
            array_map(static fn (array $m): array => [$m[1], ($m[2] ?? '') === '' ? null : $m[2]], $matches),
            1,
            0,
        );
    }

    /**
     * @param list<string> $arguments raw CLI arguments after the command name
     */
    public function run(array $arguments): int
    {
        $this->options = $this->defaults();
        foreach ($arguments as $argument) {
            if (preg_match('/^--([\w-]+)(?:=(.*))?$/', $argument, $m)) {
                $this->options[$m[1]] = $m[2] ?? true;
            }
        }

        return $this->handle();
    }

    protected function option(string $name): string|bool|null
    {
        return $this->options[$name] ?? null;
    }

    protected function info(string $line): void
    {
        fwrite(STDOUT, $line . PHP_EOL);
    }

    protected function error(string $line): void
    {
        fwrite(STDERR, $line . PHP_EOL);
    }
}
