<?php

declare(strict_types=1);

namespace Shop\Support\Console;

use DateTimeInterface;
use LogicException;

/**
 * Registry of scheduled commands. Frequency helpers apply to the command
 * registered last, so calls read like $schedule->command('x')->daily().
 */
final class Schedule
{
    /** @var list<array{command: string, arguments: list<string>, expression: string}> */
    private array $events = [];

    /**
     * @param list<string> $arguments
     */
    public function command(string $command, array $arguments = []): static
    {
        $this->events[] = ['command' => $command, 'arguments' => $arguments, 'expression' => '* * * * *'];

        return $this;
    }

    public function cron(string $expression): static
    {
        $last = array_key_last($this->events) ?? throw new LogicException('Call command() before setting a frequency.');
        $this->events[$last]['expression'] = $expression;

        return $this;
    }

    public function daily(): static
    {
        return $this->cron('0 0 * * *');
    }

    public function hourly(): static
    {
        return $this->cron('0 * * * *');
    }

    public function dailyAt(string $time): static
    {
        [$hour, $minute] = array_map(intval(...), explode(':', $time, 2));

        return $this->cron("{$minute} {$hour} * * *");
    }

    /**
     * @return list<array{0: string, 1: list<string>}> command name and arguments
     */
    public function dueEvents(DateTimeInterface $now): array
    {
        $current = array_map(intval(...), explode(' ', $now->format('i G j n w')));
        $due = array_filter($this->events, static function (array $event) use ($current): bool {
            foreach (explode(' ', $event['expression']) as $i => $field) {
                if ($field !== '*' && (int) $field !== $current[$i]) {
                    return false;
                }
            }

            return true;
        });

        return array_values(array_map(static fn (array $e): array => [$e['command'], $e['arguments']], $due));
    }
}
