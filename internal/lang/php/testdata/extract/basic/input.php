<?php
declare(strict_types=1);

namespace App\Shop;

use App\Contracts\Repository;

/**
 * A shopping cart.
 */
#[Entity]
final class Cart implements \Countable
{
    // the items
    private array $items = [];
    public const MAX = 10, MIN = 1;

    public function __construct(
        private readonly Repository $repo, // injected
        protected ?int $limit = null,
    ) {
    }

    /** Adds an item. */
    #[Route('/add')]
    public static function add(string $sku, int $qty = 1): static
    {
        return new static();
    }

    abstract protected function total(): int;

    public function count(): int { return \count($this->items); }
}

interface Priced
{
    public function price(): float;
}

trait Discounts
{
    public $a, $b;
}

enum Status: string implements Priced
{
    case Open = 'open';
    case Closed = 'closed';

    public function price(): float { return 0.0; }
}

function helper(array &$xs, ...$rest): void
{
    if (!function_exists('inner')) {
        function inner() {}
    }
}

const VERSION = '1.0';
define('APP_ROOT', __DIR__);
