#!/usr/bin/env php
<?php

declare(strict_types=1);

use Shop\Console\PruneCartsCommand;
use Shop\Support\Console\Command;
use Shop\Support\Console\Schedule;

$app = require __DIR__ . '/../bootstrap/app.php';
$resolve = $app['resolve'];

/** @var array<string, Closure(): Command> $commands */
$commands = [
    'shop:prune-carts' => static fn (): Command => $resolve(PruneCartsCommand::class),
];

// Scheduled tasks; the system crontab runs `schedule:run` every minute.
$schedule = new Schedule();
$schedule->command('shop:prune-carts')->daily();
$schedule->command('shop:prune-carts', ['--days=7'])->dailyAt('04:15');

$name = $argv[1] ?? 'list';

if ($name === 'list') {
    foreach ($commands as $command => $factory) {
        printf("%-24s %s\n", $command, $factory()->description());
    }
    exit(0);
}

if ($name === 'schedule:run') {
    $status = 0;
    foreach ($schedule->dueEvents(new DateTimeImmutable()) as $event) {
        [$command, $arguments] = $event;
        $status |= ($commands[$command])()->run($arguments);
    }
    exit($status);
}

$factory = $commands[$name] ?? null;
if ($factory === null) {
    fwrite(STDERR, "Unknown command: {$name}" . PHP_EOL);
    exit(1);
}

exit($factory()->run(array_slice($argv, 2)));
