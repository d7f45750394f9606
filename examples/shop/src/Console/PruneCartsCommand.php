<?php

declare(strict_types=1);

namespace Shop\Console;

use Shop\Cart\CartRepository;
use Shop\Support\Console\Command;

/**
 * Removes anonymous carts nobody has touched for a while. Carts that belong
 * to a signed-in customer are kept regardless of age.
 */
final class PruneCartsCommand extends Command
{
    protected string $signature = 'shop:prune-carts {--days=30}';

    protected string $description = 'Delete anonymous carts older than the given number of days';

    public function __construct(private readonly CartRepository $carts)
    {
    }

    public function handle(): int
    {
        $days = filter_var($this->option('days'), FILTER_VALIDATE_INT, ['options' => ['min_range' => 1]]);
        if ($days === false) {
            $this->error('--days must be a positive integer.');

            return 1;
        }

        $deleted = $this->carts->pruneOlderThan($days);
        $this->info(sprintf('Pruned %d cart(s) older than %d day(s).', $deleted, $days));

        return 0;
    }
}
